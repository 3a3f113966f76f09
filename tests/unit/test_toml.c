/*
 * test_toml.c -- toml.c against the TOML 1.0 specification
 * (toml.io/en/v1.0.0): every construct, the specification's own examples
 * (valid and invalid) and the edges of each rule, with the expected tree
 * written out; then the API, the limits and hostile inputs.
 *
 * Each case of the table is a document and what it must give: the tree
 * in the dump form below, or "!LINE:COL words" -- refused at that place
 * with a message holding those words.  When python3 with tomllib (3.11+)
 * is installed, every case is also read by tests/unit/toml_dump.py and
 * must come out the same (tomllib is an independent TOML 1.0 reader);
 * the few places where tomllib departs from the specification are
 * marked and say why.  Without python3 that cross-check is skipped.
 *
 * Dump form: a table is {"key": value, ...} in the order written, an
 * array [v, ...], a string "..." (", \ escaped, \n \t, other controls
 * \uXXXX), an integer in decimal, a float by the shortest %g that reads
 * back (".0" added when it looks like an integer; inf, -inf, nan),
 * booleans true/false, date-times as RFC 3339 with microseconds at most
 * (offset 0 as Z).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/toml.h"
#include "core/buf.h"
#include "core/util.h"
#include "harness.h"

enum py {
	PY_SAME,	/* tomllib reads it the same way */
	PY_ACCEPTS,	/* tomllib takes an integer past 64 bits (Python
			   ints have no bound; TOML 1.0: "must be
			   thrown an error") */
	PY_REFUSES,	/* tomllib refuses what RFC 3339 and TOML allow but
			   Python's datetime cannot hold (second 60, year 0) */
};

struct tcase {
	const char	*src;
	size_t		 len;		/* 0: strlen(src) */
	const char	*want;
	enum py		 py;
};

#define V(src, want)		{ src, 0, want, PY_SAME }
#define X(src, want)		{ src, 0, want, PY_SAME }
#define XN(src, want)		{ src, sizeof(src) - 1, want, PY_SAME }
#define PY(src, want, py)	{ src, 0, want, py }

