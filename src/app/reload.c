/*
 * reload.c -- build the next generation on the loader thread, publish
 * it from the main loop (see reload.h).
 *
 *   change/SIGHUP -> reload_request -> start ---(job, cond)---> loader:
 *   built <---(finished, async)--- build()
 *   built: publish, then start again if asked for meanwhile
 *
 * While a build runs, the loader reads r->set, r->sites and the server's
 * boot configuration, all immutable, and writes only the job fields
 * (newset, newsites, nnewsites, build_ns, err); the main loop touches
 * nothing of that until built() runs, and swaps r->set and r->sites only
 * there.
 * The flags job, finished and quit change under mtx, which also orders
 * the job fields between the two threads.
 *
 * The loader also frees the generations the workers let go of (reap():
 * a worker's last gen_unref() only queues it), so a worker never spends
 * milliseconds freeing 10,000 posts between two requests.  Once the
 * loader has quit, reap() frees in place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/reload.h"
#include "app/watch.h"
#include "content/archive.h"
#include "content/links.h"
#include "core/config.h"
#include "core/log.h"
#include "core/util.h"
#include "net/generation.h"
#include "net/server.h"
#include "net/ticket.h"
#include "net/tlsconn.h"
#include "site/site.h"

static void	start(struct reload *);

/* Any thread: a generation nobody holds any more. */
static void
reap(struct gen *g, void *arg)
{
	struct reload	*r = arg;

	uv_mutex_lock(&r->mtx);
	if (r->quit) {
		uv_mutex_unlock(&r->mtx);
		gen_free(g);
		return;
	}
	g->next = r->graves;
	r->graves = g;
	uv_cond_signal(&r->cond);
	uv_mutex_unlock(&r->mtx);
}

/* Free a list of generations (the loader, or the last one out). */
static void
bury(struct gen *g)
{
	struct gen	*next;

	for (; g != NULL; g = next) {
		next = g->next;
		gen_free(g);
	}
}

/* A new generation of r's settings and sites, reaped by the loader. */
static struct gen *
new_gen(struct reload *r)
{
	struct gen	*g;

	g = gen_new(r->set, r->sites);
	g->reap = reap;
	g->reap_arg = r;
	return g;
}

static int
same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

static void
restart_needed(const struct config *c, const char *key)
{
	log_warnx("%s: \"%s\" changed: that needs a restart; the running "
	    "value stays until then", c->path, key);
}

/*
 * Keys the listeners or the process were set up with cannot change
 * under them: say so, and keep the running values in c, so that what
 * the new configuration writes into links (ports) is what is served.
 */
static void
keep_restart_only(struct config *c, const struct config *run)
{
	size_t	 i;
	int	 same = c->nbind == run->nbind;

	for (i = 0; same && i < c->nbind; i++)
		same = strcmp(c->bind[i], run->bind[i]) == 0;
	if (!same) {
		restart_needed(c, "bind");
		for (i = 0; i < c->nbind; i++)
			free(c->bind[i]);
		free(c->bind);
		c->nbind = run->nbind;
		c->bind = xreallocarray(NULL, c->nbind ? c->nbind : 1,
		    sizeof(*c->bind));
		for (i = 0; i < c->nbind; i++)
			c->bind[i] = xstrdup(run->bind[i]);
	}
	if (c->gemini_port != run->gemini_port) {
		restart_needed(c, "gemini_port");
		c->gemini_port = run->gemini_port;
	}
	if (c->gopher_port != run->gopher_port) {
		restart_needed(c, "gopher_port");
		c->gopher_port = run->gopher_port;
	}
	if (c->workers != run->workers) {
		restart_needed(c, "workers");
		c->workers = run->workers;
	}
	if (!same_str(c->user, run->user)) {
		restart_needed(c, "user");
		free(c->user);
		c->user = xstrdup_null(run->user);
	}
	if (!same_str(c->chroot_dir, run->chroot_dir)) {
		restart_needed(c, "chroot");
		free(c->chroot_dir);
		c->chroot_dir = xstrdup_null(run->chroot_dir);
	}
}

struct tls_server *
reload_certs(const struct config *c, char *err, size_t errlen)
{
	struct tls_server	*tls;
	struct config		 v;
	size_t			 i;

	if ((tls = tls_server_new(c->cert_dir, c->hostname, err, errlen)) ==
	    NULL)
		return NULL;
	for (i = 1; i < config_nhosts(c); i++) {
		config_host_view(c, i, &v);
		if (tls_server_add(tls, v.cert_dir, v.hostname, err, errlen) ==
		    -1) {
			tls_server_free(tls);
			return NULL;
		}
	}
	return tls;
}

