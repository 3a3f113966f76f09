/*
 * test_render.c -- the Markdown renderers (render.c, render_gmi.c,
 * render_gph.c): small exact cases, the link hooks, the first heading,
 * and pathological inputs built in memory, each under a time bound and
 * checked line by line for valid output.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "harness.h"
#include "markdown/render.h"

#define TIME_LIMIT	2.0	/* seconds per pathological render, ASan */

static char *
gmi_opts(const char *md, const struct render_opts *o)
{
	struct buf	 b = BUF_INIT;

	render_gemtext(md, strlen(md), o, &b);
	buf_add(&b, "", 0);
	return buf_release(&b);
}

static char *
gmi(const char *md)
{
	return gmi_opts(md, NULL);
}

static char *
gph_opts(const char *md, const struct render_opts *o)
{
	struct buf	 b = BUF_INIT;

	render_gopher(md, strlen(md), o, &b);
	buf_add(&b, "", 0);
	return buf_release(&b);
}

static char *
gph(const char *md)
{
	return gph_opts(md, NULL);
}

#define GMI_EQ(md, want) do {						\
	char *got_ = gmi(md);						\
	STR_EQ(got_, want, "gemtext of " #md);				\
	free(got_);							\
} while (0)

#define GPH_EQ(md, want) do {						\
	char *got_ = gph(md);						\
	STR_EQ(got_, want, "gopher text of " #md);			\
	free(got_);							\
} while (0)

