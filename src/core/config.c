/*
 * config.c -- the YAML configuration file, as one struct config.
 *
 * The file is one mapping, read key by key against core/config_keys.c's
 * table by the engine (core/config_engine.h); whatever the table does
 * not allow stops the load with "PATH:LINE:COL: what is wrong".  Once
 * the whole file is read (a key may come after "hosts"), each host item
 * is completed from the top level and checked against it, and the
 * checks between keys are made.  A host's configuration is then its
 * view (config_host_view()): the top level's values, with its own site
 * keys over them, every pointer borrowed, so that a thousand hosts
 * share one table of redirects; a user capsule's view is made from the
 * keys the table allows it.
 *
 * Knows path names (realpath() of the file's directory, so relative
 * paths in the file are taken from there), nothing of the server.  The
 * struct config owns every string in it, its hosts' included; a load
 * that fails frees what it had built, so the caller has nothing to
 * free.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>

#include <yaml.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/config_apps.h"
#include "core/config_engine.h"
#include "core/config_int.h"
#include "core/config_types.h"
#include "core/robots.h"
#include "core/log.h"
#include "core/redirect.h"
#include "core/util.h"
#include "core/yaml.h"

#define CONFIG_MAX_SIZE	(1024 * 1024)	/* bytes of YAML we will read */

/*
 * Append the rules of a host item (its zones or its backends, n entries
 * of size bytes at *from) to the top level's list *to (*nto entries),
 * each made that host's; *from is emptied.  host_at is where an entry
 * keeps its host.
 */
static void
move_rules(void **to, size_t *nto, void **from, size_t *nfrom, size_t size,
    size_t host_at, const char *hostname)
{
	size_t	 i;
	char	*e;

	if (*nfrom == 0)
		return;
	*to = xreallocarray(*to, *nto + *nfrom, size);
	memcpy((char *)*to + *nto * size, *from, *nfrom * size);
	for (i = 0; i < *nfrom; i++) {
		e = (char *)*to + (*nto + i) * size;
		*(char **)(e + host_at) = xstrdup(hostname);
	}
	*nto += *nfrom;
	free(*from);
	*from = NULL;
	*nfrom = 0;
}

/*
 * Host i's rules into the top level's lists, named after it: a
 * backend's prefix may not be routed for the host twice (once by the
 * item, once by a top-level entry naming it).
 */
static int
host_rules(struct config_loader *cl, size_t i)
{
	struct config	*c = cl->c, *h = c->hosts[i].site;
	size_t		 k, j, first = c->napps;

	move_rules((void **)&c->zones, &c->nzones, (void **)&h->zones,
	    &h->nzones, sizeof(*c->zones), offsetof(struct config_zone, host),
	    h->hostname);
	move_rules((void **)&c->apps, &c->napps, (void **)&h->apps,
	    &h->napps, sizeof(*c->apps), offsetof(struct config_app, host),
	    h->hostname);
	for (k = first; k < c->napps; k++)
		for (j = 0; j < first; j++)
			if (config_apps_same(&c->apps[j], &c->apps[k]))
				return cfe_fail(&cl->e, cl->hmarks[i].name,
				    "hosts: %s: prefix %s is routed twice",
				    h->hostname, c->apps[k].prefix);
	return 0;
}

/*
 * What an item left out: its capsule is the top-level one; its
 * certificate directory is <certs>/<hostname>, so that every name gets
 * a certificate of its own unless told to share one.  Its types borrow
 * what it does not set.
 */
static void
host_fill(struct config *c, struct config_host *hh)
{
	struct config	*h = hh->site;
	size_t		 capsule = config_key_index("capsule");
	size_t		 certs = config_key_index("certs");

	if (!CONFIG_SET(hh->set, capsule)) {
		h->capsule_dir = xstrdup(c->capsule_dir);
		CONFIG_MARK(hh->set, capsule);
	}
	if (!CONFIG_SET(hh->set, certs)) {
		h->cert_dir = cfe_path_resolve(c->cert_dir, h->hostname);
		CONFIG_MARK(hh->set, certs);
	}
	if (h->types != NULL)
		config_types_inherit(h->types, c->types);
}

/*
 * A static tree's root that is the CGI directory would serve the
 * programs' sources as files.  Both are one directory name of the
 * capsule (cfe_dir_name() refuses '/'), so "is, contains or lies
 * inside" is "is the same", in any case for a file system that folds
 * it.  v is host i's view (0: the top level); the later of the two
 * keys in the file is the wrong one.
 */
