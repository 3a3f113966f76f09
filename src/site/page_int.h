/*
 * page_int.h -- what the emitters of the page model share: page.c (the
 * model, and the emitters of lines) and page_html.c (HTML's).  Not for
 * other modules, which use page.h.
 *
 * Included only by: page.c, page_html.c
 */
#ifndef CAPSULED_PAGE_INT_H
#define CAPSULED_PAGE_INT_H

#include "site/page.h"

/*
 * The marks of page.h (PAGE_DOT...) spelled for Gemini and HTML (gopher
 * 0: the Unicode characters) or Gopher (ASCII): *b, or tmp (its text in
 * *owned, to free) when its text has any.
 */
const struct block *page_spelled(const struct block *b, int gopher,
		    struct block *tmp, char **owned);

#endif