static const struct tcase cases[] = {
	/* Documents and comments (spec "Comment", "Spec"). */
	V("", "{}"),
	V("\n\n  \t\n", "{}"),
	V("# only a comment", "{}"),
	V("# This is a full-line comment\n"
	  "key = \"value\"  # This is a comment at the end of a line\n"
	  "another = \"# This is not a comment\"\n",
	  "{\"key\": \"value\", \"another\": \"# This is not a comment\"}"),
	V("#\ttab in a comment\na = 1", "{\"a\": 1}"),
	V("# h\xC3\xA9llo \xE2\x9C\x93\na = 1 # \xF0\x9F\x92\x96",
	  "{\"a\": 1}"),
	V("a = 1\r\n# c\r\nb = 2\r\n", "{\"a\": 1, \"b\": 2}"),
	V("a = 1", "{\"a\": 1}"),
	V("\t a = 1 \t\n", "{\"a\": 1}"),
	X("# a\x01" "b\n", "!1:4 control character U+0001"),
	X("# \x7F\n", "!1:3 control character U+007F"),
	X("# x\r", "!1:4 control character U+000D"),
	X("a = 1\rb = 2", "!1:6 carriage return"),
	XN("a = 1\0", "!1:6 expected the end of the line"),
	X("\xEF\xBB\xBF" "a = 1", "!1:1 expected a key"),

	/* Key/value pairs. */
	V("a=1\nb\t=\t2", "{\"a\": 1, \"b\": 2}"),
	X("key = # INVALID", "!1:7 expected a value"),
	X("key =", "!1:6 expected a value"),
	X("first = \"Tom\" last = \"Preston-Werner\" # INVALID",
	  "!1:15 expected the end of the line"),
	X("key", "!1:4 expected '='"),
	X("key\n= 1", "!1:4 expected '='"),
	X("a 1", "!1:3 expected '='"),
	X("= \"no key name\"", "!1:1 expected a key"),

	/* Keys. */
	V("key = \"value\"\nbare_key = \"value\"\nbare-key = \"value\"\n"
	  "1234 = \"value\"",
	  "{\"key\": \"value\", \"bare_key\": \"value\", \"bare-key\": "
	  "\"value\", \"1234\": \"value\"}"),
	V("\"127.0.0.1\" = \"value\"\n\"character encoding\" = \"value\"\n"
	  "\"\xCA\x8E\xC7\x9D\xCA\x9E\" = \"value\"\n'key2' = \"value\"\n"
	  "'quoted \"value\"' = \"value\"",
	  "{\"127.0.0.1\": \"value\", \"character encoding\": \"value\", "
	  "\"\xCA\x8E\xC7\x9D\xCA\x9E\": \"value\", \"key2\": \"value\", "
	  "\"quoted \\\"value\\\"\": \"value\"}"),
	V("\"\" = \"blank\"", "{\"\": \"blank\"}"),
	V("'' = 'blank'", "{\"\": \"blank\"}"),
	V("\"a\\u00E9\\n\" = 1", "{\"a\xC3\xA9\\n\": 1}"),
	V("name = \"Orange\"\nphysical.color = \"orange\"\n"
	  "physical.shape = \"round\"\nsite.\"google.com\" = true",
	  "{\"name\": \"Orange\", \"physical\": {\"color\": \"orange\", "
	  "\"shape\": \"round\"}, \"site\": {\"google.com\": true}}"),
	V("fruit.name = \"banana\"     # this is best practice\n"
	  "fruit. color = \"yellow\"    # same as fruit.color\n"
	  "fruit . flavor = \"banana\"   # same as fruit.flavor\n",
	  "{\"fruit\": {\"name\": \"banana\", \"color\": \"yellow\", "
	  "\"flavor\": \"banana\"}}"),
	V("fruit.apple.smooth = true\nfruit.orange = 2",
	  "{\"fruit\": {\"apple\": {\"smooth\": true}, \"orange\": 2}}"),
	V("apple.type = \"fruit\"\norange.type = \"fruit\"\n"
	  "apple.skin = \"thin\"\norange.skin = \"thick\"\n"
	  "apple.color = \"red\"\norange.color = \"orange\"",
	  "{\"apple\": {\"type\": \"fruit\", \"skin\": \"thin\", \"color\": "
	  "\"red\"}, \"orange\": {\"type\": \"fruit\", \"skin\": \"thick\", "
	  "\"color\": \"orange\"}}"),
	V("3.14159 = \"pi\"", "{\"3\": {\"14159\": \"pi\"}}"),
	V("a = 1\nA = 2", "{\"a\": 1, \"A\": 2}"),
	V("a.\"\".b = 1", "{\"a\": {\"\": {\"b\": 1}}}"),
	V("a.'b.c'.\"d\" = 1", "{\"a\": {\"b.c\": {\"d\": 1}}}"),
	X("name = \"Tom\"\nname = \"Pradyun\"", "!2:1 duplicate key 'name'"),
	X("spelling = \"favorite\"\n\"spelling\" = \"favourite\"",
	  "!2:1 duplicate key 'spelling'"),
	X("fruit.apple = 1\nfruit.apple.smooth = true",
	  "!2:7 'fruit.apple' already holds a value (integer)"),
	X("a = 1\na.b = 2", "!2:1 'a' already holds a value (integer)"),
	X("a.b = 1\na = 2", "!2:1 duplicate key 'a'"),
	X("a.b.c = 1\na.b.c = 2", "!2:5 duplicate key 'a.b.c'"),
	X("\xCA\x8E\xC7\x9D\xCA\x9E = 1", "!1:1 expected a key"),
	X("\"\"\"a\"\"\" = 1", "!1:3 expected '='"),
	X("a. = 1", "!1:4 expected a key, not '='"),
	X(".a = 1", "!1:1 expected a key, not '.'"),
	X("a..b = 1", "!1:3 expected a key, not '.'"),
	X("a+b = 1", "!1:2 expected '='"),
	X("\"a = 1", "!1:1 not closed"),
	X("'a\nb' = 1", "!1:3 not closed on its line"),

	/* Basic strings. */
	V("str = \"I'm a string. \\\"You can quote me\\\". Name\\tJos\\u00E9"
	  "\\nLocation\\tSF.\"",
	  "{\"str\": \"I'm a string. \\\"You can quote me\\\". Name\\tJos\xC3"
	  "\xA9\\nLocation\\tSF.\"}"),
	V("a = \"\\b\\f\\r\\\\\\\"\"",
	  "{\"a\": \"\\u0008\\u000C\\u000D\\\\\\\"\"}"),
	V("a = \"\\U0001F600 \\u00e9 \\U000000E9\"",
	  "{\"a\": \"\xF0\x9F\x98\x80 \xC3\xA9 \xC3\xA9\"}"),
	V("a = \"\\u0000\"", "{\"a\": \"\\u0000\"}"),
	V("a = \"x\ty\"", "{\"a\": \"x\\ty\"}"),
	V("a = \"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\"",
	  "{\"a\": \"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\"}"),
	V("a = \"# not a comment\" # a comment",
	  "{\"a\": \"# not a comment\"}"),
	X("a = \"\\/\"", "!1:6 invalid escape \\/"),
	X("a = \"\\e\"", "!1:6 invalid escape \\e"),
	X("a = \"\\x41\"", "!1:6 invalid escape \\x"),
	X("a = \"\\ \"", "!1:6 invalid escape \\ "),
	X("a = \"\\u00\"", "!1:6 \\u needs 4 hex digits"),
	X("a = \"\\U0001F60\"", "!1:6 \\U needs 8 hex digits"),
	X("a = \"\\uD800\"", "!1:6 not a Unicode scalar value"),
	X("a = \"\\uDFFF\"", "!1:6 not a Unicode scalar value"),
	X("a = \"\\U00110000\"", "!1:6 not a Unicode scalar value"),
	X("a = \"x\x01\"", "!1:7 control character U+0001"),
	X("a = \"\x7F\"", "!1:6 control character U+007F"),
	XN("a = \"\0\"", "!1:6 control character U+0000"),
	X("a = \"abc", "!1:5 not closed"),
	X("a = \"ab\nc\"", "!1:8 not closed on its line"),
	X("a = \"ab\\", "!1:8 not closed"),

	/* Multi-line basic strings. */
	V("str1 = \"\"\"\nRoses are red\nViolets are blue\"\"\"",
	  "{\"str1\": \"Roses are red\\nViolets are blue\"}"),
	V("str1 = \"\"\"\r\nRoses\r\nViolets\r\n\"\"\"",
	  "{\"str1\": \"Roses\\nViolets\\n\"}"),
	V("a = \"\"\"\n\nx\"\"\"", "{\"a\": \"\\nx\"}"),
	V("str1 = \"The quick brown fox jumps over the lazy dog.\"\n"
	  "str2 = \"\"\"\nThe quick brown \\\n\n\n  fox jumps over \\\n"
	  "    the lazy dog.\"\"\"\n"
	  "str3 = \"\"\"\\\n       The quick brown \\\n"
	  "       fox jumps over \\\n       the lazy dog.\\\n"
	  "       \"\"\"",
	  "{\"str1\": \"The quick brown fox jumps over the lazy dog.\", "
	  "\"str2\": \"The quick brown fox jumps over the lazy dog.\", "
	  "\"str3\": \"The quick brown fox jumps over the lazy dog.\"}"),
	V("a = \"\"\"x \\  \t\n  \r\n  y\"\"\"", "{\"a\": \"x y\"}"),
	V("str4 = \"\"\"Here are two quotation marks: \"\". Simple "
	  "enough.\"\"\"\n"
	  "str5 = \"\"\"Here are three quotation marks: \"\"\\\".\"\"\"\n"
	  "str6 = \"\"\"Here are fifteen quotation marks: \"\"\\\"\"\"\\\""
	  "\"\"\\\"\"\"\\\"\"\"\\\".\"\"\"\n"
	  "str7 = \"\"\"\"This,\" she said, \"is just a pointless "
	  "statement.\"\"\"\"",
	  "{\"str4\": \"Here are two quotation marks: \\\"\\\". Simple "
	  "enough.\", \"str5\": \"Here are three quotation marks: "
	  "\\\"\\\"\\\".\", \"str6\": \"Here are fifteen quotation marks: "
	  "\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\".\", "
	  "\"str7\": \"\\\"This,\\\" she said, \\\"is just a pointless "
	  "statement.\\\"\"}"),
	V("a = \"\"\"x\"\"\"\"\"", "{\"a\": \"x\\\"\\\"\"}"),
	V("a = \"\"\"\"\"\"", "{\"a\": \"\"}"),
	V("a = \"\"\"\\tx\\u0041\\\"\"\"\"", "{\"a\": \"\\txA\\\"\"}"),
	V("a = \"\"\"a\tb\"\"\"", "{\"a\": \"a\\tb\"}"),
	X("str5 = \"\"\"Here are three quotation marks: \"\"\".\"\"\"",
	  "!1:46 expected the end of the line"),
	X("a = \"\"\"x\"\"\"\"\"\"", "!1:14 too many quotes"),
	X("a = \"\"\"x \\ y\"\"\"", "!1:10 followed only by blanks"),
	X("a = \"\"\"\x01\"\"\"", "!1:8 control character U+0001"),
	X("a = \"\"\"a\rb\"\"\"", "!1:9 carriage return"),
	X("a = \"\"\"abc", "!1:5 not closed"),
	X("a = \"\"\"abc\"\"", "!1:5 not closed"),
	X("a = \"\"\"\\q\"\"\"", "!1:8 invalid escape \\q"),

	/* Literal strings. */
	V("winpath  = 'C:\\Users\\nodejs\\templates'\n"
	  "winpath2 = '\\\\ServerX\\admin$\\system32\\'\n"
	  "quoted   = 'Tom \"Dubs\" Preston-Werner'\n"
	  "regex    = '<\\i\\c*\\s*>'",
	  "{\"winpath\": \"C:\\\\Users\\\\nodejs\\\\templates\", "
	  "\"winpath2\": \"\\\\\\\\ServerX\\\\admin$\\\\system32\\\\\", "
	  "\"quoted\": \"Tom \\\"Dubs\\\" Preston-Werner\", "
	  "\"regex\": \"<\\\\i\\\\c*\\\\s*>\"}"),
	V("a = 'x\ty'", "{\"a\": \"x\\ty\"}"),
	V("a = \"\"\nb = ''\nc = \"\"\"\"\"\"\nd = ''''''",
	  "{\"a\": \"\", \"b\": \"\", \"c\": \"\", \"d\": \"\"}"),
	X("a = 'x\ny'", "!1:7 not closed on its line"),
	X("a = 'x\x01'", "!1:7 control character U+0001"),
	X("a = 'abc", "!1:5 not closed"),

	/* Multi-line literal strings. */
	V("regex2 = '''I [dw]on't need \\d{2} apples'''\n"
	  "lines  = '''\nThe first newline is\ntrimmed in raw strings.\n"
	  "   All other whitespace\n   is preserved.\n'''",
	  "{\"regex2\": \"I [dw]on't need \\\\d{2} apples\", \"lines\": "
	  "\"The first newline is\\ntrimmed in raw strings.\\n   All other "
	  "whitespace\\n   is preserved.\\n\"}"),
	V("quot15 = '''Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\""
	  "\"\"\"\"'''\n"
	  "apos15 = \"Here are fifteen apostrophes: '''''''''''''''\"\n"
	  "str = ''''That,' she said, 'is still pointless.''''",
	  "{\"quot15\": \"Here are fifteen quotation marks: \\\"\\\"\\\"\\\""
	  "\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\", \"apos15\": "
	  "\"Here are fifteen apostrophes: '''''''''''''''\", \"str\": "
	  "\"'That,' she said, 'is still pointless.'\"}"),
	V("a = '''x\\\ny'''", "{\"a\": \"x\\\\\\ny\"}"),
	V("a = '''\r\nx\r\n'''", "{\"a\": \"x\\n\"}"),
	X("apos15 = '''Here are fifteen apostrophes: ''''''''''''''''''",
	  "!1:48 too many quotes"),
	X("a = '''x\x7F'''", "!1:9 control character U+007F"),
	X("a = '''x", "!1:5 not closed"),

	/* Integers. */
	V("int1 = +99\nint2 = 42\nint3 = 0\nint4 = -17\nint5 = 1_000\n"
	  "int6 = 5_349_221\nint7 = 53_49_221\nint8 = 1_2_3_4_5",
	  "{\"int1\": 99, \"int2\": 42, \"int3\": 0, \"int4\": -17, \"int5\": "
	  "1000, \"int6\": 5349221, \"int7\": 5349221, \"int8\": 12345}"),
	V("hex1 = 0xDEADBEEF\nhex2 = 0xdeadbeef\nhex3 = 0xdead_beef\n"
	  "oct1 = 0o01234567\noct2 = 0o755\nbin1 = 0b11010110",
	  "{\"hex1\": 3735928559, \"hex2\": 3735928559, \"hex3\": "
	  "3735928559, \"oct1\": 342391, \"oct2\": 493, \"bin1\": 214}"),
	V("a = +0\nb = -0\nc = 0x00ff\nd = 0o0\ne = 0b0001",
	  "{\"a\": 0, \"b\": 0, \"c\": 255, \"d\": 0, \"e\": 1}"),
	V("max = 9223372036854775807\nmin = -9223372036854775808\n"
	  "hex = 0x7fffffffffffffff\noct = 0o777777777777777777777\n"
	  "bin = 0b111111111111111111111111111111111111111111111111111111111"
	  "111111",
	  "{\"max\": 9223372036854775807, \"min\": -9223372036854775808, "
	  "\"hex\": 9223372036854775807, \"oct\": 9223372036854775807, "
	  "\"bin\": 9223372036854775807}"),
	PY("a = 9223372036854775808", "!1:5 out of range", PY_ACCEPTS),
	PY("a = -9223372036854775809", "!1:5 out of range", PY_ACCEPTS),
	PY("a = 0x8000000000000000", "!1:5 out of range", PY_ACCEPTS),
	PY("a = 99999999999999999999999", "!1:5 out of range", PY_ACCEPTS),
	X("a = 01", "!1:5 cannot start with a zero"),
	X("a = -01", "!1:5 cannot start with a zero"),
	X("a = 0_1", "!1:5 cannot start with a zero"),
	X("a = 00", "!1:5 cannot start with a zero"),
	X("a = 1__000", "!1:6 underscore"),
	X("a = 1_", "!1:6 underscore"),
	X("a = _1", "!1:5 expected a value, not '_'"),
	X("a = 1_000_", "!1:10 underscore"),
	X("a = +0x1", "!1:5 cannot have a sign"),
	X("a = -0b1", "!1:5 cannot have a sign"),
	X("a = 0X1", "!1:6 expected the end of the line"),
	X("a = 0x", "!1:7 expected a digit"),
	X("a = 0xg", "!1:7 expected a digit"),
	X("a = 0x_1", "!1:7 expected a digit"),
	X("a = 0o8", "!1:7 expected a digit"),
	X("a = 0b2", "!1:7 expected a digit"),
	X("a = 0b102", "!1:9 expected the end of the line"),
	X("a = 0xDEAD_", "!1:11 underscore"),
	X("a = 1 2", "!1:7 expected the end of the line"),
	X("a = +", "!1:6 expected a digit"),
	X("a = 1,", "!1:6 expected the end of the line"),

	/* Floats. */
	V("flt1 = +1.0\nflt2 = 3.1415\nflt3 = -0.01\nflt4 = 5e+22\n"
	  "flt5 = 1e06\nflt6 = -2E-2\nflt7 = 6.626e-34\n"
	  "flt8 = 224_617.445_991_228",
	  "{\"flt1\": 1.0, \"flt2\": 3.1415, \"flt3\": -0.01, \"flt4\": "
	  "5e+22, \"flt5\": 1e+06, \"flt6\": -0.02, \"flt7\": 6.626e-34, "
	  "\"flt8\": 224617.445991228}"),
	V("sf1 = inf\nsf2 = +inf\nsf3 = -inf\nsf4 = nan\nsf5 = +nan\n"
	  "sf6 = -nan",
	  "{\"sf1\": inf, \"sf2\": inf, \"sf3\": -inf, \"sf4\": nan, "
	  "\"sf5\": nan, \"sf6\": nan}"),
	V("a = -0.0\nb = +0.0\nc = 0e0\nd = 0.0e-0\ne = 1E+3\nf = 1e-0",
	  "{\"a\": -0.0, \"b\": 0.0, \"c\": 0.0, \"d\": 0.0, \"e\": 1e+03, "
	  "\"f\": 1.0}"),
	V("a = 1e400\nb = -1e400\nc = 1e-400",
	  "{\"a\": inf, \"b\": -inf, \"c\": 0.0}"),
	V("a = 3.14_15\nb = 1_0.5e1_0\nc = 1e0_1",
	  "{\"a\": 3.1415, \"b\": 1.05e+11, \"c\": 1e+01}"),
	V("a = 0.1\nb = 0.30000000000000004\nc = 1.7976931348623157e308\n"
	  "d = 5e-324\ne = 123456789012345678901234567890.0",
	  "{\"a\": 0.1, \"b\": 0.30000000000000004, \"c\": "
	  "1.7976931348623157e+308, \"d\": 5e-324, \"e\": "
	  "1.2345678901234568e+29}"),
	X("invalid_float_1 = .7", "!1:19 expected a value, not '.'"),
	X("invalid_float_2 = 7.", "!1:21 expected a digit"),
	X("invalid_float_3 = 3.e+20", "!1:21 expected a digit"),
	X("a = +.1", "!1:6 expected a digit"),
	X("a = 1e", "!1:7 expected a digit"),
	X("a = 1e+", "!1:8 expected a digit"),
	X("a = 1e_2", "!1:7 expected a digit"),
	X("a = 1_e2", "!1:6 underscore"),
	X("a = 1._2", "!1:7 expected a digit"),
	X("a = 1.2_", "!1:8 underscore"),
	X("a = 01.1", "!1:5 cannot start with a zero"),
	X("a = -01.1", "!1:5 cannot start with a zero"),
	X("a = 1.0.0", "!1:8 expected the end of the line"),
	X("a = 1e2.3", "!1:8 expected the end of the line"),
	X("a = Inf", "!1:5 expected a value, not 'I'"),
	X("a = NaN", "!1:5 expected a value, not 'N'"),
	X("a = infinity", "!1:8 expected the end of the line"),
	X("a = in", "!1:5 expected a value, not 'i'"),

	/* Booleans. */
	V("bool1 = true\nbool2 = false\ns = \"true\"",
	  "{\"bool1\": true, \"bool2\": false, \"s\": \"true\"}"),
	X("a = True", "!1:5 expected a value, not 'T'"),
	X("a = tru", "!1:5 expected a value, not 't'"),
	X("a = falsey", "!1:10 expected the end of the line"),
	X("a = yes", "!1:5 expected a value, not 'y'"),

	/* Offset date-times. */
	V("odt1 = 1979-05-27T07:32:00Z\nodt2 = 1979-05-27T00:32:00-07:00\n"
	  "odt3 = 1979-05-27T00:32:00.999999-07:00\n"
	  "odt4 = 1979-05-27 07:32:00Z",
	  "{\"odt1\": 1979-05-27T07:32:00Z, \"odt2\": "
	  "1979-05-27T00:32:00-07:00, \"odt3\": "
	  "1979-05-27T00:32:00.999999-07:00, \"odt4\": "
	  "1979-05-27T07:32:00Z}"),
	V("a = 1979-05-27t07:32:00z\nb = 2024-03-02T09:15:00+05:30\n"
	  "c = 2024-03-02T09:15:00+00:00\nd = 2024-03-02T09:15:00-23:59",
	  "{\"a\": 1979-05-27T07:32:00Z, \"b\": 2024-03-02T09:15:00+05:30, "
	  "\"c\": 2024-03-02T09:15:00Z, \"d\": 2024-03-02T09:15:00-23:59}"),
	V("a = 1979-05-27T00:32:00.123456789123Z\n"
	  "b = 1979-05-27T00:32:00.1Z\nc = 1979-05-27T00:32:00.000Z",
	  "{\"a\": 1979-05-27T00:32:00.123456Z, \"b\": "
	  "1979-05-27T00:32:00.1Z, \"c\": 1979-05-27T00:32:00Z}"),
	/* Local date-times, dates and times. */
	V("ldt1 = 1979-05-27T07:32:00\nldt2 = 1979-05-27T00:32:00.999999\n"
	  "ldt3 = 1979-05-27 07:32:00 # a space as the delimiter",
	  "{\"ldt1\": 1979-05-27T07:32:00, \"ldt2\": "
	  "1979-05-27T00:32:00.999999, \"ldt3\": 1979-05-27T07:32:00}"),
	V("ld1 = 1979-05-27\nld2 = 1979-05-27 # a comment",
	  "{\"ld1\": 1979-05-27, \"ld2\": 1979-05-27}"),
	V("lt1 = 07:32:00\nlt2 = 00:32:00.999999\nlt3 = 23:59:59.5",
	  "{\"lt1\": 07:32:00, \"lt2\": 00:32:00.999999, \"lt3\": "
	  "23:59:59.5}"),
	V("a = 2000-02-29\nb = 2024-02-29\nc = 9999-12-31T23:59:59Z\n"
	  "d = 0001-01-01",
	  "{\"a\": 2000-02-29, \"b\": 2024-02-29, \"c\": "
	  "9999-12-31T23:59:59Z, \"d\": 0001-01-01}"),
	PY("a = 23:59:60\nb = 2016-12-31T23:59:60Z",
	  "{\"a\": 23:59:60, \"b\": 2016-12-31T23:59:60Z}", PY_REFUSES),
	PY("a = 0000-01-01", "{\"a\": 0000-01-01}", PY_REFUSES),
	X("a = 1900-02-29", "!1:5 date out of range"),
	X("a = 2023-02-29", "!1:5 date out of range"),
	X("a = 2023-04-31", "!1:5 date out of range"),
	X("a = 2023-13-01", "!1:5 date out of range"),
	X("a = 2023-00-01", "!1:5 date out of range"),
	X("a = 2023-01-00", "!1:5 date out of range"),
	X("a = 2023-01-32", "!1:5 date out of range"),
	X("a = 24:00:00", "!1:5 time out of range"),
	X("a = 23:60:00", "!1:5 time out of range"),
	X("a = 23:59:61", "!1:5 time out of range"),
	X("a = 07:32", "!1:5 requires the seconds"),
	X("a = 1979-05-27T07:32Z", "!1:16 requires the seconds"),
	X("a = 1979-05-27 07:32", "!1:16 requires the seconds"),
	X("a = 1979-5-27", "!1:5 expected a date"),
	X("a = 1979-05-7", "!1:5 expected a date"),
	X("a = 1979-05-270", "!1:5 expected a date"),
	X("a = 1979-05-27T7:32:00", "!1:16 expected a time"),
	X("a = 1979-05-27T", "!1:16 expected a time"),
	X("a = 1979-05-27T07:32:00.", "!1:25 fraction"),
	X("a = 1979-05-27T07:32:00+7:00", "!1:5 expected an offset"),
	X("a = 1979-05-27T07:32:00+07", "!1:5 expected an offset"),
	X("a = 1979-05-27T07:32:00+0700", "!1:5 expected an offset"),
	X("a = 1979-05-27T07:32:00+24:00", "!1:5 offset out of range"),
	X("a = 1979-05-27T07:32:00-00:60", "!1:5 offset out of range"),
	X("a = 1979-05-27T07:32:00Zjunk", "!1:25 expected the end of the line"),
	X("a = 1979-05-27 x", "!1:16 expected the end of the line"),
	X("a = 1979-05-27  07:32:00", "!1:17 expected the end of the line"),

	/* Arrays. */
	V("integers = [ 1, 2, 3 ]\n"
	  "colors = [ \"red\", \"yellow\", \"green\" ]\n"
	  "nested_arrays_of_ints = [ [ 1, 2 ], [3, 4, 5] ]\n"
	  "nested_mixed_array = [ [ 1, 2 ], [\"a\", \"b\", \"c\"] ]\n"
	  "string_array = [ \"all\", 'strings', \"\"\"are the same\"\"\", "
	  "'''type''' ]\n\n# Mixed-type arrays are allowed\n"
	  "numbers = [ 0.1, 0.2, 0.5, 1, 2, 5 ]\ncontributors = [\n"
	  "  \"Foo Bar <foo@example.com>\",\n"
	  "  { name = \"Baz Qux\", email = \"bazqux@example.com\", "
	  "url = \"https://example.com/bazqux\" }\n]",
	  "{\"integers\": [1, 2, 3], \"colors\": [\"red\", \"yellow\", "
	  "\"green\"], \"nested_arrays_of_ints\": [[1, 2], [3, 4, 5]], "
	  "\"nested_mixed_array\": [[1, 2], [\"a\", \"b\", \"c\"]], "
	  "\"string_array\": [\"all\", \"strings\", \"are the same\", "
	  "\"type\"], \"numbers\": [0.1, 0.2, 0.5, 1, 2, 5], "
	  "\"contributors\": [\"Foo Bar <foo@example.com>\", {\"name\": "
	  "\"Baz Qux\", \"email\": \"bazqux@example.com\", \"url\": "
	  "\"https://example.com/bazqux\"}]}"),
	V("integers2 = [\n  1, 2, 3\n]\n\nintegers3 = [\n  1,\n"
	  "  2, # this is ok\n]",
	  "{\"integers2\": [1, 2, 3], \"integers3\": [1, 2]}"),
	V("a = []\nb = [ ]\nc = [\n]\nd = [ # c\n ]\ne = [\r\n1\r\n,2]",
	  "{\"a\": [], \"b\": [], \"c\": [], \"d\": [], \"e\": [1, 2]}"),
	V("a = [[], [[]], {}, [{}]]", "{\"a\": [[], [[]], {}, [{}]]}"),
	V("a = [1979-05-27, 07:32:00, 1979-05-27T07:32:00Z, true, 1.5]",
	  "{\"a\": [1979-05-27, 07:32:00, 1979-05-27T07:32:00Z, true, 1.5]}"),
	V("a = [\"\"\"x\ny\"\"\", '''\nz''',]", "{\"a\": [\"x\\ny\", \"z\"]}"),
	X("a = [,]", "!1:6 expected a value, not ','"),
	X("a = [1,,2]", "!1:8 expected a value, not ','"),
	X("a = [1 2]", "!1:8 expected ',' or ']'"),
	X("a = [1", "!1:5 an array is not closed"),
	X("a = [1,", "!1:5 an array is not closed"),
	X("a = [1,\n", "!1:5 an array is not closed"),
	X("a = [1}", "!1:7 expected ',' or ']'"),
	X("a = ]", "!1:5 expected a value, not ']'"),
	X("a = [ # c\x01\n1]", "!1:10 control character U+0001"),
	X("a = [1]]", "!1:8 expected the end of the line"),

	/* Tables. */
	V("[table-1]\nkey1 = \"some string\"\nkey2 = 123\n\n[table-2]\n"
	  "key1 = \"another string\"\nkey2 = 456",
	  "{\"table-1\": {\"key1\": \"some string\", \"key2\": 123}, "
	  "\"table-2\": {\"key1\": \"another string\", \"key2\": 456}}"),
	V("[dog.\"tater.man\"]\ntype.name = \"pug\"",
	  "{\"dog\": {\"tater.man\": {\"type\": {\"name\": \"pug\"}}}}"),
	V("[a.b.c]            # this is best practice\n"
	  "[ d.e.f ]          # same as [d.e.f]\n"
	  "[ g .  h  . i ]    # same as [g.h.i]\n"
	  "[ j . \"\xCA\x9E\" . 'l' ]  # same as [j.\"\xCA\x9E\".'l']",
	  "{\"a\": {\"b\": {\"c\": {}}}, \"d\": {\"e\": {\"f\": {}}}, "
	  "\"g\": {\"h\": {\"i\": {}}}, \"j\": {\"\xCA\x9E\": {\"l\": {}}}}"),
	V("# [x] you\n# [x.y] don't\n# [x.y.z] need these\n"
	  "[x.y.z.w] # for this to work\n\n"
	  "[x] # defining a super-table afterward is ok",
	  "{\"x\": {\"y\": {\"z\": {\"w\": {}}}}}"),
	V("# Top-level table begins.\nname = \"Fido\"\nbreed = \"pug\"\n\n"
	  "# Top-level table ends.\n[owner]\nname = \"Regina Dogman\"\n"
	  "member_since = 1999-08-04",
	  "{\"name\": \"Fido\", \"breed\": \"pug\", \"owner\": {\"name\": "
	  "\"Regina Dogman\", \"member_since\": 1999-08-04}}"),
	V("fruit.apple.color = \"red\"\n# Defines a table named fruit\n"
	  "# Defines a table named fruit.apple\n\n"
	  "fruit.apple.taste.sweet = true",
	  "{\"fruit\": {\"apple\": {\"color\": \"red\", \"taste\": "
	  "{\"sweet\": true}}}}"),
	V("[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n\n"
	  "# [fruit.apple]  # INVALID\n# [fruit.apple.taste]  # INVALID\n\n"
	  "[fruit.apple.texture]  # you can add sub-tables\nsmooth = true",
	  "{\"fruit\": {\"apple\": {\"color\": \"red\", \"taste\": "
	  "{\"sweet\": true}, \"texture\": {\"smooth\": true}}}}"),
	V("[a.b.c]\n[a]\nb.y = 2", "{\"a\": {\"b\": {\"c\": {}, \"y\": 2}}}"),
	V("a.b = 1\n[a.c]\nx = 1", "{\"a\": {\"b\": 1, \"c\": {\"x\": 1}}}"),
	X("['']\n[\"a.b\"]\n[\"\"]", "!3:1 table '' is already defined"),
	V("['']\n[\"a.b\"]", "{\"\": {}, \"a.b\": {}}"),
	V("[a]\nb = 1\n[a.c]\nd = 2\n[e] # done",
	  "{\"a\": {\"b\": 1, \"c\": {\"d\": 2}}, \"e\": {}}"),
	X("[fruit]\napple = \"red\"\n\n[fruit]\norange = \"orange\"",
	  "!4:1 table 'fruit' is already defined"),
	X("[fruit]\napple = \"red\"\n\n[fruit.apple]\ntexture = \"smooth\"",
	  "!4:1 'fruit.apple' already holds a value (string)"),
	X("[fruit]\napple.color = \"red\"\n[fruit.apple]",
	  "!3:1 table 'fruit.apple' is already defined"),
	X("[fruit]\napple.taste.sweet = true\n[fruit.apple.taste]",
	  "!3:1 table 'fruit.apple.taste' is already defined"),
	X("[a.b.c]\nz = 9\n[a]\nb.c.t = 1",
	  "!4:3 table 'b.c' is defined elsewhere"),
	X("[a.b.c.d]\nz = 9\n[a]\nb.c.d.k.t = 1",
	  "!4:5 table 'b.c.d' is defined elsewhere"),
	X("[a]\nb.c = 1\n[a.d]\n[a]", "!4:1 table 'a' is already defined"),
	X("[a]\nb.c = 1\n[a.x]\n[a]\nb.d = 2",
	  "!4:1 table 'a' is already defined"),
	X("[a.b.c]\n[a]\nb.y = 2\n[a.b]",
	  "!4:1 table 'a.b' is already defined"),
	X("a.b = 1\n[a]", "!2:1 table 'a' is already defined"),
	X("a = 1\n[a]", "!2:1 'a' already holds a value (integer)"),
	X("a = 1\n[a.b]", "!2:2 'a' already holds a value (integer)"),
	X("[]", "!1:2 expected a key, not ']'"),
	X("[a.]", "!1:4 expected a key, not ']'"),
	X("[a", "!1:3 expected ']'"),
	X("[a]x = 1", "!1:4 expected the end of the line after a table"),
	X("[a\n]", "!1:3 expected ']'"),
	X("[ [a] ]", "!1:3 expected a key, not '['"),
	X("[a]]", "!1:4 expected the end of the line"),
	X("[a] [b]", "!1:5 expected the end of the line"),

	/* Inline tables. */
	V("name = { first = \"Tom\", last = \"Preston-Werner\" }\n"
	  "point = { x = 1, y = 2 }\nanimal = { type.name = \"pug\" }",
	  "{\"name\": {\"first\": \"Tom\", \"last\": \"Preston-Werner\"}, "
	  "\"point\": {\"x\": 1, \"y\": 2}, \"animal\": {\"type\": "
	  "{\"name\": \"pug\"}}}"),
	V("a = {}\nb = { }\nc={d=1}", "{\"a\": {}, \"b\": {}, \"c\": {\"d\": "
	  "1}}"),
	V("a = {b.c = 1, b.d = 2}", "{\"a\": {\"b\": {\"c\": 1, \"d\": 2}}}"),
	V("a = { b = \"\"\"x\ny\"\"\", c = [\n1,\n2] }",
	  "{\"a\": {\"b\": \"x\\ny\", \"c\": [1, 2]}}"),
	V("a = { b = { c = { d = 1 } } } # a comment",
	  "{\"a\": {\"b\": {\"c\": {\"d\": 1}}}}"),
	V("a.b = {c = 1}\na.d = 2",
	  "{\"a\": {\"b\": {\"c\": 1}, \"d\": 2}}"),
	V("[t]\na = {x = [1, {y = 2}]}\n[t.b]",
	  "{\"t\": {\"a\": {\"x\": [1, {\"y\": 2}]}, \"b\": {}}}"),
	X("[product]\ntype = { name = \"Nail\" }\ntype.edible = false",
	  "!3:1 table 'type' was written inline"),
	X("[product]\ntype.name = \"Nail\"\n[product.type]",
	  "!3:1 table 'product.type' is already defined"),
	X("a = {b = 1,}", "!1:12 cannot end with a comma"),
	X("a = {,}", "!1:6 expected a key, not ','"),
	X("a = {b = 1 c = 2}", "!1:12 expected ',' or '}'"),
	X("a = {b = 1, b = 2}", "!1:13 duplicate key 'b'"),
	X("a = {\nb = 1}", "!1:6 must be on one line"),
	X("a = {b = 1\n}", "!1:11 must be closed on its line"),
	X("a = {b = 1,\nc = 2}", "!1:12 must be on one line"),
	X("a = { b = 1 # c\n}", "!1:13 expected ',' or '}'"),
	X("a = {b = 1", "!1:11 must be closed on its line"),
	X("a = {b = {c = 1}, b.d = 2}", "!1:19 table 'b' was written inline"),
	X("a = {b = [1], b.c = 2}", "!1:15 'b' already holds a value (array)"),
	X("a = {b = 1}\n[a.c]", "!2:2 table 'a' was written inline"),
	X("a = {b = 1}\n[a]", "!2:1 table 'a' is already defined"),
	X("a = {}\n[[a]]", "!2:1 'a' already holds a value (table)"),
	X("a.b = {c = 1}\na.b.d = 2", "!2:3 table 'a.b' was written inline"),
	X("a = {b = 1}\na.b = 2", "!2:1 table 'a' was written inline"),
	X("a = {b}", "!1:7 expected '='"),

	/* Arrays of tables. */
	V("[[products]]\nname = \"Hammer\"\nsku = 738594937\n\n"
	  "[[products]]  # empty table within the array\n\n[[products]]\n"
	  "name = \"Nail\"\nsku = 284758393\n\ncolor = \"gray\"",
	  "{\"products\": [{\"name\": \"Hammer\", \"sku\": 738594937}, {}, "
	  "{\"name\": \"Nail\", \"sku\": 284758393, \"color\": \"gray\"}]}"),
	V("[[fruits]]\nname = \"apple\"\n\n[fruits.physical]  # subtable\n"
	  "color = \"red\"\nshape = \"round\"\n\n"
	  "[[fruits.varieties]]  # nested array of tables\n"
	  "name = \"red delicious\"\n\n[[fruits.varieties]]\n"
	  "name = \"granny smith\"\n\n\n[[fruits]]\nname = \"banana\"\n\n"
	  "[[fruits.varieties]]\nname = \"plantain\"",
	  "{\"fruits\": [{\"name\": \"apple\", \"physical\": {\"color\": "
	  "\"red\", \"shape\": \"round\"}, \"varieties\": [{\"name\": "
	  "\"red delicious\"}, {\"name\": \"granny smith\"}]}, {\"name\": "
	  "\"banana\", \"varieties\": [{\"name\": \"plantain\"}]}]}"),
	V("points = [ { x = 1, y = 2, z = 3 },\n"
	  "           { x = 7, y = 8, z = 9 },\n"
	  "           { x = 2, y = 4, z = 8 } ]",
	  "{\"points\": [{\"x\": 1, \"y\": 2, \"z\": 3}, {\"x\": 7, \"y\": 8, "
	  "\"z\": 9}, {\"x\": 2, \"y\": 4, \"z\": 8}]}"),
	V("[[a]]\nb.c = 1\n[[a]]\nb.c = 2",
	  "{\"a\": [{\"b\": {\"c\": 1}}, {\"b\": {\"c\": 2}}]}"),
	V("[[a]]\n[a.b]\nx = 1\n[[a]]\n[a.b]\nx = 2",
	  "{\"a\": [{\"b\": {\"x\": 1}}, {\"b\": {\"x\": 2}}]}"),
	V("[[a.b]]\n[a]\nc = 1", "{\"a\": {\"b\": [{}], \"c\": 1}}"),
	V("[[a]]\n[[a.b]]\nx = 1\n[a.b.c]",
	  "{\"a\": [{\"b\": [{\"x\": 1, \"c\": {}}]}]}"),
	V("[[ a . b ]]\n[[ a.b ]] # two", "{\"a\": {\"b\": [{}, {}]}}"),
	V("[[a]]\nb = 1\n[[a]]\nb = 1", "{\"a\": [{\"b\": 1}, {\"b\": 1}]}"),
	X("[fruit.physical]  # subtable, but to which parent element should "
	  "it belong?\ncolor = \"red\"\nshape = \"round\"\n\n"
	  "[[fruit]]  # parser must throw an error upon discovering that "
	  "\"fruit\" is\n           # an array rather than a table\n"
	  "name = \"apple\"",
	  "!5:1 'fruit' already holds a value (table)"),
	X("fruits = []\n\n[[fruits]] # Not allowed",
	  "!3:1 'fruits' is an array written as a value"),
	X("[[fruits]]\nname = \"apple\"\n\n[[fruits.varieties]]\n"
	  "name = \"red delicious\"\n\n"
	  "# INVALID: This table conflicts with the previous array of tables\n"
	  "[fruits.varieties]\nname = \"granny smith\"",
	  "!8:1 'fruits.varieties' is an array of tables"),
	X("[[fruits]]\n[fruits.physical]\ncolor = \"red\"\n"
	  "[[fruits.physical]]",
	  "!4:1 'fruits.physical' already holds a value (table)"),
	X("[[a]]\n[a]", "!2:1 'a' is an array of tables"),
	X("[a]\n[[a]]", "!2:1 'a' already holds a value (table)"),
	X("a = [{b = 1}]\n[a.c]", "!2:2 'a' is an array written as a value"),
	X("a = [{b = 1}]\n[[a]]", "!2:1 'a' is an array written as a value"),
	X("[[a]]\na.b = 1\n[[a]]\nb = 1\nb = 2", "!5:1 duplicate key 'b'"),
	X("[[a]]\nx = 1\n[a]\n", "!3:1 'a' is an array of tables"),
	X("[[a] ]", "!1:4 expected ']]'"),
	X("[[a]", "!1:4 expected ']]'"),
	X("[[]]", "!1:3 expected a key, not ']'"),
	X("[[a]]\n[[a]]]", "!2:6 expected the end of the line"),
	X("[[a]]\nb = 1\n[[a]]\nb.c = 1\n[a.b]",
	  "!5:1 table 'a.b' is already defined"),

	/* UTF-8 (the whole document must be valid UTF-8). */
	X("a = \"\xFF\"", "!1:6 invalid UTF-8"),
	X("a = \"\xC0\xAF\"", "!1:6 invalid UTF-8"),
	X("a = \"\xED\xA0\x80\"", "!1:6 invalid UTF-8"),
	X("a = \"\xE2\x82\"", "!1:6 invalid UTF-8"),
	X("a = \"\xF4\x90\x80\x80\"", "!1:6 invalid UTF-8"),
	X("# \xE9t\xE9\na = 1", "!1:3 invalid UTF-8"),
	X("a = 1\nb = '\xC3\xA9\xC3'", "!2:7 invalid UTF-8"),

	/* The specification's opening example. */
	V("# This is a TOML document\n\ntitle = \"TOML Example\"\n\n[owner]\n"
	  "name = \"Tom Preston-Werner\"\ndob = 1979-05-27T07:32:00-08:00\n\n"
	  "[database]\nenabled = true\nports = [ 8000, 8001, 8002 ]\n"
	  "data = [ [\"delta\", \"phi\"], [3.14] ]\n"
	  "temp_targets = { cpu = 79.5, case = 72.0 }\n\n[servers]\n\n"
	  "[servers.alpha]\nip = \"10.0.0.1\"\nrole = \"frontend\"\n\n"
	  "[servers.beta]\nip = \"10.0.0.2\"\nrole = \"backend\"\n",
	  "{\"title\": \"TOML Example\", \"owner\": {\"name\": \"Tom "
	  "Preston-Werner\", \"dob\": 1979-05-27T07:32:00-08:00}, "
	  "\"database\": {\"enabled\": true, \"ports\": [8000, 8001, 8002], "
	  "\"data\": [[\"delta\", \"phi\"], [3.14]], \"temp_targets\": "
	  "{\"cpu\": 79.5, \"case\": 72.0}}, \"servers\": {\"alpha\": "
	  "{\"ip\": \"10.0.0.1\", \"role\": \"frontend\"}, \"beta\": "
	  "{\"ip\": \"10.0.0.2\", \"role\": \"backend\"}}}"),

	/* Front matter as Hugo and Zola write it. */
	V("title = \"Moving a Hugo archive\"\ndate = 2024-03-02T09:15:00Z\n"
	  "lastmod = 2024-03-04\ndraft = false\ntags = [\"hugo\", \"toml\"]\n"
	  "categories = ['notes']\nweight = 3\naliases = [\"/old/path/\"]\n"
	  "[params]\nsubtitle = '''Two\nlines'''\n",
	  "{\"title\": \"Moving a Hugo archive\", \"date\": "
	  "2024-03-02T09:15:00Z, \"lastmod\": 2024-03-04, \"draft\": false, "
	  "\"tags\": [\"hugo\", \"toml\"], \"categories\": [\"notes\"], "
	  "\"weight\": 3, \"aliases\": [\"/old/path/\"], \"params\": "
	  "{\"subtitle\": \"Two\\nlines\"}}"),
	V("title = \"Zola\"\ndescription = \"A post.\"\ndate = 2024-03-02\n"
	  "\n[taxonomies]\ntags = [\"rust\", \"ssg\"]\ncategories = "
	  "[\"notes\"]\n\n[extra]\nseries = \"Static sites\"\ntoc = true\n",
	  "{\"title\": \"Zola\", \"description\": \"A post.\", \"date\": "
	  "2024-03-02, \"taxonomies\": {\"tags\": [\"rust\", \"ssg\"], "
	  "\"categories\": [\"notes\"]}, \"extra\": {\"series\": "
	  "\"Static sites\", \"toc\": true}}"),
};

