/*
 * toml.c -- a TOML 1.0 parser: bytes in, a tree of typed values out.
 *
 * The input is first checked to be UTF-8 as a whole, so the scanner
 * copies the bytes past ASCII as they are.  Then one recursive descent
 * over the grammar of toml.io/en/v1.0.0 (its ABNF is quoted above each
 * rule); the recursion is arrays and inline tables only, and stops at
 * TOML_MAX_DEPTH.
 *
 * The rules on defining a table only once are kept in each table node
 * (how it was made, and for a table made by a dotted key, in which
 * section): a [header] may define a table only made as a parent of
 * another header; a dotted key may add to tables it made itself in the
 * same section (or inline table), and to such implicit parents; an
 * inline table or an array written as a value is closed.  This is the
 * reading of the specification's examples that Python's tomllib (3.11)
 * implements too.
 *
 * Key lookups use an open-addressing index per table once it has more
 * than a few keys, hashed with SipHash-1-3 under a random key made once
 * per process: a document cannot be written to make them collide.
 * Knows core/buf.h, utf8.h and util.h (url.h for url_hexval()).  Every
 * node is owned by its parent; a half-built value is freed on the error
 * path that abandons it.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "core/toml.h"
#include "core/buf.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"

#define TOML_SMALL	8	/* tables up to this many keys: no index */

/* struct toml_value's how */
enum {
	HOW_IMPLICIT,		/* table: a parent named by a [header] */
	HOW_HEADER,		/* table: [header], or an element of [[...]] */
	HOW_DOTTED,		/* table: made by a dotted key in .section */
	HOW_INLINE,		/* table: { ... }, closed once read */
	HOW_STATIC,		/* array: [ ... ] written as a value */
	HOW_OF_TABLES,		/* array: made by [[header]] */
};

struct key {
	char		*s;		/* owned while own; then the table's */
	size_t		 len;
	size_t		 off;
	int		 own;
};

struct keypath {
	struct key	*k;		/* owned */
	size_t		 n;
	size_t		 cap;
};

struct tp {
	const char	*s;
	size_t		 len;
	size_t		 pos;
	unsigned	 nsections;	/* sections and inline tables so far */
	struct buf	 b;		/* scratch: a string or number */
	struct toml_error *err;
	int		 failed;
};

static uint64_t		 sipkey[2];
static pthread_once_t	 sipkey_once = PTHREAD_ONCE_INIT;

static void
sipkey_init(void)
{
	struct timespec	 ts;

	if (getrandom(sipkey, sizeof(sipkey), GRND_NONBLOCK) ==
	    (ssize_t)sizeof(sipkey))
		return;
	/* No entropy yet (early boot): still unknown to a document. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sipkey[0] = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ULL ^
	    (uint64_t)(uintptr_t)&ts;
	sipkey[1] = (uint64_t)ts.tv_sec * 0xC2B2AE3D27D4EB4FULL ^
	    (uint64_t)getpid();
}

#define ROTL(x, b)	(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND do {							\
	v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);	\
	v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;				\
	v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;				\
	v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);	\
} while (0)

/* SipHash-1-3 of s[0..len) under sipkey. */
static uint64_t
hash(const char *s, size_t len)
{
	uint64_t	 v0, v1, v2, v3, m;
	size_t		 i, left;

	v0 = sipkey[0] ^ 0x736f6d6570736575ULL;
	v1 = sipkey[1] ^ 0x646f72616e646f6dULL;
	v2 = sipkey[0] ^ 0x6c7967656e657261ULL;
	v3 = sipkey[1] ^ 0x7465646279746573ULL;
	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&m, s + i, 8);	/* byte order: any, consistently */
		v3 ^= m;
		SIPROUND;
		v0 ^= m;
	}
	m = (uint64_t)len << 56;
	for (left = 0; i + left < len; left++)
		m |= (uint64_t)(unsigned char)s[i + left] << (8 * left);
	v3 ^= m;
	SIPROUND;
	v0 ^= m;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

/*
 * Up to about 40 bytes of s (valid UTF-8) for a message: whole code
 * points, ASCII controls shown as '?', "..." when cut.
 */
static void
printable(char *out, size_t outsz, const char *s, size_t len)
{
	size_t		 i = 0, n = 0, cl;
	unsigned char	 c;

	while (i < len) {
		c = (unsigned char)s[i];
		cl = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
		if (cl > len - i)
			cl = len - i;
		if (n >= 40 || n + cl + 4 > outsz)
			break;
		if (cl == 1)
			out[n++] = c >= 0x20 && c < 0x7F ? (char)c : '?';
		else {
			memcpy(out + n, s + i, cl);
			n += cl;
		}
		i += cl;
	}
	if (i < len) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
}

/* The first n parts of kp, joined with '.', for a message. */
static void
keyname(char *out, size_t outsz, const struct keypath *kp, size_t n)
{
	char	 part[48];
	size_t	 i, used = 0;
	int	 w;

	out[0] = '\0';
	for (i = 0; i < n && used + 1 < outsz; i++) {
		printable(part, sizeof(part), kp->k[i].s, kp->k[i].len);
		w = snprintf(out + used, outsz - used, "%s%s", i ? "." : "",
		    part);
		if (w < 0 || (size_t)w >= outsz - used)
			break;
		used += (size_t)w;
	}
}

