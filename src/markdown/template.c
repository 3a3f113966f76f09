/*
 * template.c -- template constructs in a Markdown body, read for what
 * they mean (template.h).
 *
 * One pass over the body with a cursor.  At each line start the line is
 * classified the way a CommonMark parser would see it (blocks.h): inside
 * a fence, an indented code line, inside an HTML block, or prose.  In prose a
 * backtick run opens a code span when a run of the same length closes
 * it before the paragraph ends.  Outside code, "{{" and "{%" open a
 * construct when its end ("}}", "%}", ">}}", "%}}") comes before the
 * next blank line; Liquid finds ends the same way, without regard to
 * quotes.
 *
 * Linear: every search (the next blank line, the next end of each kind,
 * a closing backtick run) goes forward from the cursor and remembers
 * where it stopped, so no byte is looked at more than a bounded number
 * of times.
 *
 * What a construct's name and arguments mean (the table of names, the
 * embeds, image sources, the bundle's files a pattern picks) is
 * shortcode.c's; this file decides where that meaning goes in the body
 * and what is noted.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "markdown/template.h"
#include "core/buf.h"
#include "core/layout.h"
#include "core/utf8.h"
#include "core/util.h"
#include "markdown/blocks.h"
#include "markdown/html.h"
#include "markdown/shortcode.h"

#define TP_MAX_ARGS	24
#define TP_MAX_TICKS	32	/* longer backtick runs open no span */
#define TP_MAX_MATCH	64	/* images one gallery shows */
#define TP_MAX_INNER	2048	/* bytes searched for a closing imgproc */
#define TP_MAX_JSX	1024	/* bytes around a JSX prop's braces */

/* What output() and tag() made of a construct. */
enum meaning {
	M_NONE,		/* nothing: the construct is removed */
	M_EXACT,	/* what the generator would have made */
	M_NEAR,		/* a guess at it (an include read as an image) */
};

enum ctype {		/* the kinds of construct, by their delimiters */
	C_OUTPUT,	/* {{ }} */
	C_TAG,		/* {% %} */
	C_ANGLE,	/* {{< >}} */
	C_PERCENT,	/* {{% %}} */
	C_NKINDS
};

static const char *const ends[C_NKINDS] = { "}}", "%}", ">}}", "%}}" };

/* A construct found at the cursor. */
struct con {
	enum ctype	 type;
	size_t		 start, end;	/* the whole of it, in the source */
	const char	*in;		/* inside the delimiters, trimmed */
	size_t		 inlen;
	char		 name[40];	/* tags, shortcodes: lower case */
	int		 closing;	/* {{< /name >}} */
	const char	*args;		/* after the name */
	size_t		 argslen;
};

struct tp {
	const char	*s;
	size_t		 len, pos;
	struct buf	 out;
	struct template_result *res;
	const struct template_files *files;	/* borrowed; NULL: no bundle */
	const struct template_probe *probe;	/* borrowed; or NULL */
	/* The last note's place (notes come in order): the next from here. */
	size_t		 note_at;
	unsigned	 note_line, note_col;

	/* The line being read. */
	int		 code;		/* it is code: fence or indented */
	int		 html;		/* it is in an HTML block */
	struct blocks	 blocks;	/* block state across lines */
	size_t		 span_end;	/* in a code span up to here */

	/* Modes that span lines. */
	int		 raw;		/* {% raw %}: copy up to endraw */
	int		 comment;	/* {% comment %}: drop up to endcomment */
	int		 highlight;	/* a fence we opened: copy to the end */
	enum ctype	 hl_type;

	/* Where forward searches stopped (linear time). */
	size_t		 next_end[C_NKINDS];
	size_t		 next_blank;
	size_t		 tick_fail[TP_MAX_TICKS + 1];
	size_t		 inner_fail;	/* no closing imgproc before here */
};

/*
 * Positions and notes
 */

/* Move the cursor to to. */
static void
advance(struct tp *t, size_t to)
{
	t->pos = to;
}

/* Copy s[pos..to) and move there. */
static void
copy_to(struct tp *t, size_t to)
{
	buf_add(&t->out, t->s + t->pos, to - t->pos);
	advance(t, to);
}

/*
 * In an HTML block a blank line ends the block (CommonMark), and what
 * followed would be read as Markdown, even as an indented code block:
 * a line left empty by a removed construct gets an HTML comment, which
 * keeps the block whole and shows nothing.
 */
#define TP_FILLER	"<!-- -->"

/*
 * The line breaks in s[from..to), written out: lines keep their
 * numbers.  In an HTML block each line they start is kept from being
 * blank.
 */