/* The configuration and certificates again; NULL with r->err set. */
static struct settings *
load_settings(struct reload *r)
{
	const struct config	*run = r->srv->cfg;
	struct tls_server	*tls = NULL;
	struct config		 c;

	if (r->set->cfg.path == NULL) {
		snprintf(r->err, sizeof(r->err), "no configuration file to "
		    "read again");
		return NULL;
	}
	if (config_load(&c, r->set->cfg.path, r->err, sizeof(r->err)) == -1)
		return NULL;
	keep_restart_only(&c, run);
	/* Gemini listeners need a context; certificates may have changed. */
	if (r->srv->tls != NULL && (tls = reload_certs(&c, r->err,
	    sizeof(r->err))) == NULL) {
		config_free(&c);
		return NULL;
	}
	/* SIGHUP reads the ticket key file again (NULL: our own keys). */
	if (ticket_use_file(c.ticket_keys, r->err, sizeof(r->err)) == -1) {
		tls_server_free(tls);
		config_free(&c);
		return NULL;
	}
	/* Only once nothing can refuse the new configuration any more. */
	ticket_set_rotation(c.ticket_rotation_ms); /* from the next key on */
	return settings_new(&c, tls);
}

/* The site of old serving host h (name and capsule), or NULL. */
static struct site *
served(const struct settings *oldset, struct site *const *old,
    const struct config *h)
{
	size_t	 i;

	if (old == NULL)
		return NULL;
	for (i = 0; i < oldset->nhosts; i++)
		if (strcmp(oldset->hosts[i].hostname, h->hostname) == 0 &&
		    strcmp(oldset->hosts[i].capsule_dir, h->capsule_dir) == 0)
			return old[i];
	return NULL;
}

/*
 * reload_site(), with w, the watch of h's capsule (or NULL), asked which
 * files are being written: those keep the version prev has.
 */
static struct site *
load_site(const struct config *h, const struct site *prev, struct watch *w)
{
	struct archive	*a;
	struct site	*s;

	if ((a = archive_reload_held(h, prev != NULL ? prev->a : NULL,
	    w != NULL ? watch_held : NULL, w)) == NULL)
		return NULL;
	links_check(a);
	log_debug("%s: %zu posts, %zu series, %zu tags, %zu pages; "
	    "%u warnings; %u files read, %u unchanged, %u being written",
	    a->dir, a->nposts, a->nseries, a->ntags, a->ndocs, a->nwarnings,
	    a->nread, a->nreused, a->nheld);
	s = site_new(a, h->cache_max_bytes);
	archive_unref(a);
	return s;
}

struct site *
reload_site(const struct config *h, const struct site *prev)
{
	return load_site(h, prev, NULL);
}

void
reload_sites_free(struct site **sites, size_t n)
{
	size_t	 i;

	if (sites == NULL)
		return;
	for (i = 0; i < n; i++)
		site_unref(sites[i]);
	free(sites);
}

/*
 * The watch of capsule dir, for the archive to ask which files are
 * being written, or NULL (r NULL: at start-up, no watch yet).  The
 * loader reads r->watch: the main loop changes it only while no build
 * runs (built(), reload_stop()).
 */
static struct watch *
watch_of(const struct reload *r, const char *dir)
{
	size_t	 i;

	for (i = 0; r != NULL && i < r->nwatch; i++)
		if (strcmp(watch_dir(r->watch[i]), dir) == 0)
			return r->watch[i];
	return NULL;
}

/* reload_sites(), each capsule's watch (r's, or none) asked. */
static struct site **
load_sites(const struct reload *r, const struct settings *set,
    const struct settings *oldset, struct site *const *old, char *err,
    size_t errlen)
{
	const struct config	*h;
	const struct archive	*a;
	struct site		**sites, *prev;
	size_t			 i, n = set->nhosts;

	sites = xcalloc(n, sizeof(*sites));
	for (i = 0; i < n; i++) {
		h = &set->hosts[i];
		prev = served(oldset, old, h);
		if ((sites[i] = load_site(h, prev, watch_of(r,
		    h->capsule_dir))) != NULL) {
			/* A reload is logged once published: built(). */
			a = sites[i]->a;
			if (old == NULL)
				log_info("capsule %s%s%s: %zu posts, %zu "
				    "series, %zu tags, %zu pages, %u warnings",
				    a->dir, n > 1 ? " for " : "", n > 1 ?
				    h->hostname : "", a->nposts, a->nseries,
				    a->ntags, a->ndocs, a->nwarnings);
			continue;
		}
		if (prev == NULL) {
			snprintf(err, errlen, "%s: the capsule %s cannot be "
			    "read", h->hostname, h->capsule_dir);
			reload_sites_free(sites, i);
			return NULL;
		}
		log_warnx("reload: %s: content not loaded; the old one stays",
		    h->hostname);
		site_ref(prev);
		sites[i] = prev;
	}
	return sites;
}

