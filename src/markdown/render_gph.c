/*
 * render_gph.c -- Markdown (cmark-gfm tree) to Gopher plain text.
 *
 * The same walk and engine as render_gmi.c with another node callback
 * and outc():
 *   - prose is wrapped at opts->width (0: 70) code points on spaces; a
 *     word longer than the line is split; code blocks (indented four
 *     spaces) and tables are never wrapped;
 *   - headings stand between blank lines, level 1 underlined with "=",
 *     level 2 with "-", as long as the heading's longest line; level 3
 *     is plain, and 4-6 lead with Markdown's ASCII marks ("#### Debian":
 *     gemtext's "›" is no ASCII, and ">" would read as a quote), so
 *     they do not read as a paragraph of one line;
 *   - code spans keep their backticks (render_code_span()); raw HTML
 *     has been read into ordinary nodes by html.c before the walk;
 *   - list items are "* ", "1. " or "* [x] ", quotes "> "; further lines
 *     hang under the item's text.  Prefixes stop growing at half the
 *     width, so deep nesting cannot eat the line;
 *   - links and images are "text[1]", with "[1] URL" under
 *     "References" at the end, or handed to opts->ref (a menu lists
 *     them as items); site paths ("/posts/x") go through
 *     opts->absolute.  Footnote references take numbers from the same
 *     counter ("[2]"), and the notes are listed under "Notes" before
 *     the references, so every number means one thing;
 *   - a thematic break is a line of 20 "-";
 *   - with opts->ascii, every code point past ASCII is spelled in ASCII
 *     (core/fold.h) before it is counted for the wrap;
 *   - tabs are expanded, other controls and CR dropped; lines end in LF
 *     (the Gopher layer makes CRLF).  A line that would be a lone "."
 *     (the RFC 1436 terminator) becomes " .".
 *
 * A post written in gemtext goes through the same engine line by line
 * (render_gopher_gmi()): text lines are wrapped paragraphs, headings
 * underlined, "* " items and "> " quotes as above, preformatted blocks
 * as code blocks, and each "=>" line its label with a "[n]" reference.
 *
 * Knows cmark-gfm; knows nothing of the Gopher protocol beyond the lone
 * ".".  The tree, the reference list and the frame stack are owned by
 * render_gopher() and freed before it returns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"
#include "markdown/gemtext.h"
#include "markdown/html.h"
#include "markdown/render.h"
#include "markdown/render_int.h"

#define GPH_WIDTH	70
#define GPH_MAX_NOTES	1000000	/* footnote numbers cmark may hand out */

struct gph_frame {
	size_t		 prefix_len;	/* the prefix to go back to on exit */
	long		 num;		/* a list: the next item's number */
};

struct gph_ref {
	unsigned	 num;
	char		*url;		/* owned */
};

struct gph {
	const struct render_opts *opts;
	struct gph_frame *st;		/* owned: the open containers */
	size_t		 nst, capst;
	struct gph_ref	*refs;		/* owned: the reference list */
	size_t		 nrefs, caprefs;
	size_t		*open;		/* owned: out->len at each open link */
	size_t		 nopen, capopen;
	unsigned	*notes;		/* owned: cmark's note number -> ours */
	size_t		 nnotes;
	unsigned	 ndefs;		/* footnote definitions seen */
	unsigned	 next;		/* the last number given out */
	size_t		 head_at;	/* where the heading's text began */
	int		 head_level;
	size_t		 max_prefix;	/* prefixes stop growing here */
	struct buf	 code;		/* scratch for a code span */
};

static struct gph_frame *
push(struct render *r, struct gph *g)
{
	struct gph_frame	*f;

	if (g->nst == g->capst) {
		g->capst = g->capst ? g->capst * 2 : 16;
		g->st = xreallocarray(g->st, g->capst, sizeof(*g->st));
	}
	f = &g->st[g->nst++];
	f->prefix_len = r->prefix.len;
	f->num = 0;
	return f;
}

/* The end of a quote, a list, an item or a note: its frame goes. */
static void
pop(struct render *r)
{
	struct gph	*g = r->fmt;

	if (g->nst > 0)
		render_prefix_truncate(r, g->st[--g->nst].prefix_len);
}

