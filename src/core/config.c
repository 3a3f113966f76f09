/*
 * config.c -- the YAML configuration file, as one struct config.
 *
 * The file is read with libyaml's event API.  Its one document is a
 * mapping; each key is looked up in fields[], a table of {key, parser,
 * offset, min, max}, and the parser stores the value at that offset.
 * Whatever the table does not allow -- an unknown or repeated key, an
 * alias or anchor, a list where one value belongs, a value out of range
 * -- stops the load with "PATH:LINE:COL: what is wrong", pointing at the
 * key for unknown and repeated keys and at the value for the rest.
 *
 * Knows libyaml and path names (realpath() of the file's directory, so
 * relative paths in the file are taken from there), nothing of the
 * server.  The struct config owns every string in it; a load that fails
 * frees what it had built, so the caller has nothing to free.
 */
#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <yaml.h>

#include "core/buf.h"
#include "core/capfile.h"
#include "core/config.h"
#include "core/config_apps.h"
#include "core/config_types.h"
#include "core/gemini_limits.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/mime.h"
#include "core/redirect.h"
#include "core/url.h"
#include "core/util.h"
#include "core/yaml.h"

#define CONFIG_MAX_SIZE	(1024 * 1024)	/* bytes of YAML we will read */
#define CONFIG_MAX_BIND	32		/* addresses in "bind" */
#define CONFIG_MAX_PROXIES 64		/* entries in "proxy_protocol" */
#define CONFIG_MAX_REDIRECTS 10000	/* entries in "redirects" */
#define CONFIG_MAX_URL	GEMINI_META_MAX	/* a redirect target is a META */
#define SHOW_MAX	40		/* bytes of a bad value in a message */

struct loader;
struct field;

typedef int	(*field_parser)(struct loader *, const struct field *,
		    yaml_event_t *);

/* One spelling of a keyword value, and the number stored for it. */
struct word {
	const char	*name;		/* matched ignoring case */
	int		 value;
};

/* The values of a keyword field, for get_word(). */
struct words {
	const char	*what;		/* "utf-8 or ascii", for messages */
	struct word	 w[12];		/* ends at a NULL name */
};

struct field {
	const char	*key;		/* as written in the file */
	field_parser	 parse;
	size_t		 off;		/* where in struct config */
	long long	 min, max;	/* range of a number, length of text */
};

struct loader {
	struct config	*c;		/* being filled; owns what is stored */
	yaml_parser_t	 parser;
	const char	*name;		/* file name as given, for messages */
	const char	*data;		/* the whole input */
	size_t		 len;
	const char	*confdir;	/* absolute; anchors relative paths */
	void		*base;		/* what fields' offsets are into: c, or
					   a struct config_host of "hosts" */
	yaml_mark_t	*host_marks;	/* owned; hostname of each hosts item */
	/* The top-level keys: fields[], then each surface's port keys. */
	struct field	*top;		/* owned */
	char		*surface_keys;	/* owned: their names */
	char		*err;		/* "NAME:LINE:COL: ..." goes here */
	size_t		 errlen;
};

