/*
 * reload.c -- build the next generation on the loader thread, publish
 * it from the main loop (see reload.h).
 *
 *   change/SIGHUP -> reload_request -> start ---(job, cond)---> loader:
 *   built <---(finished, async)--- build()
 *   built: publish, then start again if asked for meanwhile
 *
 * While a build runs, the loader reads r->set, r->sites, the capsule
 * entries' directories, watches and hosts, the job list and the
 * server's boot configuration, all immutable meanwhile, and writes only
 * the job fields (newset, newsites, nnewsites, build_ns, err); the main
 * loop touches nothing of that until built() runs, and swaps r->set and
 * r->sites and changes the entries only there.  The one thing it writes
 * meanwhile is a capsule's dirty mark (and r->dirty), for the next
 * build.
 *
 * A content build starts from the current sites (a reference each) and
 * replaces only those of the job's capsules: what it costs is theirs,
 * whatever the number of capsules, but for copying an array of
 * pointers.
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
#include "core/buf.h"
#include "core/config.h"
#include "core/log.h"
#include "core/par.h"
#include "core/surface.h"
#include "core/util.h"
#include "net/announce.h"
#include "net/generation.h"
#include "net/server.h"
#include "net/ticket.h"
#include "net/tlsconn.h"
#include "site/access.h"
#include "site/site.h"
#include "site/static.h"

/*
 * Threads that load the capsules at start-up, at most: the machine's
 * cores do the work, and the disk gains little from more.
 */
#define LOAD_THREADS	4
/* The "s" of a count in a log line: "1 page", "2 pages". */
#define PLURAL(n)	((n) == 1 ? "" : "s")

static void	start(struct reload *);
static void	ask(struct reload *);

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
 * Does run listen on port for surface s: the top level's, or a host's
 * own?  (A host item holds what it set; the rest of it is 0.)
 */
static int
listening(const struct config *run, size_t s, int port)
{
	size_t	 i;

	if (run->port[s] == port)
		return 1;
	for (i = 0; i < run->nhosts; i++)
		if (run->hosts[i].site->port[s] == port)
			return 1;
	return 0;
}

/*
 * A host's own port (site/front.h) has a listener from the start only:
 * one that is new in c is not served until a restart.  The host keeps
 * its new value, so that its links are right once it is.
 */
static void
new_host_ports(const struct config *c, const struct config *run)
{
	struct config	 v;
	size_t		 i, s;

	for (i = 1; i < config_nhosts(c); i++) {
		config_host_view(c, i, &v);
		for (s = 0; s < SURFACE_N; s++)
			if (v.port[s] != 0 && !listening(run, s, v.port[s]))
				log_warnx("%s: hosts: %s: %s_port %d is new: "
				    "that needs a restart; %s does not "
				    "answer %s there until then", c->path,
				    v.hostname, surfaces[s].name, v.port[s],
				    v.hostname, surfaces[s].title);
	}
}

/*
 * Keys the listeners or the process were set up with cannot change
 * under them: say so, and keep the running values in c, so that what
 * the new configuration writes into links (ports) is what is served.
 */
static void
keep_restart_only(struct config *c, const struct config *run)
{
	char	 key[64];
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
	for (i = 0; i < SURFACE_N; i++)
		if (c->port[i] != run->port[i]) {
			snprintf(key, sizeof(key), "%s_port", surfaces[i].name);
			restart_needed(c, key);
			c->port[i] = run->port[i];
		}
	new_host_ports(c, run);
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
	/* The sandbox allows connections out as the start said. */
	if (run->sandbox && config_announces(c) && !config_announces(run))
		log_warnx("%s: \"announce\" set: under the sandbox, telling "
		    "aggregators needs a restart, and fails until then",
		    c->path);
}