/* Grow the prefix, unless that would take more than half the line. */
static void
indent(struct render *r, const struct gph *g, const char *s, size_t len)
{
	if (r->prefix_width + utf8_count(s, len) <= g->max_prefix)
		render_prefix_add(r, s, len);
}

static void
gph_outc(struct render *r, enum render_esc esc, uint32_t c,
    unsigned char nextc)
{
	size_t	 n;

	if (c == '\t') {		/* PRE: to the next multiple of 8 */
		for (n = 8 - (r->pos.column - r->pos.content_col) % 8; n > 0;
		    n--)
			buf_addc(r->out, ' ');
		r->pos.column += 8 - (r->pos.column - r->pos.content_col) % 8;
		return;
	}
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
		return;
	render_putcp(r, c);
}

/*
 * Numbers: links and footnotes share one counter.
 */

static unsigned
note_number(struct gph *g, unsigned long m)
{
	size_t	 n;

	if (m == 0 || m > GPH_MAX_NOTES)
		return 0;
	if (m >= g->nnotes) {
		n = m + 16;
		g->notes = xreallocarray(g->notes, n, sizeof(*g->notes));
		memset(g->notes + g->nnotes, 0,
		    (n - g->nnotes) * sizeof(*g->notes));
		g->nnotes = n;
	}
	if (g->notes[m] == 0)
		g->notes[m] = ++g->next;
	return g->notes[m];
}

static void
footnote_ref(struct render *r, struct gph *g, const char *lit)
{
	char		 s[48], *end;
	unsigned long	 m;
	unsigned	 k = 0;

	m = strtoul(lit, &end, 10);
	if (end != lit && *end == '\0' && lit[0] >= '0' && lit[0] <= '9')
		k = note_number(g, m);
	if (k != 0)
		snprintf(s, sizeof(s), "[%u]", k);
	else
		snprintf(s, sizeof(s), "[%.32s]", lit);
	render_text(r, s);
}

/* Does url's path hold a "." or ".." segment? */
static int
has_dot_segment(const char *url)
{
	char	*path = xstrndup(url, strcspn(url, "?#"));
	int	 dot = url_has_dot_segment(path);

	free(path);
	return dot;
}

/*
 * ref, a relative reference (no scheme, not "/..."), resolved against
 * the path base as RFC 3986 (5.2) does: merged with base's folder, dot
 * segments removed (".." at the root stays there), the query kept, the
 * fragment dropped (a selector has none); malloc'd.
 */
static char *
resolve_relative(const char *base, const char *ref)
{
	struct buf	 m = BUF_INIT, b = BUF_INIT;
	const char	*p, *seg, *end, *slash;
	size_t		 tail = strcspn(ref, "?#"), blen = strcspn(base, "?#");
	size_t		 k;
	int		 folder = 0;

	slash = memrchr(base, '/', blen);
	if (tail == 0)			/* "?q", "#x": the page itself */
		buf_add(&m, base, blen);
	else {
		buf_add(&m, base, slash != NULL ? (size_t)(slash - base) + 1 :
		    0);
		buf_add(&m, ref, tail);
	}
	buf_add(&m, "", 0);
	end = m.data + m.len;
	for (p = m.data[0] == '/' ? m.data + 1 : m.data; p <= end;
	    p = seg + 1) {
		if ((seg = memchr(p, '/', (size_t)(end - p))) == NULL)
			seg = end;
		k = (size_t)(seg - p);
		folder = (k == 1 && p[0] == '.') ||
		    (k == 2 && p[0] == '.' && p[1] == '.');
		if (k == 2 && folder) {		/* "..": up one */
			while (b.len > 0 && b.data[b.len - 1] != '/')
				b.len--;
			if (b.len > 0)
				b.len--;
		} else if (!folder) {
			buf_addc(&b, '/');
			buf_add(&b, p, k);
		}
		if (seg == end)
			break;
	}
	if (folder || b.len == 0)	/* "./", "..", ".": a folder */
		buf_addc(&b, '/');
	if (ref[tail] == '?')
		buf_add(&b, ref + tail, strcspn(ref + tail, "#"));
	buf_free(&m);
	return buf_release(&b);
}

