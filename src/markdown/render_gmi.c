/*
 * render_gmi.c -- Markdown (cmark-gfm tree) to gemtext.
 *
 * A node callback over the engine in render.c.  Gemtext is flat and
 * line-typed, so:
 *   - headings 4-6 become "###" with one "›" per level past 3 before
 *     their text ("### › Debian"), so they stay headings (and in a
 *     client's outline) and still read as under the "###" above them;
 *     a paragraph is one line (soft break: a space; hard break: a new
 *     line);
 *   - code spans keep their backticks (render_code_span());
 *   - raw HTML has been read into ordinary nodes by html.c before the
 *     walk; an HTML table is laid out like a gfm one;
 *   - links and images are gathered per block and written as
 *     "=> URL label" lines right after it; a paragraph that holds only
 *     links (and white space or punctuation) is only those lines;
 *   - list items are "* " lines.  Nesting is shown after the marker:
 *     depth 1 "* text", depth 2 "*   ◦ text", depth 3 "*     ◦ text"
 *     (two more spaces per level, at most 8 levels of them); ordered
 *     items are text lines with their number ("1. text", nested
 *     "    2) text": the number where "◦" would be), task items show
 *     "[x]" or "[ ]" in place of "◦".  Further blocks of an item are
 *     text lines indented under its text;
 *   - quotes are "> " lines, nested "> > " (at most 32 markers).  A
 *     code block in a quote is a ``` block between its quote lines
 *     (code_block()); a table in one is written as quote lines;
 *   - code blocks and tables are ``` blocks (alt text: the info string,
 *     or "table"), columns padded to their width in code points;
 *   - footnote references are "[1]"; the notes follow the body under
 *     "## Notes" as "[1] text" lines;
 *   - a thematic break is a line of 20 "─".
 * Gemtext has no escapes: a text line that would start with "=>", "#",
 * "* ", ">" or "```" gets a leading space, decided per code point in
 * gmi_outc().
 *
 * A post written in gemtext is served as written by
 * render_gemtext_gmi(): only its link lines to other files of the
 * capsule are rewritten (opts->rewrite, as for Markdown links), and
 * invalid UTF-8 is replaced, as cmark does for Markdown.
 *
 * Knows cmark-gfm and gemtext; knows nothing of files or the network.
 * The tree is parsed and freed inside render_gemtext(); the link list
 * and the frame stack are owned by struct gmi and freed there too.
 */
#include <stdint.h>
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

#define GMI_MAX_QUOTE	32	/* "> " markers written at most */
#define GMI_MAX_LEVELS	8	/* list levels shown by indentation */
#define GMI_MAX_INDENT	40	/* continuation indent, in columns */
#define GMI_MAX_OPEN	16	/* links nested deeper get no line */
#define GMI_MAX_LABEL	1024	/* bytes of a link label kept */
#define GMI_RULE	"────────────────────"

/* What a container (quote, list, item, note) changes for its contents. */
struct gmi_frame {
	unsigned	 nq;		/* quote depth */
	unsigned	 nl;		/* list depth in the innermost quote */
	unsigned	 indent;	/* continuation indent of text lines */
	long		 num;		/* a list: the next item's number */
};

struct gmi_link {
	char		*url;		/* owned, encoded; NULL: no link line */
	char		*label;		/* owned; NULL while the link is open */
	size_t		 label_at;	/* its label starts here in g->label */
};

struct gmi {
	const struct render_opts *opts;
	struct gmi_frame *st;		/* owned: the open containers */
	size_t		 nst, capst;
	struct gmi_link	*links;		/* owned: links of the current block */
	size_t		 nlinks, caplinks;
	size_t		*open;		/* owned: indexes of the open links */
	size_t		 nopen, capopen;
	struct buf	 label;		/* text of the open links */
	int		 links_only;	/* drop the paragraph's own line */
	struct render_mark para;	/* where that paragraph began */
	unsigned	 nnotes;
	struct buf	 code;		/* scratch for a code span */
};

static const struct gmi_frame	 top_frame;

static const struct gmi_frame *
cur(const struct gmi *g)
{
	return g->nst > 0 ? &g->st[g->nst - 1] : &top_frame;
}

