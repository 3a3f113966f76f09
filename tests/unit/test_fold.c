/*
 * test_fold.c -- text spelled in ASCII (core/fold.c, fold_ascii()):
 * letters by the Latin fold with their case, punctuation by its
 * look-alikes, the rest "?"; the table sorted, every spelling printable
 * ASCII.  (fold_latin() itself is tested in test_utf8.c.)
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/fold.h"
#include "core/utf8.h"
#include "harness.h"

static void
test_cp(void)
{
	STR_EQ(fold_ascii('a'), "a", "ASCII is itself");
	STR_EQ(fold_ascii('~'), "~", "tilde");
	STR_EQ(fold_ascii(0xE9), "e", "e acute");
	STR_EQ(fold_ascii(0xC9), "E", "E acute keeps its case");
	STR_EQ(fold_ascii(0xDF), "ss", "sharp s");
	STR_EQ(fold_ascii(0xC6), "AE", "AE ligature");
	STR_EQ(fold_ascii(0xE6), "ae", "ae ligature");
	STR_EQ(fold_ascii(0xDE), "TH", "thorn");
	STR_EQ(fold_ascii(0x141), "L", "L stroke (an odd capital)");
	STR_EQ(fold_ascii(0x142), "l", "l stroke");
	STR_EQ(fold_ascii(0x152), "OE", "OE ligature");
	STR_EQ(fold_ascii(0x178), "Y", "Y diaeresis");
	STR_EQ(fold_ascii(0x17E), "z", "z caron");
	STR_EQ(fold_ascii(0x17D), "Z", "Z caron");
	STR_EQ(fold_ascii(0x17F), "s", "long s");
	STR_EQ(fold_ascii(0x131), "i", "dotless i");
	STR_EQ(fold_ascii(0x130), "I", "I with dot");
	STR_EQ(fold_ascii(0x2014), "--", "em dash");
	STR_EQ(fold_ascii(0x2013), "-", "en dash");
	STR_EQ(fold_ascii(0x2026), "...", "ellipsis");
	STR_EQ(fold_ascii(0x201C), "\"", "left double quote");
	STR_EQ(fold_ascii(0x2019), "'", "right single quote");
	STR_EQ(fold_ascii(0x00B7), "-", "middle dot");
	STR_EQ(fold_ascii(0x2190), "<-", "left arrow");
	STR_EQ(fold_ascii(0x2192), "->", "right arrow");
	STR_EQ(fold_ascii(0x00A0), " ", "no-break space");
	STR_EQ(fold_ascii(0x200B), "", "zero-width space");
	STR_EQ(fold_ascii(0xFEFF), "", "BOM");
	STR_EQ(fold_ascii(0x00D7), "x", "times");
	STR_EQ(fold_ascii(0x3042), "?", "hiragana");
	STR_EQ(fold_ascii(0x1F600), "?", "emoji");
	STR_EQ(fold_ascii(UTF8_INVALID), "?", "invalid");
}

/* Every code point to U+FFFF: printable ASCII (or space), short. */
static void
test_all(void)
{
	uint32_t	 cp;
	const char	*s;
	size_t		 bad = 0, i;

	for (cp = 0x80; cp <= 0xFFFF; cp++) {
		s = fold_ascii(cp);
		if (s == NULL || strlen(s) > 4) {
			bad++;
			continue;
		}
		for (i = 0; s[i] != '\0'; i++)
			if (s[i] < 0x20 || s[i] > 0x7e)
				bad++;
	}
	INT_EQ(bad, 0, "every spelling is printable ASCII, 4 bytes at most");
	/* The table is searched: a missed entry means it is not sorted. */
	STR_EQ(fold_ascii(0x00A0), " ", "first entry found");
	STR_EQ(fold_ascii(0xFEFF), "", "last entry found");
	STR_EQ(fold_ascii(0x2500), "-", "a middle entry found");
}

static void
test_str(void)
{
	struct buf	 b = BUF_INIT;
	char		*s;

	s = fold_ascii_str("\xc3\x89mile \xe2\x80\x94 \xe2\x80\x9cna\xc3\xafve\xe2"
	    "\x80\x9d caf\xc3\xa9 \xc2\xb7 \xe2\x86\x90 back\xe2\x80\xa6");
	STR_EQ(s, "Emile -- \"naive\" cafe - <- back...", "a line");
	free(s);
	s = fold_ascii_str(NULL);
	STR_EQ(s, "", "NULL");
	free(s);
	fold_ascii_add(&b, "a\xff" "b\xc3", 4);
	STR_EQ(b.data, "a?b?", "bytes that are not UTF-8");
	buf_free(&b);
}

static const struct harness_test tests[] = {
	TEST(test_cp),
	TEST(test_all),
	TEST(test_str),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
