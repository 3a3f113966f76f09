/*
 * config_keys.c -- every key of the configuration file: the table, and
 * the parsers and printers of the keys the engine's scalar kinds do not
 * cover (config_int.h).
 *
 * A row is {key, kind, where in struct config, range, flags, arg}: the
 * engine (core/config_engine.h) reads and prints a key from its row,
 * and the flags say where it may be set and who sees it.  A site key
 * (CONFIG_SITE) may be set in a "hosts" item as well as at the top
 * level; the rest are server-wide.  CONFIG_USER marks what a user
 * capsule has of its host: a key is denied unless marked.  The
 * entries of "fastcgi", "scgi", "proxy" (core/config_apps.c),
 * "mime_types", "default_type", "path_meta" (core/config_types.c) and
 * "cert_zones" are tables of their own.
 *
 * Knows struct config and its values' rules, nothing of the server.
 * What a parser stores belongs to the struct config it is stored in.
 */
#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <unistd.h>

#include <yaml.h>

#include "core/buf.h"
#include "core/capfile.h"
#include "core/config.h"
#include "core/config_apps.h"
#include "core/config_engine.h"
#include "core/config_int.h"
#include "core/config_redirects.h"
#include "core/config_types.h"
#include "core/gemini_limits.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/mime.h"
#include "core/redirect.h"
#include "core/robots.h"
#include "core/surface.h"
#include "core/url.h"
#include "core/util.h"
#include "core/yaml.h"

#define CONFIG_MAX_BIND	32		/* addresses in "bind" */
#define CONFIG_MAX_PROXIES 64		/* entries in "proxy_protocol" */
#define CONFIG_MAX_REDIRECTS 10000	/* entries in "redirects" */
#define CONFIG_ANNOUNCE_MAX 16		/* entries in "announce" */
/* An aggregator's URL, with room for a feed's address as its query. */
#define CONFIG_ANNOUNCE_URL_MAX 512
#define DAY_MS		(24LL * 60 * 60 * 1000)

#define OFF(m)		offsetof(struct config, m)
#define SZ(m)		sizeof(((struct config *)0)->m)
#define AT(m)		OFF(m), SZ(m)
/* A list: its pointer, and its count right after it (cfe_list()). */
#define LIST(v, n)	OFF(v), (OFF(n) + SZ(n) - OFF(v))

#define SERVER		0
#define SITE		CONFIG_SITE
#define USER		CONFIG_USER
#define RULES		CONFIG_RULES

_Static_assert(OFF(nbind) == OFF(bind) + sizeof(char **), "bind, nbind");
_Static_assert(OFF(nproxy_protocol) == OFF(proxy_protocol) + sizeof(char **),
    "proxy_protocol, nproxy_protocol");
_Static_assert(OFF(nlink_aliases) == OFF(link_aliases) + sizeof(char **),
    "link_aliases, nlink_aliases");
_Static_assert(OFF(ntitan_writers) == OFF(titan_writers) + sizeof(char **),
    "titan_writers, ntitan_writers");
_Static_assert(OFF(nannounce) == OFF(announce) + sizeof(char **),
    "announce, nannounce");
/* cfe_word_kind stores an int; an enum field must be as wide. */
_Static_assert(sizeof(enum log_peer) == sizeof(int), "log_peer is an int");
_Static_assert(sizeof(enum log_level) == sizeof(int), "log_level is an int");

/* gopher_charset = "utf-8" / "ascii" (and their other common names) */
static const struct cfe_words charset_words = { "utf-8 or ascii", {
	{ "utf-8", CONFIG_CHARSET_UTF8 }, { "utf8", CONFIG_CHARSET_UTF8 },
	{ "ascii", CONFIG_CHARSET_ASCII }, { "us-ascii", CONFIG_CHARSET_ASCII },
	{ NULL, 0 } } };

/*
 * follow_symlinks = false / true / "never" (and the other spellings of
 * a bool): links that stay inside the capsule, any link, no link.
 */
static const struct cfe_words links_words = { "false, true or never", {
	{ "false", CONFIG_LINKS_INSIDE }, { "no", CONFIG_LINKS_INSIDE },
	{ "off", CONFIG_LINKS_INSIDE }, { "inside", CONFIG_LINKS_INSIDE },
	{ "true", CONFIG_LINKS_ANY }, { "yes", CONFIG_LINKS_ANY },
	{ "on", CONFIG_LINKS_ANY }, { "any", CONFIG_LINKS_ANY },
	{ "never", CONFIG_LINKS_NONE }, { "none", CONFIG_LINKS_NONE },
	{ NULL, 0 } } };

/* log_peer = "full" / "anonymise" / "anonymize" / "none" */
static const struct cfe_words peer_words = { "full, anonymise or none", {
	{ "full", LOG_PEER_FULL }, { "anonymise", LOG_PEER_ANONYMISE },
	{ "anonymize", LOG_PEER_ANONYMISE }, { "none", LOG_PEER_NONE },
	{ NULL, 0 } } };

/* log_level = "error" / "warn" / "info" / "debug" ("warning" too) */
static const struct cfe_words level_words = {
    "error, warn, info or debug", {
	{ "error", LOG_LEVEL_ERROR }, { "warn", LOG_LEVEL_WARN },
	{ "warning", LOG_LEVEL_WARN }, { "info", LOG_LEVEL_INFO },
	{ "debug", LOG_LEVEL_DEBUG }, { NULL, 0 } } };

/* log_format = "capsuled" / "common" / "combined" */
static const struct cfe_words log_format_words = {
    "capsuled, common or combined", {
	{ "capsuled", LOG_FORMAT_CAPSULED }, { "common", LOG_FORMAT_COMMON },
	{ "combined", LOG_FORMAT_COMBINED }, { NULL, 0 } } };

/* syslog_facility = "daemon" / "user" / "local0" ... "local7" */
static const struct cfe_words facility_words = {
    "daemon, user or local0 to local7", {
	{ "daemon", LOG_DAEMON }, { "user", LOG_USER },
	{ "local0", LOG_LOCAL0 }, { "local1", LOG_LOCAL1 },
	{ "local2", LOG_LOCAL2 }, { "local3", LOG_LOCAL3 },
	{ "local4", LOG_LOCAL4 }, { "local5", LOG_LOCAL5 },
	{ "local6", LOG_LOCAL6 }, { "local7", LOG_LOCAL7 },
	{ NULL, 0 } } };

