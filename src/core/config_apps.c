/*
 * config_apps.c -- the "fastcgi", "scgi" and "proxy" keys
 * (config_apps.h).
 *
 * apps    = "[" *( entry ) "]" (or a block list) / null
 * entry   = "{" [prefix] [host] (socket / backend) [params] [sni]
 *           [client_cert client_key] [fingerprint] [max_connections] "}"
 * prefix  = "/" *( segment "/" ): "/app/" and "/app" are the same
 * socket  = "unix:" path / address ":" port   (fastcgi, scgi)
 * backend = name ":" port / "[" IPv6 "]" ":" port   (proxy)
 * params  = "{" *( NAME ":" value ) "}"
 * fingerprint = 64HEXDIG, colons and blanks between   (SHA-256)
 *
 * Each entry is a table of the configuration's engine
 * (core/config_engine.h), one for fastcgi and scgi and one for proxy:
 * every key is checked, a repeated one refused where it stands.
 */
#include <arpa/inet.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/config_apps.h"
#include "core/config_engine.h"
#include "core/pathrule.h"
#include "core/util.h"
#include "core/yaml.h"

_Static_assert(offsetof(struct config_app, rule) == 0,
    "pathrule_index() reads the rule at the start of each entry");

#define APPS_MAX	64		/* entries of the three keys, in the
					   top level or in one host item */
#define APPS_PARAMS_MAX	64		/* params of one entry */
#define APPS_TEXT_MAX	1024		/* bytes of one value */

#define AOFF(m)		offsetof(struct config_app, m)
#define AAT(m)		AOFF(m), sizeof(((struct config_app *)0)->m)

/* prefix: "/" or "/a/b" (a trailing "/" dropped), no "." or ".." part. */
static int
parse_prefix(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const char	*s, *seg;
	size_t		 len, n;

	if (cfe_text(l, ev, f->min, f->max, &s) == -1)
		return -1;
	if (s[0] != '/')
		return cfe_fail(l, ev->start_mark, "must start with '/'");
	len = strlen(s);
	while (len > 1 && s[len - 1] == '/')
		len--;
	for (seg = s + 1; seg < s + len; seg += n + 1) {
		n = strcspn(seg, "/");
		if (seg + n > s + len)
			n = (size_t)(s + len - seg);
		if (n == 0 || (n == 1 && seg[0] == '.') ||
		    (n == 2 && seg[0] == '.' && seg[1] == '.'))
			return cfe_fail(l, ev->start_mark, "'%s' has an empty, "
			    "'.' or '..' segment", s);
		if (strcspn(seg, "?#") < n)
			return cfe_fail(l, ev->start_mark, "'%s' is a path, "
			    "without '?' or '#'", s);
	}
	free(*(char **)cfe_at(l, f));
	*(char **)cfe_at(l, f) = xstrndup(s, len);
	return 0;
}

static const struct cfe_kind prefix_kind = { parse_prefix, cfe_print_str };

/*
 * socket = "unix:" path / address ":" port (fastcgi, scgi); backend =
 * name ":" port (proxy); an IPv6 address bracketed.  The entry's kind is
 * known by its table: a proxy's has no socket.
 */