static struct gmi_frame *
push(struct gmi *g)
{
	struct gmi_frame	 f = *cur(g);

	if (g->nst == g->capst) {
		g->capst = g->capst ? g->capst * 2 : 16;
		g->st = xreallocarray(g->st, g->capst, sizeof(*g->st));
	}
	g->st[g->nst] = f;
	return &g->st[g->nst++];
}

/* The line prefix for the innermost container: quotes, then indent. */
static void
set_prefix(struct render *r, const struct gmi_frame *f, int indent)
{
	char		 p[2 * GMI_MAX_QUOTE + GMI_MAX_INDENT];
	size_t		 len = 0;
	unsigned	 i;

	for (i = 0; i < f->nq && i < GMI_MAX_QUOTE; i++) {
		p[len++] = '>';
		p[len++] = ' ';
	}
	for (i = 0; indent && i < f->indent && i < GMI_MAX_INDENT; i++)
		p[len++] = ' ';
	render_prefix_truncate(r, 0);
	render_prefix_add(r, p, len);
}

/* The end of a quote, a list, an item or a note: its frame goes. */
static void
pop(struct render *r)
{
	struct gmi	*g = r->fmt;

	if (g->nst > 0)
		g->nst--;
	set_prefix(r, cur(g), 1);
}

/* Does paragraph n share the line of its item's or note's marker? */
static int
on_marker_line(cmark_node *n)
{
	cmark_node	*p = cmark_node_parent(n);

	return (render_is_type(p, CMARK_NODE_ITEM) ||
	    render_is_type(p, CMARK_NODE_FOOTNOTE_DEFINITION)) &&
	    cmark_node_previous(n) == NULL;
}

/*
 * Gemtext has no escapes: at the start of a text line, a line-type
 * prefix gets a space in front.  When the next byte is unknown (0: the
 * node ends here), assume the worst; a spare space is harmless.
 */
static int
starts_marker(enum render_esc esc, uint32_t c, unsigned char nextc)
{
	if (nextc < 0x20 && nextc != '\t')
		nextc = 0;	/* a control: dropped, so the next is unknown */
	else if (nextc == 0x7f || nextc == 0xc2)
		nextc = 0;	/* DEL, or maybe a C1 control */
	if (c == '`')
		return nextc == '`' || nextc == 0;
	if (esc == RENDER_ESC_PRE)
		return 0;
	switch (c) {
	case '#':
	case '>':
		return 1;
	case '=':
		return nextc == '>' || nextc == 0;
	case '*':
		return nextc == ' ' || nextc == '\t' || nextc == 0;
	}
	return 0;
}

static void
gmi_outc(struct render *r, enum render_esc esc, uint32_t c,
    unsigned char nextc)
{
	if (c == '\t') {		/* only PRE keeps tabs */
		buf_addc(r->out, '\t');
		r->pos.column++;
		return;
	}
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
		return;
	if (r->pos.column == 0 && !r->diverted &&
	    starts_marker(esc, c, nextc)) {
		buf_addc(r->out, ' ');
		r->pos.column++;
	}
	render_putcp(r, c);
}

/*
 * Links
 */

static int
is_sep_char(uint32_t c)
{
	return (c < 0x80 && (c <= ' ' || strchr("!\"#$%&'()*+,-./:;<=>?@[\\]"
	    "^_`{|}~", (int)c) != NULL)) || c == 0xa0 || c == 0xb7 ||
	    c == 0x2013 || c == 0x2014 || c == 0x2022 || c == 0x2026;
}

/*
 * Is paragraph p nothing but links and images (at least one), with
 * only white space and punctuation around them?
 */
