/*
 * html_text.c -- HTML that cmark left as text, found before the tree
 * builder runs (html_read(), html.c).
 *
 * A start tag that is not quite HTML (a quote inside a quoted value, a
 * quote never closed) is text to cmark, and its autolink extension may
 * even have made a LINK of the URL in it.  For the elements that name a
 * URL, which a reader would otherwise lose, the tag is cut out of the
 * text node into an HTML_INLINE node of its own, for html_read() to
 * read like any other.  Knows cmark-gfm's nodes; changes only the text
 * nodes it is given and their next siblings.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/util.h"
#include "markdown/html_int.h"
#include "markdown/html_lex.h"


/*
 * Elements whose start tag cmark leaves as text when the writer's HTML
 * is not quite HTML (a quote inside a quoted value, a quote never
 * closed): those that name a URL, which a reader would otherwise lose.
 */
static const char *const url_elements[] = {
	"a", "audio", "embed", "iframe", "img", "object", "source", "video",
};

/*
 * The length of the start tag at s[0] == '<', read leniently: a value's
 * quote closes only before a blank, '/' or '>', so a quote inside it
 * does not; a quote never closed ends at the first '>' after it (*open
 * is then that quote, for the caller to close).  0 when no '>' ends it.
 */
static size_t
lenient_tag(const char *s, size_t len, char *open)
{
	size_t	 i, gt = 0;
	char	 q = 0;

	*open = 0;
	for (i = 1; i < len; i++) {
		if (q != 0) {
			if (s[i] == q && (i + 1 == len ||
			    html_space(s[i + 1]) || s[i + 1] == '/' ||
			    s[i + 1] == '>'))
				q = 0;
			else if (s[i] == '>' && gt == 0)
				gt = i;
		} else if ((s[i] == '"' || s[i] == '\'') && s[i - 1] == '=') {
			q = s[i];
			gt = 0;
		} else if (s[i] == '>')
			return i + 1;
	}
	if (q != 0 && gt != 0) {
		*open = q;
		return gt + 1;
	}
	return 0;
}

/*
 * The first start tag of a URL element in the text node n ("see <img
 * src=..." that cmark did not take for HTML): it becomes an HTML_INLINE
 * node after n (returned), and the text after it a text node after
 * that.  n keeps the text before it.  NULL, and nothing changed, when n
 * holds no such tag.
 */
cmark_node *
html_text_tag(cmark_node *n, cmark_mem *mem)
{
	struct buf	 tag = BUF_INIT;
	cmark_node	*h, *rest;
	const char	*lit = cmark_node_get_literal(n), *lt;
	char		*before;
	size_t		 len, i, k, end = 0;
	char		 open;

	if (lit == NULL)
		return NULL;
	len = strlen(lit);
	for (lt = lit; (lt = memchr(lt, '<', len - (size_t)(lt - lit))) !=
	    NULL; lt++) {
		for (k = 1; isalpha((unsigned char)lt[k]); k++)
			;
		if (!html_space(lt[k]))
			continue;
		for (i = 0; i < nitems(url_elements); i++)
			if (strlen(url_elements[i]) == k - 1 &&
			    strncasecmp(lt + 1, url_elements[i], k - 1) == 0)
				break;
		if (i < nitems(url_elements) && (end = lenient_tag(lt,
		    len - (size_t)(lt - lit), &open)) != 0)
			break;
	}
	if (lt == NULL)
		return NULL;
	buf_add(&tag, lt, end - (open != 0));
	if (open != 0) {		/* "<a href=\"x>": close the quote */
		buf_addc(&tag, open);
		buf_addc(&tag, '>');
	}
	buf_add(&tag, "", 0);
	h = cmark_node_new_with_mem(CMARK_NODE_HTML_INLINE, mem);
	cmark_node_set_literal(h, tag.data);
	buf_free(&tag);
	if (lt[end] != '\0') {
		rest = cmark_node_new_with_mem(CMARK_NODE_TEXT, mem);
		cmark_node_set_literal(rest, lt + end);
		cmark_node_insert_after(n, rest);
	}
	cmark_node_insert_after(n, h);
	before = xstrndup(lit, (size_t)(lt - lit));
	cmark_node_set_literal(n, before);	/* copies: lit is gone */
	free(before);
	return h;
}

/*
 * "<a href=\"https://x.org/p>The page</a>": a quote never closed, and
 * cmark's autolink extension took "https://x.org/p>The" for a link of
 * its own before html_text_tag() could see the tag: text "... <a href=\"",
 * LINK, text " page".  Join them back into the text node n, so that
 * html_text_tag() reads the tag and the words stay the link's.  1 when it
 * did (the LINK and the text after it are gone).
 */
int
html_join_autolink(cmark_node *n)
{
	struct buf	 b = BUF_INIT;
	cmark_node	*link = cmark_node_next(n), *t, *after;
	const char	*lit = cmark_node_get_literal(n), *lt, *url, *text;
	size_t		 len, k, i, tl, ul;

	if (lit == NULL || link == NULL ||
	    cmark_node_get_type(link) != CMARK_NODE_LINK ||
	    (len = strlen(lit)) < 2 || (lit[len - 1] != '"' &&
	    lit[len - 1] != '\'') || lit[len - 2] != '=' ||
	    (lt = strrchr(lit, '<')) == NULL || strchr(lt, '>') != NULL)
		return 0;
	for (k = 1; isalpha((unsigned char)lt[k]); k++)
		;
	if (!html_space(lt[k]))
		return 0;
	for (i = 0; i < nitems(url_elements); i++)
		if (strlen(url_elements[i]) == k - 1 &&
		    strncasecmp(lt + 1, url_elements[i], k - 1) == 0)
			break;
	/* An autolink: one text child, the end of its URL. */
	if (i == nitems(url_elements) || (t = cmark_node_first_child(link)) ==
	    NULL || cmark_node_next(t) != NULL ||
	    cmark_node_get_type(t) != CMARK_NODE_TEXT ||
	    (text = cmark_node_get_literal(t)) == NULL ||
	    (url = cmark_node_get_url(link)) == NULL ||
	    (tl = strlen(text)) == 0 || (ul = strlen(url)) < tl ||
	    strcmp(url + ul - tl, text) != 0)
		return 0;
	buf_add(&b, lit, len);
	buf_add(&b, text, tl);
	after = cmark_node_next(link);
	if (after != NULL && cmark_node_get_type(after) == CMARK_NODE_TEXT &&
	    (text = cmark_node_get_literal(after)) != NULL)
		buf_addstr(&b, text);
	else
		after = NULL;
	buf_add(&b, "", 0);
	cmark_node_set_literal(n, b.data);
	buf_free(&b);
	cmark_node_free(link);		/* unlinks it */
	if (after != NULL)
		cmark_node_free(after);
	return 1;
}

