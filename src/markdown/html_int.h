/*
 * html_int.h -- what the files of the HTML tree builder share: html.c
 * (the builder), html_elem.c (what each element is) and html_text.c
 * (HTML cmark left as text).  Not for other modules, which use html.h.
 *
 * Included only by: html.c, html_elem.c, html_text.c
 */
#ifndef CAPSULED_HTML_INT_H
#define CAPSULED_HTML_INT_H

#include <cmark-gfm.h>

struct html_lexer;

/* What an element does in the tree builder. */
enum el {
	EL_INLINE,	/* its text flows: span, em, b */
	EL_LINE,	/* it starts and ends a line: div, section */
	EL_PARA,	/* a paragraph of its own: p, summary, figure */
	EL_SKIP,	/* none of it is read: script, style, svg */
	EL_FALLBACK,	/* only the media in it: video, audio, object */
	EL_IGNORE,	/* a void element that shows nothing: input */
	EL_A,
	EL_IMG,
	EL_IFRAME,
	EL_EMBED,
	EL_SOURCE,
	EL_BR,
	EL_HR,
	EL_HEADING,
	EL_QUOTE,
	EL_LIST,
	EL_ITEM,
	EL_PRE,
	EL_CODE,
	EL_Q,
	EL_TABLE,
	EL_TSECTION,	/* thead, tbody, tfoot */
	EL_ROW,
	EL_CELL,
	EL_CAPTION,
	EL_FIGCAPTION,
	EL_LABEL,	/* unknown, with a name: "Ana: " */
};

/*
 * The kind of the tag just read; for an element of no known kind with
 * a name, title or label attribute, *label gets it (EL_LABEL).
 */
enum el		 html_element_kind(const struct html_lexer *,
		    const char **label);
/* Is name an element of the table (not a custom one)? */
int		 html_known_element(const char *name);

/*
 * The first start tag of a URL element in the text node n ("see <img
 * src=..." that cmark did not take for HTML): it becomes an HTML_INLINE
 * node after n (returned), and the text after it a text node after
 * that.  n keeps the text before it.  NULL, and nothing changed, when n
 * holds no such tag.
 */
cmark_node	*html_text_tag(cmark_node *n, cmark_mem *mem);
/*
 * A URL element's tag whose quote was never closed, which cmark's
 * autolink extension cut short with a LINK of its own: joined back into
 * the text node n, for html_text_tag().  1 when it did (the LINK and
 * the text after it are gone).
 */
int		 html_join_autolink(cmark_node *n);

#endif