/*
 * tls_protocols = "1.2 1.3" / "1.3" (gmid's "tlsv1.2,tlsv1.3" and
 * "tlsv1.3", agate's --only-tls13 as "1.3")
 */
static const struct cfe_words tls_words = { "\"1.2 1.3\" or \"1.3\"", {
	{ "1.2 1.3", CONFIG_TLS_12 }, { "1.2,1.3", CONFIG_TLS_12 },
	{ "1.2+", CONFIG_TLS_12 }, { "tlsv1.2,tlsv1.3", CONFIG_TLS_12 },
	{ "all", CONFIG_TLS_12 }, { "default", CONFIG_TLS_12 },
	{ "1.3", CONFIG_TLS_13 }, { "tlsv1.3", CONFIG_TLS_13 },
	{ NULL, 0 } } };

/* listing_sort = "name" / "date" */
static const struct cfe_words sort_words = { "name or date", {
	{ "name", CONFIG_SORT_NAME }, { "date", CONFIG_SORT_DATE },
	{ NULL, 0 } } };

/* require = "certificate": a zone's one requirement, said aloud. */
static const struct cfe_words require_words = { "certificate", {
	{ "certificate", 1 }, { NULL, 0 } } };

/* "auto" (stored as 0: one worker per core) or f->min..f->max. */
static int
parse_workers(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	char		 what[64];
	const char	*s;
	long long	 v;
	char		*end;

	snprintf(what, sizeof(what), "auto or %lld to %lld", f->min, f->max);
	if (cfe_scalar(l, ev, what, &s) == -1)
		return -1;
	if (strcasecmp(s, "auto") == 0) {
		*(int *)cfe_at(l, f) = 0;
		return 0;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (yml_is_null(ev) || *s == '\0' || *end != '\0' || errno != 0 ||
	    v < f->min || v > f->max)
		return cfe_bad(l, ev, what, s);
	*(int *)cfe_at(l, f) = (int)v;
	return 0;
}

static void
print_workers(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	const struct config	*c = base;

	if (c->workers == 0)
		cfe_out_line(o, f->key, "auto");
	else
		cfe_out_line(o, f->key, "%d", c->workers);
}

static const struct cfe_kind workers_kind = { parse_workers, print_workers };

/*
 * user = name / null; name = (ALPHA / DIGIT / "_" / ".") *(ALPHA /
 * DIGIT / "_" / "." / "-"), at most f->max bytes.  Looked up at start.
 */
static int
parse_user(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const char	*s, *p;

	if (cfe_text(l, ev, f->min, f->max, &s) == -1)
		return -1;
	for (p = s; p != NULL && *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' ||
		    (*p == '-' && p > s)))
			return cfe_bad(l, ev, "a user name", s);
	cfe_set_str(l, f, s);
	return 0;
}

static const struct cfe_kind user_kind = { parse_user, cfe_print_str };

/*
 * A path, or null, "stderr" or "-" for standard error (stored NULL), or
 * "syslog" (stored NULL, log_syslog set; a file of that name is
 * "./syslog").
 */
static int
parse_log(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	struct config	*c = l->base;
	const char	*s;

	if (cfe_scalar(l, ev, "a file name or stderr", &s) == -1)
		return -1;
	c->log_syslog = strcmp(s, "syslog") == 0;
	if (c->log_syslog || yml_is_null(ev) || strcmp(s, "stderr") == 0 ||
	    strcmp(s, "-") == 0) {
		cfe_set_str(l, f, NULL);
		return 0;
	}
	return cfe_path_kind.parse(l, f, ev);
}

static void
print_log(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	const struct config	*c = base;

	if (c->log_syslog)
		cfe_out_line(o, f->key, "syslog");
	else if (c->log_file == NULL)
		cfe_out_line(o, f->key, "stderr");
	else
		cfe_out_keystr(o, f->key, c->log_file);
}

static const struct cfe_kind log_kind = { parse_log, print_log };

/*
 * title = text / null: null (the default) lets the load name the site
 * (content/archive.c: index.md's title, the folder's name, the host).
 */
static int
parse_title(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev)) {
		cfe_set_str(l, f, NULL);
		return 0;
	}
	return cfe_text_kind.parse(l, f, ev);
}

static const struct cfe_kind title_kind = { parse_title, cfe_print_str };

/* access_log = bool / path: one line per request, there or in the log. */
static int
parse_access_log(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	struct config	*c = l->base;
	const char	*s;
	bool		 b;

	if (cfe_scalar(l, ev, "true, false or a file name", &s) == -1)
		return -1;
	if (yml_is_null(ev) || *s == '\0')
		return cfe_bad(l, ev, "true, false or a file name", s);
	if (yml_parse_bool(s, strlen(s), &b) == 0) {
		c->access_log = b;
		cfe_set_str(l, f, NULL);
		return 0;
	}
	c->access_log = 1;
	return cfe_path_kind.parse(l, f, ev);
}

static void
print_access_log(struct cfe_out *o, const struct cfe_field *f,
    const void *base)
{
	const struct config	*c = base;

	if (c->access_log_file != NULL)
		cfe_out_keystr(o, f->key, c->access_log_file);
	else
		cfe_out_line(o, f->key, "%s", c->access_log ? "true" : "false");
}

static const struct cfe_kind access_log_kind = {
	parse_access_log, print_access_log
};

/*
 * cgi = segment ["/"]: the directory of each capsule whose programs
 * answer "/<segment>/...", or null for none.  Not a name the server
 * already answers: those paths would never reach it.
 */
static int
parse_cgi(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	char	*dir;
	int	 rv = 0;

	if (cfe_dir_name(l, ev, "cgi-bin", &dir) == -1)
		return -1;
	/* One table of such names (core/layout.c), any case. */
	if (dir != NULL && layout_reserved(dir))
		rv = cfe_fail(l, ev->start_mark, "'%s' is a path the server "
		    "answers itself", dir);
	else
		cfe_set_str(l, f, dir);
	free(dir);
	return rv;
}

static const struct cfe_kind cgi_kind = { parse_cgi, cfe_print_str };

/*
 * userdirs = name ["/"]: the directory in each user's home that is
 * published, or null for none.
 */
static int
parse_userdirs(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	char	*dir;

	if (cfe_dir_name(l, ev, "public_gemini", &dir) == -1)
		return -1;
	cfe_set_str(l, f, dir);
	free(dir);
	return 0;
}

static const struct cfe_kind userdirs_kind = { parse_userdirs, cfe_print_str };

/*
 * root = name ["/"]: the capsule's directory served at "/", or null.
 * Not one the archive reads its sources from: those are not for readers.
 */
