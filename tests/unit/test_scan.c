/*
 * test_scan.c -- scan.c: the byte scans of Markdown source the archive
 * keeps with each file (links that may name a post or a file, and a
 * body that opens by repeating its title).
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
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
		{ "notes.txt", "17", "25" },	/* a file: checked too */
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
	/* Escaped and balanced parentheses, as CommonMark reads them. */
	{
		static const char	 par[] =
		    "![a](imgs/image%20\\(1\\).jpeg) [b](x(2).png) "
		    "[c](<a b\\>.png>)\n";

		l = scan_links(par, sizeof(par) - 1, 1, &n);
	}
	INT_EQ(n, 3, "three destinations");
	if (n == 3) {
		STR_EQ(l[0].url, "imgs/image%20(1).jpeg", "escapes read");
		STR_EQ(l[1].url, "x(2).png", "balanced parentheses kept");
		STR_EQ(l[2].url, "a b>.png", "an escape in <...>");
	}
	scan_links_free(l, n);
	l = scan_links("[^1]: Like this one.\n", 21, 1, &n);
	OK(l == NULL && n == 0, "a footnote's text is no destination");
	scan_links_free(l, n);
	l = scan_links("no links here\n", 14, 1, &n);
	OK(l == NULL && n == 0, "none: NULL");
	scan_links_free(l, n);
}

/*
 * Fences as CommonMark reads them (markdown/blocks.c, which scan.c now
 * shares with search and template.c).  scan.c used to toggle on any run
 * of three, so a shorter run inside a fence "closed" it, a backtick run
 * with a backtick after it (inline code) opened one, a fence indented
 * four spaces counted, and indented code was read for links.
 */
static void
test_fences(void)
{
	static const struct {
		const char	*md;
		size_t		 n;	/* links found: 1 = "[x](x.md)" */
		const char	*what;
	} c[] = {
		{ "````\n```\n[x](x.md)\n````\n", 0,
		  "a shorter run does not close a fence" },
		{ "```\n[x](x.md)\n~~~\n", 0,
		  "a run of the other character does not close it" },
		{ "```\n``` not closing\n[x](x.md)\n", 0,
		  "a closing run has nothing after it" },
		{ "```\ncode\n`````\n[x](x.md)\n", 1,
		  "a longer run closes it" },
		{ "``` a`b\n[x](x.md)\n", 1,
		  "a backtick in a backtick fence's info: no fence" },
		{ "~~~ a`b\n[x](x.md)\n~~~\n", 0,
		  "a tilde fence's info may hold one" },
		{ "para\n    ```\n[x](x.md)\n", 1,
		  "an indented run after text is text" },
		{ "para\n\n    [x](x.md)\n", 0, "indented code" },
		{ "- item\n\n    [x](x.md)\n", 1, "a list item's text" },
		{ "> ```\n> [x](x.md)\n> ```\n", 0, "a fence in a quote" },
		{ "[r]:x.md\n", 1, "a definition needs no blank after ':'" },
		{ "[r\n]: x.md\n", 0, "a label is on one line" },
	};
	struct scan_link	*l;
	size_t			 n, i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		l = scan_links(c[i].md, strlen(c[i].md), 1, &n);
		INT_EQ(n, c[i].n, c[i].what);
		scan_links_free(l, n);
	}
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

/*
 * The scan steps over the bytes that cannot start a link: it must find
 * exactly what a byte-at-a-time reading finds, on bodies made of the
 * bytes that matter (brackets, parentheses, tags, code, fences, blank
 * and indented lines) and of plain words.
 */
static void
test_fast_path(void)
{
	static const char *const bits[] = {
		"[a](b.md)", "[x](/posts/y)", "](", "]", "(", ")", "<a href=\"c.md\">",
		"<img src=d.gmi>", "<", ">", "`", "``", "```\n", "~~~\n", "\n",
		"\n\n", "    ", "\t", "[r]: /s/t.md\n", "<e.md>", "http://h/x ",
		" ", "word ", "mots ", "é", "#", "- ", "> ", "href=", "src='z.md'",
		"[l](<sp ace.md>)", "\r\n",
	};
	struct scan_link	*a, *b;
	struct buf		 md = BUF_INIT;
	unsigned		 seed = 1;
	size_t			 na, nb, i, k, same = 0, trials = 20000;

	for (k = 0; k < trials; k++) {
		buf_truncate(&md, 0);
		for (i = 0; i < 40; i++) {
			seed = seed * 1103515245u + 12345u;
			buf_addstr(&md, bits[(seed >> 16) %
			    (sizeof(bits) / sizeof(bits[0]))]);
		}
		a = scan_links(md.data, md.len, 1, &na);
		scan_bytewise(1);
		b = scan_links(md.data, md.len, 1, &nb);
		scan_bytewise(0);
		if (na == nb) {
			for (i = 0; i < na; i++)
				if (strcmp(a[i].url, b[i].url) != 0 ||
				    a[i].line != b[i].line ||
				    a[i].col != b[i].col)
					break;
			same += i == na;
		}
		scan_links_free(a, na);
		scan_links_free(b, nb);
	}
	INT_EQ(same, trials, "the same links, lines and columns every time");
	buf_free(&md);
}

static const struct harness_test tests[] = {
	TEST(test_fast_path),
	TEST(test_links),
	TEST(test_fences),
	TEST(test_repeated_title),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
