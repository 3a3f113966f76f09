/*
 * html_elem.c -- what each HTML element is to the tree builder: one
 * table, sorted by name, from an element to its kind (enum el,
 * html_int.h), found with bsearch().
 *
 * An element of no known kind with a name, title or label attribute is
 * EL_LABEL ("Ana: "); a custom element (<x-conv>) a line of its own.
 * Knows element names; nothing of cmark nodes.  Nothing allocates.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "markdown/html_int.h"
#include "markdown/html_lex.h"

/* Sorted by name, for bsearch(). */
static const struct element {
	const char	*name;
	unsigned char	 kind;
} elements[] = {
	{ "a", EL_A }, { "abbr", EL_INLINE }, { "address", EL_LINE },
	{ "area", EL_IGNORE }, { "article", EL_LINE }, { "aside", EL_LINE },
	{ "audio", EL_FALLBACK }, { "b", EL_INLINE }, { "base", EL_IGNORE },
	{ "bdi", EL_INLINE }, { "bdo", EL_INLINE }, { "big", EL_INLINE },
	{ "blockquote", EL_QUOTE }, { "body", EL_LINE }, { "br", EL_BR },
	{ "button", EL_INLINE }, { "canvas", EL_INLINE },
	{ "caption", EL_CAPTION }, { "center", EL_LINE },
	{ "cite", EL_INLINE }, { "code", EL_CODE }, { "col", EL_IGNORE },
	{ "colgroup", EL_SKIP }, { "data", EL_INLINE },
	{ "datalist", EL_SKIP }, { "dd", EL_LINE }, { "del", EL_INLINE },
	{ "details", EL_LINE }, { "dfn", EL_INLINE }, { "dialog", EL_LINE },
	{ "dir", EL_LIST }, { "div", EL_LINE }, { "dl", EL_LINE },
	{ "dt", EL_LINE }, { "em", EL_INLINE }, { "embed", EL_EMBED },
	{ "fieldset", EL_LINE }, { "figcaption", EL_FIGCAPTION },
	{ "figure", EL_PARA }, { "font", EL_INLINE }, { "footer", EL_LINE },
	{ "form", EL_LINE }, { "h1", EL_HEADING }, { "h2", EL_HEADING },
	{ "h3", EL_HEADING }, { "h4", EL_HEADING }, { "h5", EL_HEADING },
	{ "h6", EL_HEADING }, { "head", EL_SKIP }, { "header", EL_LINE },
	{ "hgroup", EL_LINE }, { "hr", EL_HR }, { "html", EL_LINE },
	{ "i", EL_INLINE }, { "iframe", EL_IFRAME }, { "img", EL_IMG },
	{ "input", EL_IGNORE }, { "ins", EL_INLINE }, { "kbd", EL_CODE },
	{ "label", EL_INLINE }, { "legend", EL_LINE }, { "li", EL_ITEM },
	{ "link", EL_IGNORE }, { "listing", EL_PRE }, { "main", EL_LINE },
	{ "mark", EL_INLINE }, { "math", EL_SKIP }, { "menu", EL_LIST },
	{ "meta", EL_IGNORE }, { "meter", EL_INLINE }, { "nav", EL_LINE },
	{ "nobr", EL_INLINE }, { "noembed", EL_SKIP },
	{ "noframes", EL_SKIP }, { "noscript", EL_INLINE },
	{ "object", EL_FALLBACK }, { "ol", EL_LIST },
	{ "output", EL_INLINE }, { "p", EL_PARA }, { "param", EL_IGNORE },
	{ "picture", EL_FALLBACK }, { "plaintext", EL_PRE },
	{ "pre", EL_PRE }, { "progress", EL_INLINE }, { "q", EL_Q },
	{ "rp", EL_INLINE }, { "rt", EL_INLINE }, { "ruby", EL_INLINE },
	{ "s", EL_INLINE }, { "samp", EL_CODE }, { "script", EL_SKIP },
	{ "search", EL_LINE }, { "section", EL_LINE }, { "select", EL_SKIP },
	{ "slot", EL_INLINE }, { "small", EL_INLINE },
	{ "source", EL_SOURCE }, { "span", EL_INLINE },
	{ "strike", EL_INLINE }, { "strong", EL_INLINE },
	{ "style", EL_SKIP }, { "sub", EL_INLINE }, { "summary", EL_PARA },
	{ "sup", EL_INLINE }, { "svg", EL_SKIP }, { "table", EL_TABLE },
	{ "tbody", EL_TSECTION }, { "td", EL_CELL },
	{ "template", EL_SKIP }, { "textarea", EL_SKIP },
	{ "tfoot", EL_TSECTION }, { "th", EL_CELL },
	{ "thead", EL_TSECTION }, { "time", EL_INLINE }, { "title", EL_SKIP },
	{ "tr", EL_ROW }, { "track", EL_IGNORE }, { "tt", EL_CODE },
	{ "u", EL_INLINE }, { "ul", EL_LIST }, { "var", EL_INLINE },
	{ "video", EL_FALLBACK }, { "wbr", EL_IGNORE }, { "xmp", EL_PRE },
};

static int
cmp_element(const void *k, const void *e)
{
	return strcmp(k, ((const struct element *)e)->name);
}

/*
 * The kind of the tag just read; for an element of no known kind with
 * a name, title or label attribute, *label gets it (EL_LABEL).
 */
enum el
html_element_kind(const struct html_lexer *lx, const char **label)
{
	const struct element	*e;
	static const char *const attrs[] = { "name", "title", "label" };
	size_t			 i;

	*label = NULL;
	e = bsearch(lx->name, elements, nitems(elements), sizeof(*e),
	    cmp_element);
	if (e != NULL)
		return (enum el)e->kind;
	for (i = 0; i < nitems(attrs); i++)
		if ((*label = html_lex_attr(lx, attrs[i])) != NULL &&
		    **label != '\0')
			return EL_LABEL;
	*label = NULL;
	/* A custom element (<x-conv>) is most often a block of its own. */
	return strchr(lx->name, '-') != NULL ? EL_LINE : EL_INLINE;
}

int
html_known_element(const char *name)
{
	return bsearch(name, elements, nitems(elements),
	    sizeof(elements[0]), cmp_element) != NULL;
}
