/*
 * config_apps.c -- the "fastcgi", "scgi" and "proxy" keys
 * (config_apps.h).
 *
 * apps    = "[" *( entry ) "]" (or a block list) / null
 * entry   = "{" [prefix] [host] (socket / backend) [params] [sni]
 *           [client_cert client_key] [fingerprint] [max_connections] "}"
 * prefix  = "/" *( segment "/" ): "/app/" and "/app" are the same; a
 *           path rule (core/pathrule.h), so a segment may hold '*'
 * socket  = "unix:" path / address ":" port   (fastcgi, scgi)
 * backend = name ":" port / "[" IPv6 "]" ":" port   (proxy)
 * params  = "{" *( NAME ":" value ) "}"
 * fingerprint = 32( 2HEXDIG ) / 2HEXDIG 31( ":" 2HEXDIG )   (SHA-256)
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/config_apps.h"
#include "core/pathrule.h"
#include "core/util.h"
#include "core/yaml.h"

_Static_assert(offsetof(struct config_app, rule) == 0,
    "pathrule_index() reads the rule at the start of each entry");

#define APPS_MAX	64		/* entries of the three keys */
#define APPS_PARAMS_MAX	64		/* params of one entry */
#define APPS_TEXT_MAX	1024		/* bytes of one value */

struct in {
	const struct config_apps_in *in;
	enum config_app_kind kind;
	struct yml_sink	 sink;		/* key, mark, message: the caller's */
};

/* yml_fail() into p's sink: "key: message" at a mark; -1. */
#define FAIL(p, ...)	yml_fail(&(p)->sink, __VA_ARGS__)

/* The next event (owned by the caller), anchors and aliases refused. */
static int
next(struct in *p, yaml_event_t *ev)
{
	if (!yaml_parser_parse(p->in->parser, ev)) {
		yml_sink_problem(&p->sink, p->in->parser, p->in->data,
		    p->in->len);
		return -1;
	}
	if (ev->type == YAML_ALIAS_EVENT ||
	    (ev->type == YAML_SCALAR_EVENT && (ev->data.scalar.anchor !=
	    NULL || ev->data.scalar.tag != NULL)) ||
	    (ev->type == YAML_SEQUENCE_START_EVENT &&
	    (ev->data.sequence_start.anchor != NULL ||
	    ev->data.sequence_start.tag != NULL)) ||
	    (ev->type == YAML_MAPPING_START_EVENT &&
	    (ev->data.mapping_start.anchor != NULL ||
	    ev->data.mapping_start.tag != NULL))) {
		FAIL(p, ev->start_mark, "aliases, anchors and tags are not "
		    "allowed");
		yaml_event_delete(ev);
		return -1;
	}
	return 0;
}

/* One line of text, 1..APPS_TEXT_MAX bytes, no control characters. */
static int
text(struct in *p, const char *name, const yaml_event_t *ev,
    const char **out)
{
	const char	*s;
	size_t		 i, len;

	if (ev->type != YAML_SCALAR_EVENT)
		return FAIL(p, ev->start_mark, "%s: expected a string",
		    name);
	s = (const char *)ev->data.scalar.value;
	len = ev->data.scalar.length;
	if (len == 0 || yml_is_null(ev) || len > APPS_TEXT_MAX ||
	    strlen(s) != len)
		return FAIL(p, ev->start_mark, "%s: must be 1 to %d bytes "
		    "long", name, APPS_TEXT_MAX);
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return FAIL(p, ev->start_mark, "%s: must be one line "
			    "without control characters", name);
	*out = s;
	return 0;
}

static char *
resolve(const char *dir, const char *s)
{
	return s[0] == '/' ? xstrdup(s) : xasprintf("%s/%s", dir, s);
}

/* prefix: "/" or "/a/b" (a trailing "/" dropped), no "." or ".." part. */
static int
set_prefix(struct in *p, struct config_app *a, const yaml_event_t *ev,
    const char *s)
{
	const char	*seg;
	size_t		 len = strlen(s), n;

	if (s[0] != '/')
		return FAIL(p, ev->start_mark, "prefix: must start with '/'");
	while (len > 1 && s[len - 1] == '/')
		len--;
	for (seg = s + 1; seg < s + len; seg += n + 1) {
		n = strcspn(seg, "/");
		if (seg + n > s + len)
			n = (size_t)(s + len - seg);
		if (n == 0 || (n == 1 && seg[0] == '.') ||
		    (n == 2 && seg[0] == '.' && seg[1] == '.'))
			return FAIL(p, ev->start_mark, "prefix: '%s' has an "
			    "empty, '.' or '..' segment", s);
		if (strpbrk(seg, "?#") != NULL && strpbrk(seg, "?#") <
		    seg + n)
			return FAIL(p, ev->start_mark, "prefix: '%s' is a "
			    "path, without '?' or '#'", s);
	}
	free(a->prefix);
	a->prefix = xstrndup(s, len);
	return 0;
}

