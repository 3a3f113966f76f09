/*
 * utf8.h -- UTF-8: the one decoder, encoder and validator in the tree.
 *
 * Code points are uint32_t everywhere.  Decoding is strict (Unicode
 * Table 3-7): no overlong forms, no surrogates, nothing past U+10FFFF.
 * A byte that starts no well-formed sequence decodes as UTF8_INVALID
 * and is one byte long, so a loop over bad input always moves on.
 * Knows nothing but bytes; no allocation but through buf.h.
 */
#ifndef CAPSULED_UTF8_H
#define CAPSULED_UTF8_H

#include <stddef.h>
#include <stdint.h>

struct buf;

#define UTF8_INVALID	UINT32_MAX	/* what a bad byte decodes to */
#define UTF8_REPLACEMENT 0xFFFDu	/* U+FFFD REPLACEMENT CHARACTER */
#define UTF8_MAX	0x10FFFFu

/*
 * One code point at p (len > 0 bytes): returns its length (1 to 4) and
 * sets *cp, or returns 1 with *cp = UTF8_INVALID for a byte that starts
 * no well-formed sequence (a cut one included).
 */
size_t	 utf8_decode(const char *p, size_t len, uint32_t *cp);
/* The same, but a bad byte reads as U+FFFD: for output that must be
 * valid UTF-8 whatever came in. */
size_t	 utf8_decode_lossy(const char *p, size_t len, uint32_t *cp);
/*
 * cp encoded into out; returns its length, 1 to 4.  A surrogate, a
 * value past U+10FFFF or UTF8_INVALID is written as U+FFFD, so the
 * output is always well-formed.
 */
size_t	 utf8_encode(uint32_t cp, char out[4]);
/* Append cp encoded as utf8_encode() does. */
void	 utf8_add(struct buf *, uint32_t cp);
/* 1 when s[0..len) is well-formed UTF-8, else 0. */
int	 utf8_valid(const char *s, size_t len);
/*
 * s[0..len) appended to out with each control character a terminal
 * would act on (C0 but TAB, CR and LF; DEL; C1, U+0080..U+009F) made a
 * space: text that may be sent to a terminal as it is.
 */
void	 utf8_no_controls(const char *s, size_t len, struct buf *out);
/* Code points in s[0..len): the bytes that are not continuation bytes. */
size_t	 utf8_count(const char *s, size_t len);
/*
 * The 1-based line and column of byte off of s[0..len) (off past len
 * is len), for a message "file:line:col".  A line ends at LF, at CRLF
 * or at a lone CR, as CommonMark and YAML both say (TOML allows no lone
 * CR at all); a column counts code points, and the CR of a line break
 * counts as none.  The configuration, front matter in YAML or TOML and
 * template notes all place their messages so.
 */
void	 utf8_position(const char *s, size_t len, size_t off, unsigned *line,
	    unsigned *col);

#endif