struct tls_server *
reload_certs(const struct config *c, char *err, size_t errlen)
{
	struct tls_server	*tls;
	struct config		 v;
	const char		**dirs, **names;
	size_t			 i, n = config_nhosts(c) - 1;
	int			 rv;

	if ((tls = tls_server_new(c->cert_dir, c->hostname, err, errlen)) ==
	    NULL)
		return NULL;
	dirs = xcalloc(n + 1, sizeof(*dirs));
	names = xcalloc(n + 1, sizeof(*names));
	for (i = 0; i < n; i++) {
		config_host_view(c, i + 1, &v);
		dirs[i] = v.cert_dir;		/* c's strings */
		names[i] = v.hostname;
	}
	rv = tls_server_add_many(tls, n, dirs, names,
	    par_threads(LOAD_THREADS), err, errlen);
	if (rv == 0)
		rv = tls_server_configure(tls, c, err, errlen);
	free(dirs);
	free(names);
	if (rv == -1) {
		tls_server_free(tls);
		return NULL;
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

/*
 * Does view o serve what h does: the name, the capsule, and the base of
 * a user capsule (its cached pages have it in their links)?
 */
static int
same_view(const struct config *o, const struct config *h)
{
	return strcmp(o->hostname, h->hostname) == 0 &&
	    strcmp(o->capsule_dir, h->capsule_dir) == 0 &&
	    same_str(o->base, h->base);
}

/* The site of old serving host h (name and capsule), or NULL. */
static struct site *
served(const struct settings *oldset, struct site *const *old,
    const struct config *h, size_t hint)
{
	size_t	 i;

	if (old == NULL)
		return NULL;
	/* Most often host h was hint before too: no scan of them all. */
	if (hint < oldset->nsites && same_view(&oldset->hosts[hint], h))
		return old[hint];
	for (i = 0; i < oldset->nsites; i++)
		if (same_view(&oldset->hosts[i], h))
			return old[i];
	return NULL;
}

/*
 * What a first load of h's capsule found, in a few lines instead of every
 * one (docs/logging.md, "Diagnostics"): the count of each kind, the first
 * lines, and the command that lists them all.  Each is logged later once
 * its file changes.
 */
static void
log_summary(const struct config *h, const struct archive *a)
{
	static const char *const what[ARCHIVE_SAID_NKINDS] = {
		[ARCHIVE_SAID_SKIPPED] = "files skipped",
		[ARCHIVE_SAID_LINK] = "links to nothing",
		[ARCHIVE_SAID_TEMPLATE] = "template constructs removed",
		[ARCHIVE_SAID_APPROX] =
		    "template constructs read approximately",
		[ARCHIVE_SAID_OTHER] = "other warnings",
		[ARCHIVE_SAID_NOTE] = "other notes",
	};
	struct archive_said	 said;
	struct buf		 b = BUF_INIT;
	size_t			 i;

	if (!archive_said(a, &said))
		return;
	/* At debug each line was logged already: not the first again. */
	if (log_get_level() >= LOG_LEVEL_DEBUG)
		said.nfirst = 0;
	for (i = 0; i < ARCHIVE_SAID_NKINDS; i++)
		if (said.n[i] > 0)
			buf_printf(&b, "%s%u %s", b.len > 0 ? ", " : "",
			    said.n[i], what[i]);
	if (b.len == 0)
		return;
	buf_addc(&b, '\0');
	log_warnx("%s: %s; each is logged again when its file changes%s",
	    a->dir, b.data, said.nfirst > 0 ? "; the first:" : "");
	buf_free(&b);
	for (i = 0; i < said.nfirst; i++)
		log_warnx("  %s", said.first[i]);
	/* A serve DIR (no file) is checked by its folder. */
	if (h->path != NULL)
		log_info("%s: all of them: capsuled -c %s --check --report",
		    a->dir, h->path);
	else
		log_info("%s: all of them: capsuled --check --report %s",
		    a->dir, h->capsule_dir);
}

/*
 * reload_site(), with w, the watch of h's capsule (or NULL), asked which
 * files are being written: those keep the version prev has; and host
 * (h itself, or the host of a user capsule) asked which posts and
 * pages its access rules guard: those are in no list (site/access.h).
 * summarise: the server's load, which says a first load's lines in a
 * few (log_summary()); --check's says each.
 */
static struct site *
load_site(const struct config *host, const struct config *h,
    const struct site *prev, struct watch *w, int summarise)
{
	struct access_view	 view = { host, h };
	struct archive_hooks	 hooks = { NULL, NULL, access_unlisted, &view,
				    summarise };
	struct archive		*a;
	struct site		*s;

	if (w != NULL) {
		hooks.held = watch_held;
		hooks.held_arg = w;
	}
	if ((a = archive_reload_hooked(h, prev != NULL ? prev->a : NULL,
	    &hooks)) == NULL)
		return NULL;
	links_check(a);
	static_conflicts(h, a);
	log_summary(h, a);
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
	return load_site(h, h, prev, NULL, 0);
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

/* The host whose rules apply to site i of set: its own, or host 0's. */
static const struct config *
host_of(const struct settings *set, size_t i)
{
	return &set->hosts[i < set->nhosts ? i : 0];
}

/* The index of capsule dir in caps (hint first), or n. */
static size_t
find_cap(struct capsule *const *caps, size_t n, const char *dir,
    size_t hint)
{
	size_t	 i;

	if (hint < n && caps[hint] != NULL && strcmp(caps[hint]->dir,
	    dir) == 0)
		return hint;
	for (i = 0; i < n; i++)
		if (caps[i] != NULL && strcmp(caps[i]->dir, dir) == 0)
			return i;
	return n;
}

/*
 * The watch of capsule dir, for the archive to ask which files are
 * being written, or NULL (r NULL: at start-up, no watch yet).  The
 * loader reads r->caps: the main loop changes it only while no build
 * runs (built(), reload_stop()).
 */
static struct watch *
watch_of(const struct reload *r, const char *dir, size_t hint)
{
	size_t	 i;

	if (r == NULL || (i = find_cap(r->caps, r->ncaps, dir, hint)) ==
	    r->ncaps)
		return NULL;
	return r->caps[i]->w;
}

/* One build of every host: what each thread of load_sites() reads. */
struct load_job {
	const struct reload	*r;
	const struct settings	*set, *oldset;
	struct site *const	*old;
	struct site		**sites;	/* [i]: host i's, or NULL */
};

/* Host i's site into j->sites[i] (NULL: not loaded). */
static void
load_one(size_t i, void *arg)
{
	struct load_job		*j = arg;
	const struct config	*h = &j->set->hosts[i];
	const struct archive	*a;
	size_t			 n = j->set->nsites;

	j->sites[i] = load_site(host_of(j->set, i), h, served(j->oldset,
	    j->old, h, i), watch_of(j->r, h->capsule_dir, i), 1);
	/* A reload is logged once published: built(). */
	if (j->sites[i] == NULL || j->old != NULL)
		return;
	a = j->sites[i]->a;
	log_info("capsule %s%s%s%s: %zu post%s, %zu series, %zu tag%s, %zu "
	    "page%s, %u warning%s", a->dir, n > 1 ? " for " : "", n > 1 ?
	    h->hostname : "", h->base != NULL ? h->base : "", a->nposts,
	    PLURAL(a->nposts), a->nseries, a->ntags, PLURAL(a->ntags),
	    a->ndocs, PLURAL(a->ndocs), a->nwarnings, PLURAL(a->nwarnings));
}

/*
 * reload_sites(), each capsule's watch (r's, or none) asked.  From
 * nothing (start-up), the capsules load on a few threads: a thousand of
 * them are a second of work for one.  A reload stays on the loader's
 * thread, whose one malloc arena holds every snapshot (reload.h).
 */
static struct site **
load_sites(const struct reload *r, const struct settings *set,
    const struct settings *oldset, struct site *const *old, char *err,
    size_t errlen)
{
	const struct config	*h;
	struct load_job		 j;
	struct site		*prev;
	size_t			 i, n = set->nsites;

	j.r = r;
	j.set = set;
	j.oldset = oldset;
	j.old = old;
	j.sites = xcalloc(n, sizeof(*j.sites));
	par_run(n, old == NULL ? par_threads(LOAD_THREADS) : 1, load_one, &j);
	for (i = 0; i < n; i++) {
		if (j.sites[i] != NULL)
			continue;
		h = &set->hosts[i];
		if ((prev = served(oldset, old, h, i)) == NULL) {
			snprintf(err, errlen, "%s: the capsule %s cannot be "
			    "read", h->hostname, h->capsule_dir);
			reload_sites_free(j.sites, n);
			return NULL;
		}
		log_warnx("reload: %s: content not loaded; the old one stays",
		    h->hostname);
		site_ref(prev);
		j.sites[i] = prev;
	}
	return j.sites;
}

struct site **
reload_sites(const struct settings *set, const struct settings *oldset,
    struct site *const *old, char *err, size_t errlen)
{
	return load_sites(NULL, set, oldset, old, err, errlen);
}

/*
 * r->sites again into r->newsites, but for the hosts of the job's
 * capsules: a new site each, or the old one when it cannot be read.
 */
static void
build_job(struct reload *r)
{
	const struct capsule	*cp;
	struct site		**sites, *s;
	size_t			 i, j, k, n = r->set->nsites;

	sites = xreallocarray(NULL, n, sizeof(*sites));
	for (i = 0; i < n; i++) {
		site_ref(r->sites[i]);
		sites[i] = r->sites[i];
	}
	for (j = 0; j < r->njob; j++) {
		cp = r->jobcaps[j];
		for (k = 0; k < cp->nhosts; k++) {
			i = cp->hosts[k];
			if ((s = load_site(host_of(r->set, i),
			    &r->set->hosts[i], r->sites[i], cp->w, 1)) ==
			    NULL) {
				log_warnx("reload: %s: content not loaded; "
				    "the old one stays",
				    r->set->hosts[i].hostname);
				continue;
			}
			site_unref(sites[i]);
			sites[i] = s;
		}
	}
	r->newsites = sites;
	r->nnewsites = n;
}

/* A site for each of set's hosts into r->newsites; -1 with r->err set. */
static int
build_sites(struct reload *r, const struct settings *set)
{
	r->newsites = load_sites(r, set, r->set, r->sites, r->err,
	    sizeof(r->err));
	r->nnewsites = r->newsites != NULL ? set->nsites : 0;
	return r->newsites != NULL ? 0 : -1;
}

/* On the loader thread. */
static void
build(struct reload *r)
{
	uint64_t	 t0 = uv_hrtime();

	r->err[0] = '\0';
	if (!r->job_config) {
		build_job(r);
		r->build_ns = uv_hrtime() - t0;
		return;
	}
	r->newset = load_settings(r);
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

/* Mark cp for the next build. */
static void
mark(struct capsule *cp)
{
	struct reload	*r = cp->r;

	if (cp->dirty)
		return;
	cp->dirty = 1;
	if (r->ndirty == r->capdirty) {
		r->capdirty = r->capdirty ? r->capdirty * 2 : 8;
		r->dirty = xreallocarray(r->dirty, r->capdirty,
		    sizeof(*r->dirty));
	}
	r->dirty[r->ndirty++] = cp;
}

/* A watch's call back: its capsule (arg) changed. */
static void
on_change(void *arg, const char *dir)
{
	struct capsule	*cp = arg;

	log_debug("reload: %s changed", dir);
	mark(cp);
	ask(cp->r);
}

/* A fleet's ticket key file, changed by the operator: read it again. */
static void
on_ticket_check(uv_timer_t *t)
{
	(void)ticket_refresh();		/* logs what it did */
}

static void
capsule_free(struct capsule *cp)
{
	if (cp->w != NULL)
		watch_stop(cp->w);
	free(cp->hosts);
	free(cp->dir);
	free(cp);
}

/*
 * The capsule entries for r->set: one per capsule directory (hosts may
 * share one), each with the hosts served from it.  An entry whose
 * directory is still served stays, with its watch and its mark (unless
 * restart: the watch settings changed); the others go.  Each is then
 * watched as the configuration says.  On start-up and SIGHUP only.
 */
static void
sync_capsules(struct reload *r, int restart)
{
	const struct settings	*set = r->set;
	const struct config	*c = &set->cfg;
	struct capsule		**caps, *cp;
	const char		*dir;
	size_t			 i, j, n = 0;

	caps = xcalloc(set->nsites ? set->nsites : 1, sizeof(*caps));
	for (i = 0; i < r->ncaps; i++)
		r->caps[i]->nhosts = 0;
	for (i = 0; i < set->nsites; i++) {
		dir = set->hosts[i].capsule_dir;
		if ((j = find_cap(caps, n, dir, n - 1)) < n)
			cp = caps[j];
		else if ((j = find_cap(r->caps, r->ncaps, dir, n)) <
		    r->ncaps) {
			cp = r->caps[j];	/* still served: kept */
			r->caps[j] = NULL;
			caps[n++] = cp;
		} else {
			cp = xcalloc(1, sizeof(*cp));
			cp->r = r;
			cp->dir = xstrdup(dir);
			caps[n++] = cp;
		}
		cp->hosts = xreallocarray(cp->hosts, cp->nhosts + 1,
		    sizeof(*cp->hosts));
		cp->hosts[cp->nhosts++] = i;
	}
	for (i = 0; i < r->ncaps; i++)
		if (r->caps[i] != NULL)
			capsule_free(r->caps[i]);
	free(r->caps);
	r->caps = caps;
	r->ncaps = n;
	r->ndirty = 0;			/* the marks of those still here */
	for (i = 0; i < n; i++) {
		cp = caps[i];
		if (cp->dirty) {
			cp->dirty = 0;
			mark(cp);
		}
		if (cp->w != NULL && (restart || !c->watch)) {
			watch_stop(cp->w);
			cp->w = NULL;
		}
		/* A watch that could not start before is tried again. */
		if (cp->w == NULL && c->watch)
			cp->w = watch_start(r->loop, cp->dir,
			    c->watch_debounce_ms, on_change, cp);
	}
}

static void
free_capsules(struct reload *r)
{
	size_t	 i;

	for (i = 0; i < r->ncaps; i++)
		capsule_free(r->caps[i]);
	free(r->caps);
	r->caps = NULL;
	r->ncaps = 0;
	r->ndirty = 0;
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
	if (!same_str(c->access_log_file, o->access_log_file) &&
	    log_open_access(c->access_log_file) == -1)
		log_warn("%s: access_log %s", c->path, c->access_log_file);
	sync_capsules(r, c->watch != o->watch || c->watch_debounce_ms !=
	    o->watch_debounce_ms);
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

/* The job's capsules are done with: no longer building. */
static void
end_job(struct reload *r)
{
	size_t	 i;

	for (i = 0; i < r->njob; i++)
		r->jobcaps[i]->building = 0;
	r->njob = 0;
}

/*
 * Aggregators told of the posts a build made live on each host that
 * announces (net/announce.h): its new site against the one oldset's
 * sites old had for it.
 */
static void
tell(struct reload *r, const struct settings *oldset, struct site *const *old)
{
	const struct config	*h;
	struct site		*o;
	size_t			 i;

	for (i = 0; i < r->set->nhosts; i++) {
		h = &r->set->hosts[i];
		if (h->nannounce > 0 && (o = served(oldset, old, h, i)) !=
		    NULL && o != r->sites[i])
			announce_posts(r->announce, h, o->a, r->sites[i]->a);
	}
}

/* On the main loop, once build() is done. */
static void
built(struct reload *r)
{
	struct settings	*old, *oldset;
	struct site	**oldsites;
	struct archive	*a;
	struct gen	*g;
	size_t		 i, nold;

	r->busy = 0;
	end_job(r);
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
	/* The old sites go with the old settings: as many as capsules. */
	oldsites = r->sites;
	nold = r->set->nsites;
	oldset = r->set;
	settings_ref(oldset);		/* for tell() */
	r->sites = r->newsites;
	if (r->newset != NULL) {
		old = r->set;
		r->set = r->newset;
		apply_settings(r, old);
		settings_unref(old);
	}
	/* Only the sites made new: a content build made few. */
	for (i = 0; i < r->set->nsites; i++) {
		if (r->newset == NULL && i < nold && r->sites[i] ==
		    oldsites[i])
			continue;
		r->nsites_built++;
		a = r->sites[i]->a;
		log_info("content%s%s%s: %zu post%s, %zu series, %zu tag%s, "
		    "%zu page%s, %u warning%s; %u files read, %u unchanged; "
		    "built in %.1f ms", r->set->nsites > 1 ? " of " : "",
		    r->set->nsites > 1 ? r->set->hosts[i].hostname : "",
		    r->set->hosts[i].base != NULL ? r->set->hosts[i].base : "",
		    a->nposts, PLURAL(a->nposts), a->nseries, a->ntags,
		    PLURAL(a->ntags), a->ndocs, PLURAL(a->ndocs), a->nwarnings,
		    PLURAL(a->nwarnings), a->nread, a->nreused,
		    (double)r->build_ns / 1e6);
	}
	tell(r, oldset, oldsites);
	settings_unref(oldset);
	reload_sites_free(oldsites, nold);
	g = new_gen(r);
	server_publish(r->srv, g);
	gen_unref(g);
	/* Files a watch could not vouch for are read again soon. */
	for (i = 0; i < r->ncaps; i++)
		watch_published(r->caps[i]->w);
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
	struct capsule	**t;
	size_t		 i, cap;

	r->busy = 1;
	r->job_config = r->want_config;
	r->want_config = 0;
	/* The marked capsules are the job's now (all of them: config). */
	t = r->jobcaps;
	cap = r->capjob;
	r->jobcaps = r->dirty;
	r->njob = r->ndirty;
	r->capjob = r->capdirty;
	r->dirty = t;
	r->ndirty = 0;
	r->capdirty = cap;
	for (i = 0; i < r->njob; i++) {
		r->jobcaps[i]->dirty = 0;
		r->jobcaps[i]->building = 1;
	}
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
	r->sites = xcalloc(set->nsites, sizeof(*r->sites));
	for (i = 0; i < set->nsites; i++) {
		site_ref(sites[i]);
		r->sites[i] = sites[i];
	}
	if (uv_mutex_init(&r->mtx) != 0 || uv_cond_init(&r->cond) != 0 ||
	    uv_async_init(loop, &r->done, on_done) != 0)
		fatalx("reload: cannot set up the loader");
	r->done.data = r;
	if (uv_thread_create(&r->thread, loader, r) != 0)
		fatalx("reload: cannot start the loader thread");
	sync_capsules(r, 0);
	r->announce = announce_new(loop);
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

/* A build, now or after the one running. */
static void
ask(struct reload *r)
{
	if (r->stopping)
		return;
	if (r->busy)
		r->again = 1;		/* coalesced: one more, after it */
	else
		start(r);
}

void
reload_request(struct reload *r, int config)
{
	size_t	 i;

	if (config)
		r->want_config = 1;
	else
		for (i = 0; i < r->ncaps; i++)
			mark(r->caps[i]);
	ask(r);
}

void
reload_changed(struct reload *r, const char *dir)
{
	size_t	 i;

	if ((i = find_cap(r->caps, r->ncaps, dir, 0)) == r->ncaps)
		return;
	mark(r->caps[i]);
	ask(r);
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
	end_job(r);
	free_capsules(r);		/* whose watches it may have asked */
	bury(r->graves);		/* reap() frees in place from now on */
	r->graves = NULL;
	drop_build(r);
	announce_stop(r->announce);
	uv_close((uv_handle_t *)&r->done, NULL);
	uv_close((uv_handle_t *)&r->tickets, NULL);
}

void
reload_free(struct reload *r)
{
	uv_cond_destroy(&r->cond);
	uv_mutex_destroy(&r->mtx);
	announce_free(r->announce);
	r->announce = NULL;
	reload_sites_free(r->sites, r->set != NULL ? r->set->nsites : 0);
	free(r->dirty);
	free(r->jobcaps);
	r->dirty = r->jobcaps = NULL;
	settings_unref(r->set);
	r->set = NULL;
	r->sites = NULL;
}