/* The dump form (see the top of this file). */
static void
dump_str(struct buf *b, const char *s, size_t len)
{
	size_t	 i;

	buf_addc(b, '"');
	for (i = 0; i < len; i++) {
		unsigned char	 c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, c);
		} else if (c == '\n')
			buf_addstr(b, "\\n");
		else if (c == '\t')
			buf_addstr(b, "\\t");
		else if (c < 0x20 || c == 0x7F)
			buf_printf(b, "\\u%04X", c);
		else
			buf_addc(b, c);
	}
	buf_addc(b, '"');
}

static void
dump_float(struct buf *b, double x)
{
	char	 s[64];
	int	 prec;

	if (isnan(x)) {
		buf_addstr(b, "nan");
		return;
	}
	if (isinf(x)) {
		buf_addstr(b, x > 0 ? "inf" : "-inf");
		return;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(s, sizeof(s), "%.*g", prec, x);
		if (strtod(s, NULL) == x)
			break;
	}
	snprintf(s, sizeof(s), "%.*g", prec, x);
	buf_addstr(b, s);
	if (strpbrk(s, ".en") == NULL)
		buf_addstr(b, ".0");
}

static void
dump_clock(struct buf *b, const struct toml_datetime *dt)
{
	char	 f[24];
	long	 us = dt->nsec / 1000;
	int	 n;

	buf_printf(b, "%02d:%02d:%02d", dt->hour, dt->minute, dt->second);
	if (us == 0)
		return;
	snprintf(f, sizeof(f), "%06ld", us);
	for (n = 6; f[n - 1] == '0'; n--)
		continue;
	buf_printf(b, ".%.*s", n, f);
}

