/*
 * escape.h -- text made safe for HTML and XML: the one escaper family.
 *
 * Both variants escape the same four characters, & < > and ", so what
 * they write is safe as element text and inside a double-quoted
 * attribute alike (cmark's houdini_escape_html0() without its "secure"
 * mode).  escape_xml() also repairs what XML 1.0 cannot carry.  Knows
 * nothing of documents: callers write the markup around the text.
 * Output is appended to a caller's struct buf; nothing else is owned.
 */
#ifndef CAPSULED_ESCAPE_H
#define CAPSULED_ESCAPE_H

#include <stddef.h>

struct buf;

/* s[0..len) as HTML text or attribute value: & < > " as entities. */
void	 escape_html(struct buf *out, const char *s, size_t len);

/*
 * s[0..len) as XML character data, also safe inside a double-quoted
 * attribute: escaped as escape_html() does.  XML 1.0 Char excludes C0
 * controls but TAB/LF/CR, and U+FFFE/U+FFFF: those are dropped; a byte
 * that starts no valid UTF-8 sequence becomes U+FFFD.
 */
void	 escape_xml(struct buf *out, const char *s, size_t len);

#endif