static int
parse_root(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	static const char *const sources[] = {
		CAPFILE_POSTS, CAPFILE_PAGES, CAPFILE_SERIES, "templates"
	};
	char	*dir;
	size_t	 i;
	int	 rv = 0;

	if (cfe_dir_name(l, ev, "site", &dir) == -1)
		return -1;
	for (i = 0; dir != NULL && i < nitems(sources); i++)
		if (strcasecmp(dir, sources[i]) == 0)
			break;
	if (dir != NULL && i < nitems(sources))
		rv = cfe_fail(l, ev->start_mark, "'%s' holds the archive's "
		    "sources, which are not served as files", dir);
	else
		cfe_set_str(l, f, dir);
	free(dir);
	return rv;
}

static const struct cfe_kind root_kind = { parse_root, cfe_print_str };

/*
 * mount = ["/"] segment ["/"]: the prefix of the generated pages
 * ("/gemlog"), or null: at "/".  The site's base (config.h) too: a
 * view's base is its mount (config_host_view()).
 */
static int
parse_mount(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	yaml_event_t	 e = *ev;
	const char	*v = (const char *)ev->data.scalar.value;
	char		*dir, *m;

	if (ev->type == YAML_SCALAR_EVENT && v != NULL && v[0] == '/') {
		e.data.scalar.value = (yaml_char_t *)(uintptr_t)(v + 1);
		e.data.scalar.length--;
	}
	if (cfe_dir_name(l, &e, "gemlog", &dir) == -1)
		return -1;
	m = dir != NULL ? xasprintf("/%s", dir) : NULL;
	cfe_set_str(l, f, m);
	free(dir);
	free(m);
	return 0;
}

static const struct cfe_kind mount_kind = { parse_mount, cfe_print_str };

/* index = file name: a directory's own page in a static tree. */
static int
parse_index(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	char	*name;

	if (cfe_dir_name(l, ev, "index.gmi", &name) == -1)
		return -1;
	if (name == NULL)
		return cfe_fail(l, ev->start_mark, "a file name is needed");
	cfe_set_str(l, f, name);
	free(name);
	return 0;
}

static const struct cfe_kind index_kind = { parse_index, cfe_print_str };

/*
 * web_url = ("http" / "https") "://" host [path], no query or fragment:
 * the writer's old web site, kept without its trailing "/".
 */
static int
parse_web_url(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const char	*s, *host;
	char		*v;
	size_t		 n;

	if (cfe_text(l, ev, f->min, f->max, &s) == -1)
		return -1;
	if (s == NULL) {
		cfe_set_str(l, f, NULL);
		return 0;
	}
	host = strncasecmp(s, "https://", 8) == 0 ? s + 8 :
	    strncasecmp(s, "http://", 7) == 0 ? s + 7 : NULL;
	if (host == NULL || *host == '\0' || *host == '/' ||
	    strpbrk(s, " \t?#") != NULL)
		return cfe_bad(l, ev, "a web address like "
		    "'https://example.org'", s);
	v = xstrdup(s);
	for (n = strlen(v); n > (size_t)(host - s) && v[n - 1] == '/'; n--)
		v[n - 1] = '\0';
	cfe_set_str(l, f, v);
	free(v);
	return 0;
}

static const struct cfe_kind web_url_kind = { parse_web_url, cfe_print_str };

/* robots = a block of text, or rules (core/robots.h). */
static int
parse_robots(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	return robots_parse(l, f, ev, cfe_at(l, f));
}

static void
print_robots(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	robots_print(o, f->key, ((const struct config *)base)->robots);
}

static const struct cfe_kind robots_kind = { parse_robots, print_robots };

/* Check one address of "bind" and append it to *v. */
static int
bind_add(struct cfe *l, const struct cfe_field *f, const yaml_event_t *ev,
    char ***v, size_t *n)
{
	unsigned char	 addr[sizeof(struct in6_addr)];
	const char	*s;

	if (cfe_scalar(l, ev, "an IP address", &s) == -1)
		return -1;
	if (yml_is_null(ev))
		return cfe_fail(l, ev->start_mark, "an address is required");
	if (inet_pton(AF_INET, s, addr) != 1 &&
	    inet_pton(AF_INET6, s, addr) != 1)
		return cfe_bad(l, ev, "an IPv4 or IPv6 address", s);
	return cfe_list_append(l, f, ev, v, n, s, s, "addresses");
}

/* bind = address / "[" address *("," address) "]" (or a block list) */
static const struct cfe_items bind_items = { bind_add, 0, 1 };

/*
 * One entry of "proxy_protocol":
 *   entry = address [ "/" bits ]
 *   bits = 1*3DIGIT, no leading zero, at most 32 (IPv4) or 128 (IPv6)
 * (proto/proxy.c reads the same form when it matches a peer.)
 */
static int
proxy_add(struct cfe *l, const struct cfe_field *f, const yaml_event_t *ev,
    char ***v, size_t *n)
{
	char		 a[INET6_ADDRSTRLEN];
	unsigned char	 addr[sizeof(struct in6_addr)];
	const char	*s, *slash, *d;
	size_t		 len;
	unsigned	 max;

	if (cfe_scalar(l, ev, "an IP address", &s) == -1)
		return -1;
	if (yml_is_null(ev))
		return cfe_fail(l, ev->start_mark, "an address is required");
	slash = strchr(s, '/');
	len = slash != NULL ? (size_t)(slash - s) : strlen(s);
	if (len == 0 || len >= sizeof(a))
		goto bad;
	memcpy(a, s, len);
	a[len] = '\0';
	if (inet_pton(AF_INET, a, addr) == 1)
		max = 32;
	else if (inet_pton(AF_INET6, a, addr) == 1)
		max = 128;
	else
		goto bad;
	if (slash != NULL) {
		d = slash + 1;
		if (*d == '\0' || strlen(d) > 3 || strspn(d, "0123456789") !=
		    strlen(d) || (d[0] == '0' && d[1] != '\0') ||
		    (unsigned)atoi(d) > max)
			goto bad;
	}
	return cfe_list_append(l, f, ev, v, n, s, s, "entries");
bad:
	return cfe_bad(l, ev, "an IP address or a prefix like 10.0.0.0/8", s);
}

/* proxy_protocol = entry / "[" *( entry ) "]" / null */
static const struct cfe_items proxy_items = { proxy_add, 1, 0 };

/*
 * One SHA-256 fingerprint of "titan_writers" or of a zone, stored
 * lower case, bare (cfe_fingerprint()).
 */
