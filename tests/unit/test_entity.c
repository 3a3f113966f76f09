/*
 * test_entity.c -- entity.c: every HTML5 name, numeric references, what
 * is not a reference, and the longest-name rule (entity.h says which
 * HTML5 rules it follows).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/entity.h"
#include "core/entity_table.h"
#include "core/utf8.h"
#include "core/util.h"
#include "harness.h"

/* s decoded whole, as a NUL-terminated string the caller frees. */
static char *
decode(const char *s)
{
	struct buf	 b = BUF_INIT;

	entity_decode_all(&b, s, strlen(s));
	buf_add(&b, "", 0);
	return buf_release(&b);
}

#define DEC_EQ(in, want, what) do {					\
	char	*got_ = decode(in);					\
	STR_EQ(got_, want, what);					\
	free(got_);							\
} while (0)

static void
test_table(void)
{
	char		 in[64], want[ENTITY_UTF8_MAX], out[ENTITY_UTF8_MAX];
	size_t		 i, n, len, olen, wlen, legacy = 0;
	unsigned	 unsorted = 0, bad = 0;

	INT_EQ(nitems(entity_names), 2231, "names in the table");
	for (i = 1; i < nitems(entity_names); i++)
		if (strcmp(entity_names[i - 1].name, entity_names[i].name) >= 0)
			unsorted++;
	INT_EQ(unsorted, 0, "names out of strcmp order");
	/* Each name decodes to its code points, taking all of "&name". */
	for (i = 0; i < nitems(entity_names); i++) {
		len = (size_t)snprintf(in, sizeof(in), "&%s",
		    entity_names[i].name);
		wlen = utf8_encode(entity_names[i].cp[0], want);
		if (entity_names[i].cp[1] != 0)
			wlen += utf8_encode(entity_names[i].cp[1], want + wlen);
		n = entity_decode(in, len, out, &olen);
		if (n != len || olen != wlen || memcmp(out, want, wlen))
			bad++;
		if (in[strlen(in) - 1] != ';')
			legacy++;
	}
	INT_EQ(bad, 0, "names that do not decode to their table entry");
	INT_EQ(legacy, 106, "legacy names (no ';')");
}

static void
test_names(void)
{
	DEC_EQ("&amp;", "&", "amp");
	DEC_EQ("&AMP;", "&", "AMP");
	DEC_EQ("&lt;&gt;&quot;&apos;", "<>\"'", "the XML five");
	DEC_EQ("&eacute;t&eacute;", "\xC3\xA9t\xC3\xA9", "eacute");
	DEC_EQ("&hellip;", "\xE2\x80\xA6", "hellip");
	DEC_EQ("&hearts;", "\xE2\x99\xA5", "hearts");
	DEC_EQ("&CounterClockwiseContourIntegral;", "\xE2\x88\xB3",
	    "the longest name");
	DEC_EQ("&NotEqualTilde;", "\xE2\x89\x82\xCC\xB8",
	    "two code points");
	DEC_EQ("&Eacute;&eacute;", "\xC3\x89\xC3\xA9", "case matters");
	DEC_EQ("&EACUTE;", "&EACUTE;", "no such name");
}

static void
test_legacy(void)
{
	DEC_EQ("&amp", "&", "amp at the end");
	DEC_EQ("a &amp b", "a & b", "amp before a space");
	DEC_EQ("&copy 2024", "\xC2\xA9 2024", "copy before a space");
	DEC_EQ("&copy2024", "\xC2\xA9" "2024",
	    "copy before a digit (text, not an attribute)");
	DEC_EQ("&eacutex", "\xC3\xA9x", "eacute before a letter");
	DEC_EQ("&hellip", "&hellip", "not legacy: needs its ';'");
	DEC_EQ("&hellip ;", "&hellip ;", "the ';' must follow at once");
}

