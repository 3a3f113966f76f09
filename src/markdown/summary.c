/*
 * summary.c -- a post's summary when its front matter gives none: the
 * text of its first paragraph, plain, cut at a word (render.h).
 *
 * A feed entry or a search result without text tells a reader nothing,
 * and most archives have no summary: key.  The first paragraph is what
 * the writer chose to open with; its plain text (no markup, entities
 * decoded, links by their text, images and footnote marks left out) is
 * the nearest thing to a summary the post has.
 *
 * A post kept in gemtext has the same: its first text lines with words
 * in them (render_gemtext_summary()).  A writer who ended the summary
 * with a separator ("<!--more-->", render_summary_sep()) gets the text
 * of every paragraph before it (render_summary_head()).
 *
 * Knows cmark-gfm and the engine in render.c; knows nothing of feeds.
 * The tree is parsed and freed here; the result is the caller's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/utf8.h"
#include "core/util.h"
#include "markdown/blocks.h"
#include "markdown/gemtext.h"
#include "markdown/render.h"
#include "markdown/render_int.h"

/* The writer's prose: an image's alt text is not part of it. */
static int
summary_node(struct render *r, cmark_node *n, cmark_event_type ev)
{
	if (cmark_node_get_type(n) == CMARK_NODE_IMAGE)
		return 0;
	return render_plain_node(r, n, ev);
}

/* Does s hold a letter or a digit (not only punctuation)? */
static int
has_word(const char *s)
{
	size_t		 i, n, len = strlen(s);
	uint32_t	 c;

	for (i = 0; i < len; i += n) {
		n = utf8_decode_lossy(s + i, len - i, &c);
		if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
		    (c >= 'a' && c <= 'z') || c >= 0xc0)
			return 1;
	}
	return 0;
}

/*
 * The plain text of the first paragraph of doc with words in it, or
 * (all) of every such paragraph, joined by a space; NULL for none.
 */
static char *
paragraphs(cmark_node *doc, int all)
{
	struct render	 r;
	struct buf	 b = BUF_INIT, joined = BUF_INIT;
	cmark_iter	*it;
	cmark_node	*n;
	char		*text;

	it = cmark_iter_new(doc);
	while ((all || joined.len == 0) &&
	    cmark_iter_next(it) != CMARK_EVENT_DONE) {
		n = cmark_iter_get_node(it);
		if (cmark_node_get_type(n) != CMARK_NODE_PARAGRAPH)
			continue;
		cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
		buf_truncate(&b, 0);
		render_init(&r, &b, 0, render_plain_outc, NULL);
		r.oneline = 1;
		render_walk(&r, n, summary_node);
		render_finish(&r);
		text = render_clean_label(b.data ? b.data : "", b.len);
		if (has_word(text)) {
			if (joined.len > 0)
				buf_addc(&joined, ' ');
			buf_addstr(&joined, text);
		}
		free(text);
	}
	cmark_iter_free(it);
	buf_free(&b);
	return joined.len > 0 ? buf_release(&joined) : NULL;
}

/* s cut to at most max code points, at a space, ending in "…". */
static char *
cut(char *s, size_t max)
{
	char	*t;
	size_t	 i, ncp = 0, space = 0, hard = 0, at;

	for (i = 0; s[i] != '\0'; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (ncp == max)
			break;		/* longer than max */
		if (ncp == max - 1)
			hard = i;	/* max - 1 code points, then "…" */
		else if (s[i] == ' ')
			space = i;
		ncp++;
	}
	if (s[i] == '\0')
		return s;
	at = space > 0 ? space : hard;
	while (at > 0 && strchr(" ,;:-", s[at - 1]) != NULL)
		at--;
	t = xasprintf("%.*s\xe2\x80\xa6", (int)at, s);
	free(s);
	return t;
}

/*
 * How much of md to parse for its first paragraph: up to the first
 * blank line past 2 KiB, and never more than 4 KiB (cut at a line end):
 * a paragraph cut short still opens with the same 300 characters.
 */
static size_t
prefix_len(const char *md, size_t len)
{
	const char	*p, *e, *nl, *last = NULL;

	if (len <= 4096)
		return len;
	e = md + 4096;
	for (p = md + 2048; p < e && (nl = memchr(p, '\n', (size_t)(e - p)))
	    != NULL; p = nl + 1) {
		if (nl + 1 < e && nl[1] == '\n')
			return (size_t)(nl - md) + 1;
		last = nl;
	}
	return last != NULL ? (size_t)(last - md) + 1 : 4096;
}

/*
 * The link reference definitions ("[x]: url") after the prefix, so a
 * "[text][x]" in it reads as the link it is: a line scan, not a parse.
 */
static void
refdefs(const char *md, size_t len, size_t from, struct buf *out)
{
	const char	*p = md + from, *e = md + len, *nl, *q;

	for (; p < e; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			nl = e;
		for (q = p; q < nl && q - p < 3 && *q == ' '; q++)
			;
		if (q < nl && *q == '[' && memmem(q, (size_t)(nl - q), "]:",
		    2) != NULL) {
			buf_add(out, p, (size_t)(nl - p));
			buf_addc(out, '\n');
		}
		if (nl == e)
			break;
	}
}

