/*
 * fold.c -- Latin letters folded to ASCII.
 *
 * One table, indexed by code point from U+00C0: a letter's base letter
 * with its accents dropped, ligatures and the letters English lacks
 * spelled out (ae, oe, ij, ss, th, ng).  Knows nothing but code points.
 */
#include <stddef.h>
#include <stdint.h>

#include "core/fold.h"

#define FOLD_FIRST	0xC0
#define FOLD_LAST	0x17F

static const char *const latin[FOLD_LAST - FOLD_FIRST + 1] = {
	/* U+00C0 */ "a", "a", "a", "a", "a", "a", "ae", "c",
	/* U+00C8 */ "e", "e", "e", "e", "i", "i", "i", "i",
	/* U+00D0 */ "d", "n", "o", "o", "o", "o", "o", NULL,
	/* U+00D8 */ "o", "u", "u", "u", "u", "y", "th", "ss",
	/* U+00E0 */ "a", "a", "a", "a", "a", "a", "ae", "c",
	/* U+00E8 */ "e", "e", "e", "e", "i", "i", "i", "i",
	/* U+00F0 */ "d", "n", "o", "o", "o", "o", "o", NULL,
	/* U+00F8 */ "o", "u", "u", "u", "u", "y", "th", "y",
	/* U+0100 */ "a", "a", "a", "a", "a", "a", "c", "c",
	/* U+0108 */ "c", "c", "c", "c", "c", "c", "d", "d",
	/* U+0110 */ "d", "d", "e", "e", "e", "e", "e", "e",
	/* U+0118 */ "e", "e", "e", "e", "g", "g", "g", "g",
	/* U+0120 */ "g", "g", "g", "g", "h", "h", "h", "h",
	/* U+0128 */ "i", "i", "i", "i", "i", "i", "i", "i",
	/* U+0130 */ "i", "i", "ij", "ij", "j", "j", "k", "k",
	/* U+0138 */ "k", "l", "l", "l", "l", "l", "l", "l",
	/* U+0140 */ "l", "l", "l", "n", "n", "n", "n", "n",
	/* U+0148 */ "n", "n", "ng", "ng", "o", "o", "o", "o",
	/* U+0150 */ "o", "o", "oe", "oe", "r", "r", "r", "r",
	/* U+0158 */ "r", "r", "s", "s", "s", "s", "s", "s",
	/* U+0160 */ "s", "s", "t", "t", "t", "t", "t", "t",
	/* U+0168 */ "u", "u", "u", "u", "u", "u", "u", "u",
	/* U+0170 */ "u", "u", "u", "u", "w", "w", "y", "y",
	/* U+0178 */ "y", "z", "z", "z", "z", "z", "z", "s",
};

const char *
fold_latin(uint32_t cp)
{
	if (cp < FOLD_FIRST || cp > FOLD_LAST)
		return NULL;
	return latin[cp - FOLD_FIRST];
}
