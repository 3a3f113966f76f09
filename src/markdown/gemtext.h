/*
 * gemtext.h -- the lines of a gemtext document (the Gemini
 * specification, "text/gemini"), for posts a writer kept in gemtext.
 *
 * A gemtext post is read line by line: each line is of one type, known
 * from its first bytes, and a "```" line toggles preformatted mode, in
 * which every line is text as is.  gemtext_next() hands out the lines
 * with their parts (a link's URL and label, a heading's text) as spans
 * of the source; the renderers (render.h) and the archive build on it.
 * Knows the gemtext line syntax; nothing of posts, Markdown or
 * protocols.  Nothing here allocates but gemtext_title(),
 * gemtext_plain() and gemtext_links().
 */
#ifndef CAPSULED_GEMTEXT_H
#define CAPSULED_GEMTEXT_H

#include <stddef.h>

#include "core/buf.h"

struct scan_link;

enum gemtext_type {
	GEMTEXT_TEXT,		/* text: the whole line */
	GEMTEXT_LINK,		/* "=>" URL [label] */
	GEMTEXT_HEADING,	/* "#", "##", "###" */
	GEMTEXT_ITEM,		/* "* " */
	GEMTEXT_QUOTE,		/* ">" */
	GEMTEXT_PRE_TOGGLE,	/* "```": text is the alt text */
	GEMTEXT_PRE,		/* a line inside a preformatted block */
};

struct gemtext_line {
	enum gemtext_type type;
	const char	*line;		/* the whole line, without CR/LF */
	size_t		 linelen;
	unsigned	 lineno;	/* 1-based, from the iterator's start */
	int		 level;		/* HEADING: 1..3 */
	const char	*url;		/* LINK; else NULL */
	size_t		 urllen;
	const char	*text;		/* the line's text: a link's label
					   (may be empty), a heading's, an
					   item's, a quote's, the alt text;
					   blanks around it trimmed but for
					   TEXT and PRE */
	size_t		 textlen;
};

struct gemtext_iter {
	const char	*p, *end;
	unsigned	 lineno;
	int		 pre;		/* inside a preformatted block */
};

void	 gemtext_iter_init(struct gemtext_iter *, const char *src,
	    size_t len, unsigned line0);
/* The next line into *l; 0 at the end. */
int	 gemtext_next(struct gemtext_iter *, struct gemtext_line *l);

/*
 * The text of the first level-1 heading outside preformatted blocks,
 * malloc'd; NULL when there is none or it is empty.
 */
char	*gemtext_title(const char *src, size_t len);

/*
 * The link URLs of src[0..len), whose first line is line line0 of its
 * file, that may name another post: the same choice as scan_links()
 * (scan.h) makes for Markdown -- relative links to .md and .gmi files,
 * "/posts/..." paths and absolute URLs.  Freed with scan_links_free().
 */
struct scan_link *gemtext_links(const char *src, size_t len,
		    unsigned line0, size_t *np);

/*
 * The words a reader sees, for search: text, headings, items, quotes
 * and link labels, one space between lines; preformatted text too.
 * Appended to out.
 */
void	 gemtext_plain(const char *src, size_t len, struct buf *out);

#endif