/*
 * url (as written) into the reference list, rewritten and made
 * absolute, and its "[n]" after the text, or to opts->ref with label
 * (its text, one line) when a menu gathers the links: for Markdown
 * links and images and for gemtext link lines alike.
 */
static void
reference(struct render *r, struct gph *g, const char *url,
    const char *label)
{
	const struct render_opts *o = g->opts;
	struct buf		 b = BUF_INIT;
	char			*rw = NULL, *abs = NULL, *rel, s[32];

	if (o != NULL && o->rewrite != NULL)
		rw = o->rewrite(o->rewrite_ctx, url);
	if (rw != NULL)
		url = rw;
	/* Relative: as a Gemini client at the page's path would read it. */
	if (*url != '\0' && *url != '/' && !url_has_scheme(url)) {
		if (o != NULL && o->base != NULL && o->base[0] == '/') {
			rel = resolve_relative(o->base, url);
			free(rw);
			url = rw = rel;
		} else if (has_dot_segment(url)) {
			free(rw);	/* no base: text, never "../x" */
			return;
		}
	}
	if (o != NULL && o->absolute != NULL && url[0] == '/' &&
	    url[1] != '/')
		abs = o->absolute(o->absolute_ctx, url);
	url_encode_link(abs ? abs : url, &b);
	free(rw);
	free(abs);
	if (b.len == 0) {		/* rewritten to nothing */
		buf_free(&b);
		return;
	}
	if (g->nrefs == g->caprefs) {
		g->caprefs = g->caprefs ? g->caprefs * 2 : 8;
		g->refs = xreallocarray(g->refs, g->caprefs, sizeof(*g->refs));
	}
	g->refs[g->nrefs].num = ++g->next;
	g->refs[g->nrefs++].url = buf_release(&b);
	snprintf(s, sizeof(s), "[%u]", g->next);
	render_text(r, s);
	if (o != NULL && o->ref != NULL)
		o->ref(o->ref_ctx, g->next, g->refs[g->nrefs - 1].url, label);
}

static void
link_exit(struct render *r, struct gph *g, cmark_node *n)
{
	const char		*url = cmark_node_get_url(n), *base;
	char			*label = NULL;
	size_t			 at = 0, len;

	if (g->nopen > 0)
		at = g->open[--g->nopen];
	if (url == NULL || url[0] == '\0')
		return;
	if (render_is_type(n, CMARK_NODE_IMAGE) && r->out->len == at) {
		base = render_url_basename(url, &len);	/* no alt text */
		render_out(r, base, len, RENDER_ESC_TEXT);
	}
	if (g->opts != NULL && g->opts->ref != NULL) {
		label = render_node_text(n);
		if (*label == '\0' && render_is_type(n, CMARK_NODE_IMAGE)) {
			free(label);
			base = render_url_basename(url, &len);
			label = xstrndup(base, len);
		}
	}
	reference(r, g, url, label);
	free(label);
}

/* An underlined title of our own ("Notes", "References"). */
static void
title(struct render *r, const char *s)
{
	size_t	 i, n = utf8_count(s, strlen(s));

	render_blankline(r);
	render_lit(r, s);
	render_cr(r);
	for (i = 0; i < n; i++)
		render_lit(r, "-");
	render_blankline(r);
}

static void
references(struct render *r, struct gph *g)
{
	char	 s[32];
	size_t	 i;

	if (g->nrefs == 0 || (g->opts != NULL && g->opts->ref != NULL))
		return;
	render_prefix_truncate(r, 0);
	title(r, "References");
	for (i = 0; i < g->nrefs; i++) {
		render_cr(r);
		snprintf(s, sizeof(s), "[%u] ", g->refs[i].num);
		render_lit(r, s);
		render_lit(r, g->refs[i].url);	/* never wrapped */
	}
	render_cr(r);
}

/*
 * Blocks
 */

