/*
 * frontmatter_header.c -- metadata header lines without a fence, read
 * into struct meta: Pelican's and MultiMarkdown's.
 *
 * Such a file opens with "Key: value" lines, up to the first blank line
 * (or the first line that is neither such a line nor a continuation of
 * one, which then opens the body), as Python-Markdown's meta extension
 * reads them for Pelican:
 *
 *   header = key-line *(key-line / more-line) (blank-line / EOF)
 *   key-line = 0*3SP key ":" *WSP value EOL
 *   key = ALNUM *(ALNUM / "_" / "-" / SP)         ; any case
 *   more-line = 1*WSP value EOL                   ; joined to the last
 *
 * A file is read so only when its first line is one of the keys of
 * hkeys[], so that a post opening "Note: ..." stays a paragraph; later
 * unknown keys are skipped, as in YAML.  Each known value goes to
 * frontmatter_apply(), the rules every syntax shares (frontmatter_int.h):
 *   Title, Subtitle, Summary, Slug, Lang, URL   strings
 *   Date, Modified                              dates (date.h's shapes)
 *   Tags, Keywords                              tags, split on commas
 *   Category                                    one tag, whole
 *   Author; Authors                             a name; names split on
 *                                               commas (semicolons when
 *                                               there is one)
 *   Series; series_index                        the series plugin's: its
 *                                               name; the part, a number
 *   Status                                      draft and hidden are
 *                                               drafts, published is not
 * Pelican makes a post's slug from its title when it has no Slug:
 * m->slug_from_title says so (content/slug.h).  A value of the wrong
 * shape is ignored with a warning, and nothing refuses the file.
 * Knows date.h; nothing of files or of the archive.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "content/frontmatter.h"
#include "content/frontmatter_int.h"
#include "core/buf.h"
#include "core/date.h"
#include "core/utf8.h"
#include "core/util.h"

#define HEADER_MAX_KEYLEN	64

/* How a key's value is read. */
enum hread {
	H_TEXT,		/* one string, its continuation lines joined */
	H_LIST,		/* items split on commas (or on semicolons) */
	H_TAG,		/* one tag, whole */
	H_DATE,
	H_INT,
	H_STATUS,	/* draft, hidden, published */
};

static const struct hkey {
	struct fm_key	 key;		/* name, field and rank */
	enum hread	 read;
} hkeys[] = {
	{ { "title",		F_TITLE,	0 },	H_TEXT },
	{ { "subtitle",		F_SUBTITLE,	0 },	H_TEXT },
	{ { "date",		F_DATE,		0 },	H_DATE },
	{ { "modified",		F_UPDATED,	0 },	H_DATE },
	{ { "tags",		F_TAGS,		0 },	H_LIST },
	{ { "keywords",		F_TAGS,		0 },	H_LIST },
	{ { "category",		F_TAGS,		0 },	H_TAG },
	{ { "slug",		F_SLUG,		0 },	H_TEXT },
	{ { "author",		F_AUTHOR,	0 },	H_TEXT },
	{ { "authors",		F_AUTHOR,	1 },	H_LIST },
	{ { "summary",		F_SUMMARY,	0 },	H_TEXT },
	{ { "lang",		F_LANG,		0 },	H_TEXT },
	{ { "series",		F_SERIES,	0 },	H_TEXT },
	{ { "series_index",	F_PART,		0 },	H_INT },
	{ { "status",		F_DRAFT,	0 },	H_STATUS },
	{ { "url",		F_ADDRESS,	0 },	H_TEXT },
};

/* Where a value is: what fm_fields.where() is handed. */
struct hpos {
	unsigned	 line, col;
};

struct fmheader {
	struct fm_fields fl;		/* what is filled, by the one rule */
	char		 key[HEADER_MAX_KEYLEN + 1];	/* as written */
};

static void
pos_where(const struct fm_fields *fl, const void *at, unsigned *line,
    unsigned *col)
{
	const struct hpos	*p = at;

	*line = p->line;
	*col = p->col;
}