static int
only_links(cmark_node *p)
{
	cmark_iter		*it;
	cmark_node		*n;
	cmark_node_type		 t;
	cmark_event_type	 ev;
	const char		*s, *url;
	size_t			 i, len, k;
	uint32_t		 c;
	int			 ok = 1, nlinks = 0;

	it = cmark_iter_new(p);
	while (ok && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || n == p)
			continue;
		t = cmark_node_get_type(n);
		if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) {
			url = cmark_node_get_url(n);
			ok = url != NULL && url[0] != '\0';
			nlinks++;
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
		} else if (t == CMARK_NODE_TEXT) {
			s = cmark_node_get_literal(n);
			len = strlen(s);
			for (i = 0; ok && i < len; i += k) {
				k = utf8_decode_lossy(s + i, len - i, &c);
				ok = is_sep_char(c);
			}
		} else
			ok = t == CMARK_NODE_SOFTBREAK ||
			    t == CMARK_NODE_LINEBREAK ||
			    t == CMARK_NODE_HTML_INLINE ||
			    t == CMARK_NODE_EMPH || t == CMARK_NODE_STRONG ||
			    t == CMARK_NODE_STRIKETHROUGH;
	}
	cmark_iter_free(it);
	return ok && nlinks > 0;
}

static void
link_enter(struct gmi *g, cmark_node *n)
{
	const struct render_opts *o = g->opts;
	struct gmi_link		*l;
	struct buf		 b = BUF_INIT;
	const char		*url = cmark_node_get_url(n);
	char			*rw = NULL;

	if (g->nopen == g->capopen) {
		g->capopen = g->capopen ? g->capopen * 2 : 8;
		g->open = xreallocarray(g->open, g->capopen, sizeof(*g->open));
	}
	if (g->nopen >= GMI_MAX_OPEN) {		/* keeps the work linear */
		g->open[g->nopen++] = SIZE_MAX;
		return;
	}
	if (g->nlinks == g->caplinks) {
		g->caplinks = g->caplinks ? g->caplinks * 2 : 8;
		g->links = xreallocarray(g->links, g->caplinks,
		    sizeof(*g->links));
	}
	l = &g->links[g->nlinks];
	l->url = l->label = NULL;
	l->label_at = g->label.len;
	if (url != NULL && url[0] != '\0') {
		if (o != NULL && o->rewrite != NULL)
			rw = o->rewrite(o->rewrite_ctx, url);
		url_encode_link(rw ? rw : url, &b);
		l->url = buf_release(&b);
		free(rw);
		if (l->url[0] == '\0') {	/* rewritten to nothing */
			free(l->url);
			l->url = NULL;
		}
	}
	g->open[g->nopen++] = g->nlinks++;
}

static void
link_exit(struct render *r, struct gmi *g, cmark_node *n)
{
	struct gmi_link	*l;
	const char	*url = cmark_node_get_url(n), *base;
	size_t		 len, i;

	if (g->nopen == 0)
		return;
	if ((i = g->open[--g->nopen]) == SIZE_MAX)
		goto done;
	l = &g->links[i];
	len = g->label.len - l->label_at;
	if (len > GMI_MAX_LABEL) {	/* cut on a code point boundary */
		len = GMI_MAX_LABEL;
		while (len > 0 && ((unsigned char)g->label.data[l->label_at +
		    len] & 0xc0) == 0x80)
			len--;
	}
	/* An empty label buffer has no data: no arithmetic on NULL. */
	l->label = render_clean_label(g->label.data != NULL ?
	    g->label.data + l->label_at : "", len);
	if (l->label[0] == '\0' && render_is_type(n, CMARK_NODE_IMAGE) &&
	    url != NULL) {
		/* No alt text: the file name, in the text and as label. */
		base = render_url_basename(url, &len);
		free(l->label);
		l->label = xstrndup(base, len);
		render_text(r, l->label);
		if (g->nopen > 0)
			buf_addstr(&g->label, l->label);
	}
	if (url != NULL && (strcmp(l->label, url) == 0 ||
	    (l->url != NULL && strcmp(l->label, l->url) == 0)))
		l->label[0] = '\0';		/* <https://x>: say it once */
done:
	if (g->nopen == 0)
		buf_truncate(&g->label, 0);
}

static void
label_add(struct gmi *g, const char *s)
{
	if (g->nopen > 0 && s != NULL)
		buf_addstr(&g->label, s);
}

static void
clear_links(struct gmi *g)
{
	size_t	 i;

	for (i = 0; i < g->nlinks; i++) {
		free(g->links[i].url);
		free(g->links[i].label);
	}
	g->nlinks = g->nopen = 0;
	buf_truncate(&g->label, 0);
}