static void
item_enter(struct render *r, cmark_node *n, int task)
{
	struct gph	*g = r->fmt;
	struct buf	 m = BUF_INIT;
	cmark_node	*list = cmark_node_parent(n);
	long		 num = 0;

	render_item_sep(r, n);
	if (g->nst > 0)
		num = g->st[g->nst - 1].num++;
	if (cmark_node_get_list_type(list) == CMARK_ORDERED_LIST)
		render_item_number(&m, list, num);
	else
		buf_addstr(&m, "* ");
	if (task)
		render_item_box(&m, n);
	render_lit(r, m.data);
	push(r, g);
	memset(m.data, ' ', m.len);
	indent(r, g, m.data, m.len);
	buf_free(&m);
}

static void	 heading_end(struct render *, struct gph *);

static int
heading(struct render *r, struct gph *g, cmark_node *n, int entering)
{
	int		 level;

	if (entering) {
		if (cmark_node_first_child(n) == NULL)
			return 0;
		render_block_sep(r, n);
		render_begin(r);
		g->head_at = r->out->len;
		/* A bold paragraph is a level 3 (render_bold_heading()). */
		g->head_level = cmark_node_get_type(n) == CMARK_NODE_PARAGRAPH ?
		    3 : cmark_node_get_heading_level(n);
		/* ASCII, as every word the server adds to Gopher text. */
		for (level = 1; g->head_level > 3 && level <= g->head_level &&
		    level <= 6; level++)
			render_lit(r, "#");
		if (g->head_level > 3)
			render_lit(r, " ");
		r->oneline = 1;
		return 1;
	}
	heading_end(r, g);
	return 1;
}

/* Underline the heading begun at g->head_at, by its longest line. */
static void
heading_end(struct render *r, struct gph *g)
{
	const char	*d;
	size_t		 i, w, max = 0, beg;

	r->oneline = 0;
	if ((d = r->out->data) == NULL)
		return;
	/* The longest line, less the prefix on wrapped ones. */
	for (beg = i = g->head_at < r->out->len ? g->head_at : r->out->len;
	    i <= r->out->len; i++) {
		if (i < r->out->len && d[i] != '\n')
			continue;
		w = utf8_count(d + beg, i - beg);
		if (beg != g->head_at)
			w = w > r->prefix_width ? w - r->prefix_width : 0;
		max = w > max ? w : max;
		beg = i + 1;
	}
	if (g->head_level <= 2 && max > 0) {
		render_cr(r);
		for (i = 0; i < max; i++)
			render_lit(r, g->head_level == 1 ? "=" : "-");
	}
	render_blankline(r);
}

static void
footnote_def(struct render *r, struct gph *g, int entering)
{
	char		 m[32];
	unsigned	 k;

	if (!entering) {
		pop(r);
		return;
	}
	if (g->ndefs == 0)
		title(r, "Notes");
	render_blankline(r);
	if ((k = note_number(g, ++g->ndefs)) == 0)
		k = ++g->next;
	snprintf(m, sizeof(m), "[%u] ", k);
	render_lit(r, m);
	push(r, g);
	memset(m, ' ', strlen(m));
	indent(r, g, m, strlen(m));
}

/* Preformatted text, indented four spaces, never wrapped. */
static void
code_text(struct render *r, struct gph *g, const char *s, size_t len)
{
	push(r, g);
	indent(r, g, "    ", 4);
	render_out(r, s, len, RENDER_ESC_PRE);
	render_cr(r);
	pop(r);
}

static void
code_block(struct render *r, struct gph *g, cmark_node *n)
{
	const char	*lit = cmark_node_get_literal(n);

	render_block_sep(r, n);
	code_text(r, g, lit ? lit : "", lit ? strlen(lit) : 0);
}

static void
table(struct render *r, cmark_node *n, int entering)
{
	if (entering) {
		render_block_sep(r, n);
		render_table_begin(r, n);
	} else
		render_table_end(r);
}

/*
 * The node callback
 */

static const struct render_hooks gph_hooks = {
	table, item_enter, pop
};