static void
keep_lines(struct tp *t, size_t from, size_t to)
{
	const char	*p = t->s + from, *e = t->s + to;

	while ((p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		buf_addc(&t->out, '\n');
		if (t->html)
			buf_addstr(&t->out, TP_FILLER);
		p++;
	}
}

/* Step over s[pos..end), leaving its line breaks. */
static void
skip(struct tp *t, size_t end)
{
	keep_lines(t, t->pos, end);
	advance(t, end);
}

/*
 * Would the line of a construct that made nothing (ending at end) be
 * blank in an HTML block?  Then it gets TP_FILLER.
 */
static void
keep_block(struct tp *t, size_t end)
{
	const struct buf	*o = &t->out;
	size_t			 i;

	if (!t->html)
		return;
	for (i = o->len; i > 0 && o->data[i - 1] != '\n'; i--)
		if (o->data[i - 1] != ' ' && o->data[i - 1] != '\t')
			return;
	for (i = end; i < t->len && t->s[i] != '\n'; i++)
		if (!isspace((unsigned char)t->s[i]))
			return;
	buf_addstr(&t->out, TP_FILLER);
}

static void
note(struct tp *t, const struct con *c, enum template_what what)
{
	struct template_result	*r = t->res;
	struct template_note	*n;
	const char		*s = t->s + c->start;
	size_t			 len = c->end - c->start, i, k, cut;
	unsigned		 line, col;

	/* A name removed is noted once, with how many more there are. */
	if (what == TEMPLATE_REMOVED && c->type != C_OUTPUT &&
	    c->name[0] != '\0')
		for (i = r->nnotes; i-- > 0; )
			if (r->notes[i].what == TEMPLATE_REMOVED &&
			    strcmp(r->notes[i].name, c->name) == 0) {
				r->notes[i].more++;
				return;
			}
	if (r->nnotes == TEMPLATE_MAX_NOTES) {
		r->nmore++;
		return;
	}
	if (r->nnotes % 16 == 0)
		r->notes = xreallocarray(r->notes, r->nnotes + 16,
		    sizeof(*r->notes));
	n = &r->notes[r->nnotes++];
	/*
	 * The construct's line and column, counted on from the last
	 * note's: linear however many notes.  That place is a construct's
	 * "{", never the LF of a CRLF, so a line break is never split.
	 */
	utf8_position(t->s + t->note_at, t->len - t->note_at,
	    c->start - t->note_at, &line, &col);
	if (line == 1)
		col += t->note_col - 1;
	t->note_line += line - 1;
	t->note_col = col;
	t->note_at = c->start;
	n->line = t->note_line;
	n->col = col;
	n->what = what;
	n->more = 0;
	n->name[0] = '\0';
	if (what == TEMPLATE_REMOVED && c->type != C_OUTPUT)
		memcpy(n->name, c->name, sizeof(n->name));
	/* One line: white space runs become one space; cut with "…". */
	cut = sizeof(n->text) - 4;
	for (i = k = 0; i < len && k < cut; i++) {
		if (isspace((unsigned char)s[i])) {
			if (k > 0 && n->text[k - 1] != ' ')
				n->text[k++] = ' ';
			continue;
		}
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			continue;
		n->text[k++] = s[i];
	}
	if (i < len) {
		while (k > 0 && ((unsigned char)n->text[k - 1] & 0xc0) == 0x80)
			k--;
		if (k > 0 && (unsigned char)n->text[k - 1] >= 0xc0)
			k--;
		memcpy(n->text + k, "\xe2\x80\xa6", 3);
		k += 3;
	}
	n->text[k] = '\0';
}

/*
 * Searches
 */

/* Where the paragraph at i ends: the next blank line, or the end. */
static size_t
blank_after(struct tp *t, size_t i)
{
	const char	*s = t->s, *nl;
	size_t		 j;

	if (t->next_blank >= i && t->next_blank != 0)
		return t->next_blank;
	for (j = i; (nl = memchr(s + j, '\n', t->len - j)) != NULL; ) {
		j = (size_t)(nl - s) + 1;
		while (j < t->len && (s[j] == ' ' || s[j] == '\t' ||
		    s[j] == '\r'))
			j++;
		if (j >= t->len || s[j] == '\n') {
			t->next_blank = j;
			return j;
		}
	}
	t->next_blank = t->len;
	return t->len;
}

/* The next end of kind k at or after i, or len. */
static size_t
end_after(struct tp *t, enum ctype k, size_t i)
{
	const char	*e;

	if (t->next_end[k] >= i && t->next_end[k] != SIZE_MAX)
		return t->next_end[k];
	e = memmem(t->s + i, t->len - i, ends[k], strlen(ends[k]));
	t->next_end[k] = e != NULL ? (size_t)(e - t->s) : t->len;
	return t->next_end[k];
}

/*
 * construct = "{{<" *SP ["/"] name args ">}}" / "{{%" ... "%}}"
 *           / "{{" ["-"] expr ["-"] "}}" / "{%" ["-"] name args ["-"] "%}"
 * The construct at i (s[i] == '{'), ending before the paragraph does.
 */
static int
construct_at(struct tp *t, size_t i, struct con *c)
{
	const char	*s = t->s;
	size_t		 open, e, k;

	if (i + 1 >= t->len || s[i] != '{')
		return 0;
	if (s[i + 1] == '%') {
		c->type = C_TAG;
		open = 2;
	} else if (s[i + 1] != '{')
		return 0;
	else if (i + 2 < t->len && s[i + 2] == '<') {
		c->type = C_ANGLE;
		open = 3;
	} else if (i + 2 < t->len && s[i + 2] == '%') {
		c->type = C_PERCENT;
		open = 3;
	} else {
		c->type = C_OUTPUT;
		open = 2;
	}
	e = end_after(t, c->type, i + open);
	if (e >= t->len || e > blank_after(t, i))
		return 0;
	c->start = i;
	c->end = e + strlen(ends[c->type]);
	c->in = s + i + open;
	c->inlen = e - (i + open);
	/* Liquid's whitespace control: "{%-", "-%}". */
	if (c->inlen > 0 && c->in[0] == '-' && c->type <= C_TAG)
		c->in++, c->inlen--;
	if (c->inlen > 0 && c->in[c->inlen - 1] == '-' && c->type <= C_TAG)
		c->inlen--;
	while (c->inlen > 0 && isspace((unsigned char)c->in[0]))
		c->in++, c->inlen--;
	while (c->inlen > 0 && isspace((unsigned char)c->in[c->inlen - 1]))
		c->inlen--;
	c->closing = 0;
	c->name[0] = '\0';
	c->args = c->in;
	c->argslen = c->inlen;
	if (c->type == C_OUTPUT)
		return 1;
	k = 0;
	if (c->inlen > 0 && c->in[0] == '/' && c->type != C_TAG) {
		c->closing = 1;
		k = 1;
		while (k < c->inlen && isspace((unsigned char)c->in[k]))
			k++;
	}
	for (e = 0; k < c->inlen && !isspace((unsigned char)c->in[k]) &&
	    c->in[k] != '"' && c->in[k] != '\''; k++)
		if (e < sizeof(c->name) - 1)
			c->name[e++] = (char)tolower((unsigned char)c->in[k]);
	c->name[e] = '\0';
	c->args = c->in + k;
	c->argslen = c->inlen - k;
	return 1;
}

/* The block tags' bits of a name (shortcode.h). */
#define TP_BLOCK_BITS	(SC_RAW | SC_COMMENT | SC_HIGHLIGHT | SC_END)

/* The block tag bits of the Liquid tag at i (any spacing and dashes). */
static unsigned
liquid_block_at(struct tp *t, size_t i, size_t *endp)
{
	struct con	 c;

	if (i + 1 >= t->len || t->s[i] != '{' || t->s[i + 1] != '%' ||
	    !construct_at(t, i, &c) || c.type != C_TAG)
		return 0;
	*endp = c.end;
	return shortcode_kind(c.name, NULL) & TP_BLOCK_BITS;
}

/*
 * What the constructs become
 */

/*
 * An image, or a link to an embedded thing: Markdown, or HTML inside
 * an HTML block (where Markdown is not read).
 */
static void
put_link(struct tp *t, int image, const char *url, size_t ulen,
    const char *label, size_t llen)
{
	struct buf	*b = &t->out;
	struct buf	 l = BUF_INIT;

	shortcode_put_label(&l, label, llen, t->html);
	if (t->html) {
		buf_addstr(b, image ? "<img src=\"" : "<a href=\"");
		shortcode_put_url(b, url, ulen, 1);
		buf_addstr(b, image ? "\" alt=\"" : "\">");
		buf_add(b, l.data, l.len);
		buf_addstr(b, image ? "\">" : "</a>");
	} else {
		buf_addstr(b, image ? "![" : "[");
		buf_add(b, l.data, l.len);
		buf_addstr(b, "](");
		shortcode_put_url(b, url, ulen, 0);
		buf_addc(b, ')');
	}
	buf_free(&l);
}

/*
 * A Liquid output: {{ primary | filter: args | ... }}, its meaning
 * written; M_NONE when it names nothing this pass knows (a variable, a
 * filter of the site's own).
 */
static enum meaning
output(struct tp *t, const struct con *c)
{
	struct buf		 v = BUF_INIT, u = BUF_INIT, l = BUF_INIT;
	const char		*s = c->in, *e = c->in + c->inlen, *f, *fe;
	const char		*col;
	struct shortcode_arg	 a[TP_MAX_ARGS];
	char			 fname[32], *eu;
	size_t			 n, k;
	int			 known = 0, root = 0, emb = 0, ok = 1;

	/* The primary: a string, or the site's address. */
	f = memchr(s, '|', (size_t)(e - s));
	fe = f != NULL ? f : e;
	while (fe > s && isspace((unsigned char)fe[-1]))
		fe--;
	if (fe > s && (*s == '"' || *s == '\'') && fe[-1] == *s &&
	    fe - s >= 2) {
		buf_add(&v, s + 1, (size_t)(fe - s - 2));
		known = 1;
	} else if ((fe - s == 12 && strncmp(s, "site.baseurl", 12) == 0) ||
	    (fe - s == 8 && strncmp(s, "site.url", 8) == 0)) {
		known = root = 1;
	}
	/* The filters, each keeping the value or giving it up. */
	while (known && f != NULL && ok) {
		s = f + 1;
		f = memchr(s, '|', (size_t)(e - s));
		fe = f != NULL ? f : e;
		while (s < fe && isspace((unsigned char)*s))
			s++;
		for (k = 0; s < fe && (isalnum((unsigned char)*s) || *s == '_')
		    && k < sizeof(fname) - 1; s++)
			fname[k++] = (char)tolower((unsigned char)*s);
		fname[k] = '\0';
		col = memchr(s, ':', (size_t)(fe - s));
		n = col != NULL ? shortcode_args(col + 1,
		    (size_t)(fe - col - 1), a, nitems(a)) : 0;
		switch (shortcode_filter(fname)) {
		case SC_FILTER_PATH:
			if (root && v.len == 0)
				buf_addc(&v, '/');
			root = 0;
			break;
		case SC_FILTER_PREPEND:
			ok = n > 0;
			if (!ok || (a[0].vlen == 12 && strncmp(a[0].val,
			    "site.baseurl", 12) == 0))
				break;
			buf_truncate(&u, 0);
			buf_add(&u, a[0].val, a[0].vlen);
			buf_add(&u, v.data ? v.data : "", v.len);
			buf_truncate(&v, 0);
			buf_add(&v, u.data, u.len);
			buf_truncate(&u, 0);
			break;
		case SC_FILTER_APPEND:
			if ((ok = n > 0))
				buf_add(&v, a[0].val, a[0].vlen);
			break;
		case SC_FILTER_EMBED:
			emb = 1;
			if (n > 0)
				buf_add(&l, a[0].val, a[0].vlen);
			break;
		case SC_FILTER_UNKNOWN:
			ok = 0;
			break;
		}
	}
	if (!known || !ok) {
		buf_free(&v);
		buf_free(&u);
		buf_free(&l);
		return M_NONE;
	}
	if (emb && v.len > 0) {
		buf_add(&v, "", 0);
		eu = html_embed_url(v.data);
		if (l.len == 0)
			buf_addstr(&l, "Embedded video");
		put_link(t, 0, eu, strlen(eu), l.data, l.len);
		free(eu);
	} else if (root) {
		/*
		 * The site root: nothing before a path that follows
		 * ("{{ site.baseurl }}/x"), else "/".
		 */
		if (!(c->end < t->len && (t->s[c->end] == '/' ||
		    t->s[c->end] == '{')))
			buf_addc(&t->out, '/');
	} else
		shortcode_put_url(&t->out, v.data ? v.data : "", v.len,
		    t->html);
	buf_free(&v);
	buf_free(&u);
	buf_free(&l);
	/* An embed filter is the site's own: its label is a guess. */
	return emb ? M_NEAR : M_EXACT;
}

/*
 * The fence a code block tag opens: its language, then its title (Hexo's
 * and Octopress's codeblock), both in the info string, which gemtext
 * shows as the block's alt text: on the fence's line, so that the lines
 * keep their numbers.
 */
static void
open_fence(struct tp *t, const char *lang, size_t len, const char *title,
    size_t tlen)
{
	if (t->out.len > 0 && t->out.data[t->out.len - 1] != '\n')
		buf_addc(&t->out, '\n');
	/* Four, so a "```" line in the code does not end it. */
	buf_addstr(&t->out, "````");
	while (len > 0 && !isspace((unsigned char)*lang) && *lang != '`' &&
	    len--)
		buf_addc(&t->out, *lang++);
	if (tlen > 0) {
		buf_addc(&t->out, ' ');
		for (; tlen > 0; title++, tlen--)
			buf_addc(&t->out, *title == '`' || *title == '\n' ||
			    *title == '\r' ? ' ' : *title);
	}
}

/*
 * The language and title of a code block tag, from its arguments:
 * {% highlight go linenos %}, {{< highlight go >}} (the first); Hexo's
 * {% codeblock Title lang:js http://x.org link text %} and
 * {% code lang:js %} ("lang:" for the language; the words before an
 * option or a URL for the title); lang= of a shortcode.
 */
static void
fence_of(const struct con *c, const struct shortcode_arg *a, size_t n,
    const char **lang, size_t *llen, const char **title, size_t *tlen)
{
	const struct shortcode_arg	*p;
	size_t				 i;

	*lang = *title = "";
	*llen = *tlen = 0;
	if ((p = shortcode_named(a, n, "lang")) != NULL) {
		*lang = p->val;
		*llen = p->vlen;
	}
	if (strcmp(c->name, "highlight") == 0 || c->type != C_TAG) {
		if (*llen == 0 && (p = shortcode_nth(a, n, 0)) != NULL) {
			*lang = p->val;
			*llen = p->vlen;
		}
		return;
	}
	for (i = 0; i < n; i++) {
		if (a[i].key != NULL)
			continue;
		if (a[i].vlen > 5 && strncmp(a[i].val, "lang:", 5) == 0) {
			*lang = a[i].val + 5;
			*llen = a[i].vlen - 5;
			continue;
		}
		/* An option ("line_number:false") or the link: no title. */
		if (memchr(a[i].val, ':', a[i].vlen) != NULL) {
			if (*tlen > 0)
				break;
			continue;
		}
		if (*tlen == 0)
			*title = a[i].val;
		*tlen = (size_t)(a[i].val + a[i].vlen - *title);
	}
}

/*
 * Page bundle resources
 */

/*
 * The closing "{{< /name >}}" (or "{{% ... %}}") of a paired shortcode
 * whose opening ends at from, before the paragraph ends and within
 * TP_MAX_INNER bytes: its start in *cs and end in *ce; else 0.
 * Linear: a search that failed is not repeated before where it stopped.
 */
static int
closing_after(struct tp *t, size_t from, const char *name, size_t *cs,
    size_t *ce)
{
	const char	*s = t->s, *p;
	size_t		 limit, i, k, nlen = strlen(name);
	char		 close;

	if (from < t->inner_fail)
		return 0;
	limit = blank_after(t, from);
	if (limit - from > TP_MAX_INNER)
		limit = from + TP_MAX_INNER;
	for (i = from; i < limit && (p = memchr(s + i, '{', limit - i)) !=
	    NULL; i = (size_t)(p - s) + 1) {
		k = (size_t)(p - s);
		if (k + 3 > limit || p[1] != '{' || (p[2] != '<' && p[2] != '%'))
			continue;
		close = p[2] == '<' ? '>' : '%';
		for (k += 3; k < limit && isspace((unsigned char)s[k]); k++)
			;
		if (k >= limit || s[k] != '/')
			continue;
		for (k++; k < limit && isspace((unsigned char)s[k]); k++)
			;
		if (limit - k < nlen || strncasecmp(s + k, name, nlen) != 0)
			continue;
		for (k += nlen; k < limit && isspace((unsigned char)s[k]); k++)
			;
		if (limit - k >= 3 && s[k] == close && s[k + 1] == '}' &&
		    s[k + 2] == '}') {
			*cs = (size_t)(p - s);
			*ce = k + 3;
			return 1;
		}
	}
	t->inner_fail = limit;
	return 0;
}

/* The bundle's files pat names (shortcode.h); none without a bundle. */
static size_t
bundle_match(const struct tp *t, const char *pat, size_t plen, size_t *m,
    size_t max)
{
	if (t->files == NULL)
		return 0;
	return shortcode_bundle_match(t->files->names, t->files->n, pat, plen,
	    m, max);
}

/*
 * The bundle file m as an image labelled label, or with its name.  The
 * name is a file's, not a URL: what a URL reads otherwise ('%', '#',
 * '?') is percent-encoded ("a#b.png", "50%.png").
 */
static void
put_resource(struct tp *t, const char *name, const char *label, size_t llen)
{
	struct buf	 u = BUF_INIT;
	const char	*base, *p;

	if (llen == 0) {
		base = strrchr(name, '/');
		label = base != NULL ? base + 1 : name;
		llen = strlen(label);
	}
	for (p = name; *p != '\0'; p++)
		if (*p == '%' || *p == '#' || *p == '?')
			buf_printf(&u, "%%%02X", (unsigned char)*p);
		else
			buf_addc(&u, *p);
	put_link(t, 1, u.data, u.len, label, llen);
	buf_free(&u);
}

/*
 * An image shortcode read against the page bundle: imgproc and gallery
 * name resources only; figure, img, image and their kin a source that
 * may be one.  1 when c is done (written, noted, the cursor past it);
 * 0 leaves it to tag().
 */
static int
resource(struct tp *t, const struct con *c)
{
	struct shortcode_arg		 a[TP_MAX_ARGS];
	const struct shortcode_arg	*src = NULL, *label = NULL;
	const char			*name = c->name, *lab = "";
	size_t				 n, m[TP_MAX_MATCH], nm, i, cs;
	size_t				 end = c->end, llen = 0;
	unsigned			 kind;
	int				 proc, gallery;

	kind = shortcode_kind(name, NULL);
	proc = (kind & SC_PROC) != 0;
	gallery = (kind & SC_GALLERY) != 0;
	if (!proc && !gallery && (t->files == NULL || !(kind & SC_IMAGE)))
		return 0;
	n = shortcode_args(c->args, c->argslen, a, nitems(a));
	if (gallery) {
		/* hugo-shortcode-gallery's match=, a gallery's dir=. */
		if ((src = shortcode_named(a, n, "match")) == NULL &&
		    (src = shortcode_named(a, n, "dir")) == NULL)
			return 0;	/* a wrapper of figures: as before */
		if (!shortcode_bundle_relative(src->val, src->vlen))
			return 0;
	} else if (proc) {
		/* {{< imgproc name Command "options" >}}caption{{< /imgproc >}} */
		if ((src = shortcode_named(a, n, "src")) == NULL &&
		    (src = shortcode_nth(a, n, 0)) == NULL)
			return 0;
		if ((label = shortcode_named(a, n, "caption")) == NULL &&
		    (label = shortcode_named(a, n, "alt")) == NULL)
			label = shortcode_named(a, n, "title");
		if (closing_after(t, c->end, name, &cs, &end) && label == NULL) {
			lab = t->s + c->end;
			llen = cs - c->end;
		}
	} else {
		if (!shortcode_image(a, n, &src, &label) ||
		    !shortcode_bundle_relative(src->val, src->vlen))
			return 0;
	}
	if (label != NULL) {
		lab = label->val;
		llen = label->vlen;
	}
	while (llen > 0 && isspace((unsigned char)*lab))
		lab++, llen--;
	while (llen > 0 && isspace((unsigned char)lab[llen - 1]))
		llen--;
	if (gallery) {
		/* A folder names what is in it. */
		struct buf	 p = BUF_INIT;

		buf_add(&p, src->val, src->vlen);
		if (strpbrk(p.data, "*?[") == NULL)
			buf_addstr(&p, p.data[p.len - 1] == '/' ? "*" : "/*");
		nm = bundle_match(t, p.data, p.len, m, nitems(m));
		buf_free(&p);
	} else
		nm = bundle_match(t, src->val, src->vlen, m, 1);
	for (i = 0; i < nm; i++) {
		if (i > 0)
			buf_addc(&t->out, ' ');
		put_resource(t, t->files->names[m[i]], gallery ? "" : lab,
		    gallery ? 0 : llen);
	}
	if (nm == 0 && !proc && !gallery)	/* as written: links.c decides */
		put_link(t, 1, src->val, src->vlen, lab, llen);
	else if (nm == 0)			/* the caption, as text */
		shortcode_put_label(&t->out, lab, llen, t->html);
	if (nm == 0)
		keep_block(t, end);
	keep_lines(t, c->start, end);
	if (nm == 0)
		note(t, c, TEMPLATE_UNRESOLVED);
	advance(t, end);
	return 1;
}

/*
 * A callout's title ({{% alert title="Breaking change" %}}): strong,
 * on a line of its own when the text goes on at the next line.
 */
static void
title_line(struct tp *t, const struct con *c,
    const struct shortcode_arg *title)
{
	const char	*s = t->s;
	size_t		 i = c->end;

	if (t->html) {
		buf_addstr(&t->out, "<p><strong>");
		shortcode_put_label(&t->out, title->val, title->vlen, 1);
		buf_addstr(&t->out, "</strong></p>");
		return;
	}
	buf_addstr(&t->out, "**");
	shortcode_put_label(&t->out, title->val, title->vlen, 0);
	buf_addstr(&t->out, "**");
	if (i < t->len && s[i] == '\r')
		i++;
	if (!(i < t->len && s[i] == '\n'))
		return;
	for (i++; i < t->len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r');
	    i++)
		;
	if (i < t->len && s[i] != '\n')
		buf_addc(&t->out, '\\');	/* a hard line break */
}

_Static_assert(sizeof(((struct template_note *)0)->name) ==
    sizeof(((struct con *)0)->name), "a note keeps a construct's name");

/* Was the argument p of c written in quotes? */
static int
quoted(const struct con *c, const struct shortcode_arg *p)
{
	return p->val > c->args && (p->val[-1] == '"' || p->val[-1] == '\'');
}

/* A width, a height, an escape flag: no words of a label. */
static int
no_label(const struct shortcode_arg *p)
{
	size_t	 i;

	if ((p->vlen == 4 && strncmp(p->val, "true", 4) == 0) ||
	    (p->vlen == 5 && strncmp(p->val, "false", 5) == 0))
		return 1;
	for (i = 0; i < p->vlen; i++)
		if (!isdigit((unsigned char)p->val[i]) && p->val[i] != '%')
			return 0;
	return 1;
}

/*
 * The label of Hexo's asset_img, asset_link and post_link: the words
 * after the argument src ({% asset_img a.png A cat %}), a width and a
 * height left out; of quoted ones ({% asset_img a.png "Title" "Alt" %})
 * the first; else a title= or alt=.  Into l.
 */
static void
label_after(const struct con *c, const struct shortcode_arg *a, size_t n,
    const struct shortcode_arg *src, struct buf *l)
{
	const struct shortcode_arg	*p;
	const char			*from = NULL, *to = NULL;
	size_t				 i;

	/* The words as written, commas and all: "Hello, world". */
	for (i = (size_t)(src - a) + 1; i < n; i++) {
		if (a[i].key != NULL || no_label(&a[i]))
			continue;
		if (quoted(c, &a[i])) {
			if (from == NULL) {
				from = a[i].val;
				to = a[i].val + a[i].vlen;
			}
			break;
		}
		if (from == NULL)
			from = a[i].val;
		to = a[i].val + a[i].vlen;
	}
	if (from != NULL)
		buf_add(l, from, (size_t)(to - from));
	else if ((p = shortcode_named(a, n, "title")) != NULL ||
	    (p = shortcode_named(a, n, "alt")) != NULL)
		buf_add(l, p->val, p->vlen);
}

/* The last segment of s[0..len), its extension left out with ext. */
static void
put_base(struct buf *b, const char *s, size_t len, int ext)
{
	const char	*p = s + len, *dot = NULL;

	while (p > s && p[-1] != '/') {
		if (p[-1] == '.' && dot == NULL)
			dot = p - 1;
		p--;
	}
	buf_add(b, p, (size_t)((ext || dot == NULL ? s + len : dot) - p));
}

/*
 * Hexo's asset_img, asset_link, asset_path: the file (the first
 * argument with an extension, class names before it passed over) as
 * written, from the post, which links resolve in its asset folder
 * first.
 */
static enum meaning
asset_tag(struct tp *t, const struct con *c, const struct shortcode_arg *a,
    size_t n, unsigned kind)
{
	const struct shortcode_arg	*src = NULL;
	struct buf			 l = BUF_INIT;
	size_t				 i;

	for (i = 0; i < n && src == NULL; i++)
		if (a[i].key == NULL && memchr(a[i].val, '.', a[i].vlen) !=
		    NULL)
			src = &a[i];
	if (src == NULL && (src = shortcode_nth(a, n, 0)) == NULL)
		return M_NONE;
	if (!(kind & SC_LABELLED)) {
		shortcode_put_url(&t->out, src->val, src->vlen, t->html);
		return M_EXACT;
	}
	label_after(c, a, n, src, &l);
	if (l.len == 0)
		put_base(&l, src->val, src->vlen, 1);
	put_link(t, (kind & SC_IMAGE_EXACT) != 0, src->val, src->vlen, l.data,
	    l.len);
	buf_free(&l);
	return M_EXACT;
}

/*
 * Hexo's post_link: a link to the post of that file name, labelled with
 * the title given, else the name (the post's title is not known here).
 */
static enum meaning
post_link(struct tp *t, const struct con *c, const struct shortcode_arg *a,
    size_t n)
{
	struct buf	 u = BUF_INIT, l = BUF_INIT;

	label_after(c, a, n, &a[0], &l);
	if (l.len == 0)
		put_base(&l, a[0].val, a[0].vlen, 0);
	buf_addstr(&u, LAYOUT_PATH_POSTS);
	put_base(&u, a[0].val, a[0].vlen, 0);
	buf_addstr(&u, ".md");
	put_link(t, 0, u.data, u.len, l.data, l.len);
	buf_free(&u);
	buf_free(&l);
	return M_EXACT;
}

/*
 * Does v[0..len) read as text a reader should see ("Ada Lovelace"), not
 * a class name, a number, a path or a flag ("warning", "2", "x.png")?
 */
static int
text_like(const char *v, size_t len)
{
	size_t	 i;

	if (len == 0 || memmem(v, len, "://", 3) != NULL)
		return 0;
	for (i = 0; i < len; i++)
		if (isspace((unsigned char)v[i]) ||
		    isupper((unsigned char)v[i]) ||
		    (unsigned char)v[i] >= 0x80 ||
		    (ispunct((unsigned char)v[i]) &&
		    strchr("-_./:", v[i]) == NULL))
			return 1;
	return 0;
}

/*
 * An include with parameters ({% include person.html name="Ada" %}):
 * the parameters that read as text, in order, joined by commas.  The
 * include file is a template of the old site, which this server does
 * not render; what the writer gave it is kept.
 */
static enum meaning
include_text(struct tp *t, const struct shortcode_arg *a, size_t n)
{
	struct buf	 l = BUF_INIT;
	size_t		 i;

	for (i = 0; i < n; i++) {
		if (a[i].key == NULL || !text_like(a[i].val, a[i].vlen))
			continue;
		if (l.len > 0)
			buf_addstr(&l, ", ");
		buf_add(&l, a[i].val, a[i].vlen);
	}
	if (l.len == 0)
		return M_NONE;
	shortcode_put_label(&t->out, l.data, l.len, t->html);
	buf_free(&l);
	return M_NEAR;
}

/* Could s[0..len) name a file: one word, with an extension? */
static int
file_like(const char *s, size_t len)
{
	const char	*dot;
	size_t		 i;

	if (len == 0 || len > 512 || s[len - 1] == '.')
		return 0;
	for (i = 0; i < len; i++)
		if (isspace((unsigned char)s[i]) || s[i] == '\0')
			return 0;
	dot = memrchr(s, '.', len);
	return dot != NULL && memchr(dot, '/', len - (size_t)(dot - s)) ==
	    NULL && !(len > 2 && s[0] == '/' && s[1] == '/') &&
	    memmem(s, len, "://", 3) == NULL;
}

/*
 * A tag or shortcode of a name with no meaning known here (a site's own
 * figure tag): when an argument names a file the capsule holds (the
 * probe), an image of it, or a link to what is no image, labelled with
 * a caption, alt or title, else the first argument that reads as text.
 */
static enum meaning
named_file(struct tp *t, const struct con *c, const struct shortcode_arg *a,
    size_t n)
{
	static const char *const labels[] = { "caption", "alt", "title",
	    "description" };
	const struct shortcode_arg	*src = NULL, *lab = NULL;
	enum template_where		 w = TEMPLATE_NOWHERE;
	struct buf			 u = BUF_INIT, l = BUF_INIT;
	size_t				 i;

	if (t->probe == NULL)
		return M_NONE;
	for (i = 0; i < n && src == NULL; i++)
		if (file_like(a[i].val, a[i].vlen) &&
		    (w = t->probe->where(t->probe->arg, a[i].val, a[i].vlen)) !=
		    TEMPLATE_NOWHERE)
			src = &a[i];
	if (src == NULL)
		return M_NONE;
	for (i = 0; i < nitems(labels) && lab == NULL; i++)
		lab = shortcode_named(a, n, labels[i]);
	for (i = 0; i < n && lab == NULL; i++)
		if (&a[i] != src && a[i].key == NULL &&
		    text_like(a[i].val, a[i].vlen))
			lab = &a[i];
	if (w == TEMPLATE_SITE)
		shortcode_site_path(&u, src->val, src->vlen);
	else
		buf_add(&u, src->val, src->vlen);
	if (lab != NULL)
		buf_add(&l, lab->val, lab->vlen);
	else
		put_base(&l, src->val, src->vlen, 1);
	put_link(t, shortcode_image_name(src->val, src->vlen), u.data, u.len,
	    l.data, l.len);
	buf_free(&u);
	buf_free(&l);
	return M_NEAR;
}

/* A tag or shortcode: its meaning written, or M_NONE. */
static enum meaning
tag(struct tp *t, const struct con *c)
{
	struct shortcode_arg		 a[TP_MAX_ARGS];
	const struct shortcode_arg	*src, *label;
	struct buf			 u = BUF_INIT, l = BUF_INIT;
	char				 inc[40];
	const char			*name = c->name;
	size_t				 n;
	enum meaning			 rv = M_NONE;
	enum shortcode_embed		 emb;
	unsigned			 kind;

	n = shortcode_args(c->args, c->argslen, a, nitems(a));
	kind = shortcode_kind(name, &emb);
	if ((kind & SC_ASSET) && n > 0)
		return asset_tag(t, c, a, n, kind);
	if ((kind & SC_POST) && (kind & SC_LABELLED) && n > 0)
		return post_link(t, c, a, n);
	if ((kind & (SC_POST | SC_LINK)) && n > 0) {
		shortcode_post_path(&t->out, a[0].val, a[0].vlen,
		    (kind & SC_POST) != 0);
		return M_EXACT;
	}
	if (kind & SC_INCLUDE) {
		shortcode_include_name(a, n, inc, sizeof(inc));
		name = inc;
		kind = shortcode_kind(name, &emb);
	}
	if (shortcode_embed(emb, a, n, &u, &l)) {
		put_link(t, 0, u.data, u.len, l.data, l.len);
		rv = name == c->name ? M_EXACT : M_NEAR;
	} else if (((kind & SC_IMAGE) ||
	    (name != c->name && shortcode_named(a, n, "image") != NULL) ||
	    shortcode_named(a, n, "src") != NULL) &&
	    shortcode_image(a, n, &src, &label)) {
		/* Liquid tags name files from the site root; Hugo, the page. */
		if (c->type == C_TAG)
			shortcode_site_path(&u, src->val, src->vlen);
		else
			buf_add(&u, src->val, src->vlen);
		put_link(t, 1, u.data, u.len, label ? label->val : "",
		    label ? label->vlen : 0);
		/* Exact for image tags; an include or shortcode is a guess. */
		rv = name == c->name && (kind & SC_IMAGE_EXACT) ? M_EXACT :
		    M_NEAR;
	} else if (c->type != C_TAG && name == c->name &&
	    (label = shortcode_named(a, n, "title")) != NULL) {
		title_line(t, c, label);
		rv = M_NEAR;
	} else if (name != c->name)
		rv = include_text(t, a, n);
	else if (kind == 0 && emb == SC_EMBED_NONE)
		rv = named_file(t, c, a, n);
	buf_free(&u);
	buf_free(&l);
	return rv;
}

/*
 * A JSX prop's expression in an MDX post's tag, "style={{color: 'red'}}":
 * no Liquid output but an object literal, whose braces nest.  An empty
 * value in its place (style="") keeps the tag one the HTML reader reads
 * (markdown/html.c) instead of text a reader would see broken; it meant
 * nothing to a reader, so it is not noted.  1 when c was one.  Bounded:
 * TP_MAX_JSX bytes looked at either way.
 */
static int
jsx_prop(struct tp *t, const struct con *c)
{
	const char	*s = t->s;
	size_t		 i = c->start, k, end, limit, depth = 0;

	while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))
		i--;
	if (i < 2 || s[i - 1] != '=')
		return 0;
	/* Inside a tag: a "<" and a letter after the last ">". */
	for (k = i - 1; k > 0 && s[k - 1] != '>' && s[k - 1] != '<' &&
	    i - k < TP_MAX_JSX; k--)
		;
	if (k == 0 || s[k - 1] != '<' || !isalpha((unsigned char)s[k]))
		return 0;
	limit = blank_after(t, c->start);
	if (limit - c->start > TP_MAX_JSX)
		limit = c->start + TP_MAX_JSX;
	for (end = c->start; end < limit; end++)
		if (s[end] == '{')
			depth++;
		else if (s[end] == '}' && --depth == 0)
			break;
	if (end >= limit)
		return 0;
	buf_addstr(&t->out, "\"\"");
	keep_lines(t, c->start, end + 1);
	advance(t, end + 1);
	return 1;
}