static int
check_root(struct config_loader *cl, const struct config *v, size_t i,
    const yaml_mark_t *top_marks)
{
	const struct config_host	*hh = i > 0 ? &cl->c->hosts[i - 1] :
					    NULL;
	size_t				 kr = config_key_index("root");
	size_t				 kc = config_key_index("cgi");
	yaml_mark_t			 mr, mc;
	int				 later_cgi;

	if (v->root == NULL || v->cgi == NULL || strcasecmp(v->root,
	    v->cgi) != 0)
		return 0;
	mr = hh != NULL && CONFIG_SET(hh->set, kr) ? cl->hmarks[i - 1].root :
	    top_marks[kr];
	mc = hh != NULL && CONFIG_SET(hh->set, kc) ? cl->hmarks[i - 1].cgi :
	    top_marks[kc];
	later_cgi = mc.index > mr.index;
	return cfe_fail(&cl->e, later_cgi ? mc : mr, "%s: '%s' is also the "
	    "%s%s%s: the programs would be served as files",
	    later_cgi ? "cgi" : "root", later_cgi ? v->cgi : v->root,
	    later_cgi ? "root" : "cgi directory", i > 0 ? " of " : "",
	    i > 0 ? v->hostname : "");
}

/* A host item's name and its place among them. */
struct named {
	const char	*name;
	size_t		 i;
};

/* By name; of two with one name, the earlier first. */
static int
named_cmp(const void *a, const void *b)
{
	const struct named	*na = a, *nb = b;
	int			 c;

	if ((c = strcmp(na->name, nb->name)) != 0)
		return c;
	return (na->i > nb->i) - (na->i < nb->i);
}

/*
 * No name listed twice, refused at the later item: sorted, not compared
 * pair by pair (4,095 hosts are 8 million pairs).
 */
static int
hosts_twice(struct config_loader *cl)
{
	const struct config	*c = cl->c;
	struct named		*v;
	size_t			 i;
	int			 rv = 0;

	v = xreallocarray(NULL, c->nhosts, sizeof(*v));
	for (i = 0; i < c->nhosts; i++) {
		v[i].name = c->hosts[i].site->hostname;
		v[i].i = i;
	}
	qsort(v, c->nhosts, sizeof(*v), named_cmp);
	for (i = 1; i < c->nhosts && rv == 0; i++)
		if (strcmp(v[i - 1].name, v[i].name) == 0)
			rv = cfe_fail(&cl->e, cl->hmarks[v[i].i].name, "hosts: "
			    "%s is listed twice", v[i].name);
	free(v);
	return rv;
}

/*
 * Once the whole file is read: a host may not repeat another's name or
 * the top-level one; its item is completed, its rules join the top
 * level's; then every host's view is checked.
 */
static int
resolve_hosts(struct config_loader *cl, const yaml_mark_t *marks)
{
	struct config	*c = cl->c, v;
	size_t		 i;

	if (hosts_twice(cl) == -1)
		return -1;
	for (i = 0; i < c->nhosts; i++) {
		if (strcmp(c->hosts[i].site->hostname, c->hostname) == 0)
			return cfe_fail(&cl->e, cl->hmarks[i].name, "hosts: %s "
			    "is the top-level hostname already",
			    c->hostname);
		host_fill(c, &c->hosts[i]);
		if (host_rules(cl, i) == -1)
			return -1;
	}
	/* Every entry has its host now: the backends' rules, indexed. */
	config_apps_index(c->apps, c->napps);
	for (i = 0; i < config_nhosts(c); i++) {
		config_host_view(c, i, &v);
		if (check_root(cl, &v, i, marks) == -1)
			return -1;
	}
	return 0;
}

/* The top-level mapping, after its MAPPING-START event. */
static int
parse_top(struct config_loader *cl)
{
	const struct cfe_field	*keys;
	yaml_mark_t		 marks[CONFIG_KEYS_MAX];
	unsigned char		 seen[CONFIG_KEYS_MAX] = { 0 };
	size_t			 n;

	memset(marks, 0, sizeof(marks));
	keys = config_keys(&n);
	if (cfe_map(&cl->e, keys, n, cl->c, 0, NULL, marks, seen) == -1)
		return -1;
	cl->c->base = cl->c->mount;
	if (resolve_hosts(cl, marks) == -1)
		return -1;
	return config_check_top(cl, marks, seen);
}

/*
 * stream = STREAM-START [DOCUMENT-START root DOCUMENT-END] STREAM-END
 * root = a mapping, or a null scalar (a document with no keys)
 */
