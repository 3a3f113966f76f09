/*
 * test_url.c -- url_parse(), url_decode(), the encoders and the small
 * helpers on their own (the gemini URI scheme and the request rules
 * of the Gemini specification).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "harness.h"
#include "core/url.h"

/* One url_parse() case: NULL host means "must be rejected". */
struct good {
	const char	*in;
	const char	*scheme;
	const char	*host;
	int		 port;
	const char	*path;
	const char	*query;
};

static const struct good goods[] = {
	{ "gemini://example.org/", "gemini", "example.org", -1, "/", NULL },
	{ "gemini://example.org", "gemini", "example.org", -1, "/", NULL },
	{ "gemini://example.org?q", "gemini", "example.org", -1, "/", "q" },
	{ "gemini://example.org:1965?", "gemini", "example.org", 1965, "/",
	    "" },
	{ "gemini://e.org:1965/a/b", "gemini", "e.org", 1965, "/a/b", NULL },
	{ "gemini://e.org:/", "gemini", "e.org", -1, "/", NULL },
	{ "gemini://e.org:01965/", "gemini", "e.org", 1965, "/", NULL },
	{ "gemini://e.org:65535/", "gemini", "e.org", 65535, "/", NULL },
	{ "GEMINI://Example.ORG/Posts/", "gemini", "example.org", -1,
	    "/Posts/", NULL },
	{ "GeMiNi+X-1.0://h/", "gemini+x-1.0", "h", -1, "/", NULL },
	{ "gemini://[::1]:1965/", "gemini", "[::1]", 1965, "/", NULL },
	{ "gemini://[2001:DB8::1]/x", "gemini", "[2001:db8::1]", -1, "/x",
	    NULL },
	{ "gemini://[::ffff:127.0.0.1]", "gemini", "[::ffff:127.0.0.1]", -1,
	    "/", NULL },
	{ "gemini://127.0.0.1:1965/", "gemini", "127.0.0.1", 1965, "/",
	    NULL },
	{ "gemini://a/%20b%3Fc%23d", "gemini", "a", -1, "/ b?c#d", NULL },
	{ "gemini://a/%7e%7E", "gemini", "a", -1, "/~~", NULL },
	{ "gemini://a/%C3%A9t%C3%A9", "gemini", "a", -1, "/\xC3\xA9t\xC3\xA9",
	    NULL },
	{ "gemini://a/\xC3\xA9t\xC3\xA9", "gemini", "a", -1,
	    "/\xC3\xA9t\xC3\xA9", NULL },
	{ "gemini://b\xC3\xBC" "cher.de/", "gemini", "b\xC3\xBC" "cher.de", -1,
	    "/", NULL },
	{ "gemini://a/search?caf%C3%A9%20au%20lait", "gemini", "a", -1,
	    "/search", "caf%C3%A9%20au%20lait" },
	{ "gemini://a/s?x=1&y=/?z:@!$'()*+,;=", "gemini", "a", -1, "/s",
	    "x=1&y=/?z:@!$'()*+,;=" },
	{ "gemini://a/p;x=1:@!$&'()*+,=-._~", "gemini", "a", -1,
	    "/p;x=1:@!$&'()*+,=-._~", NULL },
	{ "gemini://a/...", "gemini", "a", -1, "/...", NULL },
	{ "gemini://a/.x/..y/x./x..", "gemini", "a", -1, "/.x/..y/x./x..",
	    NULL },
	{ "gemini://a//x//", "gemini", "a", -1, "//x//", NULL },
	{ "gemini://a/%2e%2e%2e", "gemini", "a", -1, "/...", NULL },
	{ "gemini://a/%5C..", "gemini", "a", -1, "/\\..", NULL },
	{ "gemini://a/?%2e%2e/%2f", "gemini", "a", -1, "/", "%2e%2e/%2f" },
	{ "http://example.org/", "http", "example.org", -1, "/", NULL },
	{ "gemini://a!$&'()*+,;=-._~b/", "gemini", "a!$&'()*+,;=-._~b", -1,
	    "/", NULL },
};