struct site **
reload_sites(const struct settings *set, const struct settings *oldset,
    struct site *const *old, char *err, size_t errlen)
{
	return load_sites(NULL, set, oldset, old, err, errlen);
}

/* A site for each of set's hosts into r->newsites; -1 with r->err set. */
static int
build_sites(struct reload *r, const struct settings *set)
{
	r->newsites = load_sites(r, set, r->set, r->sites, r->err,
	    sizeof(r->err));
	r->nnewsites = r->newsites != NULL ? set->nhosts : 0;
	return r->newsites != NULL ? 0 : -1;
}

/* On the loader thread. */
static void
build(struct reload *r)
{
	uint64_t	 t0 = uv_hrtime();

	r->err[0] = '\0';
	r->newset = r->job_config ? load_settings(r) : NULL;
	if (r->newset != NULL && build_sites(r, r->newset) == -1) {
		settings_unref(r->newset);
		r->newset = NULL;
	}
	if (r->newset == NULL && build_sites(r, r->set) == -1) {
		/* Cannot happen: every host has a site to keep. */
		r->newsites = NULL;
		r->nnewsites = 0;
	}
	r->build_ns = uv_hrtime() - t0;
}

static void
on_change(void *arg)
{
	reload_request(arg, 0);
}

/* A fleet's ticket key file, changed by the operator: read it again. */
static void
on_ticket_check(uv_timer_t *t)
{
	(void)ticket_refresh();		/* logs what it did */
}

/* One watch per capsule directory (hosts may share one). */
static void
start_watch(struct reload *r)
{
	const struct settings	*set = r->set;
	const struct config	*c = &set->cfg;
	struct watch		*w;
	size_t			 i, j;

	r->watch = NULL;
	r->nwatch = 0;
	if (!c->watch)
		return;
	r->watch = xcalloc(set->nhosts, sizeof(*r->watch));
	for (i = 0; i < set->nhosts; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(set->hosts[j].capsule_dir,
			    set->hosts[i].capsule_dir) == 0)
				break;
		if (j < i)
			continue;
		if ((w = watch_start(r->loop, set->hosts[i].capsule_dir,
		    c->watch_debounce_ms, on_change, r)) != NULL)
			r->watch[r->nwatch++] = w;
	}
}

static void
stop_watch(struct reload *r)
{
	size_t	 i;

	for (i = 0; i < r->nwatch; i++)
		watch_stop(r->watch[i]);
	free(r->watch);
	r->watch = NULL;
	r->nwatch = 0;
}

/* 1 when set and old serve the same capsule directories, in order. */
static int
same_capsules(const struct settings *set, const struct settings *old)
{
	size_t	 i;

	if (set->nhosts != old->nhosts)
		return 0;
	for (i = 0; i < set->nhosts; i++)
		if (strcmp(set->hosts[i].capsule_dir,
		    old->hosts[i].capsule_dir) != 0)
			return 0;
	return 1;
}

/* New settings in place: what the main loop itself takes from them. */
static void
apply_settings(struct reload *r, struct settings *old)
{
	const struct config	*c = &r->set->cfg, *o = &old->cfg;

	if (!same_str(c->log_file, o->log_file)) {
		if (log_open(c->log_file, c->log_level) == -1)
			log_warn("%s: log %s", c->path, c->log_file);
	} else
		log_set_level(c->log_level);
	if (c->watch != o->watch || c->watch_debounce_ms !=
	    o->watch_debounce_ms || !same_capsules(r->set, old)) {
		stop_watch(r);
		start_watch(r);
	}
	log_info("reload: configuration %s loaded", c->path);
}

static void
drop_build(struct reload *r)
{
	settings_unref(r->newset);
	reload_sites_free(r->newsites, r->nnewsites);
	r->newset = NULL;
	r->newsites = NULL;
	r->nnewsites = 0;
}

/* On the main loop, once build() is done. */
static void
built(struct reload *r)
{
	struct settings	*old;
	struct archive	*a;
	struct gen	*g;
	size_t		 i;

	r->busy = 0;
	if (r->stopping) {
		drop_build(r);
		return;
	}
	r->nbuilds++;
	if (r->job_config && r->newset == NULL)
		log_warnx("reload: %s; the running configuration stays",
		    r->err);
	if (r->newsites == NULL) {	/* build_sites() cannot fail */
		log_warnx("reload: content not loaded; the old one stays");
		drop_build(r);
		goto next;
	}
	/* The old sites go with the old settings: as many as hosts. */
	reload_sites_free(r->sites, r->set->nhosts);
	r->sites = r->newsites;
	if (r->newset != NULL) {
		old = r->set;
		r->set = r->newset;
		apply_settings(r, old);
		settings_unref(old);
	}
	for (i = 0; i < r->set->nhosts; i++) {
		a = r->sites[i]->a;
		log_info("content%s%s: %zu posts, %zu series, %zu tags, "
		    "%zu pages, %u warnings; %u files read, %u unchanged; "
		    "built in %.1f ms", r->set->nhosts > 1 ? " of " : "",
		    r->set->nhosts > 1 ? r->set->hosts[i].hostname : "",
		    a->nposts, a->nseries, a->ntags, a->ndocs, a->nwarnings,
		    a->nread, a->nreused, (double)r->build_ns / 1e6);
	}
	g = new_gen(r);
	server_publish(r->srv, g);
	gen_unref(g);
	/* Files a watch could not vouch for are read again soon. */
	for (i = 0; i < r->nwatch; i++)
		watch_published(r->watch[i]);
	r->newset = NULL;
	r->newsites = NULL;
	r->nnewsites = 0;
next:
	if (r->again) {
		r->again = 0;
		start(r);
	}
}