static int
parse_stream(struct config_loader *cl)
{
	struct cfe	*l = &cl->e;
	yaml_event_t	 ev;
	int		 ndocs = 0, rv = 0;

	for (;;) {
		if (cfe_next(l, &ev) == -1)
			return -1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			yaml_event_delete(&ev);
			return 0;
		case YAML_DOCUMENT_START_EVENT:
			if (ndocs++ > 0)
				rv = cfe_fail(l, ev.start_mark,
				    "only one YAML document is allowed");
			break;
		case YAML_MAPPING_START_EVENT:
			rv = parse_top(cl);
			break;
		case YAML_SCALAR_EVENT:
			if (!yml_is_null(&ev))
				rv = cfe_fail(l, ev.start_mark,
				    "expected a mapping of keys to values,"
				    " got a single value");
			break;
		case YAML_SEQUENCE_START_EVENT:
			rv = cfe_fail(l, ev.start_mark,
			    "expected a mapping of keys to values, got a list");
			break;
		default:	/* STREAM-START, DOCUMENT-END */
			break;
		}
		yaml_event_delete(&ev);
		if (rv == -1)
			return -1;
	}
}

/* The defaults, with confdir already absolute. */
static void
defaults(struct config *c, const char *confdir)
{
	memset(c, 0, sizeof(*c));
	c->hostname = xstrdup("localhost");
	c->nbind = 2;
	c->bind = xreallocarray(NULL, c->nbind, sizeof(*c->bind));
	c->bind[0] = xstrdup("127.0.0.1");
	c->bind[1] = xstrdup("::1");
	for (size_t i = 0; i < SURFACE_N; i++)
		c->port[i] = surfaces[i].default_port;
	c->capsule_dir = cfe_path_resolve(confdir, "../capsule");
	c->cert_dir = cfe_path_resolve(confdir, "../certs");
	c->watch = 1;
	c->watch_debounce_ms = 100;
	c->cache_max_bytes = (size_t)64 << 20;
	c->file_cache_max = (size_t)256 << 10;
	c->workers = 0;
	c->request_timeout_ms = 10 * 1000;
	c->idle_timeout_ms = 30 * 1000;
	c->max_connections = 1024;
	c->handshake_timeout_ms = 5 * 1000;
	c->max_conns_per_ip = 32;
	c->rate_limit_milli = 20 * 1000;
	c->rate_burst = 100;
	c->max_post_size = (size_t)8 << 20;
	c->max_archive_size = (size_t)1 << 30;
	c->follow_symlinks = CONFIG_LINKS_INSIDE;
	c->files_hardlinks = 0;
	c->listings = 1;
	c->root = NULL;
	c->mount = NULL;
	c->index = xstrdup("index.gmi");
	c->root_listings = 1;
	c->listing_titles = 1;
	c->listing_sort = CONFIG_SORT_NAME;
	c->user = NULL;
	c->chroot_dir = NULL;
	c->allow_root = 0;
	c->sandbox = 1;
	c->ticket_rotation_ms = 12 * 60 * 60 * 1000;
	c->ticket_keys = NULL;
	c->proxy_protocol = NULL;
	c->nproxy_protocol = 0;
	c->lang = xstrdup("en");
	c->site_title = NULL;	/* index.md's, the folder's, the host's */
	c->site_subtitle = NULL;
	c->author = NULL;
	c->latest_posts = 10;
	c->gopher_width = 70;
	c->log_file = NULL;
	c->log_level = LOG_LEVEL_INFO;
	c->access_log = 1;
	c->log_peer = LOG_PEER_FULL;
	c->syslog_facility = LOG_DAEMON;
	c->redirects = NULL;
	c->nredirects = 0;
	c->robots = robots_from_text(CONFIG_ROBOTS_DEFAULT);
	c->cgi = NULL;
	c->cgi_timeout_ms = 10 * 1000;
	c->announce_delay_ms = 60 * 1000;
	c->cgi_max_output = (size_t)1 << 20;
	c->cgi_max_programs = 4;
	c->titan_writers = NULL;
	c->ntitan_writers = 0;
	c->titan_max_size = 1 << 20;
	c->userdirs = NULL;
	c->userdirs_uid_min = 1000;	/* Debian's login.defs UID_MIN */
	c->userdirs_uid_max = 60000;	/* and UID_MAX */
}