/*
 * Handle the construct c at the cursor (outside code).
 */
static void
construct(struct tp *t, const struct con *c)
{
	struct shortcode_arg	 a[TP_MAX_ARGS];
	const char		*nm = c->name;
	size_t			 n;
	enum meaning		 m = M_NONE;
	unsigned		 block;

	/* Hugo's escape: "{{</" "* figure *" "/>}}" shows "{{< figure >}}". */
	if ((c->type == C_ANGLE || c->type == C_PERCENT) && c->inlen >= 4 &&
	    c->in[0] == '/' && c->in[1] == '*' &&
	    c->in[c->inlen - 1] == '/' && c->in[c->inlen - 2] == '*') {
		buf_addstr(&t->out, c->type == C_ANGLE ? "{{< " : "{{% ");
		nm = c->in + 2;
		for (n = c->inlen - 4; n > 0 && isspace((unsigned char)*nm); n--)
			nm++;
		while (n > 0 && isspace((unsigned char)nm[n - 1]))
			n--;
		buf_add(&t->out, nm, n);
		buf_addstr(&t->out, c->type == C_ANGLE ? " >}}" : " %}}");
		skip(t, c->end);
		return;
	}
	if (c->type == C_OUTPUT && jsx_prop(t, c))
		return;
	block = shortcode_kind(nm, NULL) & TP_BLOCK_BITS;
	if (c->type == C_TAG && block == SC_RAW) {
		t->raw = 1;
		keep_block(t, c->end);
		skip(t, c->end);
		return;
	}
	if (c->type == C_TAG && (block & SC_END)) {
		keep_block(t, c->end);
		skip(t, c->end);	/* stray: nothing to say */
		return;
	}
	if (!c->closing && block == SC_COMMENT) {
		t->comment = 1;
		t->hl_type = c->type;
		skip(t, c->end);
		return;
	}
	if (!c->closing && block == SC_HIGHLIGHT) {
		const char	*lang, *title;
		size_t		 llen, tlen;

		n = shortcode_args(c->args, c->argslen, a, nitems(a));
		fence_of(c, a, n, &lang, &llen, &title, &tlen);
		open_fence(t, lang, llen, title, tlen);
		t->highlight = 1;
		t->hl_type = c->type;
		/* The fence line ends where the tag's line does. */
		if (!(c->end < t->len && (t->s[c->end] == '\n' ||
		    t->s[c->end] == '\r')))
			buf_addc(&t->out, '\n');
		skip(t, c->end);
		return;
	}
	if ((c->type == C_ANGLE || c->type == C_PERCENT) && !c->closing &&
	    resource(t, c))
		return;
	if (c->type == C_OUTPUT)
		m = output(t, c);
	else if (!c->closing)
		m = tag(t, c);
	if (m == M_NONE)
		keep_block(t, c->end);
	keep_lines(t, c->start, c->end);
	/* A closing shortcode: its opening was noted, or read. */
	if (m == M_NONE && !c->closing)
		note(t, c, TEMPLATE_REMOVED);
	else if (m == M_NEAR)
		note(t, c, TEMPLATE_APPROXIMATED);
	advance(t, c->end);
}