static void
dump(struct buf *b, const struct toml_value *v)
{
	const struct toml_datetime *dt = &v->u.dt;
	size_t	 i;

	switch (v->type) {
	case TOML_TABLE:
		buf_addc(b, '{');
		for (i = 0; i < v->u.table.n; i++) {
			if (i > 0)
				buf_addstr(b, ", ");
			dump_str(b, v->u.table.kv[i].key,
			    v->u.table.kv[i].keylen);
			buf_addstr(b, ": ");
			dump(b, v->u.table.kv[i].val);
		}
		buf_addc(b, '}');
		break;
	case TOML_ARRAY:
		buf_addc(b, '[');
		for (i = 0; i < v->u.array.n; i++) {
			if (i > 0)
				buf_addstr(b, ", ");
			dump(b, v->u.array.v[i]);
		}
		buf_addc(b, ']');
		break;
	case TOML_STRING:
		dump_str(b, v->u.str.s, v->u.str.len);
		break;
	case TOML_INTEGER:
		buf_printf(b, "%lld", (long long)v->u.integer);
		break;
	case TOML_FLOAT:
		dump_float(b, v->u.flt);
		break;
	case TOML_BOOL:
		buf_addstr(b, v->u.boolean ? "true" : "false");
		break;
	case TOML_DATETIME:
	case TOML_LOCAL_DATETIME:
	case TOML_LOCAL_DATE:
		buf_printf(b, "%04d-%02d-%02d", dt->year, dt->month, dt->day);
		if (v->type == TOML_LOCAL_DATE)
			break;
		buf_addc(b, 'T');
		dump_clock(b, dt);
		if (v->type == TOML_LOCAL_DATETIME)
			break;
		if (dt->offset == 0)
			buf_addc(b, 'Z');
		else
			buf_printf(b, "%c%02d:%02d", dt->offset < 0 ? '-' :
			    '+', abs(dt->offset) / 60, abs(dt->offset) % 60);
		break;
	case TOML_LOCAL_TIME:
		dump_clock(b, dt);
		break;
	}
}

