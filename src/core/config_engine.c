/*
 * config_engine.c -- the configuration's one engine (config_engine.h).
 *
 * Events come from libyaml's event API, one at a time; every value is
 * checked where it is read, and the first thing wrong stops the load
 * with its place.  Messages point at the key for unknown and repeated
 * keys, at the value for the rest.  The printer half writes what a
 * load would read back: strings double-quoted and escaped, numbers in
 * the largest unit that keeps them exact.
 */
#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <yaml.h>

#include "core/buf.h"
#include "core/config_engine.h"
#include "core/mime.h"
#include "core/util.h"
#include "core/yaml.h"

int
cfe_begin(struct cfe *l)
{
	if (l->err != NULL && l->errlen > 0)
		l->err[0] = '\0';
	l->depth = 0;
	if (!yaml_parser_initialize(&l->parser))
		return cfe_fail(l, l->parser.mark, "out of memory");
	yaml_parser_set_input_string(&l->parser,
	    (const unsigned char *)l->data, l->len);
	return 0;
}

void
cfe_end(struct cfe *l)
{
	yaml_parser_delete(&l->parser);
}

int
cfe_fail(struct cfe *l, yaml_mark_t m, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 i, n;
	int	 w;

	if (l->err == NULL || l->errlen == 0)
		return -1;
	w = snprintf(l->err, l->errlen, "%s:%zu:%zu: ", l->name,
	    m.line + 1, m.column + 1);
	if (w < 0 || (size_t)w >= l->errlen)
		return -1;
	n = (size_t)w;
	for (i = 0; i < l->depth && i < CFE_DEPTH; i++) {
		w = snprintf(l->err + n, l->errlen - n, "%s: ", l->ctx[i]);
		if (w < 0 || (size_t)w >= l->errlen - n)
			return -1;
		n += (size_t)w;
	}
	va_start(ap, fmt);
	vsnprintf(l->err + n, l->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

void
cfe_push(struct cfe *l, const char *key)
{
	if (l->depth < CFE_DEPTH)
		l->ctx[l->depth] = key;
	l->depth++;
}

void
cfe_pop(struct cfe *l)
{
	l->depth--;
}

const char *
cfe_show(const char *s, char out[CFE_SHOW_MAX + 4])
{
	size_t	 i, len;

	len = strlen(s);
	if (len > CFE_SHOW_MAX) {
		len = CFE_SHOW_MAX;
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

const char *
cfe_what(const yaml_event_t *ev)
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

int
cfe_next(struct cfe *l, yaml_event_t *ev)
{
	const yaml_char_t	*anchor = NULL, *tag = NULL;
	yaml_mark_t		 m;
	char			 msg[256];
	size_t			 depth;

	if (!yaml_parser_parse(&l->parser, ev)) { /* libyaml: 0 is failure */
		/* libyaml's own words: not the keys we are inside. */
		depth = l->depth;
		l->depth = 0;
		yml_problem(&l->parser, l->data, l->len, &m, msg, sizeof(msg));
		cfe_fail(l, m, "%s", msg);
		l->depth = depth;
		return -1;
	}
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		cfe_fail(l, ev->start_mark, "aliases (*name) are not allowed");
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
		cfe_fail(l, ev->start_mark, "%s are not allowed",
		    anchor != NULL ? "anchors (&name)" : "tags (!name)");
		yaml_event_delete(ev);
		return -1;
	}
	return 0;
}

int
cfe_next_in(struct cfe *l, yaml_event_t *ev)
{
	if (cfe_next(l, ev) == -1)
		return -1;
	if (ev->type == YAML_SEQUENCE_END_EVENT ||
	    ev->type == YAML_MAPPING_END_EVENT) {
		yaml_event_delete(ev);
		return 0;
	}
	return 1;
}

/* A key event: a scalar without a NUL byte, its text into *k. */
static int
key_of(struct cfe *l, const yaml_event_t *key, const char **k)
{
	if (key->type != YAML_SCALAR_EVENT)
		return cfe_fail(l, key->start_mark, "expected a key, got %s",
		    cfe_what(key));
	*k = (const char *)key->data.scalar.value;
	if (strlen(*k) != key->data.scalar.length)
		return cfe_fail(l, key->start_mark, "a key contains a NUL "
		    "byte");
	return 0;
}

int
cfe_map(struct cfe *l, const struct cfe_field *t, size_t n, void *base,
    unsigned need, const char *refusal, yaml_mark_t *marks,
    unsigned char *seen)
{
	yaml_event_t	 key, val;
	void		*saved = l->base;
	char		 tmp[CFE_SHOW_MAX + 4];
	const char	*k;
	size_t		 i = 0;
	int		 rv;

	for (;;) {
		if ((rv = cfe_next_in(l, &key)) <= 0)
			break;
		if ((rv = key_of(l, &key, &k)) == 0) {
			for (i = 0; i < n && strcmp(t[i].key, k) != 0; i++)
				;
			if (i == n)
				rv = cfe_fail(l, key.start_mark,
				    "unknown key '%s'", cfe_show(k, tmp));
			else if (need != 0 && (t[i].flags & need) == 0)
				rv = cfe_fail(l, key.start_mark, "'%s' %s",
				    t[i].key, refusal);
			else if (seen[i])
				rv = cfe_fail(l, key.start_mark,
				    "duplicate key '%s'", t[i].key);
		}
		yaml_event_delete(&key);
		if (rv == -1 || (rv = cfe_next(l, &val)) == -1)
			break;
		seen[i] = 1;
		marks[i] = val.start_mark;
		l->base = base;
		cfe_push(l, t[i].key);
		rv = t[i].kind->parse(l, &t[i], &val);
		cfe_pop(l);
		yaml_event_delete(&val);
		if (rv == -1)
			break;
	}
	l->base = saved;
	return rv;
}

int
cfe_pairs(struct cfe *l, cfe_pair_fn *pair, void *arg)
{
	yaml_event_t	 key, val;
	const char	*k;
	int		 rv;

	for (;;) {
		if ((rv = cfe_next_in(l, &key)) <= 0)
			return rv;
		if (key_of(l, &key, &k) == -1 || cfe_next(l, &val) == -1) {
			yaml_event_delete(&key);
			return -1;
		}
		rv = pair(l, &key, k, &val, arg);
		yaml_event_delete(&key);
		yaml_event_delete(&val);
		if (rv == -1)
			return -1;
	}
}

int
cfe_scalar(struct cfe *l, const yaml_event_t *ev, const char *what,
    const char **out)
{
	if (ev->type != YAML_SCALAR_EVENT)
		return cfe_fail(l, ev->start_mark, "expected %s, got %s", what,
		    cfe_what(ev));
	if (strlen((const char *)ev->data.scalar.value) !=
	    ev->data.scalar.length)
		return cfe_fail(l, ev->start_mark, "contains a NUL byte");
	*out = (const char *)ev->data.scalar.value;
	return 0;
}

int
cfe_bad(struct cfe *l, const yaml_event_t *ev, const char *what,
    const char *s)
{
	char	 tmp[CFE_SHOW_MAX + 4];

	return cfe_fail(l, ev->start_mark, "expected %s, got '%s'", what,
	    cfe_show(s, tmp));
}

int
cfe_twice(struct cfe *l, yaml_mark_t m, const char *s)
{
	char	 tmp[CFE_SHOW_MAX + 4];

	return cfe_fail(l, m, "'%s' is listed twice", cfe_show(s, tmp));
}

void *
cfe_at(const struct cfe *l, const struct cfe_field *f)
{
	return (char *)l->base + f->off;
}

void
cfe_set_str(struct cfe *l, const struct cfe_field *f, const char *s)
{
	char	**p = cfe_at(l, f);

	free(*p);
	*p = s != NULL ? xstrdup(s) : NULL;
}

int
cfe_text(struct cfe *l, const yaml_event_t *ev, long long min,
    long long max, const char **out)
{
	const char	*s;
	size_t		 i, len;

	if (cfe_scalar(l, ev, "a string", &s) == -1)
		return -1;
	if (yml_is_null(ev) || *s == '\0') {
		if (min > 0)
			return cfe_fail(l, ev->start_mark,
			    "must not be empty");
		*out = NULL;
		return 0;
	}
	len = strlen(s);
	if ((long long)len < min || (long long)len > max)
		return cfe_fail(l, ev->start_mark,
		    "must be %lld to %lld bytes long", min, max);
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return cfe_fail(l, ev->start_mark,
			    "must be one line without control characters");
	*out = s;
	return 0;
}

static int
parse_text(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const char	*s;

	if (cfe_text(l, ev, f->min, f->max, &s) == -1)
		return -1;
	cfe_set_str(l, f, s);
	return 0;
}

void
cfe_print_str(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	cfe_out_keystr(o, f->key, *(char *const *)((const char *)base +
	    f->off));
}

const struct cfe_kind cfe_text_kind = { parse_text, cfe_print_str };

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
parse_host(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const char	*s;
	char		**p = cfe_at(l, f), *q;

	if (cfe_text(l, ev, f->min, f->max, &s) == -1)
		return -1;
	if (s != NULL && !valid_host(s))
		return cfe_bad(l, ev, "a host name", s);
	cfe_set_str(l, f, s);
	for (q = *p; q != NULL && *q != '\0'; q++)
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q - 'A' + 'a');
	return 0;
}

const struct cfe_kind cfe_host_kind = { parse_host, cfe_print_str };

/* lang: mime_lang_ok(), after cfe_text() held it to f's length. */
static int
parse_lang(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const char	*s;

	if (cfe_text(l, ev, f->min, f->max, &s) == -1)
		return -1;
	if (s != NULL && !mime_lang_ok(s))
		return cfe_bad(l, ev, "a language tag like en or pt-BR", s);
	cfe_set_str(l, f, s);
	return 0;
}

const struct cfe_kind cfe_lang_kind = { parse_lang, cfe_print_str };

char *
cfe_path_resolve(const char *dir, const char *p)
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

char *
cfe_absolute_dir(const char *dir)
{
	char	*r, cwd[PATH_MAX];

	if ((r = realpath(dir, NULL)) != NULL)
		return r;
	if (dir[0] == '/')
		return cfe_path_resolve("/", dir);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return NULL;
	return cfe_path_resolve(cwd, dir);
}

/* A path, relative to the file's directory; null for none when min is 0. */
static int
parse_path(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const char	*s;
	char		**p = cfe_at(l, f);

	if (cfe_text(l, ev, f->min, f->max, &s) == -1)
		return -1;
	free(*p);
	*p = s != NULL ? cfe_path_resolve(l->confdir, s) : NULL;
	return 0;
}

const struct cfe_kind cfe_path_kind = { parse_path, cfe_print_str };

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

int
cfe_integer(struct cfe *l, const yaml_event_t *ev, long long min,
    long long max, long long *out)
{
	char		 tmp[CFE_SHOW_MAX + 4];
	const char	*s;

	if (cfe_scalar(l, ev, "an integer", &s) == -1)
		return -1;
	if (yml_is_null(ev))
		return cfe_fail(l, ev->start_mark, "a value is required");
	if (read_integer(s, out) == -1)
		return cfe_bad(l, ev, "an integer", s);
	if (*out < min || *out > max)
		return cfe_fail(l, ev->start_mark,
		    "%s is out of range (%lld to %lld)", cfe_show(s, tmp), min,
		    max);
	return 0;
}

static int
parse_int(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	long long	 v;

	if (cfe_integer(l, ev, f->min, f->max, &v) == -1)
		return -1;
	*(int *)cfe_at(l, f) = (int)v;
	return 0;
}

static void
print_int(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	cfe_out_line(o, f->key, "%d", *(const int *)((const char *)base +
	    f->off));
}

const struct cfe_kind cfe_int_kind = { parse_int, print_int };

static int
parse_uint(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	long long	 v;

	if (cfe_integer(l, ev, f->min, f->max, &v) == -1)
		return -1;
	*(unsigned *)cfe_at(l, f) = (unsigned)v;
	return 0;
}

static void
print_uint(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	cfe_out_line(o, f->key, "%u", *(const unsigned *)((const char *)base +
	    f->off));
}

const struct cfe_kind cfe_uint_kind = { parse_uint, print_uint };

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
 * size = 1*DIGIT [*SP unit]; unit = "B" / "K" ["i"] ["B"] / "M" ... /
 * "G" ... / "T" ..., any case, all powers of 1024 ("8 MiB" = "8M" =
 * "8MB" = 8388608).  Stored as a size_t in f->min..f->max bytes.
 */
static int
parse_size(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	static const char	 units[] = "kmgt";
	char			 tmp[CFE_SHOW_MAX + 4], num[24];
	const char		*s, *p, *u;
	long long		 v, mult = 1;
	size_t			 n;

	if (cfe_scalar(l, ev, "a size", &s) == -1)
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
		return cfe_bad(l, ev, "a size such as 8388608, \"512K\" or "
		    "\"8 MiB\"", s);
	memcpy(num, s, n);
	num[n] = '\0';
	if (read_integer(num, &v) == -1 || v > f->max / mult ||
	    v * mult < f->min)
		return cfe_fail(l, ev->start_mark,
		    "%s is out of range (%lld KiB to %lld MiB)",
		    cfe_show(s, tmp), f->min >> 10, f->max >> 20);
	*(size_t *)cfe_at(l, f) = (size_t)(v * mult);
	return 0;
}

/* In the largest unit that keeps it exact: "8 MiB", "1536 KiB", "100". */
static void
print_size(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	static const char	 units[] = "KMGT";
	size_t			 v = *(const size_t *)((const char *)base +
				    f->off);
	int			 u;

	for (u = 3; u >= 0 && v > 0; u--)
		if (v % ((size_t)1 << (10 * (u + 1))) == 0) {
			cfe_out_line(o, f->key, "%zu %ciB",
			    v >> (10 * (u + 1)), units[u]);
			return;
		}
	cfe_out_line(o, f->key, "%zu", v);
}

const struct cfe_kind cfe_size_kind = { parse_size, print_size };

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
parse_ms(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	char		 tmp[CFE_SHOW_MAX + 4];
	const char	*s;
	long long	 v;

	if (cfe_scalar(l, ev, "a number of seconds", &s) == -1)
		return -1;
	if (yml_is_null(ev))
		return cfe_fail(l, ev->start_mark, "a value is required");
	if (*s == '-')
		return cfe_fail(l, ev->start_mark, "must not be negative");
	if (read_duration(s, &v) == -1)
		return cfe_bad(l, ev, "seconds such as 10 or 2.5, or \"500ms\"",
		    s);
	if (v < f->min || v > f->max)
		return cfe_fail(l, ev->start_mark,
		    "%s is out of range (%lldms to %llds)", cfe_show(s, tmp),
		    f->min, f->max / 1000);
	*(unsigned *)cfe_at(l, f) = (unsigned)v;
	return 0;
}

static void
print_ms(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	unsigned	 v = *(const unsigned *)((const char *)base + f->off);

	if (v % 3600000 == 0 && v > 0)
		cfe_out_line(o, f->key, "%uh", v / 3600000);
	else if (v % 1000 == 0)
		cfe_out_line(o, f->key, "%us", v / 1000);
	else
		cfe_out_line(o, f->key, "%ums", v);
}

const struct cfe_kind cfe_ms_kind = { parse_ms, print_ms };

/*
 * rate = decimal ["/s"] / "off": a number a second, stored as
 * thousandths (0 = off) in f->min..f->max.
 */
static int
parse_rate(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	char		 tmp[CFE_SHOW_MAX + 4];
	const char	*s, *e;
	long long	 v;

	if (cfe_scalar(l, ev, "requests per second", &s) == -1)
		return -1;
	if (strcasecmp(s, "off") == 0 || strcasecmp(s, "false") == 0) {
		*(unsigned *)cfe_at(l, f) = 0;
		return 0;
	}
	if (yml_is_null(ev) || (e = read_milli(s, &v)) == NULL ||
	    (*e != '\0' && strcmp(e, "/s") != 0))
		return cfe_bad(l, ev, "requests per second such as 10 or 0.5, "
		    "or off", s);
	if (v < f->min || v > f->max)
		return cfe_fail(l, ev->start_mark,
		    "%s is out of range (0 to %lld)", cfe_show(s, tmp),
		    f->max / 1000);
	*(unsigned *)cfe_at(l, f) = (unsigned)v;
	return 0;
}

/* "off", "20" or "0.25": the thousandths without trailing zeros. */
static void
print_rate(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	unsigned	 v = *(const unsigned *)((const char *)base + f->off);
	char		 frac[8];
	size_t		 n;

	if (v == 0) {
		cfe_out_line(o, f->key, "off");
		return;
	}
	snprintf(frac, sizeof(frac), ".%03u", v % 1000);
	for (n = strlen(frac); n > 0 && (frac[n - 1] == '0' ||
	    frac[n - 1] == '.'); n--)
		frac[n - 1] = '\0';
	cfe_out_line(o, f->key, "%u%s", v / 1000, frac);
}

const struct cfe_kind cfe_rate_kind = { parse_rate, print_rate };

/* bool = true / false / yes / no / on / off, in any case (yaml.h) */
static int
parse_bool(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const char	*s;
	bool		 b;

	if (cfe_scalar(l, ev, "true or false", &s) == -1)
		return -1;
	if (yml_parse_bool(s, strlen(s), &b) == -1)
		return cfe_bad(l, ev, "true or false", s);
	*(int *)cfe_at(l, f) = b;
	return 0;
}

static void
print_bool(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	cfe_out_line(o, f->key, "%s", *(const int *)((const char *)base +
	    f->off) ? "true" : "false");
}

const struct cfe_kind cfe_bool_kind = { parse_bool, print_bool };

int
cfe_word(struct cfe *l, const yaml_event_t *ev, const struct cfe_words *ws,
    int *out)
{
	const struct cfe_word	*w;
	const char		*s;

	if (cfe_scalar(l, ev, ws->what, &s) == -1)
		return -1;
	for (w = ws->w; w->name != NULL; w++)
		if (strcasecmp(s, w->name) == 0) {
			*out = w->value;
			return 0;
		}
	return cfe_bad(l, ev, ws->what, s);
}

static int
parse_word(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	return cfe_word(l, ev, f->arg, cfe_at(l, f));
}

/* The first spelling of the value; a value no word has is ours. */
static void
print_word(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	const struct cfe_words	*ws = f->arg;
	const struct cfe_word	*w;
	int			 v = *(const int *)((const char *)base +
				    f->off);

	for (w = ws->w; w->name != NULL && w->value != v; w++)
		;
	if (w->name == NULL)
		abort();
	cfe_out_line(o, f->key, "%s", w->name);
}

const struct cfe_kind cfe_word_kind = { parse_word, print_word };

int
cfe_dir_name(struct cfe *l, const yaml_event_t *ev, const char *example,
    char **out)
{
	char		 tmp[CFE_SHOW_MAX + 4];
	const char	*s, *p;
	size_t		 len;

	*out = NULL;
	if (cfe_text(l, ev, 0, 64, &s) == -1)
		return -1;
	if (s == NULL)
		return 0;
	len = strlen(s);
	if (len > 1 && s[len - 1] == '/')
		len--;				/* "cgi-bin/" */
	for (p = s; p < s + len; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		    (*p == '.' && p > s)))
			break;
	if (p < s + len || len == 0)
		return cfe_fail(l, ev->start_mark, "expected a directory name "
		    "such as %s (letters, digits, '-', '_', '.' not first), "
		    "got '%s'", example, cfe_show(s, tmp));
	*out = xstrndup(s, len);
	return 0;
}

int
cfe_fingerprint(struct cfe *l, const yaml_event_t *ev, char *hex)
{
	const char	*s;
	size_t		 i, k = 0;
	int		 c;

	if (cfe_scalar(l, ev, "a SHA-256 fingerprint", &s) == -1)
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
		return cfe_bad(l, ev, "a SHA-256 fingerprint (64 hex digits)",
		    s);
	hex[64] = '\0';
	return 0;
}

int
cfe_list_append(struct cfe *l, const struct cfe_field *f,
    const yaml_event_t *ev, char ***v, size_t *n, const char *value,
    const char *written, const char *noun)
{
	size_t	 i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], value) == 0)
			return cfe_twice(l, ev->start_mark, written);
	if ((long long)*n >= f->max)
		return cfe_fail(l, ev->start_mark, "more than %lld %s", f->max,
		    noun);
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = xstrdup(value);
	return 0;
}