/*
 * Lines
 */

/* Classify the line starting at the cursor (blocks.h). */
static void
line_start(struct tp *t)
{
	const char	*p = t->s + t->pos, *e;
	enum blocks_kind k;

	e = memchr(p, '\n', t->len - t->pos);
	if (e == NULL)
		e = t->s + t->len;
	k = blocks_line(&t->blocks, p, (size_t)(e - p));
	t->code = k == BLOCKS_FENCE || k == BLOCKS_CODE;
	t->html = k == BLOCKS_HTML;
}

/*
 * Code spans
 */

/* Where the code span opened by the run of n at i ends; 0: none. */
static size_t
span_close(struct tp *t, size_t i, size_t n)
{
	const char	*s = t->s, *p;
	size_t		 limit, j, k;

	if (n > TP_MAX_TICKS)
		return 0;
	limit = blank_after(t, i);
	if (t->tick_fail[n] > i)
		return 0;
	for (j = i + n; (p = memchr(s + j, '`', limit - j)) != NULL; ) {
		j = (size_t)(p - s);
		for (k = j; k < limit && s[k] == '`'; k++)
			;
		if (k - j == n)
			return k;
		j = k;
		if (j >= limit)
			break;
	}
	t->tick_fail[n] = limit;
	return 0;
}

