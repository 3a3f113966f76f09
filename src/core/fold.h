/*
 * fold.h -- text folded to ASCII: the one Latin table slugs, search and
 * ASCII Gopher share.
 *
 * Knows code points, nothing of where the text comes from or what the
 * folded form is for: content/slug.c builds slugs from fold_latin(),
 * search.c its tokens, so "Café" is /cafe and a search for "cafe" finds
 * it; the Gopher emitters spell whole texts with fold_ascii() when
 * gopher_charset is ascii (docs/operating.md, "Gopher+, caps.txt and the
 * Gopher charset").
 */
#ifndef CAPSULED_FOLD_H
#define CAPSULED_FOLD_H

#include <stddef.h>
#include <stdint.h>

struct buf;

/*
 * The ASCII form of a Latin-1 Supplement or Latin Extended-A letter
 * (U+00C0..U+017F), lower case: "e" for U+00C9 and U+00E9, "ss" for
 * U+00DF, "ae" for U+00C6, "th" for U+00FE.  NULL for every other code
 * point, U+00D7 and U+00F7 (multiplication and division signs)
 * included.  The string is static.
 */
const char	*fold_latin(uint32_t cp);

/*
 * The ASCII spelling of cp, for a reader whose terminal shows nothing
 * else.  Latin letters lose their accents by fold_latin() and keep their
 * case: "E" for U+00C9, "e" for U+00E9, "ss" for U+00DF, "AE" for
 * U+00C6; typographic punctuation, spaces, arrows and box drawing become
 * look-alikes: "--" for U+2014, "..." for U+2026, "'" for U+2019, "->"
 * for U+2192, "-" for U+00B7 and U+2500, "|" for U+2502; "" for an
 * invisible one (soft hyphen, zero-width space, byte order mark); cp
 * itself below U+0080 ("" for NUL); "?" for any other code point,
 * UTF8_INVALID included.  The string is static.
 */
const char	*fold_ascii(uint32_t cp);

/* Append s[0..len) spelled by fold_ascii(); a byte not UTF-8 is "?". */
void		 fold_ascii_add(struct buf *out, const char *s, size_t len);

/* s spelled by fold_ascii(), malloc'd (never NULL; NULL s gives ""). */
char		*fold_ascii_str(const char *s);

#endif