/* What src gives: the dump, or "!LINE:COL message". */
static char *
outcome(const char *src, size_t len)
{
	struct toml_value	*root;
	struct toml_error	 err;
	struct buf		 b = BUF_INIT;

	if (toml_parse(src, len, &root, &err) == -1) {
		OK(root == NULL, "no tree on error");
		buf_printf(&b, "!%u:%u %s", err.line, err.col, err.msg);
		return buf_release(&b);
	}
	dump(&b, root);
	toml_free(root);
	return buf_release(&b);
}

static size_t
case_len(const struct tcase *c)
{
	return c->len ? c->len : strlen(c->src);
}

static int nvalid, ninvalid;

static void
test_cases(void)
{
	const struct tcase	*c;
	const char		*sp;
	char			*got;
	size_t			 i, n;

	for (i = 0; i < nitems(cases); i++) {
		c = &cases[i];
		got = outcome(c->src, case_len(c));
		if (c->want[0] != '!') {
			nvalid++;
			OK(strcmp(got, c->want) == 0, "case %zu:\n%s\n"
			    "got:  %s\nwant: %s", i, c->src, got, c->want);
		} else {
			ninvalid++;
			/* "!L:C words": the place exactly, the words within */
			sp = strchr(c->want, ' ');
			n = (size_t)(sp - c->want);
			OK(strncmp(got, c->want, n) == 0 && got[n] == ' ' &&
			    strstr(got + n, sp + 1) != NULL,
			    "case %zu:\n%s\ngot:  %s\nwant: %s", i, c->src, got,
			    c->want);
		}
		free(got);
	}
}