/* Rejected inputs with a word the error message must contain. */
static const struct {
	const char	*in;
	const char	*why;
} bads[] = {
	{ "", "empty" },
	{ "\xEF\xBB\xBFgemini://a/", "byte order" },
	{ "gemini://a/\xDC", "UTF-8" },
	{ "\xDC", "UTF-8" },
	{ "gemini://a/\xC0\xAF", "UTF-8" },		/* overlong '/' */
	{ "gemini://a/\xE0\x80\xAF", "UTF-8" },		/* overlong */
	{ "gemini://a/\xED\xA0\x80", "UTF-8" },		/* surrogate */
	{ "gemini://a/\xF4\x90\x80\x80", "UTF-8" },	/* > U+10FFFF */
	{ "gemini://a/\xC3", "UTF-8" },			/* truncated */
	{ " ", "space" },
	{ "   \t", "space" },
	{ " gemini://a/", "space" },
	{ "gemini://a/b c", "space" },
	{ "gemini://a/b\tc", "space" },
	{ "gemini://a/\x7F", "control" },
	{ "gemini://a/\r", "control" },
	{ "gemini://a/#frag", "fragment" },
	{ "gemini://a/#", "fragment" },
	{ "gemini://a/?q#f", "fragment" },
	{ "gemini://u@a/", "userinfo" },
	{ "gemini://u:p@a:1965/", "userinfo" },
	{ "gemini://@a/", "userinfo" },
	{ "//a/", "absolute" },
	{ "/", "absolute" },
	{ "foo", "absolute" },
	{ "1gemini://a/", "absolute" },
	{ "gem_ini://a/", "absolute" },
	{ ":", "absolute" },
	{ "gemini:a/", "authority" },
	{ "gemini:/a/", "authority" },
	{ "gemini:", "authority" },
	{ "gemini://", "host" },
	{ "gemini:///x", "host" },
	{ "gemini://:1965/", "host" },
	{ "gemini://a%41/", "host" },
	{ "gemini://a<b/", "host" },
	{ "gemini://a]/", "host" },
	{ "gemini://[::1/", "IPv6" },
	{ "gemini://[::g]/", "IPv6" },
	{ "gemini://[]/", "IPv6" },
	{ "gemini://[127.0.0.1]/", "IPv6" },
	{ "gemini://[v1.x]/", "IPv6" },
	{ "gemini://[fe80::1%25eth0]/", "IPv6" },
	{ "gemini://[::1]x/", "host" },
	{ "gemini://a:0/", "port" },
	{ "gemini://a:65536/", "port" },
	{ "gemini://a:99999999999999999999/", "port" },
	{ "gemini://a:-1/", "port" },
	{ "gemini://a:1x/", "port" },
	{ "gemini://a:1965:1965/", "port" },
	{ "gemini://a/..", "dot" },
	{ "gemini://a/../", "dot" },
	{ "gemini://a/.", "dot" },
	{ "gemini://a/./", "dot" },
	{ "gemini://a/b/./c", "dot" },
	{ "gemini://a/b/../c", "dot" },
	{ "gemini://a/../../etc/passwd", "dot" },
	{ "gemini://a/%2e%2e/x", "dot" },
	{ "gemini://a/%2E%2E/x", "dot" },
	{ "gemini://a/.%2e/x", "dot" },
	{ "gemini://a/%2e./x", "dot" },
	{ "gemini://a/x/%2e", "dot" },
	{ "gemini://a/x/%2e?q", "dot" },
	{ "gemini://a/x/..?q", "dot" },
	{ "gemini://a/%2f", "slash" },
	{ "gemini://a/..%2f..%2fetc", "slash" },
	{ "gemini://a/%2F", "slash" },
	{ "gemini://a/%00", "NUL" },
	{ "gemini://a/?%00", "NUL" },
	{ "gemini://a/%zz", "escape" },
	{ "gemini://a/%4", "escape" },
	{ "gemini://a/%", "escape" },
	{ "gemini://a/%%41", "escape" },
	{ "gemini://a/?%g0", "escape" },
	{ "gemini://a/?q%", "escape" },
	{ "gemini://a/%ff", "UTF-8" },
	{ "gemini://a/%C3", "UTF-8" },
	{ "gemini://a/%C0%AF", "UTF-8" },
	{ "gemini://a/%ED%A0%80", "UTF-8" },
	{ "gemini://a/%0a", "control" },
	{ "gemini://a/%0D%0A", "control" },
	{ "gemini://a/%7F", "control" },
	{ "gemini://a/a\\b", "character in path" },
	{ "gemini://a/<x>", "character in path" },
	{ "gemini://a/[x]", "character in path" },
	{ "gemini://a/a|b", "character in path" },
	{ "gemini://a/a\"b", "character in path" },
	{ "gemini://a/^`{}", "character in path" },
	{ "gemini://a/?a b", "space" },
	{ "gemini://a/?<", "character in query" },
	{ "gemini://a/?\\", "character in query" },
};

