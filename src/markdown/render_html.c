/*
 * render_html.c -- Markdown (cmark-gfm tree) and gemtext to the body of
 * an HTML5 page, for the web view.
 *
 * Markdown goes through cmark-gfm's own HTML renderer, which already
 * writes the small semantic HTML wanted (p, h1-h6, ul/ol/li, blockquote,
 * pre/code, a, img, table, del, the footnotes' section) and refuses raw
 * HTML and javascript: URLs in its default, safe mode: writing a fourth
 * node callback would have written the same markup again.  Before it
 * runs, the tree is made what the other renderers see: parsed by
 * render_parse() (so the writer's raw HTML was read for its meaning by
 * html.c and no raw HTML node is left), every link and image URL passed
 * through the same rewrite hook the gemtext renderer uses (a link to
 * "other.md" becomes "/posts/other"), and html.c's tables of raw HTML
 * given their table markup.  Gemtext posts are converted line by line.
 *
 * Knows cmark-gfm and gemtext; nothing of pages, sites or the network.
 * The tree is parsed and freed inside render_html(); what cmark hands
 * back is copied into the caller's buffer and freed.
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/escape.h"
#include "core/url.h"
#include "core/util.h"
#include "core/utf8.h"
#include "markdown/gemtext.h"
#include "markdown/html.h"
#include "markdown/render.h"
#include "markdown/render_int.h"

/* The markup of html.c's table parts (html_table_part()). */
static void
table_markup(cmark_node *n)
{
	const char	*on = NULL, *off = NULL;

	switch (html_table_part(n)) {
	case HTML_PART_NONE:
		return;
	case HTML_PART_TABLE:
		on = "<table>";
		off = "</table>";
		break;
	case HTML_PART_ROW:
	case HTML_PART_HEADER_ROW:
		on = "<tr>";
		off = "</tr>";
		break;
	case HTML_PART_CELL:
		on = "<td>";
		off = "</td>";
		break;
	}
	cmark_node_set_on_enter(n, on);
	cmark_node_set_on_exit(n, off);
}

/* Every URL of doc through the rewrite hook; html.c's tables marked up. */
static void
prepare(cmark_node *doc, const struct render_opts *o)
{
	cmark_iter		*it;
	cmark_node		*n;
	cmark_event_type	 ev;
	cmark_node_type		 t;
	const char		*url;
	char			*to;

	it = cmark_iter_new(doc);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		if (ev != CMARK_EVENT_ENTER)
			continue;
		n = cmark_iter_get_node(it);
		t = cmark_node_get_type(n);
		if (t == CMARK_NODE_CUSTOM_BLOCK ||
		    t == CMARK_NODE_CUSTOM_INLINE) {
			table_markup(n);
			continue;
		}
		if ((t != CMARK_NODE_LINK && t != CMARK_NODE_IMAGE) ||
		    o == NULL || o->rewrite == NULL ||
		    (url = cmark_node_get_url(n)) == NULL)
			continue;
		if ((to = o->rewrite(o->rewrite_ctx, url)) != NULL) {
			cmark_node_set_url(n, to);
			free(to);
		}
	}
	cmark_iter_free(it);
}

/*
 * s[0..len) into out as valid UTF-8 without the C0 controls HTML does
 * not allow (TAB, LF and CR stay): cmark-gfm can leave a broken
 * sequence in a text node (render.c says where that was found).
 */
static void
add_clean(struct buf *out, const char *s, size_t len)
{
	size_t		 i, n;
	uint32_t	 c;
	char		 u[4];

	if (utf8_valid(s, len) && memchr(s, '\0', len) == NULL) {
		for (i = 0; i < len; i++)
			if ((unsigned char)s[i] < 0x20 && s[i] != '\t' &&
			    s[i] != '\n' && s[i] != '\r')
				break;
		if (i == len) {
			buf_add(out, s, len);
			return;
		}
	}
	for (i = 0; i < len; i += n) {
		n = utf8_decode_lossy(s + i, len - i, &c);
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
			continue;
		buf_add(out, u, utf8_encode(c, u));
	}
}

void
render_html(const char *md, size_t len, const struct render_opts *opts,
    struct buf *out)
{
	cmark_mem	*mem = cmark_get_default_mem_allocator();
	cmark_node	*doc;
	char		*html;

	doc = render_parse(md, len);
	prepare(doc, opts);
	html = cmark_render_html_with_mem(doc, CMARK_OPT_DEFAULT, NULL, mem);
	render_free(doc);
	add_clean(out, html, strlen(html));
	mem->free(html);
}