/* raw/endraw tags inside code: the markers go, the text stays. */
static int
raw_marker(struct tp *t)
{
	size_t	 end;

	if (liquid_block_at(t, t->pos, &end) & SC_RAW) {
		skip(t, end);
		return 1;
	}
	return 0;
}

/*
 * The end of the block mode that mode (SC_RAW, SC_COMMENT,
 * SC_HIGHLIGHT) names: Liquid's endraw, endcomment, endhighlight, or
 * Hugo's closing shortcode of the same name.
 */
static int
block_end(struct tp *t, unsigned mode, size_t *endp)
{
	struct con	 c;
	unsigned	 block;

	if (!construct_at(t, t->pos, &c))
		return 0;
	block = shortcode_kind(c.name, NULL) & TP_BLOCK_BITS;
	if (t->hl_type == C_TAG || t->raw)
		return c.type == C_TAG && block == (mode | SC_END) &&
		    (*endp = c.end, 1);
	return (c.type == C_ANGLE || c.type == C_PERCENT) && c.closing &&
	    block == mode && (*endp = c.end, 1);
}

/* Past the byte at the cursor, up to a '{' or just past a newline. */
static size_t
text_end(const struct tp *t, size_t limit)
{
	size_t	 i;

	if (t->s[t->pos] == '\n')
		return t->pos + 1;
	for (i = t->pos + 1; i < limit && t->s[i] != '{' && t->s[i] != '\n';
	    i++)
		;
	if (i < limit && t->s[i] == '\n')
		i++;
	return i;
}