static int
writer_add(struct cfe *l, const struct cfe_field *f, const yaml_event_t *ev,
    char ***v, size_t *n)
{
	char	 hex[65];

	if (cfe_fingerprint(l, ev, hex) == -1)
		return -1;
	return cfe_list_append(l, f, ev, v, n, hex,
	    (const char *)ev->data.scalar.value, "fingerprints");
}

/* titan_writers = fingerprint / "[" *( fingerprint ) "]" / null */
static const struct cfe_items writer_items = { writer_add, 1, 0 };

/*
 * One entry of "link_aliases": the prefix of the writer's old web URLs
 * for posts, "https://old.example/posts/": a scheme, "://" and a host.
 */
static int
alias_add(struct cfe *l, const struct cfe_field *f, const yaml_event_t *ev,
    char ***v, size_t *n)
{
	const char	*s, *sep;

	if (cfe_scalar(l, ev, "a URL prefix", &s) == -1)
		return -1;
	sep = strstr(s, "://");
	if (sep == NULL || sep == s || sep[3] == '\0' || sep[3] == '/' ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789+.-") != (size_t)(sep - s) ||
	    strpbrk(s, " \t\r\n?#") != NULL || strlen(s) > 1024)
		return cfe_bad(l, ev, "a URL prefix like "
		    "'https://example.org/posts/'", s);
	return cfe_list_append(l, f, ev, v, n, s, s, "prefixes");
}

/* link_aliases = prefix / "[" *( prefix ) "]" / null */
static const struct cfe_items alias_items = { alias_add, 1, 0 };

/*
 * One entry of "announce": an aggregator's gemini:// URL, without a
 * query (the feed's address becomes it) or a fragment.
 */
static int
announce_add(struct cfe *l, const struct cfe_field *f, const yaml_event_t *ev,
    char ***v, size_t *n)
{
	struct url	 u;
	const char	*s, *err;
	char		*tmp;
	int		 ok;

	if (cfe_text(l, ev, 1, CONFIG_ANNOUNCE_URL_MAX, &s) == -1)
		return -1;
	tmp = xstrdup(s);
	ok = strchr(s, ' ') == NULL && url_parse(tmp, &u, &err) == 0 &&
	    strcmp(u.scheme, "gemini") == 0 && u.host[0] != '\0' &&
	    u.query == NULL;
	free(tmp);
	if (!ok)
		return cfe_bad(l, ev, "an aggregator's gemini:// URL without "
		    "a query, such as 'gemini://example.org/submit'", s);
	return cfe_list_append(l, f, ev, v, n, s, s, "aggregators");
}

/* announce = url / "[" *( url ) "]" / null */
static const struct cfe_items announce_items = { announce_add, 1, 0 };

static const struct cfe_kind redirects_kind = {
	config_redirects_parse, config_redirects_print
};

/*
 * Is an entry of the rules of every host (host: NULL) or of one printed
 * where o is?  In a host item, the host's own; at the top level, those
 * of every host and of a name no item has.
 */
static int
rule_here(const struct cfe_out *o, const char *host)
{
	const struct config	*c = o->top;
	size_t			 i;

	if (o->host != NULL)
		return host != NULL && strcmp(host, o->host) == 0;
	for (i = 0; host != NULL && i < c->nhosts; i++)
		if (strcmp(c->hosts[i].site->hostname, host) == 0)
			return 0;
	return 1;
}

/* "fastcgi", "scgi", "proxy": core/config_apps.c reads the entries. */
static int
parse_apps(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	struct config	*c = l->base;

	return config_apps_parse(l, f, ev, CONFIG_SITE, &c->apps, &c->napps);
}

static void
print_apps(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	const struct config	*c = base;

	config_apps_print(o, f->key, c->apps, c->napps, rule_here);
}

static const struct cfe_kind apps_kind = { parse_apps, print_apps };

/* "mime_types", "default_type", "path_meta": core/config_types.c. */
static int
parse_types(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	struct config	*c = l->base;

	return config_types_parse(l, f, ev, &c->types);
}

static void
print_types(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	const struct config	*c = base;

	config_types_print(o, f->key, c->types);
}

static const struct cfe_kind types_kind = { parse_types, print_types };

/*
 * path = "/" *( segment "/" ) [ segment ]: no dot or empty segments; a
 * '*' is a pattern's, as in every path rule (core/pathrule.h):
 * molly-brown's CertificateZones "^/diary/.*\.gmi$" is "/diary/" "*.gmi".
 * The trailing '/' is dropped: "/family/" and "/family" hold the same.
 */
static int
parse_zone_path(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const char	*s;
	size_t		 len;

	if (cfe_text(l, ev, f->min, f->max, &s) == -1)
		return -1;
	if (s[0] != '/' || strstr(s, "//") != NULL || !config_clean_text(s, 1) ||
	    url_has_dot_segment(s))
		return cfe_bad(l, ev, "a path such as /family/ or a pattern "
		    "such as /diary/*.gmi (no spaces, no . .. or empty "
		    "segments)", s);
	for (len = strlen(s); len > 0 && s[len - 1] == '/'; len--)
		;
	free(*(char **)cfe_at(l, f));
	*(char **)cfe_at(l, f) = xstrndup(s, len);
	return 0;
}

static const struct cfe_kind zone_path_kind = {
	parse_zone_path, cfe_print_str
};

#define ZOFF(m)		offsetof(struct config_zone, m)
#define ZAT(m)		ZOFF(m), sizeof(((struct config_zone *)0)->m)
#define ZLIST(v, n)	ZOFF(v), (ZOFF(n) + sizeof(size_t) - ZOFF(v))

_Static_assert(ZOFF(nfingerprints) == ZOFF(fingerprints) + sizeof(char **),
    "fingerprints, nfingerprints");

enum { ZONE_PATH, ZONE_HOST, ZONE_REQUIRE, ZONE_FINGERPRINTS, ZONE_CA,
    ZONE_NFIELDS };

static const struct cfe_field zone_fields[ZONE_NFIELDS] = {
	[ZONE_PATH] = { "path", &zone_path_kind, ZAT(path), 1,
	    CONFIG_MAX_ZONE_PATH, 0, NULL },
	[ZONE_HOST] = { "host", &cfe_host_kind, ZAT(host), 1, 253, 0, NULL },
	[ZONE_REQUIRE] = { "require", &cfe_word_kind, ZAT(require), 0, 0, 0,
	    &require_words },
	[ZONE_FINGERPRINTS] = { "fingerprints", &cfe_list_kind,
	    ZLIST(fingerprints, nfingerprints), 0, 1000, 0, &writer_items },
	[ZONE_CA] = { "ca", &cfe_path_kind, ZAT(ca), 1, PATH_MAX, 0, NULL },
};

