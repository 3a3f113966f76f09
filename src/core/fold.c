/*
 * fold.c -- text folded to ASCII.
 *
 * One table of letters, indexed by code point from U+00C0: a letter's
 * base letter with its accents dropped, ligatures and the letters
 * English lacks spelled out (ae, oe, ij, ss, th, ng).  fold_ascii()
 * takes its letters from there, upper-cased again where the letter was
 * a capital, so "Émile" reads "Emile" and not "emile"; everything else
 * that has a look-alike is in a second table sorted by code point: the
 * punctuation a Markdown writer types or cmark's smart quotes make, the
 * separators and arrows this server writes itself (nav.c's " · ", "←",
 * "→") and the box drawing of tables.  Knows nothing but code points.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/fold.h"
#include "core/utf8.h"

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

/* Every ASCII character as a string: lo + 2 * c. */
#define P(c)	(char)(c), 0
#define R4(c)	P(c), P((c) + 1), P((c) + 2), P((c) + 3)
#define R16(c)	R4(c), R4((c) + 4), R4((c) + 8), R4((c) + 12)
#define R64(c)	R16(c), R16((c) + 16), R16((c) + 32), R16((c) + 48)
static const char lo[256] = { R64(0), R64(64) };

struct spelling {
	uint32_t	 cp;
	const char	*ascii;
};

/* Sorted by code point (fold_ascii() searches it). */
static const struct spelling table[] = {
	{ 0x00A0, " " },	/* no-break space */
	{ 0x00A1, "!" },
	{ 0x00A2, "c" },
	{ 0x00A3, "GBP" },
	{ 0x00A5, "JPY" },
	{ 0x00A6, "|" },
	{ 0x00A7, "S" },
	{ 0x00A9, "(c)" },
	{ 0x00AB, "<<" },
	{ 0x00AC, "!" },
	{ 0x00AD, "" },		/* soft hyphen */
	{ 0x00AE, "(R)" },
	{ 0x00B0, "deg" },
	{ 0x00B1, "+/-" },
	{ 0x00B2, "2" },
	{ 0x00B3, "3" },
	{ 0x00B4, "'" },
	{ 0x00B5, "u" },
	{ 0x00B6, "P" },
	{ 0x00B7, "-" },	/* middle dot: nav.c's separator */
	{ 0x00B9, "1" },
	{ 0x00BB, ">>" },
	{ 0x00BC, "1/4" },
	{ 0x00BD, "1/2" },
	{ 0x00BE, "3/4" },
	{ 0x00BF, "?" },
	{ 0x00D7, "x" },
	{ 0x00F7, "/" },
	{ 0x2002, " " },	/* en space ... hair space */
	{ 0x2003, " " },
	{ 0x2004, " " },
	{ 0x2005, " " },
	{ 0x2006, " " },
	{ 0x2007, " " },
	{ 0x2008, " " },
	{ 0x2009, " " },
	{ 0x200A, " " },
	{ 0x200B, "" },		/* zero-width space ... joiner */
	{ 0x200C, "" },
	{ 0x200D, "" },
	{ 0x2010, "-" },	/* hyphen ... figure dash */
	{ 0x2011, "-" },
	{ 0x2012, "-" },
	{ 0x2013, "-" },	/* en dash */
	{ 0x2014, "--" },	/* em dash */
	{ 0x2015, "--" },
	{ 0x2018, "'" },	/* quotation marks */
	{ 0x2019, "'" },
	{ 0x201A, "'" },
	{ 0x201B, "'" },
	{ 0x201C, "\"" },
	{ 0x201D, "\"" },
	{ 0x201E, "\"" },
	{ 0x201F, "\"" },
	{ 0x2020, "+" },
	{ 0x2022, "*" },	/* bullet */
	{ 0x2026, "..." },	/* ellipsis */
	{ 0x202F, " " },	/* narrow no-break space */
	{ 0x2032, "'" },
	{ 0x2033, "\"" },
	{ 0x2039, "<" },
	{ 0x203A, ">" },
	{ 0x2044, "/" },
	{ 0x2060, "" },		/* word joiner */
	{ 0x20AC, "EUR" },
	{ 0x2122, "(TM)" },
	{ 0x2190, "<-" },	/* arrows */
	{ 0x2191, "^" },
	{ 0x2192, "->" },
	{ 0x2193, "v" },
	{ 0x2194, "<->" },
	{ 0x21D0, "<=" },
	{ 0x21D2, "=>" },
	{ 0x21D4, "<=>" },
	{ 0x2212, "-" },	/* minus */
	{ 0x2248, "~" },
	{ 0x2260, "!=" },
	{ 0x2264, "<=" },
	{ 0x2265, ">=" },
	{ 0x2500, "-" },	/* box drawing */
	{ 0x2502, "|" },
	{ 0x250C, "+" },
	{ 0x2510, "+" },
	{ 0x2514, "+" },
	{ 0x2518, "+" },
	{ 0x251C, "+" },
	{ 0x2524, "+" },
	{ 0x252C, "+" },
	{ 0x2534, "+" },
	{ 0x253C, "+" },
	{ 0x2550, "=" },
	{ 0x2551, "|" },
	{ 0x25CF, "*" },
	{ 0x2713, "v" },	/* check mark */
	{ 0x2717, "x" },
	{ 0xFEFF, "" },		/* byte order mark */
};

