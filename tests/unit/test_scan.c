/*
 * test_scan.c -- scan.c: the byte scans of Markdown source the archive
 * keeps with each file (links that may name a post, and a body that
 * opens by repeating its title).
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "markdown/scan.h"

static void
test_links(void)
{
	static const char	 md[] =
	    "See [b](b.md) and [c](../posts/c.md#x \"title\").\n"
	    "[ref]: <2024-01-01-d.md>\n"
	    "\n"
	    "```\n"
	    "[not](code.md)\n"
	    "```\n"
	    "`[span](span.md)` [old](https://old.blog/e.html)\n"
	    "[path](/posts/f) [page](notes.txt) [abs](gemini://x/y.md)\n"
	    "[old](/2015/01/02/g/) [net](//host/h) [home](/)\n"
	    "<a href=\"/2016/i/\">i</a> <img\n  src='/assets/j.png'> src=x\n"
	    "`<a href=\"/code\">`\n";
	static const char *const want[][3] = {
		{ "b.md", "10", "9" },
		{ "../posts/c.md#x", "10", "23" },
		{ "2024-01-01-d.md", "11", "8" },	/* at its "<" */
		{ "https://old.blog/e.html", "16", "25" },
		{ "/posts/f", "17", "8" },
		{ "gemini://x/y.md", "17", "42" },
		{ "/2015/01/02/g/", "18", "7" },
		{ "//host/h", "18", "29" },	/* may be the capsule's host */
		{ "/2016/i/", "19", "10" },
		{ "/assets/j.png", "20", "8" },
	};
	struct scan_link	*l;
	size_t			 n, i;

	l = scan_links(md, sizeof(md) - 1, 10, &n);
	INT_EQ(n, sizeof(want) / sizeof(want[0]), "links found");
	for (i = 0; i < n && i < sizeof(want) / sizeof(want[0]); i++) {
		STR_EQ(l[i].url, want[i][0], "url");
		INT_EQ(l[i].line, atoi(want[i][1]), want[i][0]);
		INT_EQ(l[i].col, atoi(want[i][2]), want[i][0]);
	}
	scan_links_free(l, n);
	l = scan_links("no links here\n", 14, 1, &n);
	OK(l == NULL && n == 0, "none: NULL");
	scan_links_free(l, n);
}

/* The skip for md (a string literal) under the title "Hello world". */
#define SKIP(md)	scan_repeated_title(md, sizeof(md) - 1, "Hello world")

static void
test_repeated_title(void)
{
	static const char	 a[] = "\n  \n# Hello world\nBody\n";
	static const char	 b[] = "# Hello world ##\r\nBody";
	static const char	 c[] = "## Hello world\nBody";
	static const char	 d[] = "#Hello world\n";
	static const char	 e[] = "   #   Hello world";
	static const char	 f[] = "Intro\n# Hello world\n";
	static const char	 g[] = "# Hello world#\n";

	INT_EQ(SKIP(a), strlen("\n  \n# Hello world\n"), "after blank lines");
	INT_EQ(SKIP(b), strlen("# Hello world ##\r\n"), "closing #s, CRLF");
	INT_EQ(SKIP(c), 0, "h2");
	INT_EQ(SKIP(d), 0, "#tag");
	INT_EQ(SKIP(e), sizeof(e) - 1, "indented, at the end");
	INT_EQ(SKIP(f), 0, "not first");
	INT_EQ(SKIP(g), 0, "# without a space is text");
	INT_EQ(scan_repeated_title(a, sizeof(a) - 1, "Other"), 0,
	    "other title");
	INT_EQ(scan_repeated_title(NULL, 0, "x"), 0, "NULL");
}

static const struct harness_test tests[] = {
	TEST(test_links),
	TEST(test_repeated_title),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