void
config_defaults(struct config *c, const char *confdir)
{
	char	*abs;

	if (confdir == NULL)
		confdir = ".";
	/* XXX: without a working directory, "/" stands in for it. */
	if ((abs = cfe_absolute_dir(confdir)) == NULL)
		abs = cfe_path_resolve("/", confdir);
	defaults(c, abs);
	free(abs);
}

/* The directory part of a file name: "." when it has none. */
static char *
dir_of(const char *path)
{
	const char	*slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* A load of len bytes at data (messages name name) into c. */
static void
loader_init(struct config_loader *cl, struct config *c, const char *name,
    const char *data, size_t len, const char *confdir, char *err,
    size_t errlen)
{
	memset(cl, 0, sizeof(*cl));
	cl->c = c;
	cl->e.name = name;
	cl->e.data = data;
	cl->e.len = len;
	cl->e.confdir = confdir;
	cl->e.err = err;
	cl->e.errlen = errlen;
	cl->e.owner = cl;
	cl->e.base = c;
}

int
config_load_buffer(struct config *c, const char *name, const char *data,
    size_t len, char *err, size_t errlen)
{
	struct config_loader	 cl;
	char			*dir, *confdir;
	int			 rv;

	memset(c, 0, sizeof(*c));
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (data == NULL) {		/* libyaml asserts on a NULL input */
		data = "";
		len = 0;
	}
	dir = dir_of(name);
	confdir = cfe_absolute_dir(dir);
	free(dir);
	if (confdir == NULL) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "%s: its directory: %s", name,
			    strerror(errno));
		return -1;
	}
	defaults(c, confdir);
	c->path = xstrdup(name);

	loader_init(&cl, c, name, data, len, confdir, err, errlen);
	if ((rv = cfe_begin(&cl.e)) == 0) {
		rv = parse_stream(&cl);
		cfe_end(&cl.e);
	}
	free(cl.hmarks);
	free(confdir);
	if (rv == -1)
		config_free(c);
	return rv;
}

int
config_set(struct config *c, const char *key, const char *value,
    char *err, size_t errlen)
{
	const struct cfe_field	*keys;
	struct config_loader	 cl;
	struct buf		 doc = BUF_INIT;
	yaml_event_t		 ev;
	const char		*p;
	char			*confdir, *at;
	size_t			 n;
	int			 rv;

	/* One single-quoted scalar: nothing in value is read as YAML. */
	buf_addc(&doc, '\'');
	for (p = value; *p != '\0'; p++) {
		if (*p == '\'')
			buf_addc(&doc, '\'');	/* '' is one ' */
		buf_addc(&doc, *p);
	}
	buf_addstr(&doc, "'\n");
	if ((confdir = cfe_absolute_dir(".")) == NULL) {
		snprintf(err, errlen, "%s: the working directory: %s", key,
		    strerror(errno));
		buf_free(&doc);
		return -1;
	}
	keys = config_keys(&n);
	loader_init(&cl, c, key, doc.data, doc.len, confdir, err, errlen);
	if ((rv = cfe_begin(&cl.e)) == 0) {
		/* STREAM-START, DOCUMENT-START, then the scalar. */
		do {
			if ((rv = cfe_next(&cl.e, &ev)) == -1)
				break;
			if (ev.type == YAML_SCALAR_EVENT) {
				cfe_push(&cl.e, key);
				rv = keys[config_key_index(key)].kind->parse(
				    &cl.e, &keys[config_key_index(key)], &ev);
				cfe_pop(&cl.e);
				yaml_event_delete(&ev);
				break;
			}
			yaml_event_delete(&ev);
		} while (rv == 0);
		cfe_end(&cl.e);
	}
	/* "key:1:2: key: why": the place means nothing on a command line. */
	if (rv == -1 && (at = strstr(err, ": ")) != NULL)
		memmove(err, at + 2, strlen(at + 2) + 1);
	free(cl.hmarks);
	free(confdir);
	buf_free(&doc);
	return rv;
}

int
config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	char	*data;
	size_t	 len;
	int	 rv;

	if ((data = util_read_file(path, CONFIG_MAX_SIZE, &len)) == NULL) {
		memset(c, 0, sizeof(*c));
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "%s: %s", path,
			    strerror(errno));
		return -1;
	}
	rv = config_load_buffer(c, path, data, len, err, errlen);
	free(data);
	return rv;
}