static void
test_parse_good(void)
{
	struct url	 u;
	const char	*err;
	char		*s;
	size_t		 i;

	for (i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
		s = strdup(goods[i].in);
		err = NULL;
		INT_EQ(url_parse(s, &u, &err), 0, goods[i].in);
		if (err != NULL)
			fprintf(stderr, "  %s: %s\n", goods[i].in, err);
		STR_EQ(u.scheme, goods[i].scheme, goods[i].in);
		STR_EQ(u.host, goods[i].host, goods[i].in);
		INT_EQ(u.port, goods[i].port, goods[i].in);
		STR_EQ(u.path, goods[i].path, goods[i].in);
		STR_EQ(u.query, goods[i].query, goods[i].in);
		free(s);
	}
}

static void
test_parse_bad(void)
{
	struct url	 u;
	const char	*err;
	char		*s;
	size_t		 i;

	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		s = strdup(bads[i].in);
		err = NULL;
		INT_EQ(url_parse(s, &u, &err), -1, bads[i].in);
		HAS(err, bads[i].why, bads[i].in);
		HAS(err, "Bad request: ", bads[i].in);
		free(s);
	}
}

/* The longest legal request: a 1024-byte URL, parsed in place. */
static void
test_parse_long(void)
{
	char		 s[1025];
	struct url	 u;
	const char	*err;

	memset(s, 'x', sizeof(s) - 1);
	memcpy(s, "gemini://example.org/", 21);
	s[1024] = '\0';
	INT_EQ(url_parse(s, &u, &err), 0, "1024-byte URL");
	INT_EQ(strlen(u.path), 1024 - 20, "1024-byte URL path");
	STR_EQ(u.host, "example.org", "1024-byte URL host");
}

static void
test_decode(void)
{
	char	 s[64];

	snprintf(s, sizeof(s), "a%%20b%%2Fc%%2fd%%7e");
	INT_EQ(url_decode(s), 0, "decode");
	STR_EQ(s, "a b/c/d~", "decode result");
	snprintf(s, sizeof(s), "plain+text");
	INT_EQ(url_decode(s), 0, "decode plain");
	STR_EQ(s, "plain+text", "'+' is not a space");
	snprintf(s, sizeof(s), "%%e2%%82%%AC");
	INT_EQ(url_decode(s), 0, "decode euro");
	STR_EQ(s, "\xE2\x82\xAC", "decode euro result");
	snprintf(s, sizeof(s), "%s", "");
	INT_EQ(url_decode(s), 0, "decode empty");
	snprintf(s, sizeof(s), "x%%00y");
	INT_EQ(url_decode(s), -1, "decode %00");
	snprintf(s, sizeof(s), "%%");
	INT_EQ(url_decode(s), -1, "decode lone %");
	snprintf(s, sizeof(s), "%%4");
	INT_EQ(url_decode(s), -1, "decode %4");
	snprintf(s, sizeof(s), "%%4g");
	INT_EQ(url_decode(s), -1, "decode %4g");
	snprintf(s, sizeof(s), "%%g4");
	INT_EQ(url_decode(s), -1, "decode %g4");
	snprintf(s, sizeof(s), "%%%%41");
	INT_EQ(url_decode(s), -1, "decode %%41");
}