char *
render_summary(const char *md, size_t len, size_t max)
{
	struct buf	 head = BUF_INIT;
	cmark_node	*doc;
	char		*text;
	size_t		 cutlen;

	if (md == NULL || len == 0 || max < 2)
		return NULL;
	/*
	 * Loading parses each post without a summary for this, so only
	 * the head of the body is parsed (most posts open with their
	 * first paragraph), with the reference definitions found further
	 * down; the whole body only when the head has no paragraph.
	 */
	cutlen = prefix_len(md, len);
	if (cutlen < len) {
		buf_add(&head, md, cutlen);
		if (memchr(md, '[', cutlen) != NULL) {
			buf_addstr(&head, "\n\n");
			refdefs(md, len, cutlen, &head);
		}
		doc = render_parse(head.data, head.len);
	} else
		doc = render_parse(md, len);
	text = paragraphs(doc, 0);
	render_free(doc);
	buf_free(&head);
	if (text == NULL && cutlen < len) {
		doc = render_parse(md, len);
		text = paragraphs(doc, 0);
		render_free(doc);
	}
	return text != NULL ? cut(text, max) : NULL;
}

/*
 * sep = "<!--" *WSP ("more" / "truncate") *WSP "-->"	; any case
 * Hugo's and Hexo's, and Docusaurus's: its length at p..e, else 0.
 */
static size_t
default_sep(const char *p, const char *e)
{
	static const char *const words[] = { "more", "truncate" };
	const char	*q = p + 4;
	size_t		 i, wl;

	if (e - p < 4 || memcmp(p, "<!--", 4) != 0)
		return 0;
	while (q < e && (*q == ' ' || *q == '\t'))
		q++;
	for (i = 0; i < nitems(words); i++) {
		wl = strlen(words[i]);
		if ((size_t)(e - q) >= wl && strncasecmp(q, words[i], wl) == 0)
			break;
	}
	if (i == nitems(words))
		return 0;
	for (q += wl; q < e && (*q == ' ' || *q == '\t'); q++)
		;
	return e - q >= 3 && memcmp(q, "-->", 3) == 0 ? (size_t)(q + 3 - p) :
	    0;
}

long
render_summary_sep(const char *md, size_t len, const char *sep,
    size_t *seplen)
{
	struct blocks	 bl;
	const char	*p = md, *end = md + len, *nl, *q, *hit;
	size_t		 slen = sep != NULL ? strlen(sep) : 0, n;

	/*
	 * Most posts have none, and every post is read for one when it is
	 * loaded: a look for "<!--" (memchr() for its rare '<') says that
	 * before the line by line pass.
	 */
	for (q = md; q != NULL && (q = memchr(q, '<', (size_t)(end - q))) !=
	    NULL; q++)
		if (end - q >= 4 && memcmp(q, "<!--", 4) == 0)
			break;
	if (q == NULL && (slen == 0 || memmem(md, len, sep, slen) == NULL))
		return -1;
	blocks_init(&bl);
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		switch (blocks_line(&bl, p, (size_t)(nl - p))) {
		case BLOCKS_FENCE:
		case BLOCKS_CODE:
			continue;	/* the writer's example */
		case BLOCKS_TEXT:
		case BLOCKS_BLANK:
		case BLOCKS_HTML:
			break;
		}
		if (slen > 0 && (hit = memmem(p, (size_t)(nl - p), sep,
		    slen)) != NULL) {
			*seplen = slen;
			return (long)(hit - md);
		}
		for (q = p; (q = memchr(q, '<', (size_t)(nl - q))) != NULL;
		    q++)
			if ((n = default_sep(q, nl)) > 0) {
				*seplen = n;
				return (long)(q - md);
			}
		if (nl == end)
			break;
	}
	return -1;
}

char *
render_summary_head(const char *md, size_t len, size_t max)
{
	cmark_node	*doc;
	char		*text;

	if (len == 0 || max < 2)
		return NULL;
	doc = render_parse(md, len);
	text = paragraphs(doc, 1);
	render_free(doc);
	return text != NULL ? cut(text, max) : NULL;
}

/*
 * The first run of gemtext text lines (a paragraph: up to a blank line
 * or a line of another type) with words in it, outside preformatted
 * blocks; headings, links, items and quotes are not the writer's
 * opening prose.
 */
char *
render_gemtext_summary(const char *gmi, size_t len, size_t max)
{
	struct gemtext_iter	 it;
	struct gemtext_line	 l;
	struct buf		 b = BUF_INIT;
	char			*text = NULL;
	size_t			 i, n;
	uint32_t		 c;
	int			 more;

	if (gmi == NULL || len == 0 || max < 2)
		return NULL;
	gemtext_iter_init(&it, gmi, len, 1);
	do {
		more = gemtext_next(&it, &l);
		for (i = 0; more && l.type == GEMTEXT_TEXT && i < l.textlen &&
		    (l.text[i] == ' ' || l.text[i] == '\t'); i++)
			;
		if (more && l.type == GEMTEXT_TEXT && i < l.textlen) {
			if (b.len > 0 && b.len < 4 * max)
				buf_addc(&b, ' ');
			/* Valid UTF-8, as cmark makes Markdown's. */
			for (; i < l.textlen && b.len < 4 * max; i += n) {
				n = utf8_decode_lossy(l.text + i,
				    l.textlen - i, &c);
				utf8_add(&b, c == 0 ? 0xFFFD : c);
			}
			continue;
		}
		if (b.len == 0)
			continue;
		text = render_clean_label(b.data, b.len);
		if (!has_word(text)) {
			free(text);
			text = NULL;
		}
		buf_truncate(&b, 0);
	} while (text == NULL && more);
	buf_free(&b);
	return text != NULL ? cut(text, max) : NULL;
}