void
config_zones_free(struct config_zone *v, size_t n)
{
	struct config_zone	*z;

	while (n > 0) {
		z = &v[--n];
		free(z->host);
		free(z->path);
		util_free_strings(z->fingerprints, z->nfingerprints);
		free(z->ca);
	}
	free(v);
}

/* One zone, after its MAPPING-START event ev, into z. */
static int
zone_entry(struct cfe *l, struct config_zone *z, const yaml_event_t *ev)
{
	yaml_mark_t	 marks[ZONE_NFIELDS];
	unsigned char	 seen[ZONE_NFIELDS] = { 0 };

	memset(marks, 0, sizeof(marks));
	z->require = 1;
	if (cfe_map(l, zone_fields, ZONE_NFIELDS, z, 0, NULL, marks,
	    seen) == -1)
		return -1;
	if (z->path == NULL)
		return cfe_fail(l, ev->start_mark, "every zone needs a path");
	/* A host item's zones are its own: config.c names the host. */
	if (seen[ZONE_HOST] && (l->mode & CONFIG_SITE)) {
		cfe_push(l, "host");
		cfe_fail(l, marks[ZONE_HOST], "a host item's zones are that "
		    "host's: leave host out");
		cfe_pop(l);
		return -1;
	}
	/* Read when the certificates are (net/tlsconn.c parses it). */
	if (z->ca != NULL && access(z->ca, R_OK) == -1) {
		cfe_push(l, "ca");
		cfe_fail(l, marks[ZONE_CA], "%s: %s", z->ca, strerror(errno));
		cfe_pop(l);
		return -1;
	}
	return 0;
}

/*
 * cert_zones = "[" *( "{" path [host] [require] [fingerprints] [ca] "}" )
 * "]" (or a block list), or null for none.
 */
static int
parse_zones(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	struct config		*c = l->base;
	struct config_zone	*z;
	yaml_event_t		 item;
	int			 rv;

	config_zones_free(c->zones, c->nzones);
	c->zones = NULL;
	c->nzones = 0;
	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		return 0;
	if (ev->type != YAML_SEQUENCE_START_EVENT)
		return cfe_fail(l, ev->start_mark, "expected a list of zones, "
		    "got %s", cfe_what(ev));
	while ((rv = cfe_next_in(l, &item)) == 1) {
		if (item.type != YAML_MAPPING_START_EVENT)
			rv = cfe_fail(l, item.start_mark, "expected a mapping "
			    "with a path, got %s", cfe_what(&item));
		else if ((long long)c->nzones >= f->max)
			rv = cfe_fail(l, item.start_mark, "more than %lld "
			    "zones", f->max);
		else {
			c->zones = xreallocarray(c->zones, c->nzones + 1,
			    sizeof(*c->zones));
			z = &c->zones[c->nzones++];
			memset(z, 0, sizeof(*z));
			rv = zone_entry(l, z, &item);
		}
		yaml_event_delete(&item);
		if (rv == -1)
			return -1;
	}
	return rv;
}

static void
print_zones(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	const struct config	*c = o->top;
	const struct config_zone *z;
	size_t			 i, n = 0;

	(void)base;		/* one list for every host: the top's */
	cfe_out_key(o, f->key);
	for (i = 0; i < c->nzones; i++)
		n += rule_here(o, c->zones[i].host);
	buf_addstr(o->b, n == 0 ? " []\n" : "\n");
	o->indent += 4;
	for (i = 0; i < c->nzones; i++) {
		z = &c->zones[i];
		if (!rule_here(o, z->host))
			continue;
		cfe_out_item(o);
		cfe_out_keystr(o, "path", z->path[0] != '\0' ? z->path : "/");
		if (o->host == NULL && z->host != NULL)
			cfe_out_keystr(o, "host", z->host);
		cfe_out_line(o, "require", "certificate");
		if (z->nfingerprints > 0)
			cfe_list_kind.print(o, &zone_fields[ZONE_FINGERPRINTS],
			    z);
		if (z->ca != NULL)
			cfe_out_keystr(o, "ca", z->ca);
	}
	o->indent -= 4;
}

static const struct cfe_kind zones_kind = { parse_zones, print_zones };

static size_t	 port_key(size_t);

/*
 * hosts = "[" *( "{" hostname *( site key ) "}" ) "]" (or a block list),
 * or null for none: each item parsed against the same table as the top
 * level, site keys only, into a struct config of its own.
 */