static int
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * The key of the line p..e: its length, *val the value's start (blanks
 * after the colon passed); 0 when the line is no key line.
 */
static size_t
key_of(const char *p, const char *e, const char **keyp, const char **val)
{
	const char	*k = p, *q;

	while (k < e && k - p < 3 && *k == ' ')
		k++;
	if (k == e || !isalnum((unsigned char)*k))
		return 0;
	for (q = k; q < e && q - k <= HEADER_MAX_KEYLEN &&
	    (isalnum((unsigned char)*q) || *q == '_' || *q == '-' ||
	    *q == ' '); q++)
		;
	if (q == e || *q != ':' || q - k > HEADER_MAX_KEYLEN || q[-1] == ' ')
		return 0;
	*keyp = k;
	for (*val = q + 1; *val < e && blank((unsigned char)**val); (*val)++)
		;
	return (size_t)(q - k);
}

static const struct hkey *
find(const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < nitems(hkeys); i++)
		if (strlen(hkeys[i].key.name) == len &&
		    strncasecmp(hkeys[i].key.name, s, len) == 0)
			return &hkeys[i];
	return NULL;
}

/* v's s[0..len) as a value of type t at pos, to the one rule. */
static int
apply(struct fmheader *h, const struct hkey *hk, enum fm_vtype t,
    const char *s, size_t len, const struct hpos *pos)
{
	struct fm_value	 v;

	memset(&v, 0, sizeof(v));
	v.type = t;
	v.s = s;
	v.len = len;
	v.at = pos;
	return frontmatter_apply(&h->fl, &hk->key, hk->key.rank, &v);
}

/* Items of s[0..len), split on sep, each to the rule, then the end. */
static int
apply_list(struct fmheader *h, const struct hkey *hk, const char *s,
    size_t len, const struct hpos *pos)
{
	const char	*end = s + len, *q;
	int		 sep;

	sep = memchr(s, ';', len) != NULL ? ';' : ',';
	for (; s < end; s = q + 1) {
		if ((q = memchr(s, sep, (size_t)(end - s))) == NULL)
			q = end;
		if (apply(h, hk, FM_VAL_ITEM, s, (size_t)(q - s), pos) == -1)
			return -1;
	}
	return apply(h, hk, FM_VAL_END, NULL, 0, pos);
}

/*
 * int = *WSP ["+" / "-"] 1*9DIGIT *WSP (a part far out of range is the
 * rule's to refuse)
 */
static int
whole(const char *s, size_t len, long long *out)
{
	size_t	 i = 0;
	int	 neg = 0, n = 0;

	*out = 0;
	while (i < len && isspace((unsigned char)s[i]))
		i++;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (; i < len && isdigit((unsigned char)s[i]) && n < 9; i++, n++)
		*out = *out * 10 + (s[i] - '0');
	while (i < len && isspace((unsigned char)s[i]))
		i++;
	if (neg)
		*out = -*out;
	return n > 0 && i == len ? 0 : -1;
}

/* The value s[0..len), valid UTF-8, of key hk, at pos. */
static int
read_utf8(struct fmheader *h, const struct hkey *hk, const char *s,
    size_t len, const struct hpos *pos)
{
	struct fm_value	 v;
	const char	*errstr;

	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return 0;		/* as if absent */
	memset(&v, 0, sizeof(v));
	v.at = pos;
	switch (hk->read) {
	case H_TEXT:
		return apply(h, hk, FM_VAL_TEXT, s, len, pos);
	case H_LIST:
		return apply_list(h, hk, s, len, pos);
	case H_TAG:
		if (apply(h, hk, FM_VAL_ITEM, s, len, pos) == -1)
			return -1;
		return apply(h, hk, FM_VAL_END, NULL, 0, pos);
	case H_DATE:
		v.type = FM_VAL_DATE;
		if (date_parse(s, len, &v.d, &errstr) == -1) {
			frontmatter_ignore(&h->fl, pos, "%s: %s; ignored",
			    h->key, errstr);
			return 0;
		}
		break;
	case H_INT:
		v.type = FM_VAL_INT;
		if (whole(s, len, &v.i) == -1) {
			frontmatter_ignore(&h->fl, pos, "%s: expected a whole "
			    "number; ignored", h->key);
			return 0;
		}
		break;
	case H_STATUS:
		v.type = FM_VAL_BOOL;
		if ((len == 5 && strncasecmp(s, "draft", 5) == 0) ||
		    (len == 6 && strncasecmp(s, "hidden", 6) == 0))
			v.b = true;
		else if (len != 9 || strncasecmp(s, "published", 9) != 0) {
			frontmatter_ignore(&h->fl, pos, "%s: expected draft, "
			    "hidden or published; ignored", h->key);
			return 0;
		}
		break;
	}
	return frontmatter_apply(&h->fl, &hk->key, hk->key.rank, &v);
}

