/*
 * page_html.c -- the page model (page.h) as a small HTML5 document, for
 * the web view.
 *
 * One document per page: its title the first heading's, one stylesheet
 * of a few lines in its head (readable at phone width, dark when the
 * reader's system is), no script, no resource of another server; the
 * page's addresses on Gemini and Gopher as <link rel="alternate"> and a
 * line at its foot.  Headings, paragraphs, runs of links as lists,
 * the search's prompt as a form; Markdown and gemtext bodies as
 * render_html() and render_html_gmi() make them.  Knows HTML and the
 * page model, nothing of the archive or requests; appends to the
 * caller's buffer and never fails.  Every text goes through
 * escape_xml(): valid UTF-8, no markup of the writer's.
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/escape.h"
#include "core/layout.h"
#include "core/url.h"
#include "markdown/render.h"
#include "site/page.h"
#include "site/page_int.h"

/*
 * The stylesheet: a column of text of a readable measure, links and
 * muted dates in the reader's colours, light or dark as the reader's
 * system says (prefers-color-scheme).  No font is fetched.
 */
#define PAGE_STYLE \
	":root{color-scheme:light dark;--fg:#1c1c1c;--bg:#fcfcfa;" \
	"--mute:#686868;--link:#1a4fa0}\n" \
	"@media (prefers-color-scheme:dark){:root{--fg:#e4e4e4;" \
	"--bg:#15171a;--mute:#a0a0a0;--link:#8db6ff}}\n" \
	"body{margin:0 auto;max-width:42rem;padding:1rem 1.2rem;" \
	"font:1.05rem/1.55 system-ui,sans-serif;color:var(--fg);" \
	"background:var(--bg);overflow-wrap:break-word}\n" \
	"a{color:var(--link)}h1,h2,h3{line-height:1.25}\n" \
	"pre{overflow-x:auto;padding:.5rem;border:1px solid var(--mute)}\n" \
	"code,pre{font-family:ui-monospace,monospace;font-size:.92em}\n" \
	"blockquote{margin:0;padding-left:1rem;" \
	"border-left:3px solid var(--mute)}\n" \
	"img{max-width:100%;height:auto}\n" \
	"ul.links{list-style:none;padding:0}ul.links li{margin:.35rem 0}\n" \
	"time,footer{color:var(--mute)}\n" \
	"footer{border-top:1px solid var(--mute);margin-top:2rem;" \
	"font-size:.9rem}\n" \
	"table{border-collapse:collapse}" \
	"td,th{border:1px solid var(--mute);padding:.2rem .4rem}\n"

struct html {
	struct buf		*out;
	const struct page_target *t;
	int			 list;	/* a <ul class="links"> is open */
};

static void
text(struct html *h, const char *s)
{
	escape_xml(h->out, s, strlen(s));
}

/*
 * A site path with base (NULL: none), or an absolute URL, as the value
 * of the attribute attr.
 */
static void
attr_url_at(struct html *h, const char *attr, const char *base,
    const char *url)
{
	struct buf	 u = BUF_INIT;

	if (url_dangerous(url))
		;			/* never written: a link to nothing */
	else if (url_has_scheme(url))
		buf_addstr(&u, url);
	else {
		if (base != NULL && layout_site_path(url))
			url_encode_path(base, &u);
		url_encode_path(url, &u);
	}
	buf_printf(h->out, " %s=\"", attr);
	escape_xml(h->out, u.data != NULL ? u.data : "", u.len);
	buf_addc(h->out, '"');
	buf_free(&u);
}

/* A site path with the target's base, or an absolute URL. */
static void
attr_url(struct html *h, const char *attr, const char *url)
{
	attr_url_at(h, attr, h->t->base, url);
}

static void
end_list(struct html *h)
{
	if (h->list)
		buf_addstr(h->out, "</ul>\n");
	h->list = 0;
}

/* The search's prompt: a form that asks as a Gemini client is asked. */
static void
prompt(struct html *h, const struct block *b)
{
	buf_addstr(h->out, "<form method=\"get\" role=\"search\"");
	attr_url(h, "action", b->url);
	buf_addstr(h->out, "><label>");
	text(h, b->text);
	buf_addstr(h->out, " <input type=\"search\" name=\"q\"></label> "
	    "<button>Search</button></form>\n");
}

static void
link_item(struct html *h, const struct block *b)
{
	/*
	 * A link of a hand-written file (a tree's gemtext, a .gph menu's
	 * URL: item) may name a script: its text alone, as a link to
	 * nothing is shown.
	 */
	if (*b->url == '\0' || url_dangerous(b->url)) {
		end_list(h);
		buf_addstr(h->out, "<p>");
		text(h, b->text);
		buf_addstr(h->out, "</p>\n");
		return;
	}
	if (b->kind == LINK_PROMPT) {
		end_list(h);
		prompt(h, b);
		return;
	}
	if (!h->list)
		buf_addstr(h->out, "<ul class=\"links\">\n");
	h->list = 1;
	buf_addstr(h->out, "<li>");
	if (b->date[0] != '\0') {
		buf_addstr(h->out, "<time datetime=\"");
		text(h, b->date);
		buf_addstr(h->out, "\">");
		text(h, b->date);
		buf_addstr(h->out, "</time> ");
	}
	buf_addstr(h->out, "<a");
	attr_url(h, "href", b->url);
	buf_addc(h->out, '>');
	text(h, *b->text != '\0' ? b->text : b->url);
	buf_addstr(h->out, "</a></li>\n");
}