static int
gph_node(struct render *r, cmark_node *n, cmark_event_type ev)
{
	struct gph		*g = r->fmt;
	cmark_node_type		 t = cmark_node_get_type(n);
	int			 entering = ev == CMARK_EVENT_ENTER;

	if (render_common_node(r, n, t, entering, &gph_hooks))
		return 1;
	switch (t) {
	case CMARK_NODE_DOCUMENT:
		if (!entering)
			references(r, g);
		break;
	case CMARK_NODE_BLOCK_QUOTE:
		if (entering) {
			render_block_sep(r, n);
			push(r, g);
			indent(r, g, "> ", 2);
		} else
			pop(r);
		break;
	case CMARK_NODE_LIST:
		if (entering) {
			render_block_sep(r, n);
			push(r, g)->num = cmark_node_get_list_start(n);
		} else
			pop(r);
		break;
	case CMARK_NODE_CODE_BLOCK:
		code_block(r, g, n);
		break;
	case CMARK_NODE_HTML_BLOCK:		/* html_read() left none */
	case CMARK_NODE_HTML_INLINE:
		break;
	case CMARK_NODE_PARAGRAPH:
		if (render_bold_heading(n))
			return heading(r, g, n, entering);
		if (entering)
			render_block_sep(r, n);
		break;
	case CMARK_NODE_HEADING:
		return heading(r, g, n, entering);
	case CMARK_NODE_THEMATIC_BREAK:
		render_block_sep(r, n);
		render_lit(r, "--------------------");
		render_cr(r);
		break;
	case CMARK_NODE_FOOTNOTE_DEFINITION:
		footnote_def(r, g, entering);
		break;
	case CMARK_NODE_TEXT:			/* leaf: ENTER only */
		render_text(r, cmark_node_get_literal(n));
		break;
	case CMARK_NODE_CODE:
		render_code_span(r, &g->code, cmark_node_get_literal(n));
		break;
	case CMARK_NODE_SOFTBREAK:
		render_text(r, " ");
		break;
	case CMARK_NODE_LINEBREAK:
		render_break(r);
		break;
	case CMARK_NODE_LINK:
	case CMARK_NODE_IMAGE:
		if (!entering) {
			link_exit(r, g, n);
			break;
		}
		if (g->nopen == g->capopen) {
			g->capopen = g->capopen ? g->capopen * 2 : 8;
			g->open = xreallocarray(g->open, g->capopen,
			    sizeof(*g->open));
		}
		g->open[g->nopen++] = r->out->len;
		break;
	case CMARK_NODE_FOOTNOTE_REFERENCE:
		if (entering)
			footnote_ref(r, g, cmark_node_get_literal(n));
		break;
	case CMARK_NODE_ITEM:			/* render_common_node() */
	case CMARK_NODE_NONE:
	case CMARK_NODE_CUSTOM_BLOCK:
	case CMARK_NODE_CUSTOM_INLINE:
	case CMARK_NODE_EMPH:			/* markers dropped */
	case CMARK_NODE_STRONG:
		break;
	}
	return 1;
}

/* RFC 1436 ends a text item with a lone "."; never write one. */
static int
lone_dot(const struct buf *b, size_t start, size_t i)
{
	return b->data[i] == '.' && i + 1 < b->len && b->data[i + 1] == '\n' &&
	    (i == start || b->data[i - 1] == '\n');
}

static void
no_lone_dots(struct buf *out, size_t start)
{
	struct buf	 tail = BUF_INIT;
	const char	*p, *end;
	size_t		 i;

	if (out->len <= start)		/* nothing written: data may be NULL */
		return;
	/* Only the dots need a look (a byte-by-byte scan was 4 % of a post). */
	end = out->data + out->len;
	for (p = out->data + start;
	    (p = memchr(p, '.', (size_t)(end - p))) != NULL; p++)
		if (lone_dot(out, start, (size_t)(p - out->data)))
			break;
	if (p == NULL)
		return;
	buf_add(&tail, out->data + start, out->len - start);
	buf_truncate(out, start);
	for (i = 0; i < tail.len; i++) {
		if (lone_dot(&tail, 0, i))
			buf_addc(out, ' ');
		buf_addc(out, tail.data[i]);
	}
	buf_free(&tail);
}

static void
gph_start(struct render *r, struct gph *g, const struct render_opts *opts,
    struct buf *out)
{
	unsigned	 width;

	memset(g, 0, sizeof(*g));
	g->opts = opts;
	buf_init(&g->code);
	width = opts != NULL && opts->width > 0 ? opts->width : GPH_WIDTH;
	g->max_prefix = width / 2;
	render_init(r, out, width, gph_outc, g);
	r->ascii = opts != NULL && opts->ascii;
}