static void
test_encode(void)
{
	struct buf	 b = BUF_INIT;

	url_encode_path("/posts/hello-world_1.0~x", &b);
	STR_EQ(b.data, "/posts/hello-world_1.0~x", "unreserved kept");
	buf_truncate(&b, 0);
	url_encode_path("/a b?c#d%e+f&g:h@i", &b);
	STR_EQ(b.data, "/a%20b%3Fc%23d%25e%2Bf%26g%3Ah%40i", "reserved");
	buf_truncate(&b, 0);
	url_encode_path("/\xC3\xA9t\xC3\xA9\x7F\t", &b);
	STR_EQ(b.data, "/%C3%A9t%C3%A9%7F%09", "UTF-8 and controls");
	buf_truncate(&b, 0);
	url_encode_path("", &b);
	INT_EQ(b.len, 0, "empty");
	buf_free(&b);
}

static void
test_encode_link(void)
{
	struct buf	 b = BUF_INIT;

	url_encode_link("", &b);
	STR_EQ(b.data, "", "empty: a terminated string");
	buf_truncate(&b, 0);
	url_encode_link("gemini://h/a?b=c&d#e;f:g@h!$'()*+,", &b);
	STR_EQ(b.data, "gemini://h/a?b=c&d#e;f:g@h!$'()*+,", "reserved kept");
	buf_truncate(&b, 0);
	url_encode_link("a b\t\x7F<>\"{}|\\^`", &b);
	STR_EQ(b.data, "a%20b%09%7F%3C%3E%22%7B%7D%7C%5C%5E%60",
	    "space, controls and unsafe bytes");
	buf_truncate(&b, 0);
	url_encode_link("caf\xC3\xA9", &b);
	STR_EQ(b.data, "caf%C3%A9", "non-ASCII");
	buf_truncate(&b, 0);
	url_encode_link("%41%e9%4%zz%", &b);
	STR_EQ(b.data, "%41%e9%254%25zz%25", "escapes kept, bad '%' encoded");
	buf_free(&b);
}

static void
test_scheme_hex(void)
{
	INT_EQ(url_has_scheme("gemini://h/"), 1, "gemini:");
	INT_EQ(url_has_scheme("mailto:x@y"), 1, "mailto:");
	INT_EQ(url_has_scheme("svn+ssh://h"), 1, "svn+ssh:");
	INT_EQ(url_has_scheme("a1.-+:"), 1, "every scheme character");
	INT_EQ(url_has_scheme("post.md"), 0, "a file");
	INT_EQ(url_has_scheme("/a:b"), 0, "a path with ':'");
	INT_EQ(url_has_scheme("1a:b"), 0, "leading digit");
	INT_EQ(url_has_scheme(":x"), 0, "empty scheme");
	INT_EQ(url_has_scheme("a b:c"), 0, "space");
	INT_EQ(url_has_scheme(""), 0, "empty");
	INT_EQ(url_hexval('0'), 0, "0");
	INT_EQ(url_hexval('9'), 9, "9");
	INT_EQ(url_hexval('a'), 10, "a");
	INT_EQ(url_hexval('F'), 15, "F");
	INT_EQ(url_hexval('g'), -1, "g");
	INT_EQ(url_hexval('\0'), -1, "NUL");
	INT_EQ(url_hexval(-1), -1, "negative");
	INT_EQ(url_hexval(0xC1), -1, "a high byte");
}