static void
run(struct tp *t)
{
	const char	*s = t->s, *p;
	struct con	 c;
	size_t		 end, n, next;

	while (t->pos < t->len) {
		if (t->comment) {
			p = memchr(s + t->pos, '{', t->len - t->pos);
			next = p != NULL ? (size_t)(p - s) : t->len;
			keep_lines(t, t->pos, next);
			advance(t, next);
			if (next < t->len && !block_end(t, SC_COMMENT,
			    &end)) {
				advance(t, t->pos + 1);
				continue;
			}
			if (next < t->len) {
				keep_block(t, end);
				skip(t, end);
				t->comment = 0;
			}
			continue;
		}
		if (t->highlight) {
			p = memchr(s + t->pos, '{', t->len - t->pos);
			next = p != NULL ? (size_t)(p - s) : t->len;
			copy_to(t, next);
			if (next >= t->len)
				break;
			if (raw_marker(t))
				continue;
			if (!block_end(t, SC_HIGHLIGHT, &end)) {
				copy_to(t, t->pos + 1);
				continue;
			}
			if (t->out.len > 0 &&
			    t->out.data[t->out.len - 1] != '\n')
				buf_addc(&t->out, '\n');
			buf_addstr(&t->out, "````");
			if (end < t->len && s[end] != '\n' && s[end] != '\r')
				buf_addc(&t->out, '\n');
			skip(t, end);
			t->highlight = 0;
			continue;
		}
		if ((t->pos == 0 || s[t->pos - 1] == '\n') &&
		    t->pos >= t->span_end)
			line_start(t);
		if (t->raw) {
			if (s[t->pos] == '{' && block_end(t, SC_RAW, &end)) {
				keep_block(t, end);
				skip(t, end);
				t->raw = 0;
				continue;
			}
			copy_to(t, text_end(t, t->len));
			continue;
		}
		if (t->code || t->pos < t->span_end) {
			if (s[t->pos] == '{' && raw_marker(t))
				continue;
			copy_to(t, text_end(t, t->code ? t->len :
			    t->span_end));
			continue;
		}
		switch (s[t->pos]) {
		case '\\':
			copy_to(t, t->pos + (t->pos + 1 < t->len &&
			    s[t->pos + 1] != '\n' ? 2 : 1));
			continue;
		case '`':
			for (n = 0; t->pos + n < t->len && s[t->pos + n] == '`';
			    n++)
				;
			if (!t->html &&
			    (end = span_close(t, t->pos, n)) != 0)
				t->span_end = end;
			copy_to(t, t->pos + n);
			continue;
		case '{':
			if (construct_at(t, t->pos, &c)) {
				construct(t, &c);
				continue;
			}
			break;
		default:
			break;
		}
		/* Plain text up to the next byte that may matter. */
		next = t->pos + 1;
		if (s[t->pos] != '\n') {
			while (next < t->len && s[next] != '\n' &&
			    s[next] != '{' && s[next] != '`' &&
			    s[next] != '\\')
				next++;
			if (next < t->len && s[next] == '\n')
				next++;
		}
		copy_to(t, next);
	}
	if (t->highlight)		/* never closed: close our fence */
		buf_addstr(&t->out, t->out.len > 0 &&
		    t->out.data[t->out.len - 1] != '\n' ? "\n````\n" :
		    "````\n");
}