static int	parse_aliases(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_apps(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_bind(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_bool(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_cgi(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_charset(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_links(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_peer(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_userdirs(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_root(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_mount(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_index(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_sort(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_types(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_rate(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_size(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_user(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_host(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_hosts(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_int(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_lang(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_level(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_log(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_ms(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_path(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_proxies(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_redirects(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_robots(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_web_url(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_text(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_uint(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_workers(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_writers(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_zones(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_log_format(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_tls(struct loader *, const struct field *,
		    yaml_event_t *);
static int	parse_facility(struct loader *, const struct field *,
		    yaml_event_t *);

#define OFF(m)		offsetof(struct config, m)
#define DAY_MS		(24LL * 60 * 60 * 1000)

/* gopher_charset = "utf-8" / "ascii" (and their other common names) */
static const struct words charset_words = { "utf-8 or ascii", {
	{ "utf-8", CONFIG_CHARSET_UTF8 }, { "utf8", CONFIG_CHARSET_UTF8 },
	{ "ascii", CONFIG_CHARSET_ASCII }, { "us-ascii", CONFIG_CHARSET_ASCII },
	{ NULL, 0 } } };

/*
 * follow_symlinks = false / true / "never" (and the other spellings of
 * a bool): links that stay inside the capsule, any link, no link.
 */
static const struct words links_words = { "false, true or never", {
	{ "false", CONFIG_LINKS_INSIDE }, { "no", CONFIG_LINKS_INSIDE },
	{ "off", CONFIG_LINKS_INSIDE }, { "inside", CONFIG_LINKS_INSIDE },
	{ "true", CONFIG_LINKS_ANY }, { "yes", CONFIG_LINKS_ANY },
	{ "on", CONFIG_LINKS_ANY }, { "any", CONFIG_LINKS_ANY },
	{ "never", CONFIG_LINKS_NONE }, { "none", CONFIG_LINKS_NONE },
	{ NULL, 0 } } };

/* log_peer = "full" / "anonymise" / "anonymize" / "none" */
static const struct words peer_words = { "full, anonymise or none", {
	{ "full", LOG_PEER_FULL }, { "anonymise", LOG_PEER_ANONYMISE },
	{ "anonymize", LOG_PEER_ANONYMISE }, { "none", LOG_PEER_NONE },
	{ NULL, 0 } } };

/* get_word() stores an int; an enum field must be as wide. */
_Static_assert(sizeof(enum log_peer) == sizeof(int),
    "log_peer is stored as an int");

/*
 * Every key the file may hold.  For text, min 0 means the key may be
 * null (stored as NULL) and max is a length in bytes; for durations the
 * range is in milliseconds.
 */
static const struct field fields[] = {
	{ "hostname",		parse_host,	OFF(hostname),	1, 253 },
	{ "bind",		parse_bind,	OFF(bind),	1,
	    CONFIG_MAX_BIND },
	{ "capsule",		parse_path,	OFF(capsule_dir), 1, PATH_MAX },
	{ "certs",		parse_path,	OFF(cert_dir),	1, PATH_MAX },
	{ "watch",		parse_bool,	OFF(watch),	0, 1 },
	{ "watch_debounce",	parse_ms,	OFF(watch_debounce_ms),
	    0, 10 * 1000 },
	{ "cache_max_bytes",	parse_size,	OFF(cache_max_bytes),
	    0, 1LL << 40 },
	{ "file_cache_max",	parse_size,	OFF(file_cache_max),
	    0, 1LL << 30 },
	{ "workers",		parse_workers,	OFF(workers),	1, 256 },
	{ "request_timeout",	parse_ms,	OFF(request_timeout_ms),
	    1, DAY_MS },
	{ "idle_timeout",	parse_ms,	OFF(idle_timeout_ms),
	    1, DAY_MS },
	{ "max_connections",	parse_uint,	OFF(max_connections),
	    1, 1000000 },
	{ "handshake_timeout",	parse_ms,	OFF(handshake_timeout_ms),
	    1, DAY_MS },
	{ "max_connections_per_ip", parse_uint,	OFF(max_conns_per_ip),
	    0, 1000000 },
	{ "rate_limit",		parse_rate,	OFF(rate_limit_milli),
	    0, 1000000LL * 1000 },
	{ "rate_burst",		parse_uint,	OFF(rate_burst), 1, 1000000 },
	{ "max_post_size",	parse_size,	OFF(max_post_size),
	    1024, 1LL << 30 },
	{ "max_archive_size",	parse_size,	OFF(max_archive_size),
	    1LL << 20, 1LL << 40 },
	{ "follow_symlinks",	parse_links,	OFF(follow_symlinks), 0, 0 },
	{ "files_hardlinks",	parse_bool,	OFF(files_hardlinks), 0, 1 },
	{ "listings",		parse_bool,	OFF(listings),	0, 1 },
	{ "root",		parse_root,	OFF(root),	0, 64 },
	{ "mount",		parse_mount,	OFF(mount),	0, 64 },
	{ "index",		parse_index,	OFF(index),	1, 64 },
	{ "root_listings",	parse_bool,	OFF(root_listings), 0, 1 },
	{ "listing_titles",	parse_bool,	OFF(listing_titles), 0, 1 },
	{ "listing_sort",	parse_sort,	OFF(listing_sort), 0, 0 },
	{ "mime_types",		parse_types,	OFF(types),	0, 0 },
	{ "default_type",	parse_types,	OFF(types),	0, 0 },
	{ "path_meta",		parse_types,	OFF(types),	0, 0 },
	{ "user",		parse_user,	OFF(user),	0, 32 },
	{ "chroot",		parse_path,	OFF(chroot_dir), 0, PATH_MAX },
	{ "allow_root",		parse_bool,	OFF(allow_root), 0, 1 },
	{ "sandbox",		parse_bool,	OFF(sandbox),	0, 1 },
	{ "ticket_rotation",	parse_ms,	OFF(ticket_rotation_ms),
	    60 * 1000, 7 * DAY_MS },
	{ "tls_protocols",	parse_tls,	OFF(tls_protocols), 0, 0 },
	{ "ticket_keys",	parse_path,	OFF(ticket_keys), 0, PATH_MAX },
	{ "proxy_protocol",	parse_proxies,	OFF(proxy_protocol), 0,
	    CONFIG_MAX_PROXIES },
	{ "lang",		parse_lang,	OFF(lang),	1, MIME_LANG_MAX },
	{ "title",		parse_text,	OFF(site_title), 1, 256 },
	{ "subtitle",		parse_text,	OFF(site_subtitle), 0, 256 },
	{ "author",		parse_text,	OFF(author),	0, 256 },
	{ "latest_posts",	parse_uint,	OFF(latest_posts), 0, 1000 },
	{ "atom_full_content",	parse_bool,	OFF(atom_full_content), 0, 1 },
	{ "link_aliases",	parse_aliases,	OFF(link_aliases), 0, 32 },
	{ "web_url",		parse_web_url,	OFF(web_url),	0, 1024 },
	{ "gopher_width",	parse_uint,	OFF(gopher_width), 20, 200 },
	{ "gopher_charset",	parse_charset,	OFF(gopher_charset), 0, 0 },
	{ "log",		parse_log,	OFF(log_file),	1, PATH_MAX },
	{ "log_level",		parse_level,	OFF(log_level),	0, 0 },
	{ "access_log",		parse_bool,	OFF(access_log), 0, 1 },
	{ "log_peer",		parse_peer,	OFF(log_peer),	0, 0 },
	{ "log_format",		parse_log_format, OFF(log_format), 0, 0 },
	{ "syslog_facility",	parse_facility,	OFF(syslog_facility), 0, 0 },
	{ "syslog_socket",	parse_path,	OFF(syslog_socket), 0,
	    PATH_MAX },
	{ "redirects",		parse_redirects, OFF(redirects), 1,
	    CONFIG_MAX_REDIRECTS },
	{ "robots",		parse_robots,	OFF(robots),	0, 65536 },
	{ "cgi",		parse_cgi,	OFF(cgi),	0, 64 },
	{ "cgi_timeout",	parse_ms,	OFF(cgi_timeout_ms),
	    100, 60 * 60 * 1000 },
	{ "cgi_max_output",	parse_size,	OFF(cgi_max_output),
	    1024, 1LL << 30 },
	{ "cgi_max_programs",	parse_uint,	OFF(cgi_max_programs),
	    1, 1000 },
	{ "fastcgi",		parse_apps,	OFF(apps),	0, 0 },
	{ "scgi",		parse_apps,	OFF(apps),	0, 0 },
	{ "proxy",		parse_apps,	OFF(apps),	0, 0 },
	{ "titan_writers",	parse_writers,	OFF(titan_writers), 0, 1000 },
	{ "titan_max_size",	parse_size,	OFF(titan_max_size),
	    1024, 1LL << 30 },
	{ "cert_zones",		parse_zones,	OFF(zones),	0,
	    CONFIG_MAX_ZONES },
	{ "userdirs",		parse_userdirs,	OFF(userdirs),	0, 64 },
	{ "userdirs_uid_min",	parse_uint,	OFF(userdirs_uid_min),
	    0, 4294967294LL },
	{ "userdirs_uid_max",	parse_uint,	OFF(userdirs_uid_max),
	    0, 4294967294LL },
	{ "hosts",		parse_hosts,	OFF(hosts),	0,
	    CONFIG_MAX_HOSTS - 1 },
};

#define NFIELDS		(sizeof(fields) / sizeof(fields[0]))

/*
 * Each surface's keys (core/surface.h), made from its name, so that a
 * new surface needs no line here: "<name>_port" and "<name>_public_port",
 * after fields[] in the loader's table of top-level keys (top_fields()).
 */
#define NSURFACE_FIELDS	(2 * SURFACE_N)
#define NTOP_FIELDS	(NFIELDS + NSURFACE_FIELDS)
#define SURFACE_KEY_MAX	32

#define HOFF(m)		offsetof(struct config_host, m)

/*
 * The keys of one "hosts" item, parsed as the top-level keys of the
 * same name are, into a struct config_host.
 */
static const struct field host_fields[] = {
	{ "hostname",		parse_host,	HOFF(hostname),	1, 253 },
	{ "capsule",		parse_path,	HOFF(capsule_dir), 1, PATH_MAX },
	{ "certs",		parse_path,	HOFF(cert_dir),	1, PATH_MAX },
	{ "title",		parse_text,	HOFF(site_title), 1, 256 },
	{ "subtitle",		parse_text,	HOFF(site_subtitle), 0, 256 },
	{ "author",		parse_text,	HOFF(author),	0, 256 },
	{ "lang",		parse_lang,	HOFF(lang),	1, MIME_LANG_MAX },
};

#define NHOST_FIELDS	(sizeof(host_fields) / sizeof(host_fields[0]))

/* Format "NAME:LINE:COL: msg" into l->err; always returns -1. */
static int
fail(struct loader *l, yaml_mark_t m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
fail(struct loader *l, yaml_mark_t m, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	if (l->err == NULL || l->errlen == 0)
		return -1;
	n = snprintf(l->err, l->errlen, "%s:%zu:%zu: ", l->name,
	    m.line + 1, m.column + 1);
	if (n < 0 || (size_t)n >= l->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(l->err + n, l->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * s made fit for a message: at most SHOW_MAX bytes (cut on a UTF-8
 * boundary, "..." added), control bytes as '?'.  Returns out.
 */
static const char *
show(const char *s, char out[SHOW_MAX + 4])
{
	size_t	 i, len;

	len = strlen(s);
	if (len > SHOW_MAX) {
		len = SHOW_MAX;
		while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
			len--;
	}
	for (i = 0; i < len; i++)
		out[i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' :
		    s[i];
	if (len < strlen(s)) {
		memcpy(out + len, "...", 3);
		len += 3;
	}
	out[len] = '\0';
	return out;
}

/* Report libyaml's own error (syntax, encoding, memory). */
static int
fail_yaml(struct loader *l)
{
	yaml_mark_t	 m;
	char		 msg[256];

	yml_problem(&l->parser, l->data, l->len, &m, msg, sizeof(msg));
	return fail(l, m, "%s", msg);
}

static const char *
event_kind(const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		return "a single value";
	case YAML_SEQUENCE_START_EVENT:
		return "a list";
	case YAML_MAPPING_START_EVENT:
		return "a mapping";
	default:
		return "something else";
	}
}

/*
 * The next event into ev, which the caller then owns and deletes.
 * Aliases, anchors and tags are refused here, once for every node:
 * a configuration has no use for them.  Returns 0, or -1 with the
 * error set and nothing to delete.
 */
static int
next(struct loader *l, yaml_event_t *ev)
{
	const yaml_char_t	*anchor = NULL, *tag = NULL;

	if (!yaml_parser_parse(&l->parser, ev))	/* libyaml: 0 is failure */
		return fail_yaml(l);
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		fail(l, ev->start_mark, "aliases (*name) are not allowed");
		yaml_event_delete(ev);
		return -1;
	case YAML_SCALAR_EVENT:
		anchor = ev->data.scalar.anchor;
		tag = ev->data.scalar.tag;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = ev->data.sequence_start.anchor;
		tag = ev->data.sequence_start.tag;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = ev->data.mapping_start.anchor;
		tag = ev->data.mapping_start.tag;
		break;
	default:
		break;
	}
	if (anchor != NULL || tag != NULL) {
		fail(l, ev->start_mark, "%s are not allowed",
		    anchor != NULL ? "anchors (&name)" : "tags (!name)");
		yaml_event_delete(ev);
		return -1;
	}
	return 0;
}

/*
 * The next node of a list or a mapping into ev, which the caller then
 * owns and deletes: 1, or 0 at the end of the collection (its end event
 * deleted already), or -1 as next() says.
 */
static int
next_in(struct loader *l, yaml_event_t *ev)
{
	if (next(l, ev) == -1)
		return -1;
	if (ev->type == YAML_SEQUENCE_END_EVENT ||
	    ev->type == YAML_MAPPING_END_EVENT) {
		yaml_event_delete(ev);
		return 0;
	}
	return 1;
}

/*
 * The value of a scalar event, borrowed from ev; what names what the key
 * wants, for the message when ev is a list or a mapping.  Refuses NUL
 * bytes (a double-quoted "\0") so that C strings hold the whole value.
 */
static int
scalar(struct loader *l, const struct field *f, const yaml_event_t *ev,
    const char *what, const char **out)
{
	if (ev->type != YAML_SCALAR_EVENT)
		return fail(l, ev->start_mark, "%s: expected %s, got %s",
		    f->key, what, event_kind(ev));
	if (strlen((const char *)ev->data.scalar.value) !=
	    ev->data.scalar.length)
		return fail(l, ev->start_mark, "%s: contains a NUL byte",
		    f->key);
	*out = (const char *)ev->data.scalar.value;
	return 0;
}

static void *
field_at(struct loader *l, const struct field *f)
{
	return (char *)l->base + f->off;
}

/* Replace the string at f's offset with a copy of s (NULL allowed). */
static void
set_str(struct loader *l, const struct field *f, const char *s)
{
	char	**p = field_at(l, f);

	free(*p);
	*p = s != NULL ? xstrdup(s) : NULL;
}

/*
 * One line of text, f->min..f->max bytes, no control characters.  *out
 * is NULL for a null value when f->min is 0 (an optional string).
 */
static int
get_text(struct loader *l, const struct field *f, const yaml_event_t *ev,
    const char **out)
{
	const char	*s;
	size_t		 i, len;

	if (scalar(l, f, ev, "a string", &s) == -1)
		return -1;
	if (yml_is_null(ev) || *s == '\0') {
		if (f->min > 0)
			return fail(l, ev->start_mark,
			    "%s: must not be empty", f->key);
		*out = NULL;
		return 0;
	}
	len = strlen(s);
	if ((long long)len < f->min || (long long)len > f->max)
		return fail(l, ev->start_mark,
		    "%s: must be %lld to %lld bytes long", f->key, f->min,
		    f->max);
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return fail(l, ev->start_mark,
			    "%s: must be one line without control characters",
			    f->key);
	*out = s;
	return 0;
}

static int
parse_text(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	const char	*s;

	if (get_text(l, f, ev, &s) == -1)
		return -1;
	set_str(l, f, s);
	return 0;
}

/*
 * host = label *("." label) / IPv6 literal
 * label = 1*63(ALPHA / DIGIT / "-" / "_"), not starting or ending in "-"
 */
static int
valid_host(const char *s)
{
	struct in6_addr	 a6;
	size_t		 label = 0;

	if (inet_pton(AF_INET6, s, &a6) == 1)
		return 1;
	for (; *s != '\0'; s++) {
		if (*s == '.') {
			if (label == 0 || s[-1] == '-')
				return 0;
			label = 0;
		} else if ((*s >= 'a' && *s <= 'z') ||
		    (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		    *s == '_' || (*s == '-' && label > 0)) {
			if (++label > 63)
				return 0;
		} else
			return 0;
	}
	return label > 0 && s[-1] != '-';
}

/* Stored in lower case: host names compare case-insensitively (SNI). */
static int
parse_host(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s;
	char		**p = field_at(l, f), *q;

	if (get_text(l, f, ev, &s) == -1)
		return -1;
	if (!valid_host(s))
		return fail(l, ev->start_mark,
		    "%s: '%s' is not a host name", f->key, show(s, tmp));
	set_str(l, f, s);
	for (q = *p; *q != '\0'; q++)
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q - 'A' + 'a');
	return 0;
}

/* lang: mime_lang_ok(), after get_text() held it to 1..35 bytes. */
static int
parse_lang(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s;

	if (get_text(l, f, ev, &s) == -1)
		return -1;
	if (!mime_lang_ok(s))
		return fail(l, ev->start_mark,
		    "%s: '%s' is not a language tag like en or pt-BR",
		    f->key, show(s, tmp));
	set_str(l, f, s);
	return 0;
}

/*
 * Join dir and p (dir is ignored when p is absolute) and drop empty,
 * "." and ".." components, without looking at the file system.  dir
 * must be absolute; so is the result, which the caller frees.
 */
static char *
path_resolve(const char *dir, const char *p)
{
	char		*all, *out;
	const char	*s, *e;
	size_t		 o = 0, n;

	all = p[0] == '/' ? xstrdup(p) : xasprintf("%s/%s", dir, p);
	out = xmalloc(strlen(all) + 2);
	for (s = all; *s != '\0'; s = e) {
		while (*s == '/')
			s++;
		for (e = s; *e != '\0' && *e != '/'; e++)
			;
		n = (size_t)(e - s);
		if (n == 0 || (n == 1 && s[0] == '.'))
			continue;
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			while (o > 0 && out[--o] != '/')
				;
			continue;
		}
		out[o++] = '/';
		memcpy(out + o, s, n);
		o += n;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	free(all);
	return out;
}

/*
 * dir as an absolute path: realpath() when it exists, else joined to the
 * working directory.  NULL with errno set when neither works.
 */
static char *
absolute_dir(const char *dir)
{
	char	*r, cwd[PATH_MAX];

	if ((r = realpath(dir, NULL)) != NULL)
		return r;
	if (dir[0] == '/')
		return path_resolve("/", dir);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return NULL;
	return path_resolve(cwd, dir);
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

/* A path, relative to the file's directory; null for none when f->min is 0. */
static int
parse_path(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	const char	*s;
	char		**p = field_at(l, f);

	if (get_text(l, f, ev, &s) == -1)
		return -1;
	free(*p);
	*p = s != NULL ? path_resolve(l->confdir, s) : NULL;
	return 0;
}

/*
 * A path, or null, "stderr" or "-" for standard error (stored NULL), or
 * "syslog" (stored NULL, log_syslog set; a file of that name is
 * "./syslog").
 */
static int
parse_log(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	const char	*s;

	l->c->log_syslog = ev->type == YAML_SCALAR_EVENT &&
	    strcmp((const char *)ev->data.scalar.value, "syslog") == 0;
	if (l->c->log_syslog) {
		set_str(l, f, NULL);
		return 0;
	}
	if (ev->type == YAML_SCALAR_EVENT && (yml_is_null(ev) ||
	    strcmp((const char *)ev->data.scalar.value, "stderr") == 0 ||
	    strcmp((const char *)ev->data.scalar.value, "-") == 0)) {
		set_str(l, f, NULL);
		return 0;
	}
	if (scalar(l, f, ev, "a file name or stderr", &s) == -1)
		return -1;
	return parse_path(l, f, ev);
}

/* integer = ["-" / "+"] 1*DIGIT; values past 10^15 read as 10^15. */
static int
read_integer(const char *s, long long *out)
{
	long long	 v = 0;
	int		 neg = 0;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v < 1000000000000000LL)
			v = v * 10 + (*s - '0');
	}
	*out = neg ? -v : v;
	return 0;
}

/* An integer in f->min..f->max into *out. */
static int
get_integer(struct loader *l, const struct field *f, const yaml_event_t *ev,
    long long *out)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s;

	if (scalar(l, f, ev, "an integer", &s) == -1)
		return -1;
	if (yml_is_null(ev))
		return fail(l, ev->start_mark, "%s: a value is required",
		    f->key);
	if (read_integer(s, out) == -1)
		return fail(l, ev->start_mark,
		    "%s: expected an integer, got '%s'", f->key,
		    show(s, tmp));
	if (*out < f->min || *out > f->max)
		return fail(l, ev->start_mark,
		    "%s: %s is out of range (%lld to %lld)", f->key,
		    show(s, tmp), f->min, f->max);
	return 0;
}

static int
parse_int(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	long long	 v;

	if (get_integer(l, f, ev, &v) == -1)
		return -1;
	*(int *)field_at(l, f) = (int)v;
	return 0;
}

static int
parse_uint(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	long long	 v;

	if (get_integer(l, f, ev, &v) == -1)
		return -1;
	*(unsigned *)field_at(l, f) = (unsigned)v;
	return 0;
}

/* "auto" (stored as 0: one worker per core) or f->min..f->max. */
static int
parse_workers(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s;
	long long	 v;

	if (scalar(l, f, ev, "auto or a number", &s) == -1)
		return -1;
	if (strcasecmp(s, "auto") == 0) {
		*(int *)field_at(l, f) = 0;
		return 0;
	}
	if (yml_is_null(ev) || read_integer(s, &v) == -1 || v < f->min ||
	    v > f->max)
		return fail(l, ev->start_mark,
		    "%s: expected auto or %lld to %lld, got '%s'", f->key,
		    f->min, f->max, show(s, tmp));
	*(int *)field_at(l, f) = (int)v;
	return 0;
}

/*
 * decimal = 1*DIGIT ["." 1*DIGIT] / "." 1*DIGIT (YAML's ".25" too), as
 * thousandths; digits past the third decimal are dropped, values past
 * 10^12 read as 10^12.  Returns a pointer past the number, or NULL when
 * there is none.
 */
static const char *
read_milli(const char *s, long long *milli)
{
	long long	 v = 0, scale = 1000;
	int		 digits = 0;

	for (; *s >= '0' && *s <= '9'; s++, digits++)
		if (v < 1000000000000LL)
			v = v * 10 + (*s - '0');
	v *= 1000;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return NULL;
		for (; *s >= '0' && *s <= '9'; s++, digits++)
			if ((scale /= 10) > 0)
				v += (*s - '0') * scale;
	}
	if (digits == 0)
		return NULL;
	*milli = v;
	return s;
}

/*
 * rate = decimal ["/s"] / "off": requests a second from one address,
 * stored as thousandths (0 = off) in f->min..f->max.
 */
static int
parse_rate(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s, *e;
	long long	 v;

	if (scalar(l, f, ev, "requests per second", &s) == -1)
		return -1;
	if (strcasecmp(s, "off") == 0 || strcasecmp(s, "false") == 0) {
		*(unsigned *)field_at(l, f) = 0;
		return 0;
	}
	if (yml_is_null(ev) || (e = read_milli(s, &v)) == NULL ||
	    (*e != '\0' && strcmp(e, "/s") != 0))
		return fail(l, ev->start_mark,
		    "%s: expected requests per second such as 10 or 0.5,"
		    " or off, got '%s'", f->key, show(s, tmp));
	if (v < f->min || v > f->max)
		return fail(l, ev->start_mark,
		    "%s: %s is out of range (0 to %lld)", f->key,
		    show(s, tmp), f->max / 1000);
	*(unsigned *)field_at(l, f) = (unsigned)v;
	return 0;
}

/*
 * size = 1*DIGIT [*SP unit]; unit = "B" / "K" ["i"] ["B"] / "M" ... /
 * "G" ... / "T" ..., any case, all powers of 1024 ("8 MiB" = "8M" =
 * "8MB" = 8388608).  Stored as a size_t in f->min..f->max bytes.
 */
static int
parse_size(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	static const char	 units[] = "kmgt";
	char			 tmp[SHOW_MAX + 4], num[24];
	const char		*s, *p, *u;
	long long		 v, mult = 1;
	size_t			 n;

	if (scalar(l, f, ev, "a size", &s) == -1)
		return -1;
	for (p = s; *p >= '0' && *p <= '9'; p++)
		;
	n = (size_t)(p - s);
	while (*p == ' ')
		p++;
	if (*p != '\0' && (u = strchr(units, *p | 0x20)) != NULL) {
		mult = 1LL << (10 * (u - units + 1));
		p++;
		if (*p == 'i' || *p == 'I')
			p++;
		if (*p == 'b' || *p == 'B')
			p++;
	} else if (*p == 'b' || *p == 'B')
		p++;
	if (yml_is_null(ev) || n == 0 || n >= sizeof(num) || *p != '\0')
		return fail(l, ev->start_mark,
		    "%s: expected a size such as 8388608, \"512K\" or"
		    " \"8 MiB\", got '%s'", f->key, show(s, tmp));
	memcpy(num, s, n);
	num[n] = '\0';
	if (read_integer(num, &v) == -1 || v > f->max / mult ||
	    v * mult < f->min)
		return fail(l, ev->start_mark,
		    "%s: %s is out of range (%lld KiB to %lld MiB)", f->key,
		    show(s, tmp), f->min >> 10, f->max >> 20);
	*(size_t *)field_at(l, f) = (size_t)(v * mult);
	return 0;
}

/* One of the words of ws, in any case: its value into an int field. */
static int
get_word(struct loader *l, const struct field *f, const yaml_event_t *ev,
    const struct words *ws)
{
	char			 tmp[SHOW_MAX + 4];
	const struct word	*w;
	const char		*s;

	if (scalar(l, f, ev, ws->what, &s) == -1)
		return -1;
	for (w = ws->w; w->name != NULL; w++)
		if (strcasecmp(s, w->name) == 0) {
			*(int *)field_at(l, f) = w->value;
			return 0;
		}
	return fail(l, ev->start_mark, "%s: expected %s, got '%s'", f->key,
	    ws->what, show(s, tmp));
}

/* log_format = "capsuled" / "common" / "combined" */
static const struct words log_format_words = {
    "capsuled, common or combined", {
	{ "capsuled", LOG_FORMAT_CAPSULED }, { "common", LOG_FORMAT_COMMON },
	{ "combined", LOG_FORMAT_COMBINED }, { NULL, 0 } } };

/* syslog_facility = "daemon" / "user" / "local0" ... "local7" */
static const struct words facility_words = {
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
static const struct words tls_words = { "\"1.2 1.3\" or \"1.3\"", {
	{ "1.2 1.3", CONFIG_TLS_12 }, { "1.2,1.3", CONFIG_TLS_12 },
	{ "1.2+", CONFIG_TLS_12 }, { "tlsv1.2,tlsv1.3", CONFIG_TLS_12 },
	{ "all", CONFIG_TLS_12 }, { "default", CONFIG_TLS_12 },
	{ "1.3", CONFIG_TLS_13 }, { "tlsv1.3", CONFIG_TLS_13 },
	{ NULL, 0 } } };

static int
parse_tls(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return get_word(l, f, ev, &tls_words);
}

static int
parse_log_format(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return get_word(l, f, ev, &log_format_words);
}

static int
parse_facility(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return get_word(l, f, ev, &facility_words);
}

static int
parse_charset(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return get_word(l, f, ev, &charset_words);
}

static int
parse_links(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return get_word(l, f, ev, &links_words);
}

static int
parse_peer(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return get_word(l, f, ev, &peer_words);
}

/*
 * user = name / null; name = (ALPHA / DIGIT / "_" / ".") *(ALPHA /
 * DIGIT / "_" / "." / "-"), at most f->max bytes.  Looked up at start.
 */
static int
parse_user(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s, *p;

	if (get_text(l, f, ev, &s) == -1)
		return -1;
	for (p = s; p != NULL && *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' ||
		    (*p == '-' && p > s)))
			return fail(l, ev->start_mark,
			    "%s: '%s' is not a user name", f->key,
			    show(s, tmp));
	set_str(l, f, s);
	return 0;
}

/* Letters, digits, '-', '_', '.' not first: a plain directory name. */
static int
dir_name_ok(const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' ||
		    *p == '-' || (*p == '.' && p > s)))
			return 0;
	return *s != '\0';
}

/*
 * name = a plain directory name (dir_name_ok()) ["/"], or null: the
 * name without its slash into *out, which the caller frees (NULL for
 * null).  example is such a name, for the message.
 */
static int
get_dir_name(struct loader *l, const struct field *f, const yaml_event_t *ev,
    const char *example, char **out)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s;
	size_t		 len;

	*out = NULL;
	if (get_text(l, f, ev, &s) == -1)
		return -1;
	if (s == NULL)
		return 0;
	len = strlen(s);
	if (len > 1 && s[len - 1] == '/')
		len--;				/* "cgi-bin/" */
	*out = xstrndup(s, len);
	if (!dir_name_ok(*out)) {
		fail(l, ev->start_mark, "%s: '%s' is not a directory name such"
		    " as %s (letters, digits, '-', '_', '.' not first)", f->key,
		    show(*out, tmp), example);
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/*
 * cgi = segment ["/"]: the directory of each capsule whose programs
 * answer "/<segment>/...", or null for none.  Not a name the server
 * already answers: those paths would never reach it.
 */
static int
parse_cgi(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char		*dir;

	if (get_dir_name(l, f, ev, "cgi-bin", &dir) == -1)
		return -1;
	/* One table of such names (core/layout.c), any case. */
	if (dir != NULL && layout_reserved(dir)) {
		fail(l, ev->start_mark, "%s: '%s' is a path the server answers"
		    " itself", f->key, dir);
		free(dir);
		return -1;
	}
	set_str(l, f, dir);
	free(dir);
	return 0;
}

/*
 * userdirs = name ["/"]: the directory in each user's home that is
 * published, or null for none.
 */
static int
parse_userdirs(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char	*dir;

	if (get_dir_name(l, f, ev, "public_gemini", &dir) == -1)
		return -1;
	set_str(l, f, dir);
	free(dir);
	return 0;
}

/* listing_sort = "name" / "date" */
static const struct words sort_words = { "name or date", {
	{ "name", CONFIG_SORT_NAME }, { "date", CONFIG_SORT_DATE },
	{ NULL, 0 } } };

static int
parse_sort(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return get_word(l, f, ev, &sort_words);
}

/*
 * root = name ["/"]: the capsule's directory served at "/", or null.
 * Not one the archive reads its sources from: those are not for readers.
 */
static int
parse_root(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	static const char *const sources[] = {
		CAPFILE_POSTS, CAPFILE_PAGES, CAPFILE_SERIES, "templates"
	};
	char	*dir;
	size_t	 i;

	if (get_dir_name(l, f, ev, "site", &dir) == -1)
		return -1;
	for (i = 0; dir != NULL && i < nitems(sources); i++)
		if (strcasecmp(dir, sources[i]) == 0) {
			fail(l, ev->start_mark, "%s: '%s' holds the archive's "
			    "sources, which are not served as files", f->key,
			    dir);
			free(dir);
			return -1;
		}
	set_str(l, f, dir);
	free(dir);
	return 0;
}

/*
 * mount = ["/"] segment ["/"]: the prefix of the generated pages
 * ("/gemlog"), or null: at "/".  The site's base (config.h) too, so
 * that every link and redirect they write carries it.
 */
static int
parse_mount(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	yaml_event_t	 e = *ev;
	const char	*v = (const char *)ev->data.scalar.value;
	char		*dir, *m;

	if (ev->type == YAML_SCALAR_EVENT && v != NULL && v[0] == '/') {
		e.data.scalar.value = (yaml_char_t *)(uintptr_t)(v + 1);
		e.data.scalar.length--;
	}
	if (get_dir_name(l, f, &e, "gemlog", &dir) == -1)
		return -1;
	m = dir != NULL ? xasprintf("/%s", dir) : NULL;
	set_str(l, f, m);
	l->c->base = l->c->mount;
	free(dir);
	free(m);
	return 0;
}

/* index = file name: a directory's own page in a static tree. */
static int
parse_index(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char	*name;

	if (get_dir_name(l, f, ev, "index.gmi", &name) == -1)
		return -1;
	if (name == NULL)
		return fail(l, ev->start_mark, "%s: a file name is needed",
		    f->key);
	set_str(l, f, name);
	free(name);
	return 0;
}

/*
 * duration = seconds [*SP "s"] / milliseconds *SP "ms" / hours *SP "h"
 * seconds = decimal, as read_milli() reads it (hours alike).  Returns
 * milliseconds in *ms, or -1 for anything else.
 */
static int
read_duration(const char *s, long long *ms)
{
	long long	 v;

	if ((s = read_milli(s, &v)) == NULL)
		return -1;
	while (*s == ' ')
		s++;
	if (strcmp(s, "ms") == 0)
		v /= 1000;
	else if (strcmp(s, "h") == 0)	/* capped: out of range anyway */
		v = v > 1000000000000000LL ? 1000000000000000LL * 3600 :
		    v * 3600;
	else if (*s != '\0' && strcmp(s, "s") != 0)
		return -1;
	*ms = v;
	return 0;
}

static int
parse_ms(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s;
	long long	 v;

	if (scalar(l, f, ev, "a number of seconds", &s) == -1)
		return -1;
	if (yml_is_null(ev))
		return fail(l, ev->start_mark, "%s: a value is required",
		    f->key);
	if (*s == '-')
		return fail(l, ev->start_mark, "%s: must not be negative",
		    f->key);
	if (read_duration(s, &v) == -1)
		return fail(l, ev->start_mark,
		    "%s: expected seconds such as 10 or 2.5, or \"500ms\","
		    " got '%s'", f->key, show(s, tmp));
	if (v < f->min || v > f->max)
		return fail(l, ev->start_mark,
		    "%s: %s is out of range (%lldms to %llds)", f->key,
		    show(s, tmp), f->min, f->max / 1000);
	*(unsigned *)field_at(l, f) = (unsigned)v;
	return 0;
}

static int
parse_level(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s;
	int		 lvl;

	if (scalar(l, f, ev, "a log level", &s) == -1)
		return -1;
	if ((lvl = log_level_parse(s)) == -1)
		return fail(l, ev->start_mark,
		    "%s: unknown level '%s' (error, warn, info or debug)",
		    f->key, show(s, tmp));
	*(enum log_level *)field_at(l, f) = (enum log_level)lvl;
	return 0;
}

/* bool = true / false / yes / no / on / off, in any case (yaml.h) */
static int
parse_bool(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s;
	bool		 b;

	if (scalar(l, f, ev, "true or false", &s) == -1)
		return -1;
	if (yml_parse_bool(s, strlen(s), &b) == -1)
		return fail(l, ev->start_mark,
		    "%s: expected true or false, got '%s'", f->key,
		    show(s, tmp));
	*(int *)field_at(l, f) = b;
	return 0;
}

/*
 * Append value to the list *v (*n entries) of key f, unless it is there
 * already or the list is full (f->max).  written is what the file said,
 * for the error; noun names the entries ("addresses").
 */
static int
list_append(struct loader *l, const struct field *f, const yaml_event_t *ev,
    char ***v, size_t *n, const char *value, const char *written,
    const char *noun)
{
	char	 tmp[SHOW_MAX + 4];
	size_t	 i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], value) == 0)
			return fail(l, ev->start_mark,
			    "%s: '%s' is listed twice", f->key,
			    show(written, tmp));
	if ((long long)*n >= f->max)
		return fail(l, ev->start_mark, "%s: more than %lld %s",
		    f->key, f->max, noun);
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = xstrdup(value);
	return 0;
}

/* Check one address of "bind" and append it to *v. */
static int
bind_add(struct loader *l, const struct field *f, const yaml_event_t *ev,
    char ***v, size_t *n)
{
	char		 tmp[SHOW_MAX + 4];
	unsigned char	 addr[sizeof(struct in6_addr)];
	const char	*s;

	if (scalar(l, f, ev, "an IP address", &s) == -1)
		return -1;
	if (yml_is_null(ev))
		return fail(l, ev->start_mark, "%s: an address is required",
		    f->key);
	if (inet_pton(AF_INET, s, addr) != 1 &&
	    inet_pton(AF_INET6, s, addr) != 1)
		return fail(l, ev->start_mark,
		    "%s: '%s' is not an IPv4 or IPv6 address", f->key,
		    show(s, tmp));
	return list_append(l, f, ev, v, n, s, s, "addresses");
}

/* Check one scalar of a list key and append it to *v. */
typedef int	list_add_fn(struct loader *, const struct field *,
		    const yaml_event_t *, char ***, size_t *);

/*
 * list = item / "[" *( item ) "]" (or a block list) / null when
 * allow_null.  Every item goes through add; on success the list
 * replaces *dst (*ndst items).  An empty list is refused when min1.
 */
static int
parse_list(struct loader *l, const struct field *f, yaml_event_t *ev,
    list_add_fn *add, int allow_null, int min1, char ***dst, size_t *ndst)
{
	yaml_event_t	 item;
	char		**v = NULL;
	size_t		 n = 0;
	int		 rv;

	if (ev->type == YAML_SEQUENCE_START_EVENT) {
		while ((rv = next_in(l, &item)) == 1) {
			rv = add(l, f, &item, &v, &n);
			yaml_event_delete(&item);
			if (rv == -1)
				break;
		}
		if (rv == -1)
			goto fail;
	} else if (!(allow_null && yml_is_null(ev)) &&
	    add(l, f, ev, &v, &n) == -1)
		goto fail;
	if (min1 && n == 0) {
		fail(l, ev->start_mark, "%s: the list must hold at least one "
		    "entry", f->key);
		goto fail;
	}
	util_free_strings(*dst, *ndst);
	*dst = v;
	*ndst = n;
	return 0;
fail:
	util_free_strings(v, n);
	return -1;
}

/* bind = address / "[" address *("," address) "]" (or a block list) */
static int
parse_bind(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return parse_list(l, f, ev, bind_add, 0, 1, &l->c->bind,
	    &l->c->nbind);
}

/*
 * One entry of "proxy_protocol":
 *   entry = address [ "/" bits ]
 *   bits = 1*3DIGIT, no leading zero, at most 32 (IPv4) or 128 (IPv6)
 * (proto/proxy.c reads the same form when it matches a peer.)
 */
static int
proxy_add(struct loader *l, const struct field *f, const yaml_event_t *ev,
    char ***v, size_t *n)
{
	char		 tmp[SHOW_MAX + 4], a[INET6_ADDRSTRLEN];
	unsigned char	 addr[sizeof(struct in6_addr)];
	const char	*s, *slash, *d;
	size_t		 len;
	unsigned	 bits = 0, max;

	if (scalar(l, f, ev, "an IP address", &s) == -1)
		return -1;
	if (yml_is_null(ev))
		return fail(l, ev->start_mark, "%s: an address is required",
		    f->key);
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
		    strlen(d) || (d[0] == '0' && d[1] != '\0'))
			goto bad;
		bits = (unsigned)atoi(d);
		if (bits > max)
			goto bad;
	}
	return list_append(l, f, ev, v, n, s, s, "entries");
bad:
	return fail(l, ev->start_mark, "%s: '%s' is not an IP address or a "
	    "prefix like 10.0.0.0/8", f->key, show(s, tmp));
}

/* proxy_protocol = entry / "[" *( entry ) "]" / null */
static int
parse_proxies(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return parse_list(l, f, ev, proxy_add, 1, 0, &l->c->proxy_protocol,
	    &l->c->nproxy_protocol);
}

/* "fastcgi", "scgi", "proxy": core/config_apps.c reads the entries. */
static int
parse_apps(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	struct config_apps_in	 in = { &l->parser, l->data, l->len,
				     l->confdir };
	yaml_mark_t		 m;
	char			 msg[256];

	if (config_apps_parse(&in, f->key, ev, &l->c->apps, &l->c->napps,
	    &m, msg, sizeof(msg)) == -1)
		return fail(l, m, "%s", msg);
	return 0;
}

int
config_has_backends(const struct config *c)
{
	return c->napps > 0;
}

/* "mime_types", "default_type", "path_meta": core/config_types.c. */
static int
parse_types(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	struct config_types_in	 in = { &l->parser, l->data, l->len };
	yaml_mark_t		 m;
	char			 msg[256];

	if (config_types_parse(&in, f->key, ev, &l->c->types, &m, msg,
	    sizeof(msg)) == -1)
		return fail(l, m, "%s", msg);
	return 0;
}

/*
 * One entry of "titan_writers": a SHA-256 fingerprint, 64 hex digits in
 * any case, colons and blanks allowed between them; stored lower-case.
 */
static int
writer_add(struct loader *l, const struct field *f, const yaml_event_t *ev,
    char ***v, size_t *n)
{
	char		 tmp[SHOW_MAX + 4], hex[65];
	const char	*s;
	size_t		 i, k = 0;
	int		 c;

	if (scalar(l, f, ev, "a SHA-256 fingerprint", &s) == -1)
		return -1;
	for (i = 0; s[i] != '\0'; i++) {
		c = (unsigned char)s[i];
		if (c == ':' || c == ' ')
			continue;
		if (k == 64 || !((c >= '0' && c <= '9') ||
		    ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')))
			break;
		hex[k++] = (char)(c >= 'A' && c <= 'F' ? c | 0x20 : c);
	}
	if (s[i] != '\0' || k != 64)
		return fail(l, ev->start_mark, "%s: expected a SHA-256 "
		    "fingerprint (64 hex digits), got '%s'", f->key,
		    show(s, tmp));
	hex[64] = '\0';
	return list_append(l, f, ev, v, n, hex, s, "fingerprints");
}

/* titan_writers = fingerprint / "[" *( fingerprint ) "]" / null */
static int
parse_writers(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return parse_list(l, f, ev, writer_add, 1, 0, &l->c->titan_writers,
	    &l->c->ntitan_writers);
}

/*
 * One entry of "link_aliases": the prefix of the writer's old web URLs
 * for posts, "https://old.example/posts/": a scheme, "://" and a host.
 */
static int
alias_add(struct loader *l, const struct field *f, const yaml_event_t *ev,
    char ***v, size_t *n)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s, *sep;

	if (scalar(l, f, ev, "a URL prefix", &s) == -1)
		return -1;
	sep = strstr(s, "://");
	if (sep == NULL || sep == s || sep[3] == '\0' || sep[3] == '/' ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789+.-") != (size_t)(sep - s) ||
	    strpbrk(s, " \t\r\n?#") != NULL || strlen(s) > 1024)
		return fail(l, ev->start_mark, "%s: expected a URL prefix like "
		    "'https://example.org/posts/', got '%s'", f->key,
		    show(s, tmp));
	return list_append(l, f, ev, v, n, s, s, "prefixes");
}

/* link_aliases = prefix / "[" *( prefix ) "]" / null */
static int
parse_aliases(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return parse_list(l, f, ev, alias_add, 1, 0, &l->c->link_aliases,
	    &l->c->nlink_aliases);
}

/*
 * web_url = ("http" / "https") "://" host [path], no query or fragment:
 * the writer's old web site, kept without its trailing "/".
 */
static int
parse_web_url(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s, *host;
	char		*v;
	size_t		 n;

	if (get_text(l, f, ev, &s) == -1)
		return -1;
	if (s == NULL) {
		set_str(l, f, NULL);
		return 0;
	}
	host = strncasecmp(s, "https://", 8) == 0 ? s + 8 :
	    strncasecmp(s, "http://", 7) == 0 ? s + 7 : NULL;
	if (host == NULL || *host == '\0' || *host == '/' ||
	    strpbrk(s, " \t?#") != NULL)
		return fail(l, ev->start_mark, "%s: expected a web address "
		    "like 'https://example.org', got '%s'", f->key,
		    show(s, tmp));
	v = xstrdup(s);
	for (n = strlen(v); n > (size_t)(host - s) && v[n - 1] == '/'; n--)
		v[n - 1] = '\0';
	set_str(l, f, v);
	free(v);
	return 0;
}

/*
 * robots = a block of text ("robots: |"), at most f->max bytes; tabs and
 * line ends allowed, other control characters not.  Null or empty
 * stores NULL: no /robots.txt.
 */
static int
parse_robots(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	const char	*s;
	size_t		 i, len;

	if (scalar(l, f, ev, "a block of text", &s) == -1)
		return -1;
	if (yml_is_null(ev) || *s == '\0') {
		set_str(l, f, NULL);
		return 0;
	}
	len = strlen(s);
	if ((long long)len > f->max)
		return fail(l, ev->start_mark,
		    "%s: longer than %lld bytes", f->key, f->max);
	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\n' &&
		    s[i] != '\t') || s[i] == 0x7f)
			return fail(l, ev->start_mark,
			    "%s: control characters other than tab and line"
			    " end are not allowed", f->key);
	set_str(l, f, s);
	return 0;
}

/* No control characters, no spaces when url is set (a URL has none). */
static int
clean_text(const char *s, int url)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f ||
		    (url && *s == ' '))
			return 0;
	return 1;
}

/* scheme ":" and at least one character after it */
static int
absolute_url(const char *s)
{
	return url_has_scheme(s) && strchr(s, ':')[1] != '\0';
}

/* By from, an exact rule before the prefix rule of the same text. */
static int
redirect_cmp(const void *a, const void *b)
{
	const struct config_redirect	*ra = a, *rb = b;
	int				 c;

	if ((c = strcmp(ra->from, rb->from)) != 0)
		return c;
	return ra->prefix - rb->prefix;
}

/* Each pair is one block (from, then to): one free() an entry. */
static void
free_redirects(struct config_redirect *v, size_t n)
{
	while (n > 0)
		free(v[--n].from);
	free(v);
}

/*
 * One "from: to" pair; key is the from scalar, ev the to scalar.
 * from = "/" path ["*"], no dot segments; to = "/" path / absolute URL,
 * where a prefix rule's '*' or "$1" and any rule's "%p" are expanded
 * (core/redirect.h).  status is 31 (permanent) or 30 (temporary).
 */
static int
redirect_add(struct loader *l, const struct field *f, const yaml_event_t *key,
    const yaml_event_t *ev, int status, struct config_redirect **v,
    size_t *n)
{
	char			 tmp[SHOW_MAX + 4];
	struct config_redirect	*r;
	const char		*from, *to;
	size_t			 i, lfrom, lto;
	int			 prefix;

	if (key->type != YAML_SCALAR_EVENT)
		return fail(l, key->start_mark,
		    "%s: expected a path as the key, got %s", f->key,
		    event_kind(key));
	from = (const char *)key->data.scalar.value;
	if (strlen(from) != key->data.scalar.length || from[0] != '/' ||
	    strlen(from) > CONFIG_MAX_URL || !clean_text(from, 0) ||
	    url_has_dot_segment(from))
		return fail(l, key->start_mark,
		    "%s: '%s' is not a path such as /old/name (one line, at"
		    " most %d bytes, no . or .. segments)", f->key,
		    show(from, tmp), CONFIG_MAX_URL);
	lfrom = strlen(from);
	prefix = from[lfrom - 1] == '*';
	lfrom -= (size_t)prefix;
	if (memchr(from, '*', lfrom) != NULL)
		return fail(l, key->start_mark, "%s: '%s': a '*' may only end"
		    " the path (a prefix rule such as /blog/*)", f->key,
		    show(from, tmp));
	for (i = 0; i < *n; i++)
		if ((*v)[i].prefix == prefix &&
		    strlen((*v)[i].from) == lfrom &&
		    strncmp((*v)[i].from, from, lfrom) == 0)
			return fail(l, key->start_mark,
			    "%s: '%s' is listed twice", f->key,
			    show(from, tmp));
	if (scalar(l, f, ev, "a path or a URL", &to) == -1)
		return -1;
	if (yml_is_null(ev) || *to == '\0')
		return fail(l, ev->start_mark, "%s: %s: a target is required",
		    f->key, show(from, tmp));
	if (strlen(to) > CONFIG_MAX_URL || !clean_text(to, 1) ||
	    (to[0] != '/' && !absolute_url(to)))
		return fail(l, ev->start_mark,
		    "%s: '%s' is not a path (/new/name) or an absolute URL"
		    " (gemini://host/name), at most %d bytes without spaces",
		    f->key, show(to, tmp), CONFIG_MAX_URL);
	if (strcmp(from, to) == 0)
		return fail(l, ev->start_mark,
		    "%s: '%s' redirects to itself", f->key, show(from, tmp));
	if ((long long)*n >= f->max)
		return fail(l, key->start_mark, "%s: more than %lld entries",
		    f->key, f->max);
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	r = &(*v)[(*n)++];
	lto = strlen(to);
	/* One block: a pair is made, sorted and freed together. */
	r->from = xmalloc(lfrom + 1 + lto + 1);
	memcpy(r->from, from, lfrom);
	r->from[lfrom] = '\0';
	r->to = r->from + lfrom + 1;
	memcpy(r->to, to, lto + 1);
	r->status = status;
	r->prefix = prefix;
	return 0;
}

/*
 * The pairs of one mapping, up to and including its end, all with the
 * same status.  A "permanent:" or "temporary:" key (no path starts
 * without '/', so neither can be one) opens a group of its own, at the
 * top level only.
 */
static int
redirect_pairs(struct loader *l, const struct field *f, int status,
    int nested, struct config_redirect **v, size_t *n)
{
	yaml_event_t	 key, val;
	const char	*k;
	int		 group, rv;

	for (;;) {
		if ((rv = next_in(l, &key)) <= 0)
			return rv;
		if (next(l, &val) == -1) {
			yaml_event_delete(&key);
			return -1;
		}
		k = key.type == YAML_SCALAR_EVENT ?
		    (const char *)key.data.scalar.value : "";
		group = strcmp(k, "permanent") == 0 ? 31 :
		    strcmp(k, "temporary") == 0 ? 30 : 0;
		if (group != 0 && !nested) {
			if (val.type == YAML_MAPPING_START_EVENT)
				rv = redirect_pairs(l, f, group, 1, v, n);
			else if (val.type == YAML_SCALAR_EVENT &&
			    yml_is_null(&val))
				rv = 0;
			else
				rv = fail(l, val.start_mark, "%s: %s: expected"
				    " a mapping of old paths to new ones,"
				    " got %s", f->key, k, event_kind(&val));
		} else
			rv = redirect_add(l, f, &key, &val, status, v, n);
		yaml_event_delete(&key);
		yaml_event_delete(&val);
		if (rv == -1)
			return -1;
	}
}

/*
 * redirects = "{" *( entry ) "}" (or a block mapping), or null for none;
 * entry = path ":" target (permanent) / ( "permanent" / "temporary" ) ":"
 * "{" *( path ":" target ) "}".  Stored sorted by path and indexed for
 * redirect_match() (core/redirect.h).
 */
static int
parse_redirects(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	struct config_redirect	*v = NULL;
	char			 loop[256];
	size_t			 n = 0;

	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		goto done;
	if (ev->type != YAML_MAPPING_START_EVENT)
		return fail(l, ev->start_mark,
		    "%s: expected a mapping of old paths to new ones, got %s",
		    f->key, event_kind(ev));
	if (redirect_pairs(l, f, 31, 0, &v, &n) == -1)
		goto fail;
	if (n > 1)
		qsort(v, n, sizeof(*v), redirect_cmp);
	redirect_index(v, n);
	/* A chain that comes back, or goes on and on, answers no one. */
	if (redirect_loops(v, n, loop, sizeof(loop)) == -1) {
		fail(l, ev->start_mark, "%s: a loop: %s", f->key, loop);
		goto fail;
	}
done:
	free_redirects(l->c->redirects, l->c->nredirects);
	l->c->redirects = v;
	l->c->nredirects = n;
	return 0;
fail:
	free_redirects(v, n);
	return -1;
}

/* fields[] and then the surfaces' keys, into l->top. */
static void
top_fields(struct loader *l)
{
	struct field	*f;
	size_t		 i;

	char		*key;

	l->top = xreallocarray(NULL, NTOP_FIELDS, sizeof(*l->top));
	l->surface_keys = xmalloc(NSURFACE_FIELDS * SURFACE_KEY_MAX);
	memcpy(l->top, fields, sizeof(fields));
	for (i = 0; i < SURFACE_N; i++) {
		f = &l->top[NFIELDS + 2 * i];
		key = l->surface_keys + 2 * i * SURFACE_KEY_MAX;
		snprintf(key, SURFACE_KEY_MAX, "%s_port", surfaces[i].name);
		f->key = key;
		f->parse = parse_int;
		f->off = OFF(port) + i * sizeof(int);
		f->min = surfaces[i].min_port;
		f->max = 65535;
		f[1] = f[0];
		key += SURFACE_KEY_MAX;
		snprintf(key, SURFACE_KEY_MAX, "%s_public_port",
		    surfaces[i].name);
		f[1].key = key;
		f[1].off = OFF(public_port) + i * sizeof(int);
		f[1].min = 0;
	}
}

/* The index of key among the top-level keys. */
static size_t
field_find(const struct loader *l, const char *key)
{
	size_t	 i;

	for (i = 0; i < NTOP_FIELDS; i++)
		if (strcmp(l->top[i].key, key) == 0)
			return i;
	abort();		/* a name of this file's own: never */
}

/*
 * Two surfaces on one port: the later key of the two is wrong, or the
 * one set when the other is a default.
 */
static int
check_ports(struct loader *l, const yaml_mark_t *marks, const int *seen)
{
	const struct config	*c = l->c;
	size_t			 i, k, a, b, at;

	for (i = 0; i < SURFACE_N; i++)
		for (k = i + 1; k < SURFACE_N; k++) {
			if (c->port[i] == 0 || c->port[i] != c->port[k])
				continue;
			a = NFIELDS + 2 * i;
			b = NFIELDS + 2 * k;
			at = b;
			if (!seen[b] || (seen[a] && marks[a].index >
			    marks[b].index))
				at = a;
			return fail(l, marks[at], "%s: port %d is used by "
			    "both %s and %s", l->top[at].key, c->port[i],
			    surfaces[i].title, surfaces[k].title);
		}
	return 0;
}

/* Cross-field checks, pointing at the later of the keys involved. */
static int
check_all(struct loader *l, const yaml_mark_t *marks, const int *seen)
{
	const struct config	*c = l->c;
	size_t			 umin, umax;

	if (check_ports(l, marks, seen) == -1)
		return -1;
	if (c->userdirs != NULL && c->chroot_dir != NULL)
		return fail(l, marks[field_find(l, "userdirs")],
		    "userdirs: users' home directories are out of reach "
		    "in the chroot %s; use one or the other", c->chroot_dir);
	umin = field_find(l, "userdirs_uid_min");
	umax = field_find(l, "userdirs_uid_max");
	if (c->userdirs_uid_min > c->userdirs_uid_max)
		return fail(l, marks[seen[umin] ? umin : umax],
		    "userdirs_uid_min: %u is above userdirs_uid_max (%u)",
		    c->userdirs_uid_min, c->userdirs_uid_max);
	return 0;
}

/*
 * The keys of a mapping, after its MAPPING-START event, looked up in
 * table[0..n) and stored at l->base; in ("" or "hosts: ") starts the
 * messages about keys.  marks[i] and seen[i] say where each key's value
 * was.
 */
static int
parse_map(struct loader *l, const struct field *table, size_t n,
    const char *in, yaml_mark_t *marks, int *seen)
{
	yaml_event_t		 key, val;
	const struct field	*f;
	char			 tmp[SHOW_MAX + 4];
	size_t			 i;
	int			 rv;

	for (;;) {
		if ((rv = next_in(l, &key)) <= 0)
			return rv;
		if (key.type != YAML_SCALAR_EVENT) {
			fail(l, key.start_mark, "%sexpected a key, got %s", in,
			    event_kind(&key));
			yaml_event_delete(&key);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (strcmp(table[i].key,
			    (const char *)key.data.scalar.value) == 0)
				break;
		if (i == n) {
			fail(l, key.start_mark, "%sunknown key '%s'", in,
			    show((const char *)key.data.scalar.value, tmp));
			yaml_event_delete(&key);
			return -1;
		}
		f = &table[i];
		if (seen[i]) {
			fail(l, key.start_mark, "%sduplicate key '%s'", in,
			    f->key);
			yaml_event_delete(&key);
			return -1;
		}
		yaml_event_delete(&key);
		if (next(l, &val) == -1)
			return -1;
		seen[i] = 1;
		marks[i] = val.start_mark;
		rv = f->parse(l, f, &val);
		yaml_event_delete(&val);
		if (rv == -1)
			return -1;
	}
}

static void
free_hosts(struct config_host *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(v[i].hostname);
		free(v[i].capsule_dir);
		free(v[i].cert_dir);
		free(v[i].site_title);
		free(v[i].site_subtitle);
		free(v[i].author);
		free(v[i].lang);
	}
	free(v);
}

/* One item of "hosts", after its MAPPING-START event, appended to c. */
static int
host_add(struct loader *l, const struct field *f, const yaml_event_t *ev)
{
	struct config		*c = l->c;
	struct config_host	*h;
	yaml_mark_t		 marks[NHOST_FIELDS];
	int			 seen[NHOST_FIELDS] = { 0 };
	size_t			 i;
	int			 rv;

	if ((long long)c->nhosts >= f->max)
		return fail(l, ev->start_mark, "%s: more than %lld hosts",
		    f->key, f->max);
	c->hosts = xreallocarray(c->hosts, c->nhosts + 1, sizeof(*c->hosts));
	l->host_marks = xreallocarray(l->host_marks, c->nhosts + 1,
	    sizeof(*l->host_marks));
	h = &c->hosts[c->nhosts++];
	memset(h, 0, sizeof(*h));
	memset(marks, 0, sizeof(marks));
	l->base = h;
	rv = parse_map(l, host_fields, NHOST_FIELDS, "hosts: ", marks, seen);
	l->base = l->c;
	if (rv == -1)
		return -1;
	if (h->hostname == NULL)
		return fail(l, ev->start_mark, "%s: every item needs a "
		    "hostname", f->key);
	l->host_marks[c->nhosts - 1] = marks[0];
	for (i = 0; i + 1 < c->nhosts; i++)
		if (strcmp(c->hosts[i].hostname, h->hostname) == 0)
			return fail(l, marks[0], "%s: %s is listed twice",
			    f->key, h->hostname);
	return 0;
}

/*
 * hosts = "[" *( "{" hostname [capsule] [certs] [title] [subtitle]
 *         [author] [lang] "}" ) "]" (or a block list), or null for none.
 */
static int
parse_hosts(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	yaml_event_t	 item;
	int		 rv;

	free_hosts(l->c->hosts, l->c->nhosts);
	l->c->hosts = NULL;
	l->c->nhosts = 0;
	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		return 0;
	if (ev->type != YAML_SEQUENCE_START_EVENT)
		return fail(l, ev->start_mark,
		    "%s: expected a list of hosts, got %s", f->key,
		    event_kind(ev));
	for (;;) {
		if ((rv = next_in(l, &item)) <= 0)
			return rv;
		if (item.type != YAML_MAPPING_START_EVENT)
			rv = fail(l, item.start_mark, "%s: expected a mapping "
			    "with a hostname, got %s", f->key,
			    event_kind(&item));
		else
			rv = host_add(l, f, &item);
		yaml_event_delete(&item);
		if (rv == -1)
			return -1;
	}
}

/* require = "certificate": a zone's one requirement, said aloud. */
static const struct words require_words = { "certificate", {
	{ "certificate", 1 }, { NULL, 0 } } };

static int
zone_require(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	return get_word(l, f, ev, &require_words);
}

/* path = "/" *( segment "/" ) [ segment ]: no dot or empty segments. */
static int
zone_path(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	char		 tmp[SHOW_MAX + 4];
	const char	*s;
	size_t		 len;

	if (get_text(l, f, ev, &s) == -1)
		return -1;
	if (s[0] != '/' || strstr(s, "//") != NULL || !clean_text(s, 1) ||
	    url_has_dot_segment(s))
		return fail(l, ev->start_mark, "%s: '%s' is not a path such as"
		    " /family/ (no spaces, no . .. or empty segments)", f->key,
		    show(s, tmp));
	for (len = strlen(s); len > 0 && s[len - 1] == '/'; len--)
		;
	free(*(char **)field_at(l, f));
	*(char **)field_at(l, f) = xstrndup(s, len);
	return 0;
}

static int
zone_fingerprints(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	struct config_zone	*z = l->base;

	return parse_list(l, f, ev, writer_add, 1, 0, &z->fingerprints,
	    &z->nfingerprints);
}

#define ZOFF(m)		offsetof(struct config_zone, m)

static const struct field zone_fields[] = {
	{ "path",		zone_path,	ZOFF(path),	1,
	    CONFIG_MAX_URL },
	{ "host",		parse_host,	ZOFF(host),	1, 253 },
	{ "require",		zone_require,	ZOFF(require),	0, 0 },
	{ "fingerprints",	zone_fingerprints, ZOFF(fingerprints), 0,
	    1000 },
	{ "ca",			parse_path,	ZOFF(ca),	1, PATH_MAX },
};

#define NZONE_FIELDS	(sizeof(zone_fields) / sizeof(zone_fields[0]))

static void
free_zones(struct config_zone *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(v[i].host);
		free(v[i].path);
		util_free_strings(v[i].fingerprints, v[i].nfingerprints);
		free(v[i].ca);
	}
	free(v);
}

/*
 * cert_zones = "[" *( "{" path [host] [require] [fingerprints] [ca] "}" )
 * "]" (or a block list), or null for none.  The CA file must be there to
 * be read when the certificates are (net/tlsconn.c parses it).
 */
static int
parse_zones(struct loader *l, const struct field *f, yaml_event_t *ev)
{
	struct config		*c = l->c;
	struct config_zone	*z;
	yaml_event_t		 item;
	yaml_mark_t		 marks[NZONE_FIELDS];
	int			 seen[NZONE_FIELDS], rv;

	free_zones(c->zones, c->nzones);
	c->zones = NULL;
	c->nzones = 0;
	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		return 0;
	if (ev->type != YAML_SEQUENCE_START_EVENT)
		return fail(l, ev->start_mark, "%s: expected a list of zones, "
		    "got %s", f->key, event_kind(ev));
	while ((rv = next_in(l, &item)) == 1) {
		if (item.type != YAML_MAPPING_START_EVENT)
			rv = fail(l, item.start_mark, "%s: expected a mapping "
			    "with a path, got %s", f->key, event_kind(&item));
		else if ((long long)c->nzones >= f->max)
			rv = fail(l, item.start_mark, "%s: more than %lld "
			    "zones", f->key, f->max);
		if (rv == -1) {
			yaml_event_delete(&item);
			return -1;
		}
		c->zones = xreallocarray(c->zones, c->nzones + 1,
		    sizeof(*c->zones));
		z = &c->zones[c->nzones++];
		memset(z, 0, sizeof(*z));
		z->require = 1;
		memset(seen, 0, sizeof(seen));
		memset(marks, 0, sizeof(marks));
		l->base = z;
		rv = parse_map(l, zone_fields, NZONE_FIELDS, "cert_zones: ",
		    marks, seen);
		l->base = l->c;
		if (rv == 0 && z->path == NULL)
			rv = fail(l, item.start_mark, "%s: every zone needs a "
			    "path", f->key);
		if (rv == 0 && z->ca != NULL && access(z->ca, R_OK) == -1)
			rv = fail(l, marks[4], "%s: ca: %s: %s", f->key, z->ca,
			    strerror(errno));
		yaml_event_delete(&item);
		if (rv == -1)
			return -1;
	}
	return rv;
}

/*
 * Once the whole file is read (the top-level keys may come after
 * "hosts"): a host may not repeat the top-level name, and what an item
 * left out is filled in.  Its capsule is the top-level one; its
 * certificate directory is <certs>/<hostname>, so that every name gets
 * a certificate of its own unless told to share one.
 */
static int
resolve_hosts(struct loader *l)
{
	struct config		*c = l->c;
	struct config_host	*h;
	size_t			 i;

	for (i = 0; i < c->nhosts; i++) {
		h = &c->hosts[i];
		if (strcmp(h->hostname, c->hostname) == 0)
			return fail(l, l->host_marks[i], "hosts: %s is the "
			    "top-level hostname already", h->hostname);
		if (h->capsule_dir == NULL)
			h->capsule_dir = xstrdup(c->capsule_dir);
		if (h->cert_dir == NULL)
			h->cert_dir = path_resolve(c->cert_dir, h->hostname);
	}
	return 0;
}

/* The top-level mapping, after its MAPPING-START event. */
static int
parse_top(struct loader *l)
{
	yaml_mark_t	 marks[NTOP_FIELDS];
	int		 seen[NTOP_FIELDS] = { 0 };

	memset(marks, 0, sizeof(marks));
	top_fields(l);
	if (parse_map(l, l->top, NTOP_FIELDS, "", marks, seen) == -1 ||
	    resolve_hosts(l) == -1)
		return -1;
	return check_all(l, marks, seen);
}

/*
 * stream = STREAM-START [DOCUMENT-START root DOCUMENT-END] STREAM-END
 * root = a mapping, or a null scalar (a document with no keys)
 */
static int
parse_stream(struct loader *l)
{
	yaml_event_t	 ev;
	int		 ndocs = 0, rv = 0;

	for (;;) {
		if (next(l, &ev) == -1)
			return -1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			yaml_event_delete(&ev);
			return 0;
		case YAML_DOCUMENT_START_EVENT:
			if (ndocs++ > 0)
				rv = fail(l, ev.start_mark,
				    "only one YAML document is allowed");
			break;
		case YAML_MAPPING_START_EVENT:
			rv = parse_top(l);
			break;
		case YAML_SCALAR_EVENT:
			if (!yml_is_null(&ev))
				rv = fail(l, ev.start_mark,
				    "expected a mapping of keys to values,"
				    " got a single value");
			break;
		case YAML_SEQUENCE_START_EVENT:
			rv = fail(l, ev.start_mark,
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
	c->capsule_dir = path_resolve(confdir, "../capsule");
	c->cert_dir = path_resolve(confdir, "../certs");
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
	c->site_title = xstrdup("capsuled");
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
	c->robots = xstrdup(CONFIG_ROBOTS_DEFAULT);
	c->cgi = NULL;
	c->cgi_timeout_ms = 10 * 1000;
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
	if ((abs = absolute_dir(confdir)) == NULL)
		abs = path_resolve("/", confdir);
	defaults(c, abs);
	free(abs);
}

int
config_load_buffer(struct config *c, const char *name, const char *data,
    size_t len, char *err, size_t errlen)
{
	struct loader	 l;
	char		*dir, *confdir;
	int		 rv;

	memset(c, 0, sizeof(*c));
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (data == NULL) {		/* libyaml asserts on a NULL input */
		data = "";
		len = 0;
	}
	dir = dir_of(name);
	confdir = absolute_dir(dir);
	free(dir);
	if (confdir == NULL) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "%s: its directory: %s", name,
			    strerror(errno));
		return -1;
	}
	defaults(c, confdir);
	c->path = xstrdup(name);

	memset(&l, 0, sizeof(l));
	l.c = c;
	l.name = name;
	l.data = data;
	l.len = len;
	l.confdir = confdir;
	l.base = c;
	l.err = err;
	l.errlen = errlen;
	if (!yaml_parser_initialize(&l.parser)) {
		rv = fail(&l, l.parser.mark, "out of memory");
		goto done;
	}
	yaml_parser_set_input_string(&l.parser, (const unsigned char *)data,
	    len);
	rv = parse_stream(&l);
	yaml_parser_delete(&l.parser);
	free(l.host_marks);
	free(l.top);
	free(l.surface_keys);
done:
	free(confdir);
	if (rv == -1)
		config_free(c);
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
	free_hosts(c->hosts, c->nhosts);
	free(c->user);
	free(c->chroot_dir);
	free(c->ticket_keys);
	util_free_strings(c->proxy_protocol, c->nproxy_protocol);
	free(c->lang);
	free(c->site_title);
	free(c->site_subtitle);
	free(c->author);
	free(c->log_file);
	free(c->syslog_socket);
	free_redirects(c->redirects, c->nredirects);
	free(c->robots);
	free(c->root);
	free(c->mount);
	free(c->index);
	free(c->cgi);
	config_apps_free(c->apps, c->napps);
	config_types_free(c->types);
	util_free_strings(c->titan_writers, c->ntitan_writers);
	free_zones(c->zones, c->nzones);
	util_free_strings(c->link_aliases, c->nlink_aliases);
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

void
config_host_view(const struct config *c, size_t i, struct config *view)
{
	const struct config_host	*h;

	*view = *c;
	view->hosts = NULL;
	view->nhosts = 0;
	if (i == 0 || i > c->nhosts)
		return;
	h = &c->hosts[i - 1];
	view->hostname = h->hostname;
	view->capsule_dir = h->capsule_dir;
	view->cert_dir = h->cert_dir;
	if (h->site_title != NULL)
		view->site_title = h->site_title;
	if (h->site_subtitle != NULL)
		view->site_subtitle = h->site_subtitle;
	if (h->author != NULL)
		view->author = h->author;
	if (h->lang != NULL)
		view->lang = h->lang;
}