/* address ":" port, the address bracketed when IPv6; names for proxy. */
static int
set_address(struct in *p, struct config_app *a, const yaml_event_t *ev,
    const char *name, const char *s)
{
	unsigned char	 buf[sizeof(struct in6_addr)];
	const char	*colon, *host = s, *end;
	char		*h;
	long		 port;
	char		*ep;

	if (strncmp(s, "unix:", 5) == 0 && a->kind != CONFIG_APP_PROXY) {
		if (s[5] == '\0')
			return FAIL(p, ev->start_mark, "%s: unix: needs a "
			    "path", name);
		free(a->path);
		a->path = resolve(p->in->confdir, s + 5);
		return 0;
	}
	if ((colon = strrchr(s, ':')) == NULL)
		goto bad;
	end = colon;
	if (s[0] == '[') {
		host = s + 1;
		if (colon == s || colon[-1] != ']')
			goto bad;
		end = colon - 1;
	}
	port = strtol(colon + 1, &ep, 10);
	if (end == host || colon[1] == '\0' || *ep != '\0' || port < 1 ||
	    port > 65535)
		goto bad;
	h = xstrndup(host, (size_t)(end - host));
	if (inet_pton(AF_INET, h, buf) != 1 &&
	    inet_pton(AF_INET6, h, buf) != 1 && (a->kind !=
	    CONFIG_APP_PROXY || strspn(h, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") != strlen(h))) {
		free(h);
		goto bad;
	}
	free(a->addr);
	a->addr = h;
	a->port = (int)port;
	return 0;
bad:
	return FAIL(p, ev->start_mark, "%s: '%.40s' is not %s", name, s,
	    a->kind == CONFIG_APP_PROXY ? "host:port" :
	    "unix:PATH or ADDRESS:PORT");
}

/* params: a mapping of environment names to values. */
static int
set_params(struct in *p, struct config_app *a, const yaml_event_t *ev)
{
	yaml_event_t	 k, v;
	const char	*ks, *vs;
	int		 rv = 0;

	if (ev->type != YAML_MAPPING_START_EVENT)
		return FAIL(p, ev->start_mark, "params: expected a mapping "
		    "of NAME: value");
	for (;;) {
		if (next(p, &k) == -1)
			return -1;
		if (k.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&k);
			return 0;
		}
		if (next(p, &v) == -1) {
			yaml_event_delete(&k);
			return -1;
		}
		if (text(p, "params", &k, &ks) == -1 ||
		    text(p, "params", &v, &vs) == -1)
			rv = -1;
		else if (strspn(ks, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(ks))
			rv = FAIL(p, k.start_mark, "params: '%.40s' is not an "
			    "environment variable name", ks);
		else if (a->nparams >= APPS_PARAMS_MAX)
			rv = FAIL(p, k.start_mark, "params: more than %d",
			    APPS_PARAMS_MAX);
		else {
			a->params = xreallocarray(a->params, a->nparams + 1,
			    sizeof(*a->params));
			a->params[a->nparams++] = xasprintf("%s=%s", ks, vs);
		}
		yaml_event_delete(&k);
		yaml_event_delete(&v);
		if (rv == -1)
			return -1;
	}
}

/* fingerprint: SHA-256 hex, colons allowed; kept lower case, bare. */
static int
set_fingerprint(struct in *p, struct config_app *a, const yaml_event_t *ev,
    const char *s)
{
	char	 hex[65];
	size_t	 i, n = 0;

	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] == ':' && i % 3 == 2)
			continue;
		if (strchr("0123456789abcdefABCDEF", s[i]) == NULL ||
		    n == 64)
			return FAIL(p, ev->start_mark, "fingerprint: not a "
			    "SHA-256 in hex");
		hex[n++] = (char)((s[i] >= 'A' && s[i] <= 'F') ?
		    s[i] - 'A' + 'a' : s[i]);
	}
	if (n != 64)
		return FAIL(p, ev->start_mark, "fingerprint: not a SHA-256 "
		    "in hex");
	hex[n] = '\0';
	free(a->fingerprint);
	a->fingerprint = xstrdup(hex);
	return 0;
}

/* One key of an entry, its value's first event ev. */
static int
entry_key(struct in *p, struct config_app *a, const char *k,
    const yaml_event_t *ev)
{
	const char	*s;
	char		*ep;
	long		 n;
	int		 proxy = a->kind == CONFIG_APP_PROXY;

	if (strcmp(k, "params") == 0 && !proxy)
		return set_params(p, a, ev);
	if (text(p, k, ev, &s) == -1)
		return -1;
	if (strcmp(k, "prefix") == 0)
		return set_prefix(p, a, ev, s);
	if (strcmp(k, "host") == 0) {
		free(a->host);
		a->host = xstrdup(s);
		return 0;
	}
	if (strcmp(k, proxy ? "backend" : "socket") == 0)
		return set_address(p, a, ev, k, s);
	if (strcmp(k, "max_connections") == 0) {
		n = strtol(s, &ep, 10);
		if (*ep != '\0' || n < 1 || n > 1000)
			return FAIL(p, ev->start_mark, "max_connections: "
			    "must be 1 to 1000");
		a->max_conns = (unsigned)n;
		return 0;
	}
	if (proxy && strcmp(k, "sni") == 0) {
		free(a->sni);
		a->sni = xstrdup(s);
		return 0;
	}
	if (proxy && strcmp(k, "client_cert") == 0) {
		free(a->client_cert);
		a->client_cert = resolve(p->in->confdir, s);
		return 0;
	}
	if (proxy && strcmp(k, "client_key") == 0) {
		free(a->client_key);
		a->client_key = resolve(p->in->confdir, s);
		return 0;
	}
	if (proxy && strcmp(k, "fingerprint") == 0)
		return set_fingerprint(p, a, ev, s);
	return FAIL(p, ev->start_mark, "unknown key '%.40s'", k);
}