/* What a run of gemtext lines of one kind is in: the element left open. */
enum gmi_open {
	OPEN_NONE,
	OPEN_LIST,		/* "* " items: <ul> */
	OPEN_LINKS,		/* "=>" lines: <ul class="links"> */
	OPEN_QUOTE,		/* ">" lines: <blockquote> */
	OPEN_PRE,		/* between "```" lines: <pre> */
};

static void
close_open(struct buf *out, enum gmi_open *open)
{
	switch (*open) {
	case OPEN_NONE:
		break;
	case OPEN_LIST:
	case OPEN_LINKS:
		buf_addstr(out, "</ul>\n");
		break;
	case OPEN_QUOTE:
		buf_addstr(out, "</blockquote>\n");
		break;
	case OPEN_PRE:
		buf_addstr(out, "</pre>\n");
		break;
	}
	*open = OPEN_NONE;
}

/* Open what a line of this kind goes in, closing what it does not. */
static void
want_open(struct buf *out, enum gmi_open *open, enum gmi_open want)
{
	if (*open == want)
		return;
	close_open(out, open);
	switch (want) {
	case OPEN_NONE:
		break;
	case OPEN_LIST:
		buf_addstr(out, "<ul>\n");
		break;
	case OPEN_LINKS:
		buf_addstr(out, "<ul class=\"links\">\n");
		break;
	case OPEN_QUOTE:
		buf_addstr(out, "<blockquote>\n");
		break;
	case OPEN_PRE:
		buf_addstr(out, "<pre>");
		break;
	}
	*open = want;
}

/* Is s[0..len) only blanks? */
static int
blank(const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* A link line: its URL rewritten as a Markdown link's would be. */
static void
gmi_link(struct buf *out, const struct gemtext_line *l,
    const struct render_opts *o)
{
	char	*url, *rw = NULL;
	int	 dangerous;

	url = xstrndup(l->url, l->urllen);
	if (o != NULL && o->rewrite != NULL &&
	    memchr(l->url, '\0', l->urllen) == NULL)
		rw = o->rewrite(o->rewrite_ctx, url);
	/* A link to a script (a hand-written file's) is its text alone. */
	dangerous = url_dangerous(rw != NULL ? rw : url);
	buf_addstr(out, "<li>");
	if (!dangerous) {
		buf_addstr(out, "<a href=\"");
		escape_xml(out, rw != NULL ? rw : url,
		    strlen(rw != NULL ? rw : url));
		buf_addstr(out, "\">");
	}
	if (l->textlen > 0)
		escape_xml(out, l->text, l->textlen);
	else
		escape_xml(out, l->url, l->urllen);
	buf_addstr(out, dangerous ? "</li>\n" : "</a></li>\n");
	free(rw);
	free(url);
}

void
render_html_gmi(const char *gmi, size_t len, const struct render_opts *opts,
    struct buf *out)
{
	struct gemtext_iter	 it;
	struct gemtext_line	 l;
	enum gmi_open		 open = OPEN_NONE;

	gemtext_iter_init(&it, gmi, len, 1);
	while (gemtext_next(&it, &l)) {
		switch (l.type) {
		case GEMTEXT_TEXT:
			close_open(out, &open);
			if (blank(l.text, l.textlen))
				break;
			buf_addstr(out, "<p>");
			escape_xml(out, l.text, l.textlen);
			buf_addstr(out, "</p>\n");
			break;
		case GEMTEXT_LINK:
			want_open(out, &open, OPEN_LINKS);
			gmi_link(out, &l, opts);
			break;
		case GEMTEXT_HEADING:
			close_open(out, &open);
			buf_printf(out, "<h%d>", l.level);
			escape_xml(out, l.text, l.textlen);
			buf_printf(out, "</h%d>\n", l.level);
			break;
		case GEMTEXT_ITEM:
			want_open(out, &open, OPEN_LIST);
			buf_addstr(out, "<li>");
			escape_xml(out, l.text, l.textlen);
			buf_addstr(out, "</li>\n");
			break;
		case GEMTEXT_QUOTE:
			want_open(out, &open, OPEN_QUOTE);
			buf_addstr(out, "<p>");
			escape_xml(out, l.text, l.textlen);
			buf_addstr(out, "</p>\n");
			break;
		case GEMTEXT_PRE_TOGGLE:
			if (open == OPEN_PRE) {
				close_open(out, &open);
				break;
			}
			close_open(out, &open);
			if (l.textlen > 0) {
				buf_addstr(out, "<pre aria-label=\"");
				escape_xml(out, l.text, l.textlen);
				buf_addstr(out, "\">");
				open = OPEN_PRE;
			} else
				want_open(out, &open, OPEN_PRE);
			break;
		case GEMTEXT_PRE:
			escape_xml(out, l.line, l.linelen);
			buf_addc(out, '\n');
			break;
		}
	}
	close_open(out, &open);
}