static void
gph_end(struct render *r, struct gph *g, struct buf *out, size_t start)
{
	size_t	 i;

	render_finish(r);
	no_lone_dots(out, start);
	for (i = 0; i < g->nrefs; i++)
		free(g->refs[i].url);
	free(g->refs);
	free(g->open);
	free(g->notes);
	free(g->st);
	buf_free(&g->code);
}

void
render_gopher(const char *md, size_t len, const struct render_opts *opts,
    struct buf *out)
{
	struct render	 r;
	struct gph	 g;
	cmark_node	*doc;
	size_t		 start = out->len;

	doc = render_parse(md, len);
	gph_start(&r, &g, opts, out);
	render_walk(&r, doc, gph_node);
	render_free(doc);
	gph_end(&r, &g, out, start);
}

/*
 * Gemtext posts
 */

/* A gemtext line as a rendered Markdown block of its kind would be. */
static void
gmi_line(struct render *r, struct gph *g, const struct gemtext_line *l)
{
	char	*url, *label;

	switch (l->type) {
	case GEMTEXT_TEXT:
		if (l->textlen == 0) {
			render_blankline(r);
			break;
		}
		render_cr(r);
		render_out(r, l->text, l->textlen, RENDER_ESC_TEXT);
		render_cr(r);
		break;
	case GEMTEXT_HEADING:
		if (l->textlen == 0)
			break;
		render_blankline(r);
		render_begin(r);
		g->head_at = r->out->len;
		g->head_level = l->level;
		r->oneline = 1;
		render_out(r, l->text, l->textlen, RENDER_ESC_TEXT);
		heading_end(r, g);
		break;
	case GEMTEXT_ITEM:		/* "* " then hanging lines */
	case GEMTEXT_QUOTE:		/* "> " on every line */
		render_cr(r);
		if (l->type == GEMTEXT_ITEM)
			render_lit(r, "* ");
		push(r, g);
		indent(r, g, l->type == GEMTEXT_ITEM ? "  " : "> ", 2);
		render_out(r, l->text, l->textlen, RENDER_ESC_TEXT);
		render_cr(r);
		pop(r);
		break;
	case GEMTEXT_LINK:
		render_cr(r);
		if (l->textlen > 0)
			render_out(r, l->text, l->textlen, RENDER_ESC_TEXT);
		else
			render_out(r, l->url, l->urllen, RENDER_ESC_TEXT);
		url = xstrndup(l->url, l->urllen);
		label = l->textlen > 0 ? xstrndup(l->text, l->textlen) :
		    xstrdup(url);
		reference(r, g, url, label);
		free(label);
		free(url);
		render_cr(r);
		break;
	case GEMTEXT_PRE_TOGGLE:
	case GEMTEXT_PRE:
		break;			/* gathered by the caller */
	}
}

void
render_gopher_gmi(const char *gmi, size_t len,
    const struct render_opts *opts, struct buf *out)
{
	struct render		 r;
	struct gph		 g;
	struct gemtext_iter	 it;
	struct gemtext_line	 l;
	struct buf		 pre = BUF_INIT;
	size_t			 start = out->len;
	int			 in_pre = 0;

	gph_start(&r, &g, opts, out);
	gemtext_iter_init(&it, gmi, len, 1);
	while (gemtext_next(&it, &l)) {
		if (l.type == GEMTEXT_PRE) {
			buf_add(&pre, l.line, l.linelen);
			buf_addc(&pre, '\n');
		} else if (l.type == GEMTEXT_PRE_TOGGLE) {
			if (in_pre && pre.len > 0) {
				render_cr(&r);
				code_text(&r, &g, pre.data, pre.len - 1);
			}
			buf_truncate(&pre, 0);
			in_pre = !in_pre;
		} else
			gmi_line(&r, &g, &l);
	}
	if (pre.len > 0) {		/* a block left open: ends here */
		render_cr(&r);
		code_text(&r, &g, pre.data, pre.len - 1);
	}
	buf_free(&pre);
	references(&r, &g);
	gph_end(&r, &g, out, start);
}