/* The "=> URL label" lines of the block just ended. */
static void
flush_links(struct render *r, struct gmi *g)
{
	struct gmi_link	*l;
	size_t		 i;

	for (i = 0; i < g->nlinks; i++) {
		l = &g->links[i];
		if (l->url != NULL && l->label != NULL) {
			render_cr(r);
			r->no_prefix = 1;
			render_lit(r, "=> ");
			render_lit(r, l->url);
			if (l->label[0] != '\0') {
				render_lit(r, " ");
				render_lit(r, l->label);
			}
			render_cr(r);
			r->no_prefix = 0;
		}
	}
	clear_links(g);
}

/*
 * The labels of a links-only paragraph's links that resolved to
 * nothing, as one text line: what Gopher text shows of them (their
 * text, no reference), so the two protocols read the same.
 */
static void
dead_labels(struct render *r, struct gmi *g)
{
	size_t	 i;
	int	 any = 0;

	for (i = 0; i < g->nlinks; i++) {
		if (g->links[i].url != NULL || g->links[i].label == NULL ||
		    g->links[i].label[0] == '\0')
			continue;
		if (any++)
			render_text(r, " ");
		render_text(r, g->links[i].label);
	}
	if (any)
		render_cr(r);
}

/*
 * Blocks
 */

static void
item_enter(struct render *r, cmark_node *n, int task)
{
	struct gmi	*g = r->fmt;
	struct gmi_frame	*f;
	struct buf		 m = BUF_INIT;
	cmark_node		*list = cmark_node_parent(n);
	unsigned		 nl, i;
	long			 num = 0;
	int			 ordered;

	render_item_sep(r, n);
	if (g->nst > 0)
		num = g->st[g->nst - 1].num++;
	nl = cur(g)->nl + 1;
	ordered = cmark_node_get_list_type(list) == CMARK_ORDERED_LIST;
	/*
	 * An ordered item is a text line with its number ("1. x"), not a
	 * bullet: "* 1. x" reads as a bullet, and clients draw "* " as
	 * one.  Nested, its number stands where a bullet's "◦" would.
	 */
	if (!ordered || nl > 1)
		buf_addstr(&m, ordered ? "  " : "* ");
	for (i = 1; i < nl && i <= GMI_MAX_LEVELS; i++)
		buf_addstr(&m, "  ");
	if (ordered)
		render_item_number(&m, list, num);
	if (task)
		render_item_box(&m, n);
	else if (nl > 1 && !ordered)
		buf_addstr(&m, "◦ ");
	set_prefix(r, cur(g), 0);
	render_lit(r, m.data);
	f = push(g);
	f->nl = nl;
	f->indent = (unsigned)utf8_count(m.data, m.len);
	set_prefix(r, f, 1);
	buf_free(&m);
}

static void
code_block(struct render *r, cmark_node *n)
{
	const char		*lit = cmark_node_get_literal(n);
	const char		*info = cmark_node_get_fence_info(n);
	char			*alt;

	/*
	 * In a quote too: a ``` block between its lines, not quote lines.
	 * Clients draw a quote their own way (a bar, italics), so "> "
	 * inside a preformatted block would be characters of the code,
	 * copied with it; the quote's lines around it keep the context.
	 */
	render_block_sep(r, n);
	lit = lit ? lit : "";
	alt = render_clean_label(info ? info : "", info ? strlen(info) : 0);
	r->no_prefix = 1;
	render_lit(r, "```");
	render_lit(r, alt);
	render_cr(r);
	render_out(r, lit, strlen(lit), RENDER_ESC_PRE);
	render_cr(r);
	render_lit(r, "```");
	render_cr(r);
	r->no_prefix = 0;
	free(alt);
}

static void
table(struct render *r, cmark_node *n, int entering)
{
	struct gmi	*g = r->fmt;
	int		 fenced = cur(g)->nq == 0;

	if (entering) {
		render_block_sep(r, n);
		if (fenced) {
			r->no_prefix = 1;
			render_lit(r, "```table");
			render_cr(r);
		}
		render_table_begin(r, n);
		return;
	}
	render_table_end(r);
	if (fenced) {
		render_lit(r, "```");
		render_cr(r);
		r->no_prefix = 0;
	}
	flush_links(r, g);
}