static void
on_done(uv_async_t *h)
{
	struct reload	*r = h->data;
	int		 finished;

	/* Sends may coalesce, or come late: the flag says. */
	uv_mutex_lock(&r->mtx);
	finished = r->finished;
	r->finished = 0;
	uv_mutex_unlock(&r->mtx);
	if (finished)
		built(r);
}

static void
loader(void *arg)
{
	struct reload	*r = arg;
	struct gen	*graves;

	uv_mutex_lock(&r->mtx);
	for (;;) {
		while (!r->job && !r->quit && r->graves == NULL)
			uv_cond_wait(&r->cond, &r->mtx);
		if (r->quit)
			break;
		if ((graves = r->graves) != NULL) {
			r->graves = NULL;
			uv_mutex_unlock(&r->mtx);
			bury(graves);
			uv_mutex_lock(&r->mtx);
			continue;
		}
		r->job = 0;
		uv_mutex_unlock(&r->mtx);
		build(r);
		uv_mutex_lock(&r->mtx);
		r->finished = 1;
		uv_async_send(&r->done);
	}
	uv_mutex_unlock(&r->mtx);
}

static void
start(struct reload *r)
{
	r->busy = 1;
	r->job_config = r->want_config;
	r->want_config = 0;
	uv_mutex_lock(&r->mtx);
	r->job = 1;
	uv_cond_signal(&r->cond);
	uv_mutex_unlock(&r->mtx);
}

void
reload_init(struct reload *r, uv_loop_t *loop, struct server *srv,
    struct settings *set, struct site **sites)
{
	size_t	 i;

	memset(r, 0, sizeof(*r));
	r->loop = loop;
	r->srv = srv;
	settings_ref(set);
	r->set = set;
	r->sites = xcalloc(set->nhosts, sizeof(*r->sites));
	for (i = 0; i < set->nhosts; i++) {
		site_ref(sites[i]);
		r->sites[i] = sites[i];
	}
	if (uv_mutex_init(&r->mtx) != 0 || uv_cond_init(&r->cond) != 0 ||
	    uv_async_init(loop, &r->done, on_done) != 0)
		fatalx("reload: cannot set up the loader");
	r->done.data = r;
	if (uv_thread_create(&r->thread, loader, r) != 0)
		fatalx("reload: cannot start the loader thread");
	start_watch(r);
	uv_timer_init(loop, &r->tickets);
	uv_timer_start(&r->tickets, on_ticket_check, TICKET_CHECK_MS,
	    TICKET_CHECK_MS);
}

void
reload_adopt(struct reload *r, struct gen *g)
{
	g->reap = reap;
	g->reap_arg = r;
}

void
reload_request(struct reload *r, int config)
{
	if (config)
		r->want_config = 1;
	if (r->stopping)
		return;
	if (r->busy)
		r->again = 1;		/* coalesced: one more, after it */
	else
		start(r);
}

void
reload_stop(struct reload *r)
{
	if (r->stopping)
		return;
	r->stopping = 1;
	uv_mutex_lock(&r->mtx);
	r->quit = 1;
	uv_cond_signal(&r->cond);
	uv_mutex_unlock(&r->mtx);
	uv_thread_join(&r->thread);	/* after the build in flight, if any */
	stop_watch(r);			/* which may have asked them */
	bury(r->graves);		/* reap() frees in place from now on */
	r->graves = NULL;
	drop_build(r);
	uv_close((uv_handle_t *)&r->done, NULL);
	uv_close((uv_handle_t *)&r->tickets, NULL);
}

void
reload_free(struct reload *r)
{
	uv_cond_destroy(&r->cond);
	uv_mutex_destroy(&r->mtx);
	reload_sites_free(r->sites, r->set != NULL ? r->set->nhosts : 0);
	settings_unref(r->set);
	r->set = NULL;
	r->sites = NULL;
}