/* A list's strings, and their count right after them. */
static char ***
list_at(const struct cfe *l, const struct cfe_field *f, size_t **n)
{
	char	***v = cfe_at(l, f);

	*n = (size_t *)(v + 1);
	return v;
}

int
cfe_list(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const struct cfe_items	*it = f->arg;
	yaml_event_t		 item;
	char			**v = NULL, ***dst;
	size_t			 n = 0, *ndst;
	int			 rv;

	if (ev->type == YAML_SEQUENCE_START_EVENT) {
		while ((rv = cfe_next_in(l, &item)) == 1) {
			rv = it->add(l, f, &item, &v, &n);
			yaml_event_delete(&item);
			if (rv == -1)
				break;
		}
		if (rv == -1)
			goto fail;
	} else if (!(it->allow_null && yml_is_null(ev)) &&
	    it->add(l, f, ev, &v, &n) == -1)
		goto fail;
	if (it->min1 && n == 0) {
		cfe_fail(l, ev->start_mark, "the list must hold at least one "
		    "entry");
		goto fail;
	}
	dst = list_at(l, f, &ndst);
	util_free_strings(*dst, *ndst);
	*dst = v;
	*ndst = n;
	return 0;
fail:
	util_free_strings(v, n);
	return -1;
}

static int
parse_list(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	return cfe_list(l, f, ev);
}