/* A heading, or a bold paragraph as one (level 3, render_bold_heading()). */
static int
heading(struct render *r, struct gmi *g, cmark_node *n, int entering)
{
	static const char *const marks[] = { "# ", "## ", "### ",
	    "### \xe2\x80\xba ", "### \xe2\x80\xba\xe2\x80\xba ",
	    "### \xe2\x80\xba\xe2\x80\xba\xe2\x80\xba " };
	int			 level;

	if (!entering) {
		r->oneline = r->no_prefix = 0;
		render_cr(r);
		flush_links(r, g);
		return 1;
	}
	if (cmark_node_first_child(n) == NULL)
		return 0;		/* an empty heading says nothing */
	render_block_sep(r, n);
	r->oneline = 1;
	if (cur(g)->nq == 0) {		/* in a quote: just its text */
		level = cmark_node_get_type(n) == CMARK_NODE_PARAGRAPH ? 3 :
		    cmark_node_get_heading_level(n);
		level = level < 1 ? 1 : level > 6 ? 6 : level;
		r->no_prefix = 1;
		render_lit(r, marks[level - 1]);
	}
	return 1;
}

static void
footnote_def(struct render *r, struct gmi *g, cmark_node *n, int entering)
{
	struct gmi_frame	*f;
	char			 m[32];

	if (!entering) {
		pop(r);
		return;
	}
	set_prefix(r, &top_frame, 0);
	if (g->nnotes++ == 0) {
		render_blankline(r);
		r->no_prefix = 1;
		render_lit(r, "## Notes");
		r->no_prefix = 0;
	}
	render_blankline(r);
	snprintf(m, sizeof(m), "[%u] ", g->nnotes);
	render_lit(r, m);
	f = push(g);
	*f = top_frame;
	f->indent = (unsigned)strlen(m);
	set_prefix(r, f, 1);
}

/*
 * The node callback
 */

static const struct render_hooks gmi_hooks = {
	table, item_enter, pop
};

