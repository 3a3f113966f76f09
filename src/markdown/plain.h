/*
 * plain.h -- Markdown to plain text, for the search index.
 *
 * Knows the Markdown markers a reader does not read; nothing of posts.
 */
#ifndef CAPSULED_PLAIN_H
#define CAPSULED_PLAIN_H

#include <stddef.h>

struct buf;

/*
 * The text of Markdown md[0..len) without its obvious punctuation:
 * heading, quote, list and table markers, emphasis, code fences, link
 * targets, HTML tags and reference definitions; whitespace collapsed to
 * single spaces.  Appended to out; never longer than md.
 */
void	 plain_markdown(const char *md, size_t len, struct buf *out);

#endif