static int
fail(struct tp *p, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Record the first error at byte off; returns -1 for the caller. */
static int
fail(struct tp *p, size_t off, const char *fmt, ...)
{
	va_list	 ap;

	if (p->failed)
		return -1;
	p->failed = 1;
	p->err->off = off;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

const char *
toml_type_name(enum toml_type t)
{
	switch (t) {
	case TOML_TABLE:
		return "table";
	case TOML_ARRAY:
		return "array";
	case TOML_STRING:
		return "string";
	case TOML_INTEGER:
		return "integer";
	case TOML_FLOAT:
		return "float";
	case TOML_BOOL:
		return "boolean";
	case TOML_DATETIME:
		return "offset date-time";
	case TOML_LOCAL_DATETIME:
		return "local date-time";
	case TOML_LOCAL_DATE:
		return "local date";
	case TOML_LOCAL_TIME:
		return "local time";
	}
	return "value";
}

/* Tree nodes. */

static struct toml_value *
node(enum toml_type type, size_t off)
{
	struct toml_value	*v;

	v = xcalloc(1, sizeof(*v));
	v->type = type;
	v->off = off;
	return v;
}

void
toml_free(struct toml_value *v)
{
	size_t	 i;

	if (v == NULL)
		return;
	switch (v->type) {
	case TOML_TABLE:
		for (i = 0; i < v->u.table.n; i++) {
			free(v->u.table.kv[i].key);
			toml_free(v->u.table.kv[i].val);
		}
		free(v->u.table.kv);
		free(v->u.table.idx);
		break;
	case TOML_ARRAY:
		for (i = 0; i < v->u.array.n; i++)
			toml_free(v->u.array.v[i]);
		free(v->u.array.v);
		break;
	case TOML_STRING:
		free(v->u.str.s);
		break;
	case TOML_INTEGER:
	case TOML_FLOAT:
	case TOML_BOOL:
	case TOML_DATETIME:
	case TOML_LOCAL_DATETIME:
	case TOML_LOCAL_DATE:
	case TOML_LOCAL_TIME:
		break;
	}
	free(v);
}

static struct toml_kv *
tbl_find(const struct toml_value *t, const char *k, size_t len)
{
	const struct toml_kv	*kv;
	size_t			 i, mask;

	if (t->u.table.idx == NULL) {
		for (i = 0; i < t->u.table.n; i++) {
			kv = &t->u.table.kv[i];
			if (kv->keylen == len && memcmp(kv->key, k, len) == 0)
				return (struct toml_kv *)kv;
		}
		return NULL;
	}
	mask = t->u.table.idxcap - 1;
	for (i = hash(k, len) & mask; t->u.table.idx[i] != 0;
	    i = (i + 1) & mask) {
		kv = &t->u.table.kv[t->u.table.idx[i] - 1];
		if (kv->keylen == len && memcmp(kv->key, k, len) == 0)
			return (struct toml_kv *)kv;
	}
	return NULL;
}

static void
idx_put(struct toml_value *t, size_t n)
{
	const struct toml_kv	*kv = &t->u.table.kv[n];
	size_t			 i, mask = t->u.table.idxcap - 1;

	for (i = hash(kv->key, kv->keylen) & mask; t->u.table.idx[i] != 0;
	    i = (i + 1) & mask)
		continue;
	t->u.table.idx[i] = (uint32_t)(n + 1);
}

/* Append key (taken over) = val (taken over) to t; the key is new. */
static struct toml_kv *
tbl_add(struct toml_value *t, struct key *k, struct toml_value *val)
{
	struct toml_kv	*kv;
	size_t		 i, n;

	if (t->u.table.n == t->u.table.cap) {
		t->u.table.cap = t->u.table.cap ? t->u.table.cap * 2 : 4;
		t->u.table.kv = xreallocarray(t->u.table.kv, t->u.table.cap,
		    sizeof(*t->u.table.kv));
	}
	n = t->u.table.n++;
	kv = &t->u.table.kv[n];
	kv->key = k->s;
	kv->keylen = k->len;
	kv->off = k->off;
	kv->val = val;
	k->own = 0;		/* kept readable for messages */
	if (t->u.table.n <= TOML_SMALL)
		return kv;
	if (t->u.table.idxcap < 2 * t->u.table.n) {
		free(t->u.table.idx);
		t->u.table.idxcap = t->u.table.idxcap ?
		    t->u.table.idxcap * 2 : 4 * TOML_SMALL;
		t->u.table.idx = xcalloc(t->u.table.idxcap,
		    sizeof(*t->u.table.idx));
		for (i = 0; i < t->u.table.n; i++)
			idx_put(t, i);
	} else
		idx_put(t, n);
	return kv;
}

static void
arr_add(struct toml_value *a, struct toml_value *v)
{
	if (a->u.array.n == a->u.array.cap) {
		a->u.array.cap = a->u.array.cap ? a->u.array.cap * 2 : 4;
		a->u.array.v = xreallocarray(a->u.array.v, a->u.array.cap,
		    sizeof(*a->u.array.v));
	}
	a->u.array.v[a->u.array.n++] = v;
}

const struct toml_value *
toml_get(const struct toml_value *t, const char *key)
{
	const struct toml_kv	*kv;

	if (t == NULL || t->type != TOML_TABLE)
		return NULL;
	kv = tbl_find(t, key, strlen(key));
	return kv ? kv->val : NULL;
}

static void
keypath_free(struct keypath *kp)
{
	size_t	 i;

	for (i = 0; i < kp->n; i++)
		if (kp->k[i].own)
			free(kp->k[i].s);
	free(kp->k);
	memset(kp, 0, sizeof(*kp));
}

/* Scanning. */

static int
peek(const struct tp *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int
at(const struct tp *p, size_t i)
{
	return p->pos + i < p->len ? (unsigned char)p->s[p->pos + i] : -1;
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* A digit of base 2, 8, 10 or 16. */
static int
is_digit_of(int c, int base)
{
	switch (base) {
	case 2:
		return c == '0' || c == '1';
	case 8:
		return c >= '0' && c <= '7';
	case 16:
		return url_hexval(c) >= 0;
	default:
		return is_digit(c);
	}
}

/* unquoted-key = 1*( ALPHA / DIGIT / %x2D / %x5F ) */
static int
is_bare(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    is_digit(c) || c == '-' || c == '_';
}

/* ws = *( %x20 / %x09 ) */
static void
skip_ws(struct tp *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' ||
	    p->s[p->pos] == '\t'))
		p->pos++;
}

/* newline = %x0A / %x0D.0A: its length at pos, or 0 */
static size_t
newline_at(const struct tp *p)
{
	if (peek(p) == '\n')
		return 1;
	if (peek(p) == '\r' && at(p, 1) == '\n')
		return 2;
	return 0;
}

/*
 * comment = "#" *non-eol
 * non-eol = %x09 / %x20-7F / non-ascii, less DEL (TOML 1.0 text)
 * At '#': consume up to the line's end, not the newline.
 */
static int
skip_comment(struct tp *p)
{
	int	 c;

	for (p->pos++; p->pos < p->len; p->pos++) {
		c = peek(p);
		if (c == '\n' || (c == '\r' && at(p, 1) == '\n'))
			return 0;
		if ((c < 0x20 && c != '\t') || c == 0x7F)
			return fail(p, p->pos, "control character U+%04X in "
			    "a comment", (unsigned)c);
	}
	return 0;
}

/* ws, newlines and comments, as between the values of an array. */
static int
skip_wscnl(struct tp *p)
{
	size_t	 n;

	for (;;) {
		skip_ws(p);
		if (peek(p) == '#' && skip_comment(p) == -1)
			return -1;
		if ((n = newline_at(p)) == 0)
			return 0;
		p->pos += n;
	}
}

/* The end of an expression: ws [comment] (newline / end of input). */
static int
end_of_line(struct tp *p, const char *what)
{
	size_t	 n;

	skip_ws(p);
	if (peek(p) == '#' && skip_comment(p) == -1)
		return -1;
	if (p->pos == p->len)
		return 0;
	if ((n = newline_at(p)) > 0) {
		p->pos += n;
		return 0;
	}
	if (peek(p) == '\r')
		return fail(p, p->pos, "a carriage return must be followed "
		    "by a line feed");
	return fail(p, p->pos, "expected the end of the line after %s",
	    what);
}

/* Strings. */

/*
 * escaped = escape ( %x22 / %x5C / %x62 / %x66 / %x6E / %x72 / %x74 /
 *           %x75 4HEXDIG / %x55 8HEXDIG )
 * At the backslash; appends the character to p->b.
 */
static int
escape(struct tp *p)
{
	static const char	 from[] = "btnfr\"\\", to[] = "\b\t\n\f\r\"\\";
	const char		*q;
	size_t			 start = p->pos, i, n;
	unsigned long		 cp = 0;
	int			 c;

	p->pos++;
	c = peek(p);
	if (c > 0 && (q = strchr(from, c)) != NULL) {
		buf_addc(&p->b, to[q - from]);
		p->pos++;
		return 0;
	}
	switch (c) {
	case 'u':
	case 'U':
		n = c == 'u' ? 4 : 8;
		for (i = 1; i <= n; i++) {
			if (url_hexval(at(p, i)) < 0)
				return fail(p, start, "\\%c needs %zu hex "
				    "digits", c, n);
			cp = cp << 4 | (unsigned long)url_hexval(at(p, i));
		}
		if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return fail(p, start, "\\%c%0*lX is not a Unicode "
			    "scalar value", c, (int)n, cp);
		utf8_add(&p->b, (uint32_t)cp);
		p->pos += n;
		break;
	case -1:
		return fail(p, start, "a string is not closed");
	default:
		if (c >= 0x20 && c < 0x7F)
			return fail(p, start, "invalid escape \\%c", c);
		return fail(p, start, "invalid escape (a backslash before "
		    "U+%04X)", (unsigned)c);
	}
	p->pos++;
	return 0;
}

/*
 * mlb-escaped-nl = escape ws newline *( wschar / newline )
 * At the backslash, known to be followed by ws or a newline: skips to
 * the next character that is neither.
 */
static int
escaped_newline(struct tp *p)
{
	size_t	 start = p->pos, n;

	p->pos++;
	skip_ws(p);
	if (newline_at(p) == 0)
		return fail(p, start, "a backslash may be followed only by "
		    "blanks up to the end of the line");
	for (;;) {
		skip_ws(p);
		if ((n = newline_at(p)) == 0)
			return 0;
		p->pos += n;
	}
}

/*
 * basic-string      = %x22 *basic-char %x22
 * ml-basic-string   = %x22.22.22 [ newline ] ml-basic-body %x22.22.22
 * literal-string    = %x27 *literal-char %x27
 * ml-literal-string = %x27.27.27 [ newline ] ml-literal-body %x27.27.27
 * In a body, one or two quotes may stand anywhere, the closing three
 * included ("""a""""" is 'a""').  Control characters other than tab
 * must be escaped (basic) or cannot be written (literal); a multi-line
 * body's newlines are kept as LF.
 * At the opening quote, with ml allowed or not (keys); the string's
 * bytes go to p->b.
 */
static int
read_string(struct tp *p, int ml_ok)
{
	size_t	 start = p->pos, n;
	int	 q = peek(p), basic = q == '"', ml = 0, c;

	buf_truncate(&p->b, 0);
	buf_add(&p->b, "", 0);		/* data is never NULL */
	if (ml_ok && at(p, 1) == q && at(p, 2) == q) {
		ml = 1;
		p->pos += 3;
		p->pos += newline_at(p);
	} else
		p->pos++;
	for (;;) {
		if (p->pos >= p->len)
			return fail(p, start, "a string is not closed");
		c = peek(p);
		if (c == q) {
			if (!ml) {
				p->pos++;
				return 0;
			}
			for (n = 1; at(p, n) == q && n < 6; n++)
				continue;
			if (n < 3) {
				buf_add(&p->b, p->s + p->pos, n);
				p->pos += n;
				continue;
			}
			if (n == 6)
				return fail(p, p->pos + 5, "too many quotes "
				    "at the end of a multi-line string");
			buf_add(&p->b, p->s + p->pos, n - 3);
			p->pos += n;
			return 0;
		}
		if (c == '\\' && basic) {
			c = at(p, 1);
			if (ml && (c == ' ' || c == '\t' || c == '\n' ||
			    c == '\r')) {
				if (escaped_newline(p) == -1)
					return -1;
			} else if (escape(p) == -1)
				return -1;
			continue;
		}
		if (c == '\n' || c == '\r') {
			if (!ml)
				return fail(p, p->pos, "a string is not closed "
				    "on its line");
			if ((n = newline_at(p)) == 0)
				return fail(p, p->pos, "a carriage return must "
				    "be followed by a line feed");
			buf_addc(&p->b, '\n');
			p->pos += n;
			continue;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7F)
			return fail(p, p->pos, "control character U+%04X in a "
			    "string%s", (unsigned)c, basic ? " (escape it)" :
			    "");
		buf_addc(&p->b, c);
		p->pos++;
	}
}

/* Keys. */

/*
 * key        = simple-key / dotted-key
 * simple-key = quoted-key / unquoted-key
 * dotted-key = simple-key 1*( ws "." ws simple-key )
 */
static int
parse_key(struct tp *p, struct keypath *kp)
{
	struct key	*k;
	size_t		 start;
	int		 c;

	memset(kp, 0, sizeof(*kp));
	for (;;) {
		if (kp->n == TOML_MAX_DEPTH)
			return fail(p, p->pos, "a key of more than %d dotted "
			    "parts", TOML_MAX_DEPTH);
		if (kp->n == kp->cap) {
			kp->cap = kp->cap ? kp->cap * 2 : 4;
			kp->k = xreallocarray(kp->k, kp->cap, sizeof(*kp->k));
		}
		k = &kp->k[kp->n];
		k->off = start = p->pos;
		k->own = 1;
		c = peek(p);
		if (c == '"' || c == '\'') {
			if (read_string(p, 0) == -1)
				return -1;
			k->len = p->b.len;
			k->s = xmalloc(k->len + 1);
			memcpy(k->s, p->b.data, k->len + 1);
		} else {
			while (is_bare(peek(p)))
				p->pos++;
			if (p->pos == start) {
				if (c == '\n' || c == '\r' || c == -1)
					return fail(p, start, "expected a key "
					    "before the end of the line");
				if (c >= 0x20 && c < 0x7F)
					return fail(p, start, "expected a key, "
					    "not '%c' (quote a key that is not "
					    "A-Za-z0-9_-)", c);
				return fail(p, start, "expected a key (quote "
				    "a key that is not A-Za-z0-9_-)");
			}
			k->len = p->pos - start;
			k->s = xstrndup(p->s + start, k->len);
		}
		kp->n++;
		skip_ws(p);
		if (peek(p) != '.')
			return 0;
		p->pos++;
		skip_ws(p);
	}
}

/* Values. */

static struct toml_value *parse_value(struct tp *, unsigned);

/*
 * Read digits of base base (at least one, at pos) with single
 * underscores between them into p->b.
 */
static int
digits(struct tp *p, int base)
{
	if (!is_digit_of(peek(p), base))
		return fail(p, p->pos, "expected a digit");
	for (;;) {
		buf_addc(&p->b, peek(p));
		p->pos++;
		if (peek(p) == '_') {
			if (!is_digit_of(at(p, 1), base))
				return fail(p, p->pos, "an underscore must "
				    "stand between two digits");
			p->pos++;
		} else if (!is_digit_of(peek(p), base))
			return 0;
	}
}

/*
 * integer = dec-int / hex-int / oct-int / bin-int
 * dec-int = [ "-" / "+" ] ( DIGIT / digit1-9 1*( DIGIT / "_" DIGIT ) )
 * hex-int = "0x" HEXDIG *( HEXDIG / "_" HEXDIG )    (oct "0o", bin "0b")
 * float   = float-int-part ( exp / frac [ exp ] ) / special-float
 * frac    = "." zero-prefixable-int
 * exp     = ( "e" / "E" ) [ "-" / "+" ] zero-prefixable-int
 * special-float = [ "-" / "+" ] ( "inf" / "nan" )
 * Integers must fit in 64 bits.  Floats are read by strtod(), in the C
 * locale capsuled runs in (it never calls setlocale()).
 */
static struct toml_value *
parse_number(struct tp *p)
{
	struct toml_value	*v;
	size_t			 start = p->pos, i;
	uint64_t		 mag = 0, lim;
	int			 neg = 0, sign = 0, base = 10, isfloat = 0, c;

	if (peek(p) == '+' || peek(p) == '-') {
		neg = peek(p) == '-';
		sign = 1;
		p->pos++;
	}
	if (p->len - p->pos >= 3 && (memcmp(p->s + p->pos, "inf", 3) == 0 ||
	    memcmp(p->s + p->pos, "nan", 3) == 0)) {
		v = node(TOML_FLOAT, start);
		if (p->s[p->pos] == 'i')
			v->u.flt = neg ? -INFINITY : INFINITY;
		else
			v->u.flt = neg ? -NAN : NAN;
		p->pos += 3;
		return v;
	}
	buf_truncate(&p->b, 0);
	c = at(p, 1);
	if (peek(p) == '0' && (c == 'x' || c == 'o' || c == 'b')) {
		if (sign) {
			fail(p, start, "a hexadecimal, octal or binary "
			    "integer cannot have a sign");
			return NULL;
		}
		base = c == 'x' ? 16 : c == 'o' ? 8 : 2;
		p->pos += 2;
		if (digits(p, base) == -1)
			return NULL;
	} else {
		if (!is_digit(peek(p))) {
			fail(p, p->pos, "expected a digit");
			return NULL;
		}
		if (peek(p) == '0' && (is_digit(at(p, 1)) || at(p, 1) == '_')) {
			fail(p, start, "a number cannot start with a zero");
			return NULL;
		}
		if (digits(p, 10) == -1)
			return NULL;
		if (peek(p) == '.') {
			isfloat = 1;
			buf_addc(&p->b, '.');
			p->pos++;
			if (digits(p, 10) == -1)
				return NULL;
		}
		if (peek(p) == 'e' || peek(p) == 'E') {
			isfloat = 1;
			buf_addc(&p->b, 'e');
			p->pos++;
			if (peek(p) == '+' || peek(p) == '-') {
				buf_addc(&p->b, peek(p));
				p->pos++;
			}
			if (digits(p, 10) == -1)
				return NULL;
		}
	}
	if (isfloat) {
		/* Out of range reads as inf or 0, as IEEE 754 rounds. */
		v = node(TOML_FLOAT, start);
		v->u.flt = strtod(p->b.data, NULL);
		if (neg)
			v->u.flt = -v->u.flt;
		return v;
	}
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (i = 0; i < p->b.len; i++) {
		c = url_hexval((unsigned char)p->b.data[i]);
		if (mag > (lim - (uint64_t)c) / (uint64_t)base) {
			fail(p, start, "integer out of range (64 bits)");
			return NULL;
		}
		mag = mag * (uint64_t)base + (uint64_t)c;
	}
	v = node(TOML_INTEGER, start);
	v->u.integer = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return v;
}

/* Exactly n decimal digits at pos into *out; 0, or -1 (not failed). */
static int
ndigits(struct tp *p, int n, int *out)
{
	int	 i, v = 0;

	for (i = 0; i < n; i++) {
		if (!is_digit(at(p, (size_t)i)))
			return -1;
		v = v * 10 + at(p, (size_t)i) - '0';
	}
	p->pos += (size_t)n;
	*out = v;
	return 0;
}

static int
month_days(int y, int m)
{
	static const int	 days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	if (m == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))
		return 29;
	return days[m - 1];
}

/*
 * partial-time = time-hour ":" time-minute ":" time-second
 *                [ "." 1*DIGIT ]
 * Seconds are required in TOML 1.0; a fraction finer than a nanosecond
 * is truncated, as the specification asks.
 */
static int
parse_time(struct tp *p, struct toml_datetime *dt)
{
	size_t	 start = p->pos;
	long	 scale = 100000000;

	if (ndigits(p, 2, &dt->hour) == -1 || peek(p) != ':' ||
	    (p->pos++, ndigits(p, 2, &dt->minute)) == -1)
		return fail(p, start, "expected a time as HH:MM:SS");
	if (peek(p) != ':' || (p->pos++, ndigits(p, 2, &dt->second)) == -1)
		return fail(p, start, "expected a time as HH:MM:SS (TOML 1.0 "
		    "requires the seconds)");
	if (dt->hour > 23 || dt->minute > 59 || dt->second > 60)
		return fail(p, start, "time out of range");
	if (peek(p) == '.') {
		p->pos++;
		if (!is_digit(peek(p)))
			return fail(p, p->pos, "expected the digits of a "
			    "fraction of a second");
		for (; is_digit(peek(p)); p->pos++, scale /= 10)
			dt->nsec += (peek(p) - '0') * scale;
	}
	return 0;
}

/*
 * offset-date-time = full-date time-delim full-time
 * local-date-time  = full-date time-delim partial-time
 * local-date       = full-date
 * local-time       = partial-time
 * full-date        = 4DIGIT "-" 2DIGIT "-" 2DIGIT
 * time-delim       = "T" / "t" / %x20
 * time-offset      = "Z" / "z" / ( "+" / "-" ) 2DIGIT ":" 2DIGIT
 * At a digit, known to start "DDDD-" (a date) or "DD:" (a time).
 */
static struct toml_value *
parse_datetime(struct tp *p)
{
	struct toml_value	*v;
	struct toml_datetime	 dt;
	size_t			 start = p->pos;
	int			 sign, oh, om;

	memset(&dt, 0, sizeof(dt));
	if (at(p, 2) == ':') {
		if (parse_time(p, &dt) == -1)
			return NULL;
		v = node(TOML_LOCAL_TIME, start);
		v->u.dt = dt;
		return v;
	}
	if (ndigits(p, 4, &dt.year) == -1 || peek(p) != '-' ||
	    (p->pos++, ndigits(p, 2, &dt.month)) == -1 || peek(p) != '-' ||
	    (p->pos++, ndigits(p, 2, &dt.day)) == -1 || is_digit(peek(p))) {
		fail(p, start, "expected a date as YYYY-MM-DD");
		return NULL;
	}
	if (dt.month < 1 || dt.month > 12 || dt.day < 1 ||
	    dt.day > month_days(dt.year, dt.month)) {
		fail(p, start, "date out of range");
		return NULL;
	}
	if (peek(p) == 'T' || peek(p) == 't' || (peek(p) == ' ' &&
	    is_digit(at(p, 1)) && is_digit(at(p, 2)) && at(p, 3) == ':')) {
		p->pos++;
		if (parse_time(p, &dt) == -1)
			return NULL;
	} else {
		v = node(TOML_LOCAL_DATE, start);
		v->u.dt = dt;
		return v;
	}
	if (peek(p) == 'Z' || peek(p) == 'z') {
		p->pos++;
		v = node(TOML_DATETIME, start);
	} else if (peek(p) == '+' || peek(p) == '-') {
		sign = peek(p) == '-' ? -1 : 1;
		p->pos++;
		if (ndigits(p, 2, &oh) == -1 || peek(p) != ':' ||
		    (p->pos++, ndigits(p, 2, &om)) == -1) {
			fail(p, start, "expected an offset as +HH:MM");
			return NULL;
		}
		if (oh > 23 || om > 59) {
			fail(p, start, "offset out of range");
			return NULL;
		}
		dt.offset = sign * (oh * 60 + om);
		v = node(TOML_DATETIME, start);
	} else
		v = node(TOML_LOCAL_DATETIME, start);
	v->u.dt = dt;
	return v;
}

/*
 * array = "[" [ array-values ] ws-comment-newline "]"
 * array-values = ws-comment-newline val ws-comment-newline
 *                [ "," array-values ]
 * Values of any types may be mixed (TOML 1.0); a trailing comma is
 * allowed.
 */
static struct toml_value *
parse_array(struct tp *p, unsigned depth)
{
	struct toml_value	*a, *v;

	a = node(TOML_ARRAY, p->pos);
	a->how = HOW_STATIC;
	a->depth = (unsigned char)depth;
	p->pos++;
	for (;;) {
		if (skip_wscnl(p) == -1)
			goto fail;
		if (peek(p) == ']')
			break;
		if (p->pos == p->len) {
			fail(p, a->off, "an array is not closed");
			goto fail;
		}
		if ((v = parse_value(p, depth + 1)) == NULL)
			goto fail;
		arr_add(a, v);
		if (skip_wscnl(p) == -1)
			goto fail;
		if (peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (peek(p) == ']')
			break;
		if (p->pos == p->len)
			fail(p, a->off, "an array is not closed");
		else
			fail(p, p->pos, "expected ',' or ']' after a value in "
			    "an array");
		goto fail;
	}
	p->pos++;
	return a;
fail:
	toml_free(a);
	return NULL;
}

static int	 put_dotted(struct tp *, struct toml_value *, unsigned,
		    struct keypath *, struct toml_value *);

/*
 * inline-table = "{" ws [ inline-table-keyvals ] ws "}"
 * inline-table-keyvals = keyval [ ws "," ws inline-table-keyvals ]
 * One line (a value inside may span lines), no trailing comma; closed
 * once read.
 */
static struct toml_value *
parse_inline(struct tp *p, unsigned depth)
{
	struct toml_value	*t, *v;
	struct keypath		 kp;
	unsigned		 section = ++p->nsections;

	t = node(TOML_TABLE, p->pos);
	t->depth = (unsigned char)depth;
	p->pos++;
	skip_ws(p);
	if (peek(p) == '}')
		goto done;
	for (;;) {
		if (newline_at(p) > 0 || peek(p) == '\r') {
			fail(p, p->pos, "an inline table must be on one line");
			goto fail;
		}
		if (peek(p) == '}') {
			fail(p, p->pos, "an inline table cannot end with a "
			    "comma");
			goto fail;
		}
		if (parse_key(p, &kp) == -1)
			goto failkey;
		if (peek(p) != '=') {
			fail(p, p->pos, "expected '=' after a key");
			goto failkey;
		}
		p->pos++;
		skip_ws(p);
		if ((v = parse_value(p, depth + (unsigned)kp.n)) == NULL)
			goto failkey;
		if (put_dotted(p, t, section, &kp, v) == -1)
			goto failkey;
		keypath_free(&kp);
		skip_ws(p);
		if (peek(p) == '}')
			break;
		if (peek(p) != ',') {
			if (newline_at(p) > 0 || peek(p) == '\r' ||
			    p->pos == p->len)
				fail(p, p->pos, "an inline table must be "
				    "closed on its line");
			else
				fail(p, p->pos, "expected ',' or '}' after a "
				    "value in an inline table");
			goto fail;
		}
		p->pos++;
		skip_ws(p);
	}
done:
	p->pos++;
	t->how = HOW_INLINE;
	return t;
failkey:
	keypath_free(&kp);
fail:
	toml_free(t);
	return NULL;
}

/*
 * val = string / boolean / array / inline-table / date-time / float /
 *       integer
 * depth is that of the value's place in the tree.
 */
static struct toml_value *
parse_value(struct tp *p, unsigned depth)
{
	struct toml_value	*v;
	size_t			 start = p->pos;
	int			 c = peek(p);

	switch (c) {
	case '"':
	case '\'':
		if (read_string(p, 1) == -1)
			return NULL;
		v = node(TOML_STRING, start);
		v->u.str.len = p->b.len;
		v->u.str.s = xmalloc(p->b.len + 1);
		memcpy(v->u.str.s, p->b.data, p->b.len + 1);
		return v;
	case 't':
	case 'f':
		if (p->len - p->pos >= 4 && memcmp(p->s + p->pos, "true",
		    4) == 0) {
			p->pos += 4;
			v = node(TOML_BOOL, start);
			v->u.boolean = true;
			return v;
		}
		if (p->len - p->pos >= 5 && memcmp(p->s + p->pos, "false",
		    5) == 0) {
			p->pos += 5;
			return node(TOML_BOOL, start);
		}
		break;
	case '[':
	case '{':
		if (depth > TOML_MAX_DEPTH) {
			fail(p, start, "arrays and tables nested more than "
			    "%d deep", TOML_MAX_DEPTH);
			return NULL;
		}
		return c == '[' ? parse_array(p, depth) :
		    parse_inline(p, depth);
	case 'i':
	case 'n':
		if (p->len - p->pos >= 3 && (memcmp(p->s + p->pos, "inf",
		    3) == 0 || memcmp(p->s + p->pos, "nan", 3) == 0))
			return parse_number(p);
		break;
	case '+':
	case '-':
		return parse_number(p);
	default:
		if (!is_digit(c))
			break;
		if ((is_digit(at(p, 1)) && at(p, 2) == ':') ||
		    (is_digit(at(p, 1)) && is_digit(at(p, 2)) &&
		    is_digit(at(p, 3)) && at(p, 4) == '-'))
			return parse_datetime(p);
		return parse_number(p);
	}
	if (c == -1 || c == '\n' || c == '\r' || c == '#')
		fail(p, start, "expected a value");
	else if (c >= 0x20 && c < 0x7F)
		fail(p, start, "expected a value, not '%c' (quote a string)",
		    c);
	else
		fail(p, start, "expected a value (quote a string)");
	return NULL;
}

/* Putting values in place. */

/* A table or array of kind how beneath parent, or NULL when too deep. */
static struct toml_value *
new_child(struct tp *p, const struct toml_value *parent, enum toml_type type,
    int how, size_t off)
{
	struct toml_value	*t;

	if (parent->depth + 1 > TOML_MAX_DEPTH) {
		fail(p, off, "tables nested more than %d deep",
		    TOML_MAX_DEPTH);
		return NULL;
	}
	t = node(type, off);
	t->how = (unsigned char)how;
	t->depth = (unsigned char)(parent->depth + 1);
	return t;
}

/*
 * keyval with a dotted key, in table t of section section (a header's
 * table, the root, or an inline table being read): the parts before the
 * last name tables this same section made, or implicit parents (made
 * so now); the last must be new.  val is taken over, freed on error.
 */
static int
put_dotted(struct tp *p, struct toml_value *t, unsigned section,
    struct keypath *kp, struct toml_value *val)
{
	struct toml_kv		*kv;
	struct toml_value	*sub;
	char			 name[160];
	size_t			 i;

	for (i = 0; i + 1 < kp->n; i++) {
		kv = tbl_find(t, kp->k[i].s, kp->k[i].len);
		if (kv == NULL) {
			if ((sub = new_child(p, t, TOML_TABLE, HOW_DOTTED,
			    kp->k[i].off)) == NULL)
				goto fail;
			sub->section = section;
			t = tbl_add(t, &kp->k[i], sub)->val;
			continue;
		}
		sub = kv->val;
		keyname(name, sizeof(name), kp, i + 1);
		if (sub->type != TOML_TABLE) {
			fail(p, kp->k[i].off, "'%s' already holds a value "
			    "(%s), not a table", name,
			    toml_type_name(sub->type));
			goto fail;
		}
		if (sub->how == HOW_INLINE) {
			fail(p, kp->k[i].off, "table '%s' was written inline "
			    "and cannot be extended", name);
			goto fail;
		}
		if (sub->how == HOW_IMPLICIT) {
			sub->how = HOW_DOTTED;
			sub->section = section;
		} else if (sub->how != HOW_DOTTED || sub->section != section) {
			fail(p, kp->k[i].off, "table '%s' is defined "
			    "elsewhere; a dotted key cannot add to it here",
			    name);
			goto fail;
		}
		t = sub;
	}
	if (tbl_find(t, kp->k[i].s, kp->k[i].len) != NULL) {
		keyname(name, sizeof(name), kp, kp->n);
		fail(p, kp->k[i].off, "duplicate key '%s'", name);
		goto fail;
	}
	tbl_add(t, &kp->k[i], val);
	return 0;
fail:
	toml_free(val);
	return -1;
}

/*
 * std-table = "[" ws key ws "]"
 * array-table = "[[" ws key ws "]]"
 * At the '['; on success *cur is the table the next keyvals go to.
 */
static int
parse_header(struct tp *p, struct toml_value *root, struct toml_value **cur)
{
	struct toml_value	*t = root, *sub, *a;
	struct toml_kv		*kv;
	struct keypath		 kp;
	char			 name[160];
	size_t			 start = p->pos, i;
	int			 aot = at(p, 1) == '[';

	p->pos += aot ? 2 : 1;
	skip_ws(p);
	if (parse_key(p, &kp) == -1)
		goto fail;
	if (peek(p) != ']' || (aot && at(p, 1) != ']')) {
		fail(p, p->pos, "expected '%s' to close a table header",
		    aot ? "]]" : "]");
		goto fail;
	}
	p->pos += aot ? 2 : 1;

	for (i = 0; i + 1 < kp.n; i++) {
		if ((kv = tbl_find(t, kp.k[i].s, kp.k[i].len)) == NULL) {
			if ((sub = new_child(p, t, TOML_TABLE, HOW_IMPLICIT,
			    kp.k[i].off)) == NULL)
				goto fail;
			t = tbl_add(t, &kp.k[i], sub)->val;
			continue;
		}
		sub = kv->val;
		if (sub->type == TOML_ARRAY && sub->how == HOW_OF_TABLES) {
			t = sub->u.array.v[sub->u.array.n - 1];
			continue;
		}
		keyname(name, sizeof(name), &kp, i + 1);
		if (sub->type == TOML_ARRAY) {
			fail(p, kp.k[i].off, "'%s' is an array written as a "
			    "value; it cannot be extended", name);
			goto fail;
		}
		if (sub->type != TOML_TABLE) {
			fail(p, kp.k[i].off, "'%s' already holds a value "
			    "(%s), not a table", name,
			    toml_type_name(sub->type));
			goto fail;
		}
		if (sub->how == HOW_INLINE) {
			fail(p, kp.k[i].off, "table '%s' was written inline "
			    "and cannot be extended", name);
			goto fail;
		}
		t = sub;
	}

	keyname(name, sizeof(name), &kp, kp.n);
	kv = tbl_find(t, kp.k[i].s, kp.k[i].len);
	if (!aot) {
		if (kv == NULL) {
			if ((sub = new_child(p, t, TOML_TABLE, HOW_HEADER,
			    start)) == NULL)
				goto fail;
			t = tbl_add(t, &kp.k[i], sub)->val;
		} else if (kv->val->type == TOML_TABLE &&
		    kv->val->how == HOW_IMPLICIT) {
			t = kv->val;
			t->how = HOW_HEADER;
		} else {
			if (kv->val->type == TOML_ARRAY &&
			    kv->val->how == HOW_OF_TABLES)
				fail(p, start, "'%s' is an array of tables; "
				    "add to it with [[%s]]", name, name);
			else if (kv->val->type == TOML_TABLE)
				fail(p, start, "table '%s' is already defined",
				    name);
			else
				fail(p, start, "'%s' already holds a value "
				    "(%s)", name,
				    toml_type_name(kv->val->type));
			goto fail;
		}
	} else {
		if (kv == NULL) {
			if ((a = new_child(p, t, TOML_ARRAY, HOW_OF_TABLES,
			    start)) == NULL)
				goto fail;
			tbl_add(t, &kp.k[i], a);
		} else if (kv->val->type == TOML_ARRAY &&
		    kv->val->how == HOW_OF_TABLES)
			a = kv->val;
		else {
			if (kv->val->type == TOML_ARRAY)
				fail(p, start, "'%s' is an array written as a "
				    "value; it cannot be extended", name);
			else
				fail(p, start, "'%s' already holds a value "
				    "(%s), not an array of tables", name,
				    toml_type_name(kv->val->type));
			goto fail;
		}
		if ((t = new_child(p, a, TOML_TABLE, HOW_HEADER,
		    start)) == NULL)
			goto fail;
		arr_add(a, t);
	}
	keypath_free(&kp);
	*cur = t;
	return 0;
fail:
	keypath_free(&kp);
	return -1;
}

/* keyval = key keyval-sep val, into table t of section section. */
static int
parse_keyval(struct tp *p, struct toml_value *t, unsigned section)
{
	struct toml_value	*v;
	struct keypath		 kp;
	int			 rv = -1;

	if (parse_key(p, &kp) == -1)
		goto end;
	if (peek(p) != '=') {
		fail(p, p->pos, "expected '=' after a key");
		goto end;
	}
	p->pos++;
	skip_ws(p);
	if ((v = parse_value(p, t->depth + (unsigned)kp.n)) != NULL)
		rv = put_dotted(p, t, section, &kp, v);	/* takes v */
end:
	keypath_free(&kp);
	return rv;
}

/* The whole input must be UTF-8 (TOML 1.0: "a valid UTF-8 document"). */
static int
check_utf8(struct tp *p)
{
	size_t		 i, n;
	uint32_t	 cp;

	for (i = 0; i < p->len; i += n) {
		if ((unsigned char)p->s[i] < 0x80) {
			n = 1;
			continue;
		}
		n = utf8_decode(p->s + i, p->len - i, &cp);
		if (cp == UTF8_INVALID)
			return fail(p, i, "invalid UTF-8");
	}
	return 0;
}

/*
 * toml = expression *( newline expression )
 * expression = ws [ comment ] / ws keyval ws [ comment ] /
 *              ws table ws [ comment ]
 */
int
toml_parse(const char *src, size_t len, struct toml_value **out,
    struct toml_error *err)
{
	struct tp		 p;
	struct toml_value	*root, *cur;
	unsigned		 section = 0;
	int			 c;

	pthread_once(&sipkey_once, sipkey_init);
	memset(&p, 0, sizeof(p));
	memset(err, 0, sizeof(*err));
	p.s = src;
	p.len = len;
	p.err = err;
	*out = NULL;
	root = cur = node(TOML_TABLE, 0);
	root->how = HOW_HEADER;
	if (check_utf8(&p) == -1)
		goto fail;
	while (p.pos < p.len) {
		skip_ws(&p);
		c = peek(&p);
		if (c == '[') {
			if (parse_header(&p, root, &cur) == -1 ||
			    end_of_line(&p, "a table header") == -1)
				goto fail;
			section = ++p.nsections;
		} else if (c == '#' || c == '\n' || c == '\r' || c == -1) {
			if (end_of_line(&p, "a comment") == -1)
				goto fail;
		} else if (parse_keyval(&p, cur, section) == -1 ||
		    end_of_line(&p, "a value") == -1)
			goto fail;
	}
	buf_free(&p.b);
	*out = root;
	return 0;
fail:
	buf_free(&p.b);
	toml_free(root);
	utf8_position(src, len, err->off, &err->line, &err->col);
	return -1;
}