static int
gmi_node(struct render *r, cmark_node *n, cmark_event_type ev)
{
	struct gmi		*g = r->fmt;
	struct gmi_frame	*f;
	cmark_node_type		 t = cmark_node_get_type(n);
	int			 entering = ev == CMARK_EVENT_ENTER;
	const char		*s;
	char			 ref[40];

	if (render_common_node(r, n, t, entering, &gmi_hooks))
		return 1;
	switch (t) {
	case CMARK_NODE_DOCUMENT:
		if (!entering)
			flush_links(r, g);
		break;
	case CMARK_NODE_BLOCK_QUOTE:
		if (entering) {
			render_block_sep(r, n);
			f = push(g);
			f->nq++;
			f->nl = f->indent = 0;
			set_prefix(r, f, 1);
		} else
			pop(r);
		break;
	case CMARK_NODE_LIST:
		if (entering) {
			render_block_sep(r, n);
			f = push(g);
			f->num = cmark_node_get_list_start(n);
		} else
			pop(r);
		break;
	case CMARK_NODE_CODE_BLOCK:
		code_block(r, n);
		break;
	case CMARK_NODE_HTML_BLOCK:		/* html_read() left none */
	case CMARK_NODE_HTML_INLINE:
		break;
	case CMARK_NODE_PARAGRAPH:
		if (render_bold_heading(n))
			return heading(r, g, n, entering);
		if (entering) {
			render_block_sep(r, n);
			if (!on_marker_line(n) && only_links(n)) {
				g->links_only = 1;
				render_mark(r, &g->para);
			}
		} else {
			if (g->links_only) {
				render_rewind(r, &g->para);
				dead_labels(r, g);
			}
			g->links_only = 0;
			flush_links(r, g);
		}
		break;
	case CMARK_NODE_HEADING:
		return heading(r, g, n, entering);
	case CMARK_NODE_THEMATIC_BREAK:
		render_block_sep(r, n);
		render_lit(r, GMI_RULE);
		render_cr(r);
		break;
	case CMARK_NODE_FOOTNOTE_DEFINITION:
		footnote_def(r, g, n, entering);
		break;
	case CMARK_NODE_TEXT:			/* leaf: ENTER only */
		s = cmark_node_get_literal(n);
		render_text(r, s);
		label_add(g, s);
		break;
	case CMARK_NODE_CODE:
		render_code_span(r, &g->code, cmark_node_get_literal(n));
		label_add(g, g->code.data);
		break;
	case CMARK_NODE_SOFTBREAK:		/* a paragraph is one line */
		render_text(r, " ");
		label_add(g, " ");
		break;
	case CMARK_NODE_LINEBREAK:
		render_break(r);
		label_add(g, " ");
		break;
	case CMARK_NODE_LINK:
	case CMARK_NODE_IMAGE:
		if (entering)
			link_enter(g, n);
		else
			link_exit(r, g, n);
		break;
	case CMARK_NODE_FOOTNOTE_REFERENCE:
		if (entering) {
			snprintf(ref, sizeof(ref), "[%.32s]",
			    cmark_node_get_literal(n));
			render_text(r, ref);
		}
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

void
render_gemtext(const char *md, size_t len, const struct render_opts *opts,
    struct buf *out)
{
	struct render	 r;
	struct gmi	 g;
	cmark_node	*doc;

	memset(&g, 0, sizeof(g));
	g.opts = opts;
	buf_init(&g.label);
	buf_init(&g.code);
	doc = render_parse(md, len);
	render_init(&r, out, 0, gmi_outc, &g);
	render_walk(&r, doc, gmi_node);
	render_finish(&r);
	render_free(doc);
	clear_links(&g);
	free(g.links);
	free(g.open);
	free(g.st);
	buf_free(&g.label);
	buf_free(&g.code);
}

/*
 * Gemtext posts
 */

/*
 * s[0..len) with each invalid UTF-8 sequence and NUL made U+FFFD, as
 * cmark does for Markdown.
 */
static void
add_valid(struct buf *out, const char *s, size_t len)
{
	size_t		 i, n;
	uint32_t	 c;

	if (utf8_valid(s, len) && memchr(s, '\0', len) == NULL) {
		buf_add(out, s, len);
		return;
	}
	for (i = 0; i < len; i += n) {
		n = utf8_decode_lossy(s + i, len - i, &c);
		utf8_add(out, c == 0 ? 0xFFFD : c);
	}
}

/* Would s[0..len) at a line's start read as a line type? */
static int
gmi_marker(const char *s, size_t len)
{
	return (len > 0 && (s[0] == '#' || s[0] == '>')) ||
	    (len > 1 && ((s[0] == '=' && s[1] == '>') ||
	    (s[0] == '*' && (s[1] == ' ' || s[1] == '\t')))) ||
	    (len > 2 && strncmp(s, "```", 3) == 0) ||
	    (len == 1 && s[0] == '*');
}

void
render_gemtext_gmi(const char *gmi, size_t len,
    const struct render_opts *opts, struct buf *out)
{
	struct gemtext_iter	 it;
	struct gemtext_line	 l;
	char			*url, *rw;

	gemtext_iter_init(&it, gmi, len, 1);
	while (gemtext_next(&it, &l)) {
		rw = NULL;
		if (l.type == GEMTEXT_LINK && opts != NULL &&
		    opts->rewrite != NULL &&
		    memchr(l.url, '\0', l.urllen) == NULL) {
			url = xstrndup(l.url, l.urllen);
			rw = opts->rewrite(opts->rewrite_ctx, url);
			free(url);
		}
		if (rw != NULL && *rw != '\0') {
			buf_addstr(out, "=> ");
			url_encode_link(rw, out);
			if (l.textlen > 0) {
				buf_addc(out, ' ');
				add_valid(out, l.text, l.textlen);
			}
		} else if (rw != NULL) {
			/*
			 * Rewritten to nothing: its label (else its URL) as
			 * text, as Gopher text shows it, never a marker.
			 */
			if (l.textlen > 0 ? gmi_marker(l.text, l.textlen) :
			    gmi_marker(l.url, l.urllen))
				buf_addc(out, ' ');
			if (l.textlen > 0)
				add_valid(out, l.text, l.textlen);
			else
				add_valid(out, l.url, l.urllen);
		} else
			add_valid(out, l.line, l.linelen);
		free(rw);
		buf_addc(out, '\n');
	}
}