/* Is p..e a line that goes on the value before it (indented)? */
static int
more_line(const char *p, const char *e)
{
	const char	*k, *val;

	return p < e && blank((unsigned char)*p) && !util_blank_line(p, e) &&
	    key_of(p, e, &k, &val) == 0;
}

/*
 * The value s[0..len) of key hk, at pos.  YAML and TOML refuse what is
 * no UTF-8; header lines are plain bytes, so a sequence that is none is
 * replaced (U+FFFD) before the value is read, as the body's is.
 */
static int
read_value(struct fmheader *h, const struct hkey *hk, const char *s,
    size_t len, const struct hpos *pos)
{
	struct buf	 fix = BUF_INIT;
	uint32_t	 cp;
	size_t		 i, n;
	int		 rv;

	if (utf8_valid(s, len))
		return read_utf8(h, hk, s, len, pos);
	for (i = 0; i < len; i += n) {
		n = utf8_decode_lossy(s + i, len - i, &cp);
		utf8_add(&fix, cp);
	}
	rv = read_utf8(h, hk, fix.data, fix.len, pos);
	buf_free(&fix);
	return rv;
}

int
frontmatter_header(const char *src, size_t len, size_t off, struct meta *m,
    struct fm_error *err)
{
	struct fmheader	 h;
	struct hpos	 pos;
	const struct hkey *hk;
	const char	*end = src + len, *p = src + off, *e, *k, *val, *ve;
	size_t		 klen;
	unsigned	 line = 1;
	int		 rv = 0;

	e = util_eol(p, end);
	if ((klen = key_of(p, e, &k, &val)) == 0 || find(k, klen) == NULL)
		return 0;			/* no header: all body */
	memset(&h, 0, sizeof(h));
	frontmatter_fields_init(&h.fl, m, err, pos_where);
	h.fl.key = h.key;
	for (;;) {
		e = util_eol(p, end);
		if (p == end || util_blank_line(p, e)) {
			/* A blank line ends the header; the body follows. */
			m->body_off = e < end ? (size_t)(e - src) + 1 : len;
			m->body_line = line + (e < end);
			break;
		}
		if ((klen = key_of(p, e, &k, &val)) == 0) {
			/* Neither key nor more: the body starts here. */
			m->body_off = (size_t)(p - src);
			m->body_line = line;
			break;
		}
		snprintf(h.key, sizeof(h.key), "%.*s", (int)klen, k);
		pos.line = line;
		pos.col = (unsigned)(val - p) + 1;
		for (ve = e; ve < end && more_line(ve + 1, util_eol(ve + 1, end));
		    line++)
			ve = util_eol(ve + 1, end);
		if ((hk = find(k, klen)) != NULL && rv == 0)
			rv = read_value(&h, hk, val, (size_t)(ve - val), &pos);
		if (ve == end) {
			m->body_off = len;
			m->body_line = line;
			break;
		}
		p = ve + 1;
		line++;
	}
	frontmatter_fields_done(&h.fl);
	if (rv == -1) {
		meta_free(m);
		return -1;
	}
	m->slug_from_title = true;
	return 0;
}