static size_t
cps(const char *s, size_t len)
{
	size_t	 i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

/*
 * Is s valid gemtext as this project writes it?  links: may it hold
 * "=>" lines; markers: may text lines start with "#", "* " or ">".
 * Returns NULL or why not.
 */
static const char *
gmi_check(const char *s, int links, int markers)
{
	const char	*line, *nl;
	size_t		 len;
	int		 pre = 0, blank = 0, first = 1;

	if (*s == '\0')
		return NULL;
	if (s[strlen(s) - 1] != '\n')
		return "no final newline";
	for (line = s; *line != '\0'; line = nl + 1) {
		nl = strchr(line, '\n');
		len = (size_t)(nl - line);
		if (memchr(line, '\r', len))
			return "CR in output";
		if (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
			return "trailing white space";
		if (len >= 3 && strncmp(line, "```", 3) == 0) {
			pre = !pre;
			blank = first = 0;
			continue;
		}
		if (pre)
			continue;
		if (len == 0) {
			if (first)
				return "leading blank line";
			if (blank)
				return "two blank lines in a row";
			blank = 1;
			continue;
		}
		blank = first = 0;
		if (strncmp(line, "=>", 2) == 0) {
			if (!links)
				return "a link line from no link";
			if (len < 4 || line[2] != ' ' || line[3] == ' ')
				return "malformed link line";
			if (memchr(line, '\t', len))
				return "tab in a link line";
		} else if (!markers && (line[0] == '#' || line[0] == '>' ||
		    (line[0] == '*' && (len == 1 || line[1] == ' '))))
			return "a text line starts with a marker";
	}
	return pre ? "preformatted block not closed" : NULL;
}

/* Gopher text: no controls, no trailing space, lines within width. */
static const char *
gph_check(const char *s, size_t width)
{
	const char	*line, *nl, *p;
	size_t		 len;

	if (*s == '\0')
		return NULL;
	if (s[strlen(s) - 1] != '\n')
		return "no final newline";
	for (line = s; *line != '\0'; line = nl + 1) {
		nl = strchr(line, '\n');
		len = (size_t)(nl - line);
		for (p = line; p < nl; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				return "control character";
		if (len > 0 && line[len - 1] == ' ')
			return "trailing space";
		if (len == 1 && line[0] == '.')
			return "lone dot";
		if (cps(line, len) > width && !(line[0] == '[' &&
		    strstr(line, "] ") != NULL))	/* references */
			return "line longer than the width";
	}
	return NULL;
}

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Basic gemtext
 */

static void
test_gmi_blocks(void)
{
	GMI_EQ("", "");
	GMI_EQ("\n\n  \n", "");
	/* Below level 3: "###" and one "›" per level past it. */
	GMI_EQ("# One\n\n#### Four\n###### Six\n",
	    "# One\n\n### \xe2\x80\xba Four\n\n"
	    "### \xe2\x80\xba\xe2\x80\xba\xe2\x80\xba Six\n");
	/* In Gopher text, ASCII: Markdown's own marks. */
	GPH_EQ("### Three\n\n#### Four\n###### Six\n",
	    "Three\n\n#### Four\n\n###### Six\n");
	GMI_EQ("a\nb\n\nc\n", "a b\n\nc\n");
	GMI_EQ("a\\\nb\n", "a\nb\n");
	GMI_EQ("- a\n- b\n  - c\n    1. d\n",
	    "* a\n* b\n*   ◦ c\n      1. d\n");
	/* Ordered items are numbered text lines, not bullets; nested, in order. */
	GMI_EQ("3. x\n4. y\n", "3. x\n4. y\n");
	GMI_EQ("1. a\n   1. b\n   2. c\n2. d\n",
	    "1. a\n    1. b\n    2. c\n2. d\n");
	GMI_EQ("> 1. q\n>    - r\n", "> 1. q\n> *   ◦ r\n");
	GMI_EQ("1. a\n\n   more\n", "1. a\n\n   more\n");
	GPH_EQ("1. a\n   1. b\n2. d\n", "1. a\n   1. b\n2. d\n");
	GMI_EQ("- [x] done\n- [ ] todo\n", "* [x] done\n* [ ] todo\n");
	GMI_EQ("> a\n>\n> > b\n", "> a\n>\n> > b\n");
	/* Code in a quote stays preformatted, between the quote's lines. */
	GMI_EQ("> ```\n> code\n> ```\n", "```\ncode\n```\n");
	GMI_EQ("> a\n>\n> ```sh\n> ```x\n> ```\n> b\n",
	    "> a\n>\n```sh\n ```x\n```\n>\n> b\n");
	GPH_EQ("> a\n>\n> ```\n> x\n> ```\n", "> a\n>\n>     x\n");
	GMI_EQ("```py\nx = 1\n```\n", "```py\nx = 1\n```\n");
	GMI_EQ("````\n```\n````\n", "```\n ```\n```\n");
	GMI_EQ("    a\tb\n", "```\na\tb\n```\n");
	GMI_EQ("a\n\n***\n", "a\n\n────────────────────\n");
	/* Code spans keep their boundaries. */
	GMI_EQ("*a* **b** ~~c~~ `d`\n", "a b c `d`\n");
	GMI_EQ("says `visitors per day: `.\n",
	    "says `visitors per day: `.\n");
	GMI_EQ("`` a`b ``\n", " ``a`b``\n");	/* "``" first: escaped */
	GMI_EQ("``` `` ```\n", "` `` `\n");
	GPH_EQ("`x` and ``` `y ```\n", "`x` and `` `y ``\n");
	GMI_EQ("&amp; &copy; &#35;\n", "& © #\n");
	GMI_EQ("x\r\ny\r\n\r\nz\r\n", "x y\n\nz\n");
	GMI_EQ("bad \xff byte\n", "bad \xef\xbf\xbd byte\n");
	GMI_EQ("a\001b\033c\n", "abc\n");
	/* fuzz: a paragraph of nothing but controls leaves no lines */
	GMI_EQ("# h\n\031\031\n\n- a\n", "# h\n\n* a\n");
	GPH_EQ("a\n\n\031\n\nb\n", "a\n\nb\n");
	/* fuzz: a code block opening with a blank line, first thing */
	GPH_EQ("```\n\nx\n```\n", "    x\n");
	GMI_EQ("```\n\nx\n```\n", "```\n\nx\n```\n");
	/* fuzz: a dropped control between the backticks */
	GMI_EQ("`\023``\n", " ```\n");
	GMI_EQ("```\n`\001``\n```\n", "```\n ```\n```\n");
	GMI_EQ("=\001> x\n", " => x\n");
	/* fuzz: cmark-gfm leaves a broken UTF-8 sequence in this label */
	GMI_EQ("[[^\xa1\n)\xa1]](h)\n", "=> h [^\xef\xbf\xbd]\n");
	GPH_EQ("[[^\xa1\n)\xa1]](h)\n", "[^\xef\xbf\xbd][1]\n\n"
	    "References\n----------\n\n[1] h\n");
}

static void
test_gmi_escapes(void)
{
	GMI_EQ("\\=> x\n", " => x\n");
	GMI_EQ("\\# x\n", " # x\n");
	GMI_EQ("\\* x\n", " * x\n");
	GMI_EQ("\\*x\n", "*x\n");
	GMI_EQ("\\> x\n", " > x\n");
	GMI_EQ("\\`\\`\\` x\n", " ``` x\n");
	GMI_EQ("*=*>x\n", " =>x\n");		/* split across nodes */
	GMI_EQ("`#`\n", "`#`\n");		/* a backtick first now */
	GMI_EQ("&#61;> x\n", " => x\n");
	GMI_EQ("a\\\n\\# b\n", "a\n # b\n");	/* after a hard break */
	GMI_EQ("- \\# x\n", "* # x\n");		/* not at column 0 */
	GMI_EQ("> \\=> x\n", "> => x\n");
	GMI_EQ("x = y\n", "x = y\n");
	GMI_EQ("<div>\n=> x\n</div>\n", " => x\n");
}

static void
test_gmi_links(void)
{
	GMI_EQ("See [a](http://a/) and [b](http://b/).\n",
	    "See a and b.\n=> http://a/ a\n=> http://b/ b\n");
	GMI_EQ("[a](http://a/) · [b](/b)\n", "=> http://a/ a\n=> /b b\n");
	GMI_EQ("x\n\n[a](/a)\n\ny\n", "x\n\n=> /a a\n\ny\n");
	GMI_EQ("<http://x.org/>\n", "=> http://x.org/\n");
	GMI_EQ("[a b](<u v\tw>)\n", "=> u%20v%09w a b\n");
	GMI_EQ("[l](a\"b\\<c\\>d^f`g{h|i}j\\\\k%zz%41)\n",
	    "=> a%22b%3Cc%3Ed%5Ef%60g%7Bh%7Ci%7Dj%5Ck%25zz%41 l\n");
	GMI_EQ("[l\tl](u)\n", "=> u l l\n");
	GMI_EQ("[e]()\n", "e\n");
	GMI_EQ("![alt](p/i.png)\n", "=> p/i.png alt\n");
	GMI_EQ("![](p/i.png?x#y)\n", "=> p/i.png?x#y i.png\n");
	GMI_EQ("a ![](i.png) b\n", "a i.png b\n=> i.png\n");
	GMI_EQ("# T [l](u)\n", "# T l\n=> u l\n");
	GMI_EQ("- [l](u)\n- m\n", "* l\n=> u l\n* m\n");
	GMI_EQ("> q [l](u)\n>\n> r\n", "> q l\n=> u l\n>\n> r\n");
	GMI_EQ("|a|\n|-|\n|[l](u)|\n", "```table\na\n-\nl\n```\n=> u l\n");
	/* fuzz: a line with trailing blanks, then a link-only paragraph */
	GMI_EQ("> | a | b |\n> |---|---|\n> | k | |\n\n[l](u)\n",
	    "> a | b\n> --+--\n> k |\n\n=> u l\n");
}

/*
 * GFM autolinks are parsed only when the source may hold one (see
 * may_autolink): each case here, with and without it, must come out
 * as it would with the extension always on.
 */
static void
test_gmi_autolinks(void)
{
	/* URLs only where cmark itself parses them: no extension. */
	GMI_EQ("[a](https://a.org/) <https://b.org/>\n\n[c][r]\n\n"
	    "[r]: https://r.org/\n",
	    "=> https://a.org/ a\n=> https://b.org/\n\n=> https://r.org/ c\n");
	GMI_EQ("go to gemini://g.org/ and gopher://h.org/\n",
	    "go to gemini://g.org/ and gopher://h.org/\n");
	GMI_EQ("a word with w's and ws: no link\n",
	    "a word with w's and ws: no link\n");
	/* One bare URL, address or www. anywhere: the extension runs. */
	GMI_EQ("[a](https://a.org/) then https://b.org/x.\n",
	    "a then https://b.org/x.\n=> https://a.org/ a\n"
	    "=> https://b.org/x\n");
	GMI_EQ("[a](https://a.org/) then HTTP://b.org/\n",
	    "a then HTTP://b.org/\n=> https://a.org/ a\n=> HTTP://b.org/\n");
	GMI_EQ("ftp://f.org/p first\n", "ftp://f.org/p first\n"
	    "=> ftp://f.org/p\n");
	GMI_EQ("see www.w.org\n", "see www.w.org\n=> http://www.w.org www.w.org\n");
	GMI_EQ("mail me@m.org\n", "mail me@m.org\n=> mailto:me@m.org me@m.org\n");
	GMI_EQ("`https://c.org/` in code\n", "`https://c.org/` in code\n");
	/* The documented difference: after a "](" that made no link. */
	GMI_EQ("x](https://b.org/\n", "x](https://b.org/\n");
}

static char *
rewrite(void *ctx, const char *url)
{
	size_t	 len = strlen(url);

	(*(int *)ctx)++;
	if (len > 3 && strcmp(url + len - 3, ".md") == 0 &&
	    strchr(url, ':') == NULL) {
		char	*s = malloc(len + 8);

		snprintf(s, len + 8, "/posts/%.*s", (int)(len - 3), url);
		return s;
	}
	return NULL;
}

static char *
absolute(void *ctx, const char *url)
{
	char	*s = malloc(strlen(url) + 32);

	(*(int *)ctx)++;
	sprintf(s, "gopher://h.example/0%s", url);
	return s;
}

static void
test_hooks(void)
{
	struct render_opts	 o;
	int			 nrw = 0, nabs = 0;
	char			*s;

	memset(&o, 0, sizeof(o));
	o.rewrite = rewrite;
	o.rewrite_ctx = &nrw;
	s = gmi_opts("[next](<my post.md>) [x](https://e/)\n", &o);
	STR_EQ(s, "=> /posts/my%20post next\n=> https://e/ x\n",
	    "rewrite in gemtext");
	INT_EQ(nrw, 2, "rewrite calls");
	free(s);

	o.absolute = absolute;
	o.absolute_ctx = &nabs;
	o.width = 40;
	s = gph_opts("[n](b.md) [r](rel) [w](https://w/)\n", &o);
	STR_EQ(s, "n[1] r[2] w[3]\n\nReferences\n----------\n\n"
	    "[1] gopher://h.example/0/posts/b\n[2] rel\n[3] https://w/\n",
	    "rewrite and absolute in gopher");
	INT_EQ(nabs, 1, "absolute only for site paths");
	free(s);
}

/* Links rewritten to nothing: their text, the same on both protocols. */
static char *
rewrite_dead(void *ctx, const char *url)
{
	return strncmp(url, "dead", 4) == 0 ? strdup("") : NULL;
}

static void
test_dead_links(void)
{
	struct render_opts	 o;
	char			*s;

	memset(&o, 0, sizeof(o));
	o.rewrite = rewrite_dead;
	s = gmi_opts("![A photo](dead.png) [ok](/x)\n\n![](dead/b.png)\n", &o);
	STR_EQ(s, "A photo\n=> /x ok\n\nb.png\n", "gemtext keeps the alt text");
	free(s);
	s = gph_opts("![A photo](dead.png) [ok](/x)\n\n![](dead/b.png)\n", &o);
	STR_EQ(s, "A photo ok[1]\n\nb.png\n\nReferences\n----------\n\n"
	    "[1] /x\n", "Gopher text the same");
	free(s);
	/* Relative links in Gopher text: against the page's own path. */
	o.base = "/posts/x";
	s = gph_opts("[up](../) [here](./) [img](a/./b.png)\n", &o);
	STR_EQ(s, "up[1] here[2] img[3]\n\nReferences\n----------\n\n"
	    "[1] /\n[2] /posts/\n[3] /posts/a/b.png\n", "relative resolved");
	free(s);
}

static void
test_gmi_table_notes(void)
{
	GMI_EQ("| L | R | C |\n|:--|--:|:-:|\n| ü | 1 | x |\n| abc | 123 | "
	    "yyyy |\n",
	    "```table\nL   |   R |  C\n----+-----+-----\nü   |   1 |  x\n"
	    "abc | 123 | yyyy\n```\n");
	GMI_EQ("a[^x] b[^y] a[^x]\n\n[^y]: Y.\n[^x]: X.\n",
	    "a[1] b[2] a[1]\n\n## Notes\n\n[1] X.\n\n[2] Y.\n");
	GMI_EQ("<b>x</b><br>y <script>s()</script><style>p{}</style>z\n",
	    "x\ny z\n");
	GMI_EQ("<script>\nevil()\n</script>\n\nok\n", "ok\n");
	GMI_EQ("<!-- c -->\n\nok\n", "ok\n");
}

/*
 * Basic gopher text
 */

static void
test_gph(void)
{
	struct render_opts	 o;
	char			*s;

	GPH_EQ("", "");
	GPH_EQ("# Tïtle\n\n## Sub\n\n### Three\n\ntext\n",
	    "Tïtle\n=====\n\nSub\n---\n\nThree\n\ntext\n");
	GPH_EQ("a [l](http://u/) ![i](p.png) ![](d/q.jpg)\n",
	    "a l[1] i[2] q.jpg[3]\n\nReferences\n----------\n\n"
	    "[1] http://u/\n[2] p.png\n[3] d/q.jpg\n");
	GPH_EQ("x[^a] [l](u)\n\n[^a]: N [m](v).\n",
	    "x[1] l[2]\n\nNotes\n-----\n\n[1] N m[3].\n\nReferences\n"
	    "----------\n\n[2] u\n[3] v\n");
	GPH_EQ("    a\tb\n", "    a       b\n");
	GPH_EQ("a\tb\001c\n", "a bc\n");
	GPH_EQ(".\n\n    .\n", " .\n\n    .\n");
	/* Lone dots after other dots, and mid-document. */
	GPH_EQ("a.b.\n\n.\n\nc. d\n\n.\n", "a.b.\n\n .\n\nc. d\n\n .\n");
	GPH_EQ("", "");
	GPH_EQ("- a\n  - b\n1. c\n", "* a\n  * b\n\n1. c\n");
	GPH_EQ("> q\n> > r\n", "> q\n>\n> > r\n");
	GPH_EQ("|a|b|\n|-|-:|\n|xx|1|\n", "a  | b\n---+--\nxx | 1\n");

	memset(&o, 0, sizeof(o));
	o.width = 20;
	s = gph_opts("one two three four five six seven eight\n\n"
	    "abcdefghijklmnopqrstuvwxyz0123456789 end\n\n"
	    "- item with words that wrap around\n\n> quoted words that wrap "
	    "too\n", &o);
	STR_EQ(s, "one two three four\nfive six seven eight\n\n"
	    "abcdefghijklmnopqrst\nuvwxyz0123456789 end\n\n"
	    "* item with words\n  that wrap around\n\n"
	    "> quoted words that\n> wrap too\n", "gopher wrap at 20");
	free(s);
}

static void
test_first_heading(void)
{
	char	*s;

	s = render_first_heading("x\n\n# T *e* &amp; `c`  [l](u)\n", 28);
	STR_EQ(s, "T e & c l", "first heading");
	free(s);
	s = render_first_heading("Setext\n===\n", 11);
	STR_EQ(s, "Setext", "setext heading");
	free(s);
	s = render_first_heading("## Two\n\n> # Quoted\n\ntext\n", 25);
	STR_EQ(s, NULL, "no top-level level-1 heading");
	s = render_first_heading("#\n\n# <b>Real</b> <script>x</script>\n",
	    35);
	STR_EQ(s, "Real", "empty heading skipped, html stripped");
	free(s);
	s = render_first_heading("", 0);
	STR_EQ(s, NULL, "empty document");
}

static void
test_summary(void)
{
	const char	*md1 = "# Title\n\n![img](a.png)\n\nThe *first* "
	    "[real](u) one, `code` &amp; <b>html</b>[^1].\n\nNext.\n\n"
	    "[^1]: note\n";
	struct buf	 md = BUF_INIT;
	char		*s;
	size_t		 i;

	s = render_summary(md1, strlen(md1), 300);
	STR_EQ(s, "The first real one, code & html.", "first paragraph");
	free(s);
	s = render_summary("> quoted words\n", 15, 300);
	STR_EQ(s, "quoted words", "in a quote");
	free(s);
	s = render_summary("# Only a heading\n\n---\n", 21, 300);
	STR_EQ(s, NULL, "no paragraph");
	s = render_summary("<p>An HTML paragraph.</p>\n", 26, 300);
	STR_EQ(s, "An HTML paragraph.", "html");
	free(s);
	s = render_summary("one two three four\n", 19, 12);
	STR_EQ(s, "one two\xe2\x80\xa6", "cut at a word");
	free(s);
	s = render_summary("abcdefghijklmnop\n", 17, 5);
	STR_EQ(s, "abcd\xe2\x80\xa6", "cut inside a long word");
	free(s);
	s = render_summary("exactly\n", 8, 7);
	STR_EQ(s, "exactly", "fits");
	free(s);
	/* A long post: only its head is parsed, with the same answer. */
	buf_addstr(&md, "Opening words.\n\n");
	for (i = 0; i < 2000; i++)
		buf_addstr(&md, "More text in a later paragraph.\n\n");
	s = render_summary(md.data, md.len, 300);
	STR_EQ(s, "Opening words.", "long post");
	free(s);
	buf_truncate(&md, 0);
	buf_addstr(&md, "See [ref].\n\n");
	for (i = 0; i < 2000; i++)
		buf_addstr(&md, "Filler paragraph.\n\n");
	buf_addstr(&md, "[ref]: https://r.org/\n");
	s = render_summary(md.data, md.len, 300);
	STR_EQ(s, "See ref.", "a reference defined further down");
	free(s);
	buf_free(&md);
}

/* Where a writer ended the summary, and what it is then. */
static void
test_summary_sep(void)
{
	static const struct {
		const char	*md, *sep;
		long		 at;		/* -1: none */
		size_t		 len;
	} cases[] = {
		{ "One.\n\n<!--more-->\n\nTwo.\n", NULL, 6, 11 },
		{ "One.\n<!-- More -->\n", NULL, 5, 13 },
		{ "One.\n\n<!--truncate-->\n", NULL, 6, 15 },
		{ "One. <!--TRUNCATE--> Two.\n", NULL, 5, 15 },
		{ "```\n<!--more-->\n```\n\n<!--more-->\n", NULL, 21, 11 },
		{ "    <!--more-->\n\nx\n", NULL, -1, 0 },
		{ "<!--mores-->\n<!-- more\n", NULL, -1, 0 },
		{ "One.\n\n<!-- end -->\n\nTwo.\n", "<!-- end -->", 6, 12 },
		{ "One.\n\n<!-- end -->\n", NULL, -1, 0 },
		{ "A\n\n<!--more-->\n\n<!-- end -->\n", "<!-- end -->", 3, 11 },
	};
	const char	*md;
	size_t		 i, seplen;
	long		 at;
	char		*s;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		seplen = 0;
		at = render_summary_sep(cases[i].md, strlen(cases[i].md),
		    cases[i].sep, &seplen);
		OK(at == cases[i].at && (at == -1 || seplen == cases[i].len),
		    "separator %zu: at %ld len %zu, want %ld %zu", i, at,
		    seplen, cases[i].at, cases[i].len);
	}
	md = "# Title\n\nThe *first* one.\n\n- an item\n\nThe second.\n\n";
	s = render_summary_head(md, strlen(md), 1000);
	STR_EQ(s, "The first one. an item The second.", "every paragraph");
	free(s);
	s = render_summary_head("one two three four\n", 19, 12);
	STR_EQ(s, "one two\xe2\x80\xa6", "cut at a word");
	free(s);
	OK(render_summary_head("# only\n", 7, 100) == NULL, "no paragraph");
}

static void
test_append(void)
{
	struct buf	 b = BUF_INIT;

	buf_addstr(&b, "HEAD\n");
	render_gemtext("\n\n# x\n", 6, NULL, &b);
	render_gopher("y\n", 2, NULL, &b);
	render_gemtext("", 0, NULL, &b);
	STR_EQ(b.data, "HEAD\n# x\ny\n", "renderers append");
	buf_free(&b);
}

/*
 * Pathological inputs
 */

static void
patho(const char *what, const char *md, size_t len, int links,
    int markers)
{
	struct buf	 b = BUF_INIT;
	const char	*why;
	double		 t;

	t = now();
	render_gemtext(md, len, NULL, &b);
	buf_add(&b, "", 0);
	t = now() - t;
	OK(t < harness_time_bound(TIME_LIMIT), "%s: gemtext took %.2f s", what, t);
	why = gmi_check(b.data, links, markers);
	OK(why == NULL, "%s: gemtext: %s", what, why);
	buf_free(&b);

	t = now();
	render_gopher(md, len, NULL, &b);
	buf_add(&b, "", 0);
	t = now() - t;
	OK(t < harness_time_bound(TIME_LIMIT), "%s: gopher took %.2f s", what, t);
	if (getenv("TEST_RENDER_TIMES"))
		fprintf(stderr, "%s: %.3f s\n", what, t);
	why = gph_check(b.data, 70);
	OK(why == NULL, "%s: gopher: %s", what, why);
	OK(b.len < 64 * len + 4096, "%s: gopher output %zu bytes", what,
	    b.len);
	buf_free(&b);
}

static void
repeat(struct buf *b, const char *s, size_t n)
{
	while (n-- > 0)
		buf_addstr(b, s);
}

static void
test_pathological(void)
{
	struct buf	 md = BUF_INIT, out = BUF_INIT;
	size_t		 i;

	repeat(&md, ">", 10000);
	buf_addstr(&md, " deep\n");
	patho("10000 nested quotes", md.data, md.len, 0, 1);
	render_gemtext(md.data, md.len, NULL, &out);
	OK(out.len < 200, "quote markers capped: %zu bytes", out.len);
	buf_free(&out);

	md.len = 0;
	repeat(&md, "- ", 5000);
	buf_addstr(&md, "x\n");
	patho("5000 nested lists", md.data, md.len, 0, 1);

	md.len = 0;
	for (i = 0; i < 600; i++) {
		repeat(&md, "  ", i);
		buf_printf(&md, "%zu. item %zu\n", i, i);
	}
	patho("600 indented list levels", md.data, md.len, 0, 1);

	md.len = 0;
	repeat(&md, "*a **a ", 15000);
	patho("*a **a storm", md.data, md.len, 0, 0);

	md.len = 0;
	repeat(&md, "_a __a ~~a ", 15000);
	patho("_a __a storm", md.data, md.len, 0, 0);

	md.len = 0;
	repeat(&md, "[a](", 20000);
	patho("open link brackets", md.data, md.len, 0, 0);

	md.len = 0;
	repeat(&md, "![a", 20000);
	repeat(&md, "](x)", 20000);
	patho("nested images", md.data, md.len, 1, 0);

	md.len = 0;
	repeat(&md, "=> a\n# b\n* c\n> d\n``` e\n\\=> f\n\\# g\n\\* h\n"
	    "&gt; i\n\\`\\`\\` j\n\n", 5000);
	patho("marker storm", md.data, md.len, 0, 1);

	md.len = 0;
	repeat(&md, "\\=> a\\\n\\# b\\\n\\* c\\\n\\> d\\\n\\`\\`\\` e\n\n",
	    5000);
	patho("escaped markers", md.data, md.len, 0, 0);

	md.len = 0;
	while (md.len < 1000000)
		buf_printf(&md, "## Part %zu\n\nSome *text* with [a link]("
		    "http://example.org/%zu) and more words to fill the line "
		    "so that it wraps.\n\n- item\n- [ ] task\n\n> quote\n\n"
		    "```\ncode\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n",
		    md.len, md.len);
	patho("1 MB post", md.data, md.len, 1, 1);

	md.len = 0;
	repeat(&md, "<div>\n<p>x<br>y</p>\n</div>\n\n<b>z</b> <!-- c --> ",
	    5000);
	patho("html", md.data, md.len, 0, 0);

	md.len = 0;
	for (i = 0; i < 2000; i++)
		buf_printf(&md, "x[^%zu]\n\n[^%zu]: n\n\n", i, i);
	patho("2000 footnotes", md.data, md.len, 0, 1);

	md.len = 0;
	repeat(&md, "a", 100000);
	patho("one 100 kB word", md.data, md.len, 0, 0);

	buf_free(&md);
}

/* Parses are serialised (cmark-gfm 0.29 is not reentrant); check it. */
static const char	*thread_md = "~~s~~ *e* www.x.org\n\n|a|b|\n|-|-|\n"
	    "|1|2|\n\n- [x] t\n\nn[^1]\n\n[^1]: note\n";

static void *
thread_main(void *arg)
{
	const char	*want = arg;
	char		*got;
	int		 i, bad = 0;

	for (i = 0; i < 50; i++) {
		got = gmi(thread_md);
		bad += strcmp(got, want) != 0;
		free(got);
	}
	return (void *)(long)bad;
}

static void
test_threads(void)
{
	pthread_t	 t[4];
	char		*want = gmi(thread_md);
	void		*rv;
	long		 bad = 0;
	size_t		 i;

	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, thread_main, want);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], &rv);
		bad += (long)rv;
	}
	INT_EQ(bad, 0, "renders that differed between threads");
	HAS(want, "=> http://www.x.org www.x.org", "extensions in threads");
	free(want);
}

static const struct harness_test tests[] = {
	TEST(test_gmi_blocks),
	TEST(test_gmi_escapes),
	TEST(test_gmi_links),
	TEST(test_gmi_autolinks),
	TEST(test_hooks),
	TEST(test_dead_links),
	TEST(test_gmi_table_notes),
	TEST(test_gph),
	TEST(test_first_heading),
	TEST(test_summary),
	TEST(test_summary_sep),
	TEST(test_append),
	TEST(test_pathological),
	TEST(test_threads),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
