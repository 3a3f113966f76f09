/*
 * escape.c -- the HTML/XML escaper family (escape.h).
 *
 * cmark keeps this rule in its houdini module (houdini_html_e.c), but
 * libcmark-gfm does not export houdini, so it is written here, once,
 * for the Gopher link page, Atom feeds and the HTML that template.c
 * writes.  Pure: appends to the caller's buffer.
 */
#include <stdint.h>

#include "core/buf.h"
#include "core/escape.h"
#include "core/utf8.h"

/* The entity for c, or NULL when c goes out as it is. */
static const char *
entity(unsigned char c)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	default:
		return NULL;
	}
}

void
escape_html(struct buf *out, const char *s, size_t len)
{
	const char	*e;
	size_t		 i, from = 0;

	/* Runs without an escape go out in one buf_add(). */
	for (i = 0; i < len; i++) {
		if ((e = entity((unsigned char)s[i])) == NULL)
			continue;
		buf_add(out, s + from, i - from);
		buf_addstr(out, e);
		from = i + 1;
	}
	buf_add(out, s + from, len - from);
}

void
escape_xml(struct buf *out, const char *s, size_t len)
{
	const char	*e;
	uint32_t	 cp;
	size_t		 i, n;

	for (i = 0; i < len; i += n) {
		n = utf8_decode(s + i, len - i, &cp);
		if (cp == UTF8_INVALID)
			utf8_add(out, UTF8_REPLACEMENT);
		else if (cp == 0xFFFE || cp == 0xFFFF)
			;			/* not XML characters */
		else if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r')
			;			/* nor are C0 controls */
		else if ((e = entity((unsigned char)s[i])) != NULL)
			buf_addstr(out, e);
		else
			buf_add(out, s + i, n);
	}
}
