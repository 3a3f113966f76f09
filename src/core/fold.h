/*
 * fold.h -- Latin letters folded to ASCII: the one table slugs and
 * search share.
 *
 * Knows code points, nothing of where the text comes from or what the
 * folded form is for: archive.c builds slugs from it, search.c its
 * tokens, so "Café" is /cafe and a search for "cafe" finds it.
 */
#ifndef CAPSULED_FOLD_H
#define CAPSULED_FOLD_H

#include <stdint.h>

/*
 * The ASCII form of a Latin-1 Supplement or Latin Extended-A letter
 * (U+00C0..U+017F), lower case: "e" for U+00C9 and U+00E9, "ss" for
 * U+00DF, "ae" for U+00C6, "th" for U+00FE.  NULL for every other code
 * point, U+00D7 and U+00F7 (multiplication and division signs)
 * included.  The string is static.
 */
const char	*fold_latin(uint32_t cp);

#endif