/* Whatever url_encode_path() makes, url_parse() gives back the same. */
static void
test_roundtrip(void)
{
	static const char *const paths[] = {
		"/", "/a b/c?d#e", "/\xC3\xA9t\xC3\xA9/\xF0\x9F\x98\x80",
		"/100%/x+y", "/a;b=c/[d]", "/~user/.hidden/...",
	};
	struct buf	 b = BUF_INIT;
	struct url	 u;
	const char	*err;
	size_t		 i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		buf_truncate(&b, 0);
		buf_addstr(&b, "gemini://h");
		url_encode_path(paths[i], &b);
		INT_EQ(url_parse(b.data, &u, &err), 0, paths[i]);
		STR_EQ(u.path, paths[i], "round trip");
	}
	buf_free(&b);
}

/* The one dot-segment scan of request paths, selectors and redirects. */
static void
test_dot_segment(void)
{
	INT_EQ(url_has_dot_segment("/"), 0, "/");
	INT_EQ(url_has_dot_segment("/posts/a.b"), 0, "a dot inside a name");
	INT_EQ(url_has_dot_segment("/.well-known/x"), 0, "a dot-name");
	INT_EQ(url_has_dot_segment("/..."), 0, "three dots are a name");
	INT_EQ(url_has_dot_segment("/."), 1, "/.");
	INT_EQ(url_has_dot_segment("/.."), 1, "/..");
	INT_EQ(url_has_dot_segment("/a/./b"), 1, "/a/./b");
	INT_EQ(url_has_dot_segment("/a/../b"), 1, "/a/../b");
	INT_EQ(url_has_dot_segment("/a/.."), 1, "trailing ..");
	INT_EQ(url_has_dot_segment("/a//b"), 0, "an empty segment");
	/* Relative paths under a root (fsafe.c's clean_rel()) alike. */
	INT_EQ(url_has_dot_segment(""), 0, "empty");
	INT_EQ(url_has_dot_segment("a.txt"), 0, "relative name");
	INT_EQ(url_has_dot_segment("a/b/c"), 0, "relative path");
	INT_EQ(url_has_dot_segment(".hidden"), 0, "relative dot-name");
	INT_EQ(url_has_dot_segment("."), 1, ".");
	INT_EQ(url_has_dot_segment(".."), 1, "..");
	INT_EQ(url_has_dot_segment("../x"), 1, "leading ..");
	INT_EQ(url_has_dot_segment("a/./b"), 1, "a/./b");
	INT_EQ(url_has_dot_segment("a/.."), 1, "a/..");
	INT_EQ(url_has_dot_segment("//.."), 1, "only one '/' is skipped");
}

static void
test_dangerous(void)
{
	OK(url_dangerous("javascript:alert(1)"), "javascript:");
	OK(url_dangerous("JavaScript:alert(1)"), "in any case");
	OK(url_dangerous("vbscript:x"), "vbscript:");
	OK(url_dangerous("file:///etc/passwd"), "file:");
	OK(url_dangerous("data:text/html,<p>x"), "data: but an image");
	OK(!url_dangerous("data:image/png;base64,AAAA"), "a data: image");
	OK(!url_dangerous("gemini://example.org/"), "gemini:");
	OK(!url_dangerous("https://example.org/"), "https:");
	OK(!url_dangerous("/javascript:x"), "a path");
	OK(!url_dangerous(" javascript:x"), "no scheme: a path, encoded");
}

static const struct harness_test tests[] = {
	TEST(test_dangerous),
	TEST(test_parse_good),
	TEST(test_parse_bad),
	TEST(test_parse_long),
	TEST(test_decode),
	TEST(test_encode),
	TEST(test_encode_link),
	TEST(test_scheme_hex),
	TEST(test_dot_segment),
	TEST(test_roundtrip),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