static void
block(struct html *h, const struct block *b)
{
	switch (b->type) {
	case BLOCK_HEADING:
		end_list(h);
		buf_printf(h->out, "<h%d>", b->level);
		text(h, b->text);
		buf_printf(h->out, "</h%d>\n", b->level);
		break;
	case BLOCK_TEXT:
		end_list(h);
		if (*b->text == '\0')
			break;
		buf_addstr(h->out, "<p>");
		text(h, b->text);
		buf_addstr(h->out, "</p>\n");
		break;
	case BLOCK_LINK:
		link_item(h, b);
		break;
	case BLOCK_BLANK:
		end_list(h);
		break;
	case BLOCK_MARKDOWN:
		end_list(h);
		if (b->md == NULL || b->mdlen == 0)
			break;
		if (b->gemtext)
			render_html_gmi(b->md, b->mdlen, &h->t->ropts, h->out);
		else
			render_html(b->md, b->mdlen, &h->t->ropts, h->out);
		break;
	case BLOCK_MDLINKS:
		/* Only a menu's (format_menus()), which HTML has none of. */
		break;
	}
}

/* The first heading's text, the document's title. */
static const char *
title_of(const struct page *p)
{
	size_t	 i;

	for (i = 0; i < p->n; i++)
		if (p->blocks[i].type == BLOCK_HEADING &&
		    *p->blocks[i].text != '\0')
			return p->blocks[i].text;
	return "";
}

static void
head(struct html *h, const struct page *p)
{
	struct block	 tb, tmp;
	char		*owned;

	buf_addstr(h->out, "<!DOCTYPE html>\n<html lang=\"");
	text(h, h->t->lang != NULL ? h->t->lang : "en");
	buf_addstr(h->out, "\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n<title>");
	memset(&tb, 0, sizeof(tb));
	tb.type = BLOCK_TEXT;
	tb.text = (char *)title_of(p);
	text(h, page_spelled(&tb, 0, &tmp, &owned)->text);
	free(owned);
	buf_addstr(h->out, "</title>\n<style>\n" PAGE_STYLE "</style>\n");
	if (h->t->alt_gemini != NULL) {
		buf_addstr(h->out, "<link rel=\"alternate\" title=\"Gemini\"");
		attr_url(h, "href", h->t->alt_gemini);
		buf_addstr(h->out, ">\n");
	}
	if (h->t->alt_gopher != NULL) {
		buf_addstr(h->out, "<link rel=\"alternate\" title=\"Gopher\"");
		attr_url(h, "href", h->t->alt_gopher);
		buf_addstr(h->out, ">\n");
	}
	if (h->t->feed != NULL) {
		buf_addstr(h->out, "<link rel=\"alternate\" "
		    "type=\"application/atom+xml\" title=\"Feed\"");
		attr_url_at(h, "href", h->t->feed_base, h->t->feed);
		buf_addstr(h->out, ">\n");
	}
	buf_addstr(h->out, "</head>\n<body>\n<main>\n");
}

/* The line that names the page's other addresses. */
static void
foot(struct html *h)
{
	const char	*alt[2] = { h->t->alt_gemini, h->t->alt_gopher };
	const char	*name[2] = { "Gemini", "Gopher" };
	size_t		 i;
	int		 any = 0;

	buf_addstr(h->out, "</main>\n");
	for (i = 0; i < 2; i++) {
		if (alt[i] == NULL)
			continue;
		buf_addstr(h->out, any ? " \xc2\xb7 " :
		    "<footer>\n<p>This page on ");
		any = 1;
		text(h, name[i]);
		buf_addstr(h->out, ": <a");
		attr_url(h, "href", alt[i]);
		buf_addc(h->out, '>');
		text(h, alt[i]);
		buf_addstr(h->out, "</a>");
	}
	if (any)
		buf_addstr(h->out, "</p>\n</footer>\n");
	buf_addstr(h->out, "</body>\n</html>\n");
}

void
page_emit_html(const struct page *p, const struct page_target *t,
    struct buf *out)
{
	struct html	 h;
	struct block	 tmp;
	char		*owned;
	size_t		 i;

	h.out = out;
	h.t = t;
	h.list = 0;
	head(&h, p);
	for (i = 0; i < p->n; i++) {
		block(&h, page_spelled(&p->blocks[i], 0, &tmp, &owned));
		free(owned);
	}
	end_list(&h);
	foot(&h);
}