int
template_present(const char *md, size_t len)
{
	const char	*p = md, *e = md + len;

	while ((p = memchr(p, '{', (size_t)(e - p))) != NULL) {
		if (p + 1 < e && (p[1] == '{' || p[1] == '%'))
			return 1;
		p++;
	}
	return 0;
}

void
template_rewrite(const char *md, size_t len, struct template_result *res)
{
	template_rewrite_bundle(md, len, NULL, NULL, res);
}

void
template_rewrite_bundle(const char *md, size_t len,
    const struct template_files *files, const struct template_probe *probe,
    struct template_result *res)
{
	struct tp	 t;
	size_t		 i;

	memset(res, 0, sizeof(*res));
	memset(&t, 0, sizeof(t));
	t.s = md != NULL ? md : "";
	t.len = md != NULL ? len : 0;
	t.res = res;
	t.files = files;
	t.probe = probe != NULL && probe->where != NULL ? probe : NULL;
	t.note_line = t.note_col = 1;
	blocks_init(&t.blocks);
	t.next_blank = 0;
	for (i = 0; i < C_NKINDS; i++)
		t.next_end[i] = SIZE_MAX;
	buf_init(&t.out);
	buf_reserve(&t.out, len + 1);
	run(&t);
	buf_add(&t.out, "", 0);
	res->len = t.out.len;
	res->body = buf_release(&t.out);
}

void
template_result_free(struct template_result *res)
{
	free(res->body);
	free(res->notes);
	memset(res, 0, sizeof(*res));
}

const char *
template_more(const struct template_note *n, char *buf, size_t size)
{
	if (n->more == 0 || size == 0)
		return "";
	snprintf(buf, size, " (and %u more like it in this file)", n->more);
	return buf;
}