/*
 * Every case through tomllib (tests/unit/toml_dump.py).  Returns 0, or
 * -1 when python3 with tomllib is not there (skipped).
 */
static int
test_tomllib(void)
{
	const char	*top = getenv("CAPSULED_TOP");
	char		 path[] = "/tmp/test_toml.XXXXXX", cmd[2048];
	char		*line = NULL, *got;
	size_t		 cap = 0, i;
	ssize_t		 n;
	FILE		*f, *py;
	int		 fd, seen = 0;

	if (system("python3 -c 'import tomllib' >/dev/null 2>&1") != 0)
		return -1;
	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w")) == NULL) {
		OK(0, "mkstemp");
		return 0;
	}
	for (i = 0; i < nitems(cases); i++) {
		fprintf(f, "%zu\n", case_len(&cases[i]));
		fwrite(cases[i].src, 1, case_len(&cases[i]), f);
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 %s/tests/unit/toml_dump.py %s",
	    top ? top : ".", path);
	if ((py = popen(cmd, "r")) == NULL) {
		OK(0, "popen %s", cmd);
		unlink(path);
		return 0;
	}
	for (i = 0; (n = getline(&line, &cap, py)) > 0; i++) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (i >= nitems(cases))
			break;
		seen++;
		if (cases[i].py == PY_ACCEPTS) {
			OK(line[0] != '!', "case %zu: tomllib was to accept "
			    "it:\n%s", i, cases[i].src);
			continue;
		}
		if (cases[i].py == PY_REFUSES) {
			OK(line[0] == '!', "case %zu: tomllib was to refuse "
			    "it:\n%s", i, cases[i].src);
			continue;
		}
		got = outcome(cases[i].src, case_len(&cases[i]));
		if (got[0] == '!')
			OK(line[0] == '!', "case %zu: tomllib accepts what we "
			    "refuse:\n%s\nours:    %s\ntomllib: %s", i,
			    cases[i].src, got, line);
		else
			OK(strcmp(got, line) == 0, "case %zu: tomllib "
			    "differs:\n%s\nours:    %s\ntomllib: %s", i,
			    cases[i].src, got, line);
		free(got);
	}
	free(line);
	INT_EQ(pclose(py), 0, "toml_dump.py exit status");
	INT_EQ(seen, nitems(cases), "tomllib read every case");
	printf("tomllib cross-check: %d cases\n", seen);
	unlink(path);
	return 0;
}

