/*
 * test_utf8.c -- utf8.c's decoder, encoder and validator, and fold.c's
 * Latin table.
 *
 * The decoder is checked against a second, naive one (decode bits,
 * then refuse overlong forms, surrogates and values past U+10FFFF) on
 * every sequence of one to three bytes and every four-byte sequence
 * with the last byte a continuation byte or not.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/fold.h"
#include "core/utf8.h"
#include "harness.h"

/* The naive decoder: the length of a well-formed sequence, or 0. */
static size_t
naive(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t		 n, i;
	uint32_t	 c, min;

	if (s[0] < 0x80)
		n = 1, c = s[0], min = 0;
	else if ((s[0] & 0xE0) == 0xC0)
		n = 2, c = s[0] & 0x1F, min = 0x80;
	else if ((s[0] & 0xF0) == 0xE0)
		n = 3, c = s[0] & 0x0F, min = 0x800;
	else if ((s[0] & 0xF8) == 0xF0)
		n = 4, c = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

/* utf8_decode() agrees with naive() on s[0..len); 1 when it does. */
static int
agrees(const unsigned char *s, size_t len)
{
	uint32_t	 a = 0, b = 0;
	size_t		 na, nb;

	na = utf8_decode((const char *)s, len, &a);
	nb = naive(s, len, &b);
	if (nb == 0)
		return na == 1 && a == UTF8_INVALID;
	return na == nb && a == b;
}

static void
test_decode_all(void)
{
	unsigned char	 s[4];
	unsigned	 i, j, k, l, bad = 0, n = 0;

	for (i = 0; i < 256; i++) {
		s[0] = (unsigned char)i;
		bad += !agrees(s, 1);
		n++;
		for (j = 0; j < 256; j++) {
			s[1] = (unsigned char)j;
			bad += !agrees(s, 2);
			n++;
			for (k = 0; k < 256; k++) {
				s[2] = (unsigned char)k;
				bad += !agrees(s, 3);
				n++;
				if (i < 0xF0 || i > 0xF7)
					continue;
				for (l = 0x70; l < 0xD0; l += 0x0F) {
					s[3] = (unsigned char)l;
					bad += !agrees(s, 4);
					n++;
				}
			}
		}
	}
	INT_EQ(bad, 0, "sequences where utf8_decode and the naive one differ");
	OK(n > 16000000, "%u sequences checked", n);
}

static void
test_decode(void)
{
	uint32_t	 cp;

	INT_EQ(utf8_decode("A", 1, &cp), 1, "ASCII length");
	INT_EQ(cp, 'A', "ASCII");
	INT_EQ(utf8_decode("\0", 1, &cp), 1, "NUL length");
	INT_EQ(cp, 0, "NUL");
	INT_EQ(utf8_decode("\xC3\xA9x", 3, &cp), 2, "e-acute length");
	INT_EQ(cp, 0xE9, "e-acute");
	INT_EQ(utf8_decode("\xE2\x82\xAC", 3, &cp), 3, "euro length");
	INT_EQ(cp, 0x20AC, "euro");
	INT_EQ(utf8_decode("\xF0\x9F\x98\x80", 4, &cp), 4, "emoji length");
	INT_EQ(cp, 0x1F600, "emoji");
	INT_EQ(utf8_decode("\xE2\x82\xAC", 2, &cp), 1, "cut: one byte");
	INT_EQ(cp, UTF8_INVALID, "cut: invalid");
	INT_EQ(utf8_decode("\xED\xA0\x80", 3, &cp), 1, "surrogate: one byte");
	INT_EQ(cp, UTF8_INVALID, "surrogate: invalid");
	INT_EQ(utf8_decode("\x80", 1, &cp), 1, "continuation: one byte");
	INT_EQ(cp, UTF8_INVALID, "continuation: invalid");
	INT_EQ(utf8_decode_lossy("\x80", 1, &cp), 1, "lossy: one byte");
	INT_EQ(cp, UTF8_REPLACEMENT, "lossy: U+FFFD");
	INT_EQ(utf8_decode_lossy("\xC3\xA9", 2, &cp), 2, "lossy: good");
	INT_EQ(cp, 0xE9, "lossy: e-acute");
}

static void
test_encode(void)
{
	struct buf	 b = BUF_INIT;
	char		 out[4];
	uint32_t	 cp, back;
	unsigned	 bad = 0;

	for (cp = 0; cp <= UTF8_MAX; cp++) {
		size_t	 n;

		if (cp == 0xD800)
			cp = 0xE000;
		n = utf8_encode(cp, out);
		if (utf8_decode(out, n, &back) != n || back != cp ||
		    !utf8_valid(out, n))
			bad++;
	}
	INT_EQ(bad, 0, "code points that do not come back");
	INT_EQ(utf8_encode(0xD800, out), 3, "surrogate: 3 bytes");
	OK(memcmp(out, "\xEF\xBF\xBD", 3) == 0, "surrogate as U+FFFD");
	INT_EQ(utf8_encode(0x110000, out), 3, "past U+10FFFF: 3 bytes");
	OK(memcmp(out, "\xEF\xBF\xBD", 3) == 0, "past U+10FFFF as U+FFFD");
	INT_EQ(utf8_encode(UTF8_INVALID, out), 3, "invalid: 3 bytes");
	OK(memcmp(out, "\xEF\xBF\xBD", 3) == 0, "invalid as U+FFFD");
	utf8_add(&b, 'a');
	utf8_add(&b, 0xE9);
	utf8_add(&b, 0x1F600);
	STR_EQ(b.data, "a\xC3\xA9\xF0\x9F\x98\x80", "utf8_add");
	buf_free(&b);
}

static void
test_count(void)
{
	INT_EQ(utf8_count("", 0), 0, "empty");
	INT_EQ(utf8_count("abc", 3), 3, "ASCII");
	INT_EQ(utf8_count("\xC3\xA9t\xC3\xA9", 5), 3, "ete");
	INT_EQ(utf8_count("\xF0\x9F\x98\x80", 4), 1, "emoji");
}

/* Text for a terminal: its controls spaces, the rest as it was. */
static void
test_no_controls(void)
{
	static const char in[] = "a\x1b[31mb\tc\r\nd\x7f\xC2\x9B"
	    "\xC3\xA9\xC2\xA0\x00" "e\xFF";
	struct buf	 b = BUF_INIT;

	utf8_no_controls(in, sizeof(in) - 1, &b);
	buf_addc(&b, '\0');
	/* ESC, DEL, C1 CSI (two bytes, one space) and NUL go; TAB, CRLF,
	 * e-acute, NBSP and a bad byte (no control) stay; the NUL counted. */
	OK(b.len == sizeof(in) - 1 && memcmp(b.data, "a [31mb\tc\r\nd  "
	    "\xC3\xA9\xC2\xA0 e\xFF", b.len) == 0, "controls made spaces");
	buf_free(&b);
}

/*
 * One rule for every "file:line:col" (utf8_position): LF, CRLF and a
 * lone CR end a line, the CR of a CRLF is no column, a column is a code
 * point.  toml.c counted only LF and counted the CR as a column.
 */
static void
test_position(void)
{
	const char	*s = "ab\ncd\r\nef\rg\xC3\xA9h";
	size_t		 len = strlen(s);
	unsigned	 line, col;

	utf8_position(s, len, 0, &line, &col);
	OK(line == 1 && col == 1, "start: %u:%u", line, col);
	utf8_position(s, len, 2, &line, &col);
	OK(line == 1 && col == 3, "at the LF: %u:%u", line, col);
	utf8_position(s, len, 3, &line, &col);
	OK(line == 2 && col == 1, "after LF: %u:%u", line, col);
	utf8_position(s, len, 6, &line, &col);
	OK(line == 2 && col == 3, "the CR of a CRLF is no column: %u:%u",
	    line, col);
	utf8_position(s, len, 7, &line, &col);
	OK(line == 3 && col == 1, "after CRLF: %u:%u", line, col);
	utf8_position(s, len, 10, &line, &col);
	OK(line == 4 && col == 1, "a lone CR ends a line: %u:%u", line,
	    col);
	utf8_position(s, len, 13, &line, &col);
	OK(line == 4 && col == 3, "e-acute is one column: %u:%u", line,
	    col);
	utf8_position(s, len, 1000, &line, &col);
	OK(line == 4 && col == 4, "past the end: the end: %u:%u", line,
	    col);
	utf8_position("a\r", 2, 2, &line, &col);
	OK(line == 2 && col == 1, "a CR at the very end: %u:%u", line, col);
	utf8_position("", 0, 0, &line, &col);
	OK(line == 1 && col == 1, "empty: %u:%u", line, col);
}

static void
test_valid(void)
{
	INT_EQ(utf8_valid("", 0), 1, "empty");
	INT_EQ(utf8_valid("abc", 3), 1, "ascii");
	INT_EQ(utf8_valid("a\0b", 3), 1, "NUL is ASCII");
	INT_EQ(utf8_valid("\xC2\x80", 2), 1, "U+0080");
	INT_EQ(utf8_valid("\xDF\xBF", 2), 1, "U+07FF");
	INT_EQ(utf8_valid("\xE0\xA0\x80", 3), 1, "U+0800");
	INT_EQ(utf8_valid("\xED\x9F\xBF", 3), 1, "U+D7FF");
	INT_EQ(utf8_valid("\xEE\x80\x80", 3), 1, "U+E000");
	INT_EQ(utf8_valid("\xEF\xBF\xBF", 3), 1, "U+FFFF");
	INT_EQ(utf8_valid("\xF0\x90\x80\x80", 4), 1, "U+10000");
	INT_EQ(utf8_valid("\xF4\x8F\xBF\xBF", 4), 1, "U+10FFFF");
	INT_EQ(utf8_valid("\x80", 1), 0, "lone continuation");
	INT_EQ(utf8_valid("\xDC", 1), 0, "lone lead 0xDC");
	INT_EQ(utf8_valid("\xC0\x80", 2), 0, "overlong NUL");
	INT_EQ(utf8_valid("\xC1\xBF", 2), 0, "overlong C1");
	INT_EQ(utf8_valid("\xE0\x9F\xBF", 3), 0, "overlong 3");
	INT_EQ(utf8_valid("\xF0\x8F\xBF\xBF", 4), 0, "overlong 4");
	INT_EQ(utf8_valid("\xED\xA0\x80", 3), 0, "high surrogate");
	INT_EQ(utf8_valid("\xED\xBF\xBF", 3), 0, "low surrogate");
	INT_EQ(utf8_valid("\xF4\x90\x80\x80", 4), 0, "U+110000");
	INT_EQ(utf8_valid("\xF5\x80\x80\x80", 4), 0, "F5");
	INT_EQ(utf8_valid("\xFF", 1), 0, "FF");
	INT_EQ(utf8_valid("\xE2\x82", 2), 0, "truncated 3");
	INT_EQ(utf8_valid("\xE2\x82\xAC", 2), 0, "cut by len");
	INT_EQ(utf8_valid("\xE2\x28\xAC", 3), 0, "bad continuation");
	INT_EQ(utf8_valid("\xC3\xA9\xC3", 3), 0, "trailing lead");
}

/*
 * ASCII is skipped 8 bytes at a time: a bad byte, a good sequence, or
 * the end of len at every offset from an 8-byte boundary must be seen.
 */
static void
test_valid_runs(void)
{
	char	 s[40], what[64];
	size_t	 at;

	for (at = 0; at < 24; at++) {
		memset(s, 'a', sizeof(s));
		s[at] = (char)0xFF;
		snprintf(what, sizeof(what), "0xFF at %zu of 40", at);
		INT_EQ(utf8_valid(s, sizeof(s)), 0, what);
		snprintf(what, sizeof(what), "0xFF just past len %zu", at);
		INT_EQ(utf8_valid(s, at), 1, what);
		memcpy(s + at, "\xE2\x82\xAC", 3);
		snprintf(what, sizeof(what), "euro sign at %zu", at);
		INT_EQ(utf8_valid(s, sizeof(s)), 1, what);
		snprintf(what, sizeof(what), "euro sign cut by len at %zu", at);
		INT_EQ(utf8_valid(s, at + 2), 0, what);
	}
}

static void
test_fold(void)
{
	static const struct {
		uint32_t	 cp;
		const char	*want;
	} cases[] = {
		{ 'e', NULL }, { 0xBF, NULL }, { 0xC0, "a" }, { 0xC6, "ae" },
		{ 0xC9, "e" }, { 0xD7, NULL }, { 0xDE, "th" }, { 0xDF, "ss" },
		{ 0xE9, "e" }, { 0xF7, NULL }, { 0xFF, "y" }, { 0x131, "i" },
		{ 0x132, "ij" }, { 0x142, "l" }, { 0x14B, "ng" },
		{ 0x153, "oe" }, { 0x17E, "z" }, { 0x17F, "s" },
		{ 0x180, NULL }, { 0x3B1, NULL }, { UTF8_INVALID, NULL },
	};
	char		 what[32];
	uint32_t	 cp;
	size_t		 i;
	unsigned	 bad = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(what, sizeof(what), "U+%04X", (unsigned)cases[i].cp);
		STR_EQ(fold_latin(cases[i].cp), cases[i].want, what);
	}
	/* Every letter of the range folds to lower-case ASCII letters. */
	for (cp = 0xC0; cp <= 0x17F; cp++) {
		const char	*s = fold_latin(cp);

		if (cp == 0xD7 || cp == 0xF7)
			continue;
		if (s == NULL || *s == '\0' || strspn(s,
		    "abcdefghijklmnopqrstuvwxyz") != strlen(s))
			bad++;
	}
	INT_EQ(bad, 0, "letters without an ASCII form");
}

static const struct harness_test tests[] = {
	TEST(test_decode),
	TEST(test_decode_all),
	TEST(test_encode),
	TEST(test_count),
	TEST(test_no_controls),
	TEST(test_position),
	TEST(test_valid),
	TEST(test_valid_runs),
	TEST(test_fold),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
