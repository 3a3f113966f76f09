/*
 * test_escape.c -- escape.c: the one HTML/XML escaper family, as the
 * Gopher link page, Atom feeds and template.c's HTML use it.
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/escape.h"
#include "harness.h"

typedef void	escape_fn(struct buf *, const char *, size_t);

/* fn of in[0..len), between brackets, is want[0..wantlen). */
static void
esc_eq(escape_fn *fn, const char *in, size_t len, const char *want,
    size_t wantlen, const char *what)
{
	struct buf	 b = BUF_INIT;

	buf_addstr(&b, "[");		/* appends: what was there stays */
	fn(&b, in, len);
	buf_addstr(&b, "]");
	OK(b.len == wantlen && memcmp(b.data, want, wantlen) == 0,
	    "%s: got \"%s\", want \"%s\"", what, b.data, want);
	buf_free(&b);
}

#define HTML_EQ(in, want, what) esc_eq(escape_html, (in), sizeof(in) - 1, \
	    (want), sizeof(want) - 1, (what))
#define XML_EQ(in, want, what) esc_eq(escape_xml, (in), sizeof(in) - 1, \
	    (want), sizeof(want) - 1, (what))

static void
test_html(void)
{
	HTML_EQ("", "[]", "empty");
	HTML_EQ("plain text", "[plain text]", "nothing to escape");
	HTML_EQ("a & b", "[a &amp; b]", "ampersand");
	HTML_EQ("<script>", "[&lt;script&gt;]", "angle brackets");
	HTML_EQ("say \"hi\"", "[say &quot;hi&quot;]", "double quotes");
	HTML_EQ("it's", "[it's]", "a single quote stays (attributes are "
	    "double-quoted)");
	HTML_EQ("&amp;", "[&amp;amp;]", "an entity is escaped again");
	HTML_EQ("gopher://h/1/a?b=\"c\"&d=<e>",
	    "[gopher://h/1/a?b=&quot;c&quot;&amp;d=&lt;e&gt;]", "a URL");
	/* Bytes go through as they are: HTML output is not repaired. */
	HTML_EQ("\xc3\xa9\x01\xff", "[\xc3\xa9\x01\xff]", "bytes kept");
	/* len, not the NUL, bounds the input. */
	esc_eq(escape_html, "a<b", 2, "[a&lt;]", 7, "len bounds");
	HTML_EQ("a\0<", "[a\0&lt;]", "a NUL goes through");
}

static void
test_xml(void)
{
	XML_EQ("", "[]", "empty");
	XML_EQ("Tom & \"Jerry\" <3 >", "[Tom &amp; &quot;Jerry&quot; &lt;3 "
	    "&gt;]", "the four escapes, as escape_html()");
	XML_EQ("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	    "[caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80]", "UTF-8 kept");
	XML_EQ("a\tb\nc\rd", "[a\tb\nc\rd]", "TAB, LF, CR kept");
	XML_EQ("a\x01" "b\x1f" "c\x7f", "[abc\x7f]",
	    "C0 controls dropped, DEL kept (an XML 1.0 Char)");
	XML_EQ("x\xef\xbf\xbey\xef\xbf\xbfz", "[xyz]",
	    "U+FFFE and U+FFFF dropped");
	XML_EQ("a\xff" "b", "[a\xef\xbf\xbd" "b]", "a bad byte is U+FFFD");
	XML_EQ("\xc3", "[\xef\xbf\xbd]", "a cut sequence is U+FFFD");
	XML_EQ("\xed\xa0\x80", "[\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd]",
	    "a surrogate: one U+FFFD a byte");
	XML_EQ("a\0b", "[ab]", "a NUL is a C0 control");
}

static const struct harness_test tests[] = {
	TEST(test_html),
	TEST(test_xml),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