/* The tree as a program reads it. */
static void
test_api(void)
{
	struct toml_value	*root;
	struct toml_error	 err;
	const struct toml_value	*v, *t;
	unsigned		 line, col;
	const char		*src = "title = \"x\\u0000y\"\n"
	    "[when]\nodt = 1979-05-27T00:32:00.123456789-07:30\n"
	    "lt = 07:32:00.5\n[[list]]\nn = 1\n[[list]]\nn = 2\n";

	OK(toml_parse(src, strlen(src), &root, &err) == 0, "api: %s",
	    err.msg);
	INT_EQ(root->type, TOML_TABLE, "root is a table");
	INT_EQ(root->u.table.n, 3, "three keys at the root");
	STR_EQ(root->u.table.kv[0].key, "title", "first key");
	STR_EQ(root->u.table.kv[1].key, "when", "second key");
	STR_EQ(root->u.table.kv[2].key, "list", "third key");
	v = toml_get(root, "title");
	OK(v != NULL && v->type == TOML_STRING, "title is a string");
	INT_EQ(v->u.str.len, 3, "a NUL is kept");
	OK(memcmp(v->u.str.s, "x\0y", 4) == 0, "x NUL y NUL");
	toml_position(src, strlen(src), v->off, &line, &col);
	INT_EQ(line, 1, "title's value: line");
	INT_EQ(col, 9, "title's value: column");

	t = toml_get(root, "when");
	v = toml_get(t, "odt");
	OK(v != NULL && v->type == TOML_DATETIME, "odt");
	INT_EQ(v->u.dt.year, 1979, "year");
	INT_EQ(v->u.dt.month, 5, "month");
	INT_EQ(v->u.dt.day, 27, "day");
	INT_EQ(v->u.dt.hour, 0, "hour");
	INT_EQ(v->u.dt.minute, 32, "minute");
	INT_EQ(v->u.dt.second, 0, "second");
	INT_EQ(v->u.dt.nsec, 123456789, "nanoseconds kept");
	INT_EQ(v->u.dt.offset, -(7 * 60 + 30), "offset in minutes");
	toml_position(src, strlen(src), v->off, &line, &col);
	INT_EQ(line, 3, "odt: line");
	INT_EQ(col, 7, "odt: column");
	v = toml_get(t, "lt");
	OK(v != NULL && v->type == TOML_LOCAL_TIME, "local time");
	INT_EQ(v->u.dt.nsec, 500000000, "half a second");
	INT_EQ(v->u.dt.year, 0, "no date in a local time");
	OK(toml_get(t, "nope") == NULL, "absent key");
	OK(toml_get(v, "x") == NULL, "not a table");

	v = toml_get(root, "list");
	OK(v != NULL && v->type == TOML_ARRAY && v->u.array.n == 2,
	    "array of two tables");
	INT_EQ(toml_get(v->u.array.v[1], "n")->u.integer, 2, "second n");
	STR_EQ(toml_type_name(TOML_LOCAL_DATE), "local date", "type name");
	toml_free(root);
	toml_free(NULL);

	/* Columns count characters, not bytes. */
	src = "\"\xC3\xA9\xC3\xA9\" = 1 2";
	OK(toml_parse(src, strlen(src), &root, &err) == -1, "refused");
	INT_EQ(err.line, 1, "line");
	INT_EQ(err.col, 10, "column in characters");
	INT_EQ(err.off, 11, "offset in bytes");

	/* Messages name keys printably, and not at any length. */
	src = "\"a\\u0001b\" = 1\n\"a\\u0001b\" = 2";
	OK(toml_parse(src, strlen(src), &root, &err) == -1, "refused");
	HAS(err.msg, "duplicate key 'a?b'", "control shown as ?");
	src = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa = 1\n"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa = 1";
	OK(toml_parse(src, strlen(src), &root, &err) == -1, "refused");
	HAS(err.msg, "aaaa...'", "long key cut");
}

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Parse b; returns 0/-1 and the seconds it took in *secs. */
static int
timed(const struct buf *b, double *secs, struct toml_error *err)
{
	struct toml_value	*root;
	double			 t0 = now();
	int			 rv;

	rv = toml_parse(b->data, b->len, &root, err);
	*secs = now() - t0;
	toml_free(root);
	return rv;
}

