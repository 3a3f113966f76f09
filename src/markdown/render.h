/*
 * render.h -- Markdown (cmark-gfm) to gemtext, to Gopher text and to
 * HTML.
 *
 * The same shape as cmark's own renderers (render.c): an output engine
 * with cr/blankline/out and a line prefix, driven by a loop over
 * cmark_iter events that calls one node callback per format.  Renderers
 * return bytes in a struct buf and do no I/O.  The cmark tree is made
 * and freed inside each call; nothing of it outlives the call.
 */
#ifndef CAPSULED_RENDER_H
#define CAPSULED_RENDER_H

#include <stddef.h>

#include "core/buf.h"

/*
 * Link rewriting hook: given a link destination as written in the
 * Markdown, return a malloc'd replacement (e.g. "/posts/slug" for
 * "other-post.md"), or NULL to keep it as written.
 */
typedef char	*(*render_link_fn)(void *ctx, const char *url);

/*
 * Reference hook (Gopher): link number num of the text, its URL as the
 * reference list gives it (rewritten, made absolute, percent-encoded)
 * and its label as plain text (an image's file name when it has no alt
 * text).  The strings are the renderer's, valid during the call.
 */
typedef void	 (*render_ref_fn)(void *ctx, unsigned num, const char *url,
		    const char *label);

struct render_opts {
	render_link_fn	 rewrite;	/* may be NULL */
	void		*rewrite_ctx;
	unsigned	 width;		/* Gopher text wrap; 0 = 70 */
	/*
	 * Gopher only: how to turn a site path ("/posts/x") into an
	 * absolute URL for the reference list.  NULL = leave as is.
	 */
	render_link_fn	 absolute;
	void		*absolute_ctx;
	/*
	 * Gopher only: the page's own path as a Gemini client asks for it
	 * ("/posts/x"), borrowed.  A relative link the rewrite left ("./",
	 * "../", "img/a.png") is resolved against it as that client would,
	 * since Gopher has no relative references; with no base it is
	 * text.  A selector never holds a dot segment.
	 */
	const char	*base;
	/*
	 * Gopher only: spell the text in ASCII (core/fold.h); lines
	 * are wrapped at the width the spelling takes.  (The URLs of the
	 * reference list are always percent-encoded ASCII.)
	 */
	int		 ascii;
	/*
	 * Gopher only: when set, each reference is handed to ref() instead
	 * of being listed under "References" (the caller makes them menu
	 * items); the numbers in the text stay.
	 */
	render_ref_fn	 ref;
	void		*ref_ctx;
};

/*
 * Append the gemtext for md[0..len) to out.  Invalid UTF-8 is replaced
 * (CMARK_OPT_VALIDATE_UTF8).  Always succeeds; the result ends with a
 * newline unless it is empty.
 */
void	 render_gemtext(const char *md, size_t len,
	    const struct render_opts *, struct buf *out);

/* The same for Gopher text (type 0), wrapped at opts->width. */
void	 render_gopher(const char *md, size_t len,
	    const struct render_opts *, struct buf *out);

/*
 * A post written in gemtext (gemtext.h): to gemtext as written but for
 * its "=>" URLs, which go through opts->rewrite; and to Gopher text as
 * render_gopher() makes of Markdown, its links gathered the same way.
 * Invalid UTF-8 is replaced in both.
 */
void	 render_gemtext_gmi(const char *gmi, size_t len,
	    const struct render_opts *, struct buf *out);
void	 render_gopher_gmi(const char *gmi, size_t len,
	    const struct render_opts *, struct buf *out);

/*
 * The body of an HTML5 page for md[0..len) (render_html.c): cmark-gfm's
 * HTML of the tree the other renderers walk, its link and image URLs
 * through opts->rewrite (the only option read); no raw HTML reaches it.
 * Valid UTF-8.  render_html_gmi() does the same for a gemtext post, line
 * by line.  Appended to out.
 */
void	 render_html(const char *md, size_t len,
	    const struct render_opts *, struct buf *out);
void	 render_html_gmi(const char *gmi, size_t len,
	    const struct render_opts *, struct buf *out);

/*
 * The text of the first level-1 heading of md, as plain text (markup
 * dropped, entities decoded), malloc'd; NULL when there is none.
 */
char	*render_first_heading(const char *md, size_t len);

/*
 * A summary of md for feeds and lists (summary.c): the plain text of
 * its first paragraph with words in it -- no markup, entities decoded,
 * links by their text, images left out -- cut at a word to at most max
 * code points, ending in "…" when cut.  malloc'd; NULL when md has no
 * such paragraph.
 */
char	*render_summary(const char *md, size_t len, size_t max);
/* The same for a post kept in gemtext: its first text lines with words. */
char	*render_gemtext_summary(const char *gmi, size_t len, size_t max);
/*
 * Where the writer ended md's summary: the offset of the first summary
 * separator outside code, sep (Jekyll's excerpt_separator, as written;
 * may be NULL), "<!--more-->" (Hugo, Hexo) or "<!--truncate-->"
 * (Docusaurus), the last two in any case and spacing; its length in
 * *seplen.  -1 when md has none.
 */
long	 render_summary_sep(const char *md, size_t len, const char *sep,
	    size_t *seplen);
/*
 * The summary a separator ends: the plain text of every paragraph of
 * md[0..len) (what is before it), joined by a space, cut at a word to
 * max code points as render_summary() cuts.  malloc'd; NULL for none.
 */
char	*render_summary_head(const char *md, size_t len, size_t max);

/*
 * What md's raw HTML becomes, element by element, where it does not
 * reach a reader as written (html.h, struct html_note): md is read as
 * the renderers read it.  For capsuled --check --report: the serving
 * path never asks.  *notes is set (html_notes_free()).
 */
struct html_notes;
void	 render_html_notes(const char *md, size_t len,
	    struct html_notes *notes);

#endif