static void
test_longest(void)
{
	DEC_EQ("&notin;", "\xE2\x88\x89", "notin; beats not");
	DEC_EQ("&notin", "\xC2\xACin", "notin without ';': not, then in");
	DEC_EQ("&notit;", "\xC2\xACit;", "notit; is no name: not, then it;");
	DEC_EQ("&ampx;", "&x;", "ampx; is no name: amp, then x;");
	DEC_EQ("&lt3", "<3", "lt then 3");
	DEC_EQ("&gtx;", ">x;", "gt then x;");
	DEC_EQ("&frac34;", "\xC2\xBE", "frac34;");
	DEC_EQ("&frac345", "\xC2\xBE" "5", "frac34 then 5");
	DEC_EQ("&ltimes;", "\xE2\x8B\x89", "ltimes;, not lt");
	DEC_EQ("&ltimesx", "<imesx", "ltimes needs ';': lt, then imesx");
}

static void
test_numeric(void)
{
	DEC_EQ("&#35;&#x3E;&#X3e;", "#>>", "decimal and hex");
	DEC_EQ("&#233;", "\xC3\xA9", "e-acute");
	DEC_EQ("&#x1F600;", "\xF0\x9F\x98\x80", "emoji");
	DEC_EQ("&#0000000065;", "A", "leading zeros");
	DEC_EQ("&#65", "A", "no ';' at the end");
	DEC_EQ("&#65x", "Ax", "no ';' before a letter");
	DEC_EQ("&#0;", "\xEF\xBF\xBD", "0");
	DEC_EQ("&#xD800;", "\xEF\xBF\xBD", "high surrogate");
	DEC_EQ("&#xDFFF;", "\xEF\xBF\xBD", "low surrogate");
	DEC_EQ("&#x10FFFF;", "\xF4\x8F\xBF\xBF", "U+10FFFF");
	DEC_EQ("&#x110000;", "\xEF\xBF\xBD", "past U+10FFFF");
	DEC_EQ("&#99999999999999999999999;", "\xEF\xBF\xBD",
	    "far past, no overflow");
	DEC_EQ("&#150;", "\xE2\x80\x93", "0x96 as Windows-1252");
	DEC_EQ("&#x80;", "\xE2\x82\xAC", "0x80 as Windows-1252");
	DEC_EQ("&#x9F;", "\xC5\xB8", "0x9F as Windows-1252");
	DEC_EQ("&#x81;", "\xEF\xBF\xBD", "0x81: undefined there, U+FFFD");
	DEC_EQ("&#xA0;", "\xC2\xA0", "0xA0 as itself");
	DEC_EQ("&#1;", "\x01", "a C0 control stays one");
}

static void
test_invalid(void)
{
	char	 out[ENTITY_UTF8_MAX];
	size_t	 len = 99;

	DEC_EQ("AT&T", "AT&T", "no name");
	DEC_EQ("a & b", "a & b", "a lone '&'");
	DEC_EQ("&", "&", "'&' at the end");
	DEC_EQ("&;", "&;", "empty name");
	DEC_EQ("&#;", "&#;", "no digits");
	DEC_EQ("&#x;", "&#x;", "no hex digits");
	DEC_EQ("&#xg;", "&#xg;", "not a hex digit");
	DEC_EQ("&#-1;", "&#-1;", "a sign");
	DEC_EQ("&bogus;", "&bogus;", "unknown name");
	DEC_EQ("&&amp;&", "&&&", "'&'s around a reference");
	DEC_EQ("", "", "empty");
	INT_EQ(entity_decode("x", 1, out, &len), 0, "not at '&'");
	INT_EQ(entity_decode("&amp;", 1, out, &len), 0, "cut at 1");
	INT_EQ(entity_decode("&amp;", 4, out, &len), 4, "cut before ';'");
	INT_EQ(entity_decode("&lt;", 3, out, &len), 3, "cut: &lt");
	INT_EQ(entity_decode("&#x41;", 3, out, &len), 0, "cut after x");
	INT_EQ(entity_decode("&#x41;", 4, out, &len), 4, "cut after 4");
	INT_EQ(len, 1, "cut after 4: one byte");
}

static const struct harness_test tests[] = {
	TEST(test_table),
	TEST(test_names),
	TEST(test_legacy),
	TEST(test_longest),
	TEST(test_numeric),
	TEST(test_invalid),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