static void
print_list(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	char *const	*v = *(char *const *const *)((const char *)base +
			    f->off);
	size_t		 n = *(const size_t *)((const char *)base + f->off +
			    sizeof(char **));

	cfe_out_key(o, f->key);
	buf_addc(o->b, ' ');
	cfe_out_strs(o, v, n);
	buf_addc(o->b, '\n');
}

const struct cfe_kind cfe_list_kind = { parse_list, print_list };

void
cfe_out_key(struct cfe_out *o, const char *key)
{
	int	 i, n = o->indent;

	if (o->dash)
		n -= 2;
	for (i = 0; i < n; i++)
		buf_addc(o->b, ' ');
	if (o->dash)
		buf_addstr(o->b, "- ");
	o->dash = 0;
	buf_printf(o->b, "%s:", key);
}

void
cfe_out_item(struct cfe_out *o)
{
	o->dash = 1;
}

void
cfe_out_str(struct cfe_out *o, const char *s)
{
	const unsigned char	*p;

	if (s == NULL) {
		buf_addstr(o->b, "null");
		return;
	}
	buf_addc(o->b, '"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(o->b, "\\%c", *p);
		else if (*p == '\n')
			buf_addstr(o->b, "\\n");
		else if (*p == '\t')
			buf_addstr(o->b, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			buf_printf(o->b, "\\x%02X", *p);
		/* What YAML reads as a line break or a byte order mark. */
		else if (p[0] == 0xC2 && p[1] == 0x85) {
			buf_addstr(o->b, "\\N");
			p++;
		} else if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 ||
		    p[2] == 0xA9)) {
			buf_addstr(o->b, p[2] == 0xA8 ? "\\L" : "\\P");
			p += 2;
		} else if (p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
			buf_addstr(o->b, "\\uFEFF");
			p += 2;
		} else if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) {
			/* C1 controls: YAML reads them only escaped. */
			buf_printf(o->b, "\\u%04X", p[1]);
			p++;
		} else if (p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE ||
		    p[2] == 0xBF)) {
			/* The two noncharacters YAML does not print either. */
			buf_printf(o->b, "\\uFF%02X", p[2] + 0x40);
			p += 2;
		} else
			buf_addc(o->b, *p);
	}
	buf_addc(o->b, '"');
}

void
cfe_out_strs(struct cfe_out *o, char *const *v, size_t n)
{
	size_t	 i;

	buf_addc(o->b, '[');
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addstr(o->b, ", ");
		cfe_out_str(o, v[i]);
	}
	buf_addc(o->b, ']');
}

void
cfe_out_line(struct cfe_out *o, const char *key, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	cfe_out_key(o, key);
	buf_addc(o->b, ' ');
	buf_addstr(o->b, s);
	buf_addc(o->b, '\n');
	free(s);
}

void
cfe_out_pair(struct cfe_out *o, const char *k, const char *v)
{
	buf_printf(o->b, "%*s", o->indent, "");
	cfe_out_str(o, k);
	buf_addstr(o->b, ": ");
	cfe_out_str(o, v);
	buf_addc(o->b, '\n');
}

void
cfe_out_keystr(struct cfe_out *o, const char *key, const char *s)
{
	cfe_out_key(o, key);
	buf_addc(o->b, ' ');
	cfe_out_str(o, s);
	buf_addc(o->b, '\n');
}