/* Depth, size and time are bounded, whatever the input. */
static void
test_limits(void)
{
	struct toml_error	 err;
	struct buf		 b = BUF_INIT;
	double			 secs;
	int			 i;

	/* 64 levels of arrays under a key at the root: the most. */
	buf_addstr(&b, "a = ");
	for (i = 0; i < TOML_MAX_DEPTH; i++)
		buf_addc(&b, '[');
	for (i = 0; i < TOML_MAX_DEPTH; i++)
		buf_addc(&b, ']');
	OK(timed(&b, &secs, &err) == 0, "depth %d: %s", TOML_MAX_DEPTH,
	    err.msg);
	buf_truncate(&b, 0);
	buf_addstr(&b, "a = ");
	for (i = 0; i <= TOML_MAX_DEPTH; i++)
		buf_addc(&b, '[');
	for (i = 0; i <= TOML_MAX_DEPTH; i++)
		buf_addc(&b, ']');
	OK(timed(&b, &secs, &err) == -1, "depth %d + 1", TOML_MAX_DEPTH);
	HAS(err.msg, "nested more than 64 deep", "too deep");

	/* A million '[' or '{' stop at the limit, not at the stack. */
	buf_truncate(&b, 0);
	buf_addstr(&b, "a = ");
	for (i = 0; i < 1000000; i++)
		buf_addc(&b, i % 2 ? '[' : '{');
	OK(timed(&b, &secs, &err) == -1, "a million openers");

	/* Dotted keys, headers and arrays of tables count too. */
	buf_truncate(&b, 0);
	for (i = 0; i < 100; i++)
		buf_addstr(&b, i ? ".k" : "k");
	buf_addstr(&b, " = 1");
	OK(timed(&b, &secs, &err) == -1, "a key of 100 parts");
	buf_truncate(&b, 0);
	buf_addc(&b, '[');
	for (i = 0; i < 64; i++)
		buf_addstr(&b, i ? ".k" : "k");
	buf_addstr(&b, "]\nx = 1");
	OK(timed(&b, &secs, &err) == 0, "a header of 64 parts: %s", err.msg);
	buf_truncate(&b, 0);
	buf_addc(&b, '[');
	for (i = 0; i < 64; i++)
		buf_addstr(&b, i ? ".k" : "k");
	buf_addstr(&b, "]\ny.z = 1");
	OK(timed(&b, &secs, &err) == -1, "and one more level by a dotted key");
	buf_truncate(&b, 0);
	for (i = 0; i < 40; i++) {
		buf_addstr(&b, "[[k");
		for (int j = 0; j < i; j++)
			buf_addstr(&b, ".k");
		buf_addstr(&b, "]]\n");
	}
	OK(timed(&b, &secs, &err) == -1, "arrays of tables, nested 80 deep");
	HAS(err.msg, "nested more than", "arrays of tables too deep");
	buf_free(&b);
}

/*
 * Inputs built to be slow must cost time in proportion to their size:
 * each is parsed at n and 4n, and 4n may not take much more than four
 * times as long (quadratic work would take sixteen).  The bounds are
 * generous, for a loaded machine: this catches blow-ups, not slowdowns.
 */
static void
scaling(const char *what, void (*make)(struct buf *, int), int n)
{
	struct toml_error	 err;
	struct buf		 b = BUF_INIT;
	double			 t1, t4;

	if (harness_valgrind())
		n /= 4;
	make(&b, n);
	timed(&b, &t1, &err);
	buf_truncate(&b, 0);
	make(&b, 4 * n);
	timed(&b, &t4, &err);
	OK(t4 < harness_time_bound(5.0) && t4 < 10 * t1 + 0.25,
	    "%s: %.3f s at %d, %.3f s at %d", what, t1, n, t4, 4 * n);
	buf_free(&b);
}

static void
many_keys(struct buf *b, int n)
{
	for (int i = 0; i < n; i++)
		buf_printf(b, "k%d = %d\n", i, i);
}

static void
many_dotted(struct buf *b, int n)
{
	for (int i = 0; i < n; i++)
		buf_printf(b, "a.b%d.c = %d\n", i, i);
}

static void
many_headers(struct buf *b, int n)
{
	for (int i = 0; i < n; i++)
		buf_printf(b, "[t%d]\n[[aot]]\nx = 1\n[aot.s]\n", i);
}

static void
long_array(struct buf *b, int n)
{
	buf_addstr(b, "a = [");
	for (int i = 0; i < n; i++)
		buf_addstr(b, "1, 'x', {a = 1}, ");
	buf_addstr(b, "]");
}

static void
long_array_error(struct buf *b, int n)
{
	long_array(b, n);
	buf_addstr(b, " oops");
}

static void
quotes(struct buf *b, int n)
{
	buf_addstr(b, "a = \"\"\"");
	for (int i = 0; i < n; i++)
		buf_addstr(b, "\"\"x\\\n  ");
	buf_addstr(b, "\"\"\"");
}

static void
duplicates_at_end(struct buf *b, int n)
{
	buf_addstr(b, "[t]\n");
	many_keys(b, n);
	buf_addstr(b, "k0 = 1\n");
}

static void
test_hostile(void)
{
	scaling("distinct keys", many_keys, 20000);
	scaling("dotted keys", many_dotted, 20000);
	scaling("headers and arrays of tables", many_headers, 5000);
	scaling("a long array", long_array, 20000);
	scaling("an error after a long line", long_array_error, 20000);
	scaling("quotes and escaped newlines", quotes, 50000);
	scaling("a duplicate key last", duplicates_at_end, 20000);
}

/* Every prefix of a document parses or fails cleanly (under ASan). */
static void
test_prefixes(void)
{
	const struct tcase	*c = &cases[nitems(cases) - 3];
	struct toml_value	*root;
	struct toml_error	 err;
	size_t			 i, len = case_len(c), bad = 0;

	for (i = 0; i <= len; i++) {
		if (toml_parse(c->src, i, &root, &err) == 0)
			toml_free(root);
		else if (err.line == 0 || err.col == 0 || err.msg[0] == '\0')
			bad++;
	}
	INT_EQ(bad, 0, "every prefix: a tree or a placed error");
}

static const struct harness_test tests[] = {
	NAMED("cases"),
	NAMED("api"),
	NAMED("limits"),
	NAMED("hostile"),
	NAMED("prefixes"),
};

int
main(int argc, char **argv)
{
	int	 skipped = 0;

	HARNESS_INIT(argc, argv, tests);

	RUN("cases", test_cases());
	printf("conformance cases: %d valid, %d invalid\n", nvalid, ninvalid);
	if (test_tomllib() == -1) {
		fprintf(stderr, "test_toml: no python3 with tomllib: "
		    "cross-check skipped\n");
		skipped = 1;
	}
	RUN("api", test_api());
	RUN("limits", test_limits());
	RUN("hostile", test_hostile());
	RUN("prefixes", test_prefixes());
	if (skipped) {
		printf("%d passed, %d failed, %d skipped\n", harness_passed,
		    harness_failed, skipped);
		return harness_failed == 0 ? 0 : 1;
	}
	return harness_done();
}