void
config_free(struct config *c)
{
	free(c->path);
	free(c->hostname);
	util_free_strings(c->bind, c->nbind);
	free(c->capsule_dir);
	free(c->cert_dir);
	config_hosts_free(c->hosts, c->nhosts);
	free(c->user);
	free(c->chroot_dir);
	free(c->ticket_keys);
	util_free_strings(c->proxy_protocol, c->nproxy_protocol);
	free(c->lang);
	free(c->site_title);
	free(c->site_subtitle);
	free(c->author);
	free(c->log_file);
	free(c->access_log_file);
	free(c->syslog_socket);
	config_redirects_free(c->redirects, c->nredirects);
	robots_free(c->robots);
	free(c->root);
	free(c->mount);
	free(c->index);
	free(c->cgi);
	config_apps_free(c->apps, c->napps);
	config_types_free(c->types);
	util_free_strings(c->titan_writers, c->ntitan_writers);
	config_zones_free(c->zones, c->nzones);
	util_free_strings(c->link_aliases, c->nlink_aliases);
	util_free_strings(c->announce, c->nannounce);
	free(c->web_url);
	free(c->userdirs);
	memset(c, 0, sizeof(*c));
}

const char *
config_redirect(const struct config *c, const char *path, int *status)
{
	const struct config_redirect	*r;

	/* An exact rule that holds path always wins (core/pathrule.h). */
	r = redirect_match(c->redirects, c->nredirects, path);
	if (r == NULL || r->rule.nstars > 0)
		return NULL;
	if (status != NULL)
		*status = r->status;
	return r->to;
}

int
config_public_port(const struct config *c, enum surface s)
{
	return c->public_port[s] != 0 ? c->public_port[s] : c->port[s];
}

size_t
config_nhosts(const struct config *c)
{
	return 1 + c->nhosts;
}

int
config_has_backends(const struct config *c)
{
	return c->napps > 0;
}

int
config_announces(const struct config *c)
{
	size_t	 i;

	for (i = 0; i < c->nhosts; i++)
		if (c->hosts[i].site->nannounce > 0)
			return 1;
	return c->nannounce > 0;
}

int
config_has_cgi(const struct config *c)
{
	size_t	 i;

	for (i = 0; i < c->nhosts; i++)
		if (c->hosts[i].site->cgi != NULL)
			return 1;
	return c->cgi != NULL;
}

void
config_host_view(const struct config *c, size_t i, struct config *view)
{
	const struct config_host	*h;
	const struct cfe_field		*keys, *k;
	size_t				 n, j;

	*view = *c;
	view->hosts = NULL;
	view->nhosts = 0;
	if (i == 0 || i > c->nhosts)
		return;
	h = &c->hosts[i - 1];
	keys = config_keys(&n);
	for (j = 0; j < n; j++) {
		k = &keys[j];
		/* A host's rules are in the top level's lists already. */
		if ((k->flags & (CONFIG_SITE | CONFIG_RULES)) != CONFIG_SITE ||
		    !CONFIG_SET(h->set, j))
			continue;
		memcpy((char *)view + k->off, (const char *)h->site + k->off,
		    k->size);
	}
	view->base = view->mount;
}

void
config_user_view(const struct config *host, const char *dir, unsigned uid,
    const char *name, const char *base, struct config *view)
{
	const struct cfe_field	*keys, *k;
	size_t			 n, j;

	memset(view, 0, sizeof(*view));
	keys = config_keys(&n);
	for (j = 0; j < n; j++) {
		k = &keys[j];
		if (k->flags & CONFIG_USER)
			memcpy((char *)view + k->off,
			    (const char *)host + k->off, k->size);
	}
	/* What no key sets: the file it came from. */
	view->path = host->path;
	view->posts_here = host->posts_here;
	/* The user's own. */
	view->capsule_dir = (char *)dir;
	view->site_title = (char *)base + 1;	/* "~name" */
	view->author = (char *)name;
	view->base = base;
	view->owned = 1;
	view->owner_uid = uid;
	/* A link out of the capsule would lead into someone else's. */
	if (view->follow_symlinks == CONFIG_LINKS_ANY)
		view->follow_symlinks = CONFIG_LINKS_INSIDE;
}

void
config_print(const struct config *c, struct buf *out)
{
	struct cfe_out		 o;
	const struct cfe_field	*keys;
	size_t			 n, i;

	memset(&o, 0, sizeof(o));
	o.b = out;
	o.top = c;
	keys = config_keys(&n);
	for (i = 0; i < n; i++)
		if (i != config_key_index("hosts"))
			keys[i].kind->print(&o, &keys[i], c);
	/* Last: a host item reads as the top level's defaults overridden. */
	keys[config_key_index("hosts")].kind->print(&o,
	    &keys[config_key_index("hosts")], c);
}