/* The capitals of the folds that are longer than one letter. */
static const struct {
	const char	*lower, *upper;
} capitals[] = {
	{ "ae", "AE" }, { "ij", "IJ" }, { "ng", "NG" }, { "oe", "OE" },
	{ "ss", "SS" }, { "th", "TH" },
};

/*
 * Is the Latin letter cp (U+00C0..U+017F) a capital?  Latin-1 has its
 * capitals below U+00DF; Extended-A pairs them, capital first, with
 * three runs where the pairs start one code point later.
 */
static int
capital(uint32_t cp)
{
	if (cp < 0x100)
		return cp < 0xDF && cp != 0xD7;
	if (cp == 0x138 || cp == 0x149 || cp == 0x17F)
		return 0;		/* kra, 'n, long s: no capitals */
	if (cp == 0x178)
		return 1;		/* Y with diaeresis */
	if ((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E))
		return cp % 2 == 1;
	return cp % 2 == 0;
}

static int
cmp(const void *key, const void *elem)
{
	uint32_t	 cp = *(const uint32_t *)key;
	uint32_t	 e = ((const struct spelling *)elem)->cp;

	return cp < e ? -1 : cp > e;
}

const char *
fold_ascii(uint32_t cp)
{
	const struct spelling	*s;
	const char		*f;
	size_t			 i;

	if (cp < 0x80)
		return lo + 2 * cp;
	if ((f = fold_latin(cp)) != NULL) {
		if (!capital(cp))
			return f;
		if (f[1] == '\0')
			return lo + 2 * (unsigned char)(f[0] - 'a' + 'A');
		for (i = 0; i < sizeof(capitals) / sizeof(capitals[0]); i++)
			if (strcmp(f, capitals[i].lower) == 0)
				return capitals[i].upper;
		return f;
	}
	s = bsearch(&cp, table, sizeof(table) / sizeof(table[0]),
	    sizeof(table[0]), cmp);
	return s != NULL ? s->ascii : "?";
}

void
fold_ascii_add(struct buf *out, const char *s, size_t len)
{
	size_t		 i, n;
	uint32_t	 cp;

	for (i = 0; i < len; i += n) {
		if ((unsigned char)s[i] < 0x80) {
			buf_addc(out, s[i]);
			n = 1;
			continue;
		}
		n = utf8_decode(s + i, len - i, &cp);
		buf_addstr(out, fold_ascii(cp));
	}
}

char *
fold_ascii_str(const char *s)
{
	struct buf	 b = BUF_INIT;

	buf_add(&b, "", 0);
	if (s != NULL)
		fold_ascii_add(&b, s, strlen(s));
	return buf_release(&b);
}