static void
app_free(struct config_app *a)
{
	free(a->prefix);
	free(a->host);
	free(a->path);
	free(a->addr);
	util_free_strings(a->params, a->nparams);
	free(a->sni);
	free(a->client_cert);
	free(a->client_key);
	free(a->fingerprint);
}

/* One entry, after its MAPPING-START event ev, into *a. */
static int
entry(struct in *p, struct config_app *a, const yaml_event_t *ev)
{
	yaml_event_t	 k, v;
	int		 rv;

	for (;;) {
		if (next(p, &k) == -1)
			return -1;
		if (k.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&k);
			break;
		}
		if (k.type != YAML_SCALAR_EVENT) {
			FAIL(p, k.start_mark, "expected a key");
			yaml_event_delete(&k);
			return -1;
		}
		if (next(p, &v) == -1) {
			yaml_event_delete(&k);
			return -1;
		}
		rv = entry_key(p, a, (const char *)k.data.scalar.value, &v);
		yaml_event_delete(&k);
		yaml_event_delete(&v);
		if (rv == -1)
			return -1;
	}
	if (a->prefix == NULL && (a->kind != CONFIG_APP_PROXY ||
	    a->host == NULL))
		return FAIL(p, ev->start_mark, "every entry needs a prefix%s",
		    a->kind == CONFIG_APP_PROXY ? " or a host" : "");
	if (a->prefix == NULL)
		a->prefix = xstrdup("/");
	if (a->path == NULL && a->addr == NULL)
		return FAIL(p, ev->start_mark, "every entry needs a %s",
		    a->kind == CONFIG_APP_PROXY ? "backend" : "socket");
	if ((a->client_cert == NULL) != (a->client_key == NULL))
		return FAIL(p, ev->start_mark, "client_cert and client_key "
		    "go together");
	if (a->kind == CONFIG_APP_PROXY && a->sni == NULL)
		a->sni = xstrdup(a->addr);
	return 0;
}

/* Compile every entry's prefix and index them for config_app_find(). */
static void
apps_index(struct config_app *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		pathrule_compile(&v[i].rule, v[i].prefix, 0, v[i].host);
	pathrule_index(v, n, sizeof(*v));
}

int
config_apps_parse(const struct config_apps_in *in, const char *key,
    const yaml_event_t *ev, struct config_app **v, size_t *n,
    yaml_mark_t *mark, char *msg, size_t msglen)
{
	struct in		 p = { in, CONFIG_APP_FASTCGI,
				     { key, mark, msg, msglen } };
	struct config_app	*a;
	yaml_event_t		 item;
	size_t			 i;
	int			 rv;

	if (strcmp(key, "scgi") == 0)
		p.kind = CONFIG_APP_SCGI;
	else if (strcmp(key, "proxy") == 0)
		p.kind = CONFIG_APP_PROXY;
	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		return 0;
	if (ev->type != YAML_SEQUENCE_START_EVENT)
		return FAIL(&p, ev->start_mark, "expected a list of entries");
	for (;;) {
		if (next(&p, &item) == -1)
			return -1;
		if (item.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&item);
			apps_index(*v, *n);
			return 0;
		}
		if (item.type != YAML_MAPPING_START_EVENT || *n >= APPS_MAX) {
			rv = FAIL(&p, item.start_mark, *n >= APPS_MAX ?
			    "more than %d entries" : "expected a mapping "
			    "(%d at most)", APPS_MAX);
			yaml_event_delete(&item);
			return rv;
		}
		*v = xreallocarray(*v, *n + 1, sizeof(**v));
		a = &(*v)[(*n)++];
		memset(a, 0, sizeof(*a));
		a->kind = p.kind;
		a->max_conns = 8;
		rv = entry(&p, a, &item);
		for (i = 0; rv == 0 && i + 1 < *n; i++)
			if (strcmp((*v)[i].prefix, a->prefix) == 0 &&
			    ((*v)[i].host == NULL) == (a->host == NULL) &&
			    (a->host == NULL || strcmp((*v)[i].host,
			    a->host) == 0))
				rv = FAIL(&p, item.start_mark, "prefix %s is "
				    "routed twice", a->prefix);
		yaml_event_delete(&item);
		if (rv == -1)
			return -1;
	}
}

void
config_apps_free(struct config_app *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		app_free(&v[i]);
	free(v);
}

const struct config_app *
config_app_find(const struct config_app *v, size_t n, const char *hostname,
    const char *path)
{
	return pathrule_find(v, n, sizeof(*v), hostname, path, NULL, NULL,
	    NULL);
}