static int
parse_address(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	struct config_app	*a = l->base;
	unsigned char		 buf[sizeof(struct in6_addr)];
	const char		*s, *colon, *host, *end;
	char			*h, *ep;
	long			 port;
	int			 proxy = strcmp(f->key, "backend") == 0;

	if (cfe_text(l, ev, f->min, f->max, &s) == -1)
		return -1;
	if (strncmp(s, "unix:", 5) == 0 && !proxy) {
		if (s[5] == '\0')
			return cfe_fail(l, ev->start_mark, "unix: needs a "
			    "path");
		free(a->path);
		a->path = cfe_path_resolve(l->confdir, s + 5);
		return 0;
	}
	host = s;
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
	if (end <= host || colon[1] == '\0' || *ep != '\0' || port < 1 ||
	    port > 65535)
		goto bad;
	h = xstrndup(host, (size_t)(end - host));
	if (inet_pton(AF_INET, h, buf) != 1 &&
	    inet_pton(AF_INET6, h, buf) != 1 && (!proxy ||
	    strspn(h, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") != strlen(h))) {
		free(h);
		goto bad;
	}
	free(a->addr);
	a->addr = h;
	a->port = (int)port;
	return 0;
bad:
	return cfe_bad(l, ev, proxy ? "host:port" : "unix:PATH or ADDRESS:PORT",
	    s);
}

/* As written: "unix:" and the path, or the address and port. */
static void
print_address(struct cfe_out *o, const struct cfe_field *f,
    const void *base)
{
	const struct config_app	*a = base;
	char			*s;

	if (a->path != NULL)
		s = xasprintf("unix:%s", a->path);
	else
		s = xasprintf(strchr(a->addr, ':') != NULL ? "[%s]:%d" :
		    "%s:%d", a->addr, a->port);
	cfe_out_keystr(o, f->key, s);
	free(s);
}

static const struct cfe_kind address_kind = { parse_address, print_address };

/* One NAME: value of params, appended to the entry's. */
static int
param(struct cfe *l, const yaml_event_t *key, const char *k,
    yaml_event_t *val, void *arg)
{
	struct config_app	*a = arg;
	const char		*v;
	char			*nv;
	size_t			 i, len = strlen(k);
	int			 rv;

	if (len == 0 || len > APPS_TEXT_MAX || strspn(k,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_") != len)
		return cfe_bad(l, key, "an environment variable name", k);
	for (i = 0; i < a->nparams; i++)
		if (strncmp(a->params[i], k, len) == 0 &&
		    a->params[i][len] == '=')
			return cfe_twice(l, key->start_mark, k);
	if (a->nparams >= APPS_PARAMS_MAX)
		return cfe_fail(l, key->start_mark, "more than %d",
		    APPS_PARAMS_MAX);
	cfe_push(l, k);
	rv = cfe_text(l, val, 1, APPS_TEXT_MAX, &v);
	cfe_pop(l);
	if (rv == -1)
		return -1;
	nv = xasprintf("%s=%s", k, v);
	a->params = xreallocarray(a->params, a->nparams + 1,
	    sizeof(*a->params));
	a->params[a->nparams++] = nv;
	return 0;
}

/* params: a mapping of environment names to values. */
static int
parse_params(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	struct config_app	*a = l->base;

	if (ev->type != YAML_MAPPING_START_EVENT)
		return cfe_fail(l, ev->start_mark, "expected a mapping of "
		    "NAME: value, got %s", cfe_what(ev));
	util_free_strings(a->params, a->nparams);
	a->params = NULL;
	a->nparams = 0;
	return cfe_pairs(l, param, a);
}

static void
print_params(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	const struct config_app	*a = base;
	const char		*eq;
	char			*name;
	size_t			 i;

	cfe_out_key(o, f->key);
	buf_addstr(o->b, a->nparams == 0 ? " {}\n" : "\n");
	o->indent += 2;
	for (i = 0; i < a->nparams; i++) {
		eq = strchr(a->params[i], '=');
		name = xstrndup(a->params[i], (size_t)(eq - a->params[i]));
		cfe_out_keystr(o, name, eq + 1);
		free(name);
	}
	o->indent -= 2;
}

static const struct cfe_kind params_kind = { parse_params, print_params };

/* fingerprint: cfe_fingerprint()'s, kept lower case, bare. */
static int
parse_fingerprint(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	char	 hex[65];

	if (cfe_fingerprint(l, ev, hex) == -1)
		return -1;
	cfe_set_str(l, f, hex);
	return 0;
}

static const struct cfe_kind fingerprint_kind = {
	parse_fingerprint, cfe_print_str
};

/* The keys of an entry of "fastcgi" and "scgi", then of "proxy". */
enum { APP_PREFIX, APP_HOST, APP_ADDRESS, APP_MAX_CONNS, APP_PARAMS,
    APP_NFIELDS };

static const struct cfe_field fcgi_fields[APP_NFIELDS] = {
	[APP_PREFIX] = { "prefix", &prefix_kind, AAT(prefix), 1,
	    APPS_TEXT_MAX, 0, NULL },
	[APP_HOST] = { "host", &cfe_host_kind, AAT(host), 1, 253, 0, NULL },
	[APP_ADDRESS] = { "socket", &address_kind, AAT(addr), 1,
	    APPS_TEXT_MAX, 0, NULL },
	[APP_MAX_CONNS] = { "max_connections", &cfe_uint_kind,
	    AAT(max_conns), 1, 1000, 0, NULL },
	[APP_PARAMS] = { "params", &params_kind, AAT(params), 0, 0, 0, NULL },
};

enum { PROXY_SNI = APP_PARAMS, PROXY_CERT, PROXY_KEY, PROXY_FINGERPRINT,
    PROXY_NFIELDS };

static const struct cfe_field proxy_fields[PROXY_NFIELDS] = {
	[APP_PREFIX] = { "prefix", &prefix_kind, AAT(prefix), 1,
	    APPS_TEXT_MAX, 0, NULL },
	[APP_HOST] = { "host", &cfe_host_kind, AAT(host), 1, 253, 0, NULL },
	[APP_ADDRESS] = { "backend", &address_kind, AAT(addr), 1,
	    APPS_TEXT_MAX, 0, NULL },
	[APP_MAX_CONNS] = { "max_connections", &cfe_uint_kind,
	    AAT(max_conns), 1, 1000, 0, NULL },
	[PROXY_SNI] = { "sni", &cfe_host_kind, AAT(sni), 1, 253, 0, NULL },
	[PROXY_CERT] = { "client_cert", &cfe_path_kind, AAT(client_cert), 1,
	    APPS_TEXT_MAX, 0, NULL },
	[PROXY_KEY] = { "client_key", &cfe_path_kind, AAT(client_key), 1,
	    APPS_TEXT_MAX, 0, NULL },
	[PROXY_FINGERPRINT] = { "fingerprint", &fingerprint_kind,
	    AAT(fingerprint), 0, 0, 0, NULL },
};

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
entry(struct cfe *l, struct config_app *a, const yaml_event_t *ev,
    unsigned item_mode)
{
	int			 proxy = a->kind == CONFIG_APP_PROXY;
	const struct cfe_field	*t = proxy ? proxy_fields : fcgi_fields;
	size_t			 n = proxy ? PROXY_NFIELDS : APP_NFIELDS;
	yaml_mark_t		 marks[PROXY_NFIELDS];
	unsigned char		 seen[PROXY_NFIELDS] = { 0 };

	memset(marks, 0, sizeof(marks));
	if (cfe_map(l, t, n, a, 0, NULL, marks, seen) == -1)
		return -1;
	if (seen[APP_HOST] && (l->mode & item_mode)) {
		cfe_push(l, "host");
		cfe_fail(l, marks[APP_HOST], "a host item's entries are that "
		    "host's: leave host out");
		cfe_pop(l);
		return -1;
	}
	if (a->prefix == NULL && (!proxy || a->host == NULL))
		return cfe_fail(l, ev->start_mark, "every entry needs a "
		    "prefix%s", proxy ? " or a host" : "");
	if (a->prefix == NULL)
		a->prefix = xstrdup("/");
	if (a->path == NULL && a->addr == NULL)
		return cfe_fail(l, ev->start_mark, "every entry needs a %s",
		    t[APP_ADDRESS].key);
	if ((a->client_cert == NULL) != (a->client_key == NULL))
		return cfe_fail(l, ev->start_mark, "client_cert and "
		    "client_key go together");
	if (proxy && a->sni == NULL)
		a->sni = xstrdup(a->addr);
	return 0;
}

int
config_apps_same(const struct config_app *a, const struct config_app *b)
{
	return strcmp(a->prefix, b->prefix) == 0 && (a->host == NULL) ==
	    (b->host == NULL) && (a->host == NULL || strcmp(a->host,
	    b->host) == 0);
}

static enum config_app_kind
kind_of(const char *key)
{
	if (strcmp(key, "scgi") == 0)
		return CONFIG_APP_SCGI;
	if (strcmp(key, "proxy") == 0)
		return CONFIG_APP_PROXY;
	return CONFIG_APP_FASTCGI;
}

int
config_apps_parse(struct cfe *l, const struct cfe_field *f,
    yaml_event_t *ev, unsigned item_mode, struct config_app **v, size_t *n)
{
	struct config_app	*a;
	yaml_event_t		 item;
	size_t			 i;
	int			 rv;

	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		return 0;
	if (ev->type != YAML_SEQUENCE_START_EVENT)
		return cfe_fail(l, ev->start_mark, "expected a list of "
		    "entries, got %s", cfe_what(ev));
	while ((rv = cfe_next_in(l, &item)) == 1) {
		if (item.type != YAML_MAPPING_START_EVENT)
			rv = cfe_fail(l, item.start_mark, "expected a mapping, "
			    "got %s", cfe_what(&item));
		else if (*n >= APPS_MAX)
			rv = cfe_fail(l, item.start_mark, "more than %d "
			    "entries", APPS_MAX);
		if (rv == -1) {
			yaml_event_delete(&item);
			return -1;
		}
		*v = xreallocarray(*v, *n + 1, sizeof(**v));
		a = &(*v)[(*n)++];
		memset(a, 0, sizeof(*a));
		a->kind = kind_of(f->key);
		a->max_conns = 8;
		rv = entry(l, a, &item, item_mode);
		for (i = 0; rv == 0 && i + 1 < *n; i++)
			if (config_apps_same(&(*v)[i], a))
				rv = cfe_fail(l, item.start_mark, "prefix %s "
				    "is routed twice", a->prefix);
		yaml_event_delete(&item);
		if (rv == -1)
			return -1;
	}
	/* Indexed now, and again once a host item's entries have joined. */
	if (rv == 0)
		config_apps_index(*v, *n);
	return rv;
}

void
config_apps_print(struct cfe_out *o, const char *key,
    const struct config_app *v, size_t n, config_apps_here_fn *here)
{
	enum config_app_kind	 kind = kind_of(key);
	const struct cfe_field	*t;
	const struct config_app	*a;
	size_t			 i, k, nt, count = 0;

	for (i = 0; i < n; i++)
		count += v[i].kind == kind && here(o, v[i].host);
	cfe_out_key(o, key);
	buf_addstr(o->b, count == 0 ? " []\n" : "\n");
	o->indent += 4;
	t = kind == CONFIG_APP_PROXY ? proxy_fields : fcgi_fields;
	nt = kind == CONFIG_APP_PROXY ? PROXY_NFIELDS : APP_NFIELDS;
	for (i = 0; i < n; i++) {
		a = &v[i];
		if (a->kind != kind || !here(o, a->host))
			continue;
		cfe_out_item(o);
		for (k = 0; k < nt; k++) {
			/* The host of an item's entry is the item's. */
			if ((k == APP_HOST && (a->host == NULL ||
			    o->host != NULL)) || (k == PROXY_SNI &&
			    kind == CONFIG_APP_PROXY && strcmp(a->sni,
			    a->addr) == 0))
				continue;
			if (kind == CONFIG_APP_PROXY && k > PROXY_SNI &&
			    *(char *const *)((const char *)a + t[k].off) ==
			    NULL)
				continue;
			t[k].kind->print(o, &t[k], a);
		}
	}
	o->indent -= 4;
}

void
config_apps_free(struct config_app *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		app_free(&v[i]);
	free(v);
}

void
config_apps_index(struct config_app *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		pathrule_compile(&v[i].rule, v[i].prefix, 0, v[i].host);
	pathrule_index(v, n, sizeof(*v));
}

const struct config_app *
config_app_find(const struct config_app *v, size_t n, const char *hostname,
    const char *path)
{
	return pathrule_find(v, n, sizeof(*v), hostname, path, NULL, NULL,
	    NULL);
}
