/*
 * htmlbody.h -- the body of a post written in HTML (Hugo's and
 * blogdown's content files with front matter) made Markdown that
 * cmark reads as one HTML block, so that the HTML reader (html.h) reads
 * all of it for what it means, as it reads raw HTML in any post.
 *
 * cmark ends an HTML block at a blank line, and what follows one may be
 * a paragraph or an indented code block of Markdown: a page of HTML is
 * neither.  So the body opens a block cmark cannot end but at a blank
 * line ("<div>" before the first line), and every blank line becomes a
 * line that means nothing to the HTML reader: an empty comment ("."
 * inside a comment, where the text is dropped anyway).  Line numbers
 * stay.  Pure, linear; knows CommonMark's HTML blocks, nothing of posts
 * or files.
 */
#ifndef CAPSULED_HTMLBODY_H
#define CAPSULED_HTMLBODY_H

#include <stddef.h>

#include "core/buf.h"

/* The Markdown of the HTML body src[0..len), appended to out. */
void	 htmlbody_markdown(const char *src, size_t len, struct buf *out);

#endif