static int
host_item(struct cfe *l, const struct cfe_field *f, const yaml_event_t *ev,
    yaml_mark_t *marks, unsigned char *seen)
{
	struct config_loader	*cl = l->owner;
	struct config		*c = cl->c;
	struct config_host	*h;
	const struct cfe_field	*keys;
	size_t			 i, n;
	int			 rv;

	keys = config_keys(&n);
	if ((long long)c->nhosts >= f->max)
		return cfe_fail(l, ev->start_mark, "more than %lld hosts",
		    f->max);
	c->hosts = xreallocarray(c->hosts, c->nhosts + 1, sizeof(*c->hosts));
	cl->hmarks = xreallocarray(cl->hmarks, c->nhosts + 1,
	    sizeof(*cl->hmarks));
	h = &c->hosts[c->nhosts++];
	memset(h, 0, sizeof(*h));
	h->site = xcalloc(1, sizeof(*h->site));
	memset(marks, 0, n * sizeof(*marks));
	memset(seen, 0, n);
	l->mode = CONFIG_SITE;
	rv = cfe_map(l, keys, n, h->site, CONFIG_SITE, CONFIG_SERVER_WIDE,
	    marks, seen);
	l->mode = 0;
	if (rv == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (seen[i])
			CONFIG_MARK(h->set, i);
	if (h->site->hostname == NULL)
		return cfe_fail(l, ev->start_mark, "every item needs a "
		    "hostname");
	cl->hmarks[c->nhosts - 1].name = marks[config_key_index("hostname")];
	cl->hmarks[c->nhosts - 1].root = marks[config_key_index("root")];
	cl->hmarks[c->nhosts - 1].cgi = marks[config_key_index("cgi")];
	for (i = 0; i < SURFACE_N; i++)
		cl->hmarks[c->nhosts - 1].port[i] = marks[port_key(i)];
	return 0;
}

void
config_hosts_free(struct config_host *v, size_t n)
{
	while (n > 0) {
		config_free(v[--n].site);
		free(v[n].site);
	}
	free(v);
}

static int
parse_hosts(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	struct config	*c = l->base;
	yaml_event_t	 item;
	yaml_mark_t	*marks;
	unsigned char	*seen;
	size_t		 n;
	int		 rv;

	config_hosts_free(c->hosts, c->nhosts);
	c->hosts = NULL;
	c->nhosts = 0;
	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		return 0;
	if (ev->type != YAML_SEQUENCE_START_EVENT)
		return cfe_fail(l, ev->start_mark, "expected a list of hosts, "
		    "got %s", cfe_what(ev));
	(void)config_keys(&n);
	marks = xreallocarray(NULL, n, sizeof(*marks));
	seen = xmalloc(n);
	while ((rv = cfe_next_in(l, &item)) == 1) {
		if (item.type != YAML_MAPPING_START_EVENT)
			rv = cfe_fail(l, item.start_mark, "expected a mapping "
			    "with a hostname, got %s", cfe_what(&item));
		else
			rv = host_item(l, f, &item, marks, seen);
		yaml_event_delete(&item);
		if (rv == -1)
			break;
	}
	free(marks);
	free(seen);
	return rv;
}

/*
 * Is key k a port v shares with the top level?  Printed there only: a
 * host item that set it would take the port as its own, which check_ports()
 * refuses on a surface whose requests name no host.
 */
static int
shared_port(const struct config *c, const struct config *v, size_t k)
{
	size_t	 s;

	for (s = 0; s < SURFACE_N; s++)
		if (k == port_key(s))
			return v->port[s] == c->port[s];
	return 0;
}

/* Each host as its view: every site key it ends up with. */
static void
print_hosts(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	const struct config	*c = base;
	const struct cfe_field	*keys;
	struct config		 v;
	size_t			 i, k, n;

	keys = config_keys(&n);
	cfe_out_key(o, f->key);
	buf_addstr(o->b, c->nhosts == 0 ? " []\n" : "\n");
	o->indent += 4;
	for (i = 0; i < c->nhosts; i++) {
		config_host_view(c, i + 1, &v);
		o->host = v.hostname;
		cfe_out_item(o);
		for (k = 0; k < n; k++)
			if ((keys[k].flags & CONFIG_SITE) &&
			    !shared_port(c, &v, k))
				keys[k].kind->print(o, &keys[k], &v);
	}
	o->host = NULL;
	o->indent -= 4;
}

static const struct cfe_kind hosts_kind = { parse_hosts, print_hosts };

/*
 * Every key the file may hold, in the order the printer writes them.
 * For text, min 0 means the key may be null (stored as NULL) and max
 * is a length in bytes; for durations the range is in milliseconds;
 * for lists, max is the number of entries.
 */
static const struct cfe_field fields[] = {
	{ "hostname", &cfe_host_kind, AT(hostname), 1, 253, SITE | USER,
	    NULL },
	{ "bind", &cfe_list_kind, LIST(bind, nbind), 1, CONFIG_MAX_BIND,
	    SERVER | USER, &bind_items },
	{ "capsule", &cfe_path_kind, AT(capsule_dir), 1, PATH_MAX, SITE,
	    NULL },
	{ "certs", &cfe_path_kind, AT(cert_dir), 1, PATH_MAX, SITE, NULL },
	{ "watch", &cfe_bool_kind, AT(watch), 0, 1, SERVER | USER, NULL },
	{ "watch_debounce", &cfe_ms_kind, AT(watch_debounce_ms), 0,
	    10 * 1000, SERVER | USER, NULL },
	{ "cache_max_bytes", &cfe_size_kind, AT(cache_max_bytes), 0,
	    1LL << 40, SERVER | USER, NULL },
	{ "file_cache_max", &cfe_size_kind, AT(file_cache_max), 0, 1LL << 30,
	    SITE | USER, NULL },
	{ "workers", &workers_kind, AT(workers), 1, 256, SERVER | USER, NULL },
	{ "request_timeout", &cfe_ms_kind, AT(request_timeout_ms), 1, DAY_MS,
	    SERVER | USER, NULL },
	{ "idle_timeout", &cfe_ms_kind, AT(idle_timeout_ms), 1, DAY_MS,
	    SERVER | USER, NULL },
	{ "max_connections", &cfe_uint_kind, AT(max_connections), 1,
	    1000000, SERVER | USER, NULL },
	{ "handshake_timeout", &cfe_ms_kind, AT(handshake_timeout_ms), 1,
	    DAY_MS, SERVER | USER, NULL },
	{ "max_connections_per_ip", &cfe_uint_kind, AT(max_conns_per_ip), 0,
	    1000000, SERVER | USER, NULL },
	{ "rate_limit", &cfe_rate_kind, AT(rate_limit_milli), 0,
	    1000000LL * 1000, SERVER | USER, NULL },
	{ "rate_burst", &cfe_uint_kind, AT(rate_burst), 1, 1000000,
	    SERVER | USER, NULL },
	{ "max_post_size", &cfe_size_kind, AT(max_post_size), 1024, 1LL << 30,
	    SERVER | USER, NULL },
	{ "max_archive_size", &cfe_size_kind, AT(max_archive_size), 1LL << 20,
	    1LL << 40, SERVER | USER, NULL },
	/* A user capsule's at most "false" (config_user_view()). */
	{ "follow_symlinks", &cfe_word_kind, AT(follow_symlinks), 0, 0,
	    SITE | USER, &links_words },
	{ "files_hardlinks", &cfe_bool_kind, AT(files_hardlinks), 0, 1, SITE,
	    NULL },
	{ "listings", &cfe_bool_kind, AT(listings), 0, 1, SITE | USER, NULL },
	{ "root", &root_kind, AT(root), 0, 64, SITE, NULL },
	{ "mount", &mount_kind, AT(mount), 0, 64, SITE, NULL },
	{ "index", &index_kind, AT(index), 1, 64, SITE | USER, NULL },
	{ "root_listings", &cfe_bool_kind, AT(root_listings), 0, 1,
	    SITE | USER, NULL },
	{ "listing_titles", &cfe_bool_kind, AT(listing_titles), 0, 1,
	    SITE | USER, NULL },
	{ "listing_sort", &cfe_word_kind, AT(listing_sort), 0, 0,
	    SITE | USER, &sort_words },
	{ "listing_reverse", &cfe_bool_kind, AT(listing_reverse), 0, 1,
	    SITE | USER, NULL },
	{ "mime_types", &types_kind, AT(types), 0, 0, SITE | USER, NULL },
	{ "default_type", &types_kind, AT(types), 0, 0, SITE | USER, NULL },
	{ "path_meta", &types_kind, AT(types), 0, 0, SITE | USER, NULL },
	{ "user", &user_kind, AT(user), 0, 32, SERVER | USER, NULL },
	{ "chroot", &cfe_path_kind, AT(chroot_dir), 0, PATH_MAX,
	    SERVER | USER, NULL },
	{ "allow_root", &cfe_bool_kind, AT(allow_root), 0, 1, SERVER | USER,
	    NULL },
	{ "sandbox", &cfe_bool_kind, AT(sandbox), 0, 1, SERVER | USER, NULL },
	{ "ticket_rotation", &cfe_ms_kind, AT(ticket_rotation_ms), 60 * 1000,
	    7 * DAY_MS, SERVER | USER, NULL },
	{ "tls_protocols", &cfe_word_kind, AT(tls_protocols), 0, 0,
	    SERVER | USER, &tls_words },
	{ "ticket_keys", &cfe_path_kind, AT(ticket_keys), 0, PATH_MAX,
	    SERVER | USER, NULL },
	{ "proxy_protocol", &cfe_list_kind, LIST(proxy_protocol,
	    nproxy_protocol), 0, CONFIG_MAX_PROXIES, SERVER | USER,
	    &proxy_items },
	{ "lang", &cfe_lang_kind, AT(lang), 1, MIME_LANG_MAX, SITE | USER,
	    NULL },
	/* A user capsule's are the user's name (config_user_view()). */
	{ "title", &title_kind, AT(site_title), 1, 256, SITE, NULL },
	{ "subtitle", &cfe_text_kind, AT(site_subtitle), 0, 256, SITE, NULL },
	{ "author", &cfe_text_kind, AT(author), 0, 256, SITE, NULL },
	{ "latest_posts", &cfe_uint_kind, AT(latest_posts), 0, 1000,
	    SITE | USER, NULL },
	{ "atom_full_content", &cfe_bool_kind, AT(atom_full_content), 0, 1,
	    SITE | USER, NULL },
	{ "link_aliases", &cfe_list_kind, LIST(link_aliases, nlink_aliases),
	    0, 32, SITE, &alias_items },
	{ "web_url", &web_url_kind, AT(web_url), 0, 1024, SITE, NULL },
	/* Not a user capsule's: no connection out on a user's behalf. */
	{ "announce", &cfe_list_kind, LIST(announce, nannounce), 0,
	    CONFIG_ANNOUNCE_MAX, SITE, &announce_items },
	{ "announce_delay", &cfe_ms_kind, AT(announce_delay_ms), 100, DAY_MS,
	    SERVER, NULL },
	{ "gopher_width", &cfe_uint_kind, AT(gopher_width), 20, 200,
	    SITE | USER, NULL },
	{ "gopher_charset", &cfe_word_kind, AT(gopher_charset), 0, 0,
	    SITE | USER, &charset_words },
	{ "log", &log_kind, OFF(log_file), OFF(log_syslog) + SZ(log_syslog) -
	    OFF(log_file), 1, PATH_MAX, SERVER | USER, NULL },
	{ "log_level", &cfe_word_kind, AT(log_level), 0, 0, SERVER | USER,
	    &level_words },
	{ "access_log", &access_log_kind, OFF(access_log_file),
	    OFF(access_log) + SZ(access_log) - OFF(access_log_file), 1,
	    PATH_MAX, SERVER | USER, NULL },
	{ "log_peer", &cfe_word_kind, AT(log_peer), 0, 0, SERVER | USER,
	    &peer_words },
	{ "log_format", &cfe_word_kind, AT(log_format), 0, 0, SERVER | USER,
	    &log_format_words },
	{ "syslog_facility", &cfe_word_kind, AT(syslog_facility), 0, 0,
	    SERVER | USER, &facility_words },
	{ "syslog_socket", &cfe_path_kind, AT(syslog_socket), 0, PATH_MAX,
	    SERVER | USER, NULL },
	{ "redirects", &redirects_kind, LIST(redirects, nredirects), 1,
	    CONFIG_MAX_REDIRECTS, SITE, NULL },
	{ "redirects_first", &cfe_bool_kind, AT(redirects_first), 0, 1, SITE,
	    NULL },
	{ "robots", &robots_kind, AT(robots), 0, 65536, SITE | USER, NULL },
	{ "cgi", &cgi_kind, AT(cgi), 0, 64, SITE, NULL },
	{ "cgi_timeout", &cfe_ms_kind, AT(cgi_timeout_ms), 100,
	    60 * 60 * 1000, SITE, NULL },
	{ "cgi_max_output", &cfe_size_kind, AT(cgi_max_output), 1024,
	    1LL << 30, SITE, NULL },
	/* Per worker, for every host: net/conn.c counts them so. */
	{ "cgi_max_programs", &cfe_uint_kind, AT(cgi_max_programs), 1, 1000,
	    SERVER | USER, NULL },
	{ "fastcgi", &apps_kind, LIST(apps, napps), 0, 0, SITE | RULES,
	    NULL },
	{ "scgi", &apps_kind, LIST(apps, napps), 0, 0, SITE | RULES, NULL },
	{ "proxy", &apps_kind, LIST(apps, napps), 0, 0, SITE | RULES, NULL },
	{ "titan_writers", &cfe_list_kind, LIST(titan_writers,
	    ntitan_writers), 0, 1000, SITE, &writer_items },
	{ "titan_max_size", &cfe_size_kind, AT(titan_max_size), 1024,
	    1LL << 30, SITE, NULL },
	/* Zones guard paths under /~name/ too: site/zone.c. */
	{ "cert_zones", &zones_kind, LIST(zones, nzones), 0, CONFIG_MAX_ZONES,
	    SITE | RULES | USER, NULL },
	{ "userdirs", &userdirs_kind, AT(userdirs), 0, 64, SERVER, NULL },
	{ "userdirs_uid_min", &cfe_uint_kind, AT(userdirs_uid_min), 0,
	    4294967294LL, SERVER, NULL },
	{ "userdirs_uid_max", &cfe_uint_kind, AT(userdirs_uid_max), 0,
	    4294967294LL, SERVER, NULL },
	{ "hosts", &hosts_kind, LIST(hosts, nhosts), 0, CONFIG_MAX_HOSTS - 1,
	    SERVER, NULL },
};

#define NFIELDS		nitems(fields)
#define SURFACE_KEY_MAX	32

/* The index of surface's "<name>_port" among config_keys(). */
static size_t
port_key(size_t surface)
{
	return NFIELDS + 2 * surface;
}

/*
 * fields[], then each surface's keys (core/surface.h), made from its
 * name so that a new surface needs no line here: "<name>_port", where
 * it listens (a host may listen on a port of its own: check_ports()),
 * and "<name>_public_port", the port its links name (a host behind
 * another forward may have its own).
 */
static struct cfe_field	 all[NFIELDS + 2 * SURFACE_N];
static char		 surface_keys[2 * SURFACE_N][SURFACE_KEY_MAX];
static pthread_once_t	 all_once = PTHREAD_ONCE_INIT;

_Static_assert(NFIELDS + 2 * SURFACE_N <= CONFIG_KEYS_MAX,
    "struct config_host's set has a bit for each key");

static void
make_keys(void)
{
	struct cfe_field	*f;
	size_t			 i;

	memcpy(all, fields, sizeof(fields));
	for (i = 0; i < SURFACE_N; i++) {
		f = &all[NFIELDS + 2 * i];
		snprintf(surface_keys[2 * i], SURFACE_KEY_MAX, "%s_port",
		    surfaces[i].name);
		snprintf(surface_keys[2 * i + 1], SURFACE_KEY_MAX,
		    "%s_public_port", surfaces[i].name);
		f[0] = (struct cfe_field){ surface_keys[2 * i], &cfe_int_kind,
		    OFF(port) + i * sizeof(int), sizeof(int),
		    surfaces[i].min_port, 65535, SITE | USER, NULL };
		f[1] = (struct cfe_field){ surface_keys[2 * i + 1],
		    &cfe_int_kind, OFF(public_port) + i * sizeof(int),
		    sizeof(int), 0, 65535, SITE | USER, NULL };
	}
}

const struct cfe_field *
config_keys(size_t *n)
{
	pthread_once(&all_once, make_keys);
	*n = nitems(all);
	return all;
}

size_t
config_key_index(const char *key)
{
	size_t	 i, n;

	(void)config_keys(&n);
	for (i = 0; i < n; i++)
		if (strcmp(all[i].key, key) == 0)
			return i;
	abort();		/* a name of this file's own: never */
}

/* One port a surface listens on, and who set it (check_ports()). */
struct port_use {
	int		 port;
	size_t		 surface;
	size_t		 host;		/* 0: the top level; i: hosts[i - 1] */
	int		 set;		/* in the file, not a default */
	yaml_mark_t	 mark;
};

static int
port_use_cmp(const void *a, const void *b)
{
	const struct port_use	*x = a, *y = b;

	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	if (x->set != y->set)		/* defaults first: the other is wrong */
		return x->set < y->set ? -1 : 1;
	return x->mark.index < y->mark.index ? -1 :
	    x->mark.index > y->mark.index;
}

/*
 * Where the surfaces listen: each top-level <name>_port, which every
 * host shares unless it sets its own, and each port a host sets.  A
 * port is one surface's.  On a surface whose requests name no host
 * (Gopher, Nex, Finger: no SURFACE_NAMED), a port is also one host's,
 * since nothing else could say whose capsule a request is for; hosts
 * that set no port of their own are not on it (the top level's host
 * answers its port).  The key that is wrong is the later one, or the
 * one set against a default.
 */
static int
check_ports(struct config_loader *cl, const yaml_mark_t *marks,
    const unsigned char *seen)
{
	const struct config	*c = cl->c;
	struct port_use		*u, *a, *b;
	size_t			 i, k, first, n = 0;
	int			 rv = 0;

	u = xreallocarray(NULL, (c->nhosts + 1) * SURFACE_N, sizeof(*u));
	for (k = 0; k < SURFACE_N; k++) {
		if (c->port[k] != 0)
			u[n++] = (struct port_use){ c->port[k], k, 0,
			    seen[port_key(k)], marks[port_key(k)] };
		for (i = 0; i < c->nhosts; i++)
			if (CONFIG_SET(c->hosts[i].set, port_key(k)) &&
			    c->hosts[i].site->port[k] != 0)
				u[n++] = (struct port_use){
				    c->hosts[i].site->port[k], k, i + 1, 1,
				    cl->hmarks[i].port[k] };
	}
	qsort(u, n, sizeof(*u), port_use_cmp);
	for (i = 1; i < n && rv == 0; i++) {
		a = &u[i - 1];
		b = &u[i];
		if (a->port != b->port)
			continue;
		/* The surfaces in the table's order, as the keys are. */
		first = a->surface < b->surface ? a->surface : b->surface;
		if (a->surface != b->surface)
			rv = cfe_fail(&cl->e, b->mark, "%s: port %d is used by "
			    "both %s and %s", all[port_key(b->surface)].key,
			    b->port, surfaces[first].title,
			    surfaces[a->surface ^ b->surface ^ first].title);
		else if (!(surfaces[b->surface].caps & SURFACE_NAMED))
			rv = cfe_fail(&cl->e, b->mark, "%s: port %d is %s's "
			    "already; a %s request names no host, so each "
			    "host needs a port of its own",
			    all[port_key(b->surface)].key, b->port,
			    a->host == 0 ? c->hostname :
			    c->hosts[a->host - 1].site->hostname,
			    surfaces[b->surface].title);
	}
	free(u);
	return rv;
}

int
config_check_top(struct config_loader *cl, const yaml_mark_t *marks,
    const unsigned char *seen)
{
	const struct config	*c = cl->c;
	size_t			 umin, umax;

	if (check_ports(cl, marks, seen) == -1)
		return -1;
	if (c->userdirs != NULL && c->chroot_dir != NULL)
		return cfe_fail(&cl->e, marks[config_key_index("userdirs")],
		    "userdirs: users' home directories are out of reach "
		    "in the chroot %s; use one or the other", c->chroot_dir);
	umin = config_key_index("userdirs_uid_min");
	umax = config_key_index("userdirs_uid_max");
	if (c->userdirs_uid_min > c->userdirs_uid_max)
		return cfe_fail(&cl->e, marks[seen[umin] ? umin : umax],
		    "userdirs_uid_min: %u is above userdirs_uid_max (%u)",
		    c->userdirs_uid_min, c->userdirs_uid_max);
	return 0;
}
