/*
 * test_html.c -- html.c: the tokenizer, character references, embed
 * addresses, and what html_read() makes of each shape of raw HTML, as
 * the renderers then show it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/util.h"
#include "harness.h"
#include "markdown/html.h"
#include "markdown/htmlbody.h"
#include "markdown/render.h"

/* The tokens of s, one per line: "<a href=x>", "</a>", "'text'", "!". */
static char *
tokens(const char *s)
{
	struct html_lexer	 lx;
	struct buf		 b = BUF_INIT;
	size_t			 i;

	html_lex_init(&lx, s, strlen(s));
	for (;;) {
		switch (html_lex_next(&lx)) {
		case HTML_TOK_EOF:
			html_lex_free(&lx);
			buf_add(&b, "", 0);
			return buf_release(&b);
		case HTML_TOK_TEXT:
			buf_printf(&b, "'%s'", lx.text);
			break;
		case HTML_TOK_START:
			buf_printf(&b, "<%s", lx.name);
			for (i = 0; i < lx.nattrs; i++)
				buf_printf(&b, " %s=%s",
				    lx.buf.data + lx.attrs[i].name,
				    lx.buf.data + lx.attrs[i].value);
			buf_addstr(&b, lx.selfclose ? "/>" : ">");
			break;
		case HTML_TOK_END:
			buf_printf(&b, "</%s>", lx.name);
			break;
		case HTML_TOK_COMMENT:
			buf_addstr(&b, "!");
			break;
		}
	}
}

#define TOK_EQ(s, want) do {						\
	char *s_ = tokens(s);						\
	OK(strcmp(s_, (want)) == 0, "tokens of \"%s\": got \"%s\", "	\
	    "want \"%s\"", (s), s_, (want));				\
	free(s_);							\
} while (0)

static void
test_lexer(void)
{
	TOK_EQ("", "");
	TOK_EQ("plain", "'plain'");
	TOK_EQ("<A HREF=\"x\" Title='t'>x</A>",
	    "<a href=x title=t>'x'</a>");
	TOK_EQ("<img src=a.png alt=\"a > b\"/>", "<img src=a.png alt=a > b/>");
	TOK_EQ("<p class=\"a\" class=\"b\">", "<p class=a>");	/* first wins */
	TOK_EQ("<input disabled value=''>", "<input disabled= value=>");
	TOK_EQ("a < b and c<3", "'a < b and c<3'");
	TOK_EQ("<!-- c --><!DOCTYPE html><?php x ?>", "!!!");
	TOK_EQ("<!---->x", "!'x'");
	TOK_EQ("<script>if (a<b) x = \"</p>\";</script>y",
	    "<script>'if (a<b) x = \"</p>\";'</script>'y'");
	TOK_EQ("<title>&amp;<b></title>", "<title>'&<b>'</title>");
	TOK_EQ("<style>a{}</STYLE >", "<style>'a{}'</style>");
	TOK_EQ("<a href=\"x", "");		/* cut off: dropped */
	TOK_EQ("x<a", "'x'");
	TOK_EQ("</p x=1>", "</p>");
	TOK_EQ("<a href=\"?a=1&copy=2&amp;b\">",
	    "<a href=?a=1&copy=2&b>");
}

static char *
ref(const char *s, int in_attr, size_t *np)
{
	struct buf	 b = BUF_INIT;

	*np = html_charref(s, strlen(s), in_attr, &b);
	buf_add(&b, "", 0);
	return buf_release(&b);
}

#define REF_EQ(s, attr, want, wantn) do {				\
	size_t k_;							\
	char *s_ = ref((s), (attr), &k_);				\
	STR_EQ(s_, (want), (s));					\
	INT_EQ(k_, (wantn), (s));					\
	free(s_);							\
} while (0)

static void
test_charrefs(void)
{
	REF_EQ("&amp;", 0, "&", 5);
	REF_EQ("&hellip; more", 0, "\xe2\x80\xa6", 8);
	REF_EQ("&#65;", 0, "A", 5);
	REF_EQ("&#x41;", 0, "A", 6);
	REF_EQ("&#X41", 0, "A", 5);		/* no ';': still read */
	REF_EQ("&#150;", 0, "\xe2\x80\x93", 6);	/* cp1252: en dash */
	REF_EQ("&#0;", 0, "\xef\xbf\xbd", 4);
	REF_EQ("&#xD800;", 0, "\xef\xbf\xbd", 8);
	REF_EQ("&#99999999999999999999;", 0, "\xef\xbf\xbd", 23);
	REF_EQ("&amp x", 0, "&", 4);		/* legacy, in text */
	REF_EQ("&amp x", 1, "&", 4);		/* in an attribute too */
	REF_EQ("&copy=2", 1, "", 0);		/* but not before '=' */
	REF_EQ("&copy=2", 0, "\xc2\xa9", 5);
	REF_EQ("&notin;", 0, "\xe2\x88\x89", 7);	/* the whole HTML5 set */
	REF_EQ("&nosuch;", 0, "", 0);
	REF_EQ("& b", 0, "", 0);
	REF_EQ("&#;", 0, "", 0);
}

static void
test_embed_url(void)
{
	static const char *const cases[][2] = {
		{ "//speakerdeck.com/player/a", "https://speakerdeck.com/player/a" },
		{ "https://www.youtube.com/embed/ID?rel=0",
		    "https://www.youtube.com/watch?v=ID" },
		{ "//www.youtube-nocookie.com/embed/X1",
		    "https://www.youtube.com/watch?v=X1" },
		{ "https://player.vimeo.com/video/76979871?h=8",
		    "https://vimeo.com/76979871" },
		{ "https://notyoutube.com/embed/x", "https://notyoutube.com/embed/x" },
		{ "/local/clip.mp4", "/local/clip.mp4" },
	};
	size_t	 i;
	char	*u;

	for (i = 0; i < nitems(cases); i++) {
		u = html_embed_url(cases[i][0]);
		STR_EQ(u, cases[i][1], cases[i][0]);
		free(u);
	}
}

static char *
gmi(const char *md)
{
	struct buf	 b = BUF_INIT;

	render_gemtext(md, strlen(md), NULL, &b);
	buf_add(&b, "", 0);
	return buf_release(&b);
}

static char *
gph(const char *md)
{
	struct buf	 b = BUF_INIT;

	render_gopher(md, strlen(md), NULL, &b);
	buf_add(&b, "", 0);
	return buf_release(&b);
}

#define GMI_EQ(md, want) do {						\
	char *s_ = gmi(md);						\
	OK(strcmp(s_, (want)) == 0, "gemtext of \"%s\": got \"%s\", "	\
	    "want \"%s\"", (md), s_, (want));				\
	free(s_);							\
} while (0)

#define GPH_EQ(md, want) do {						\
	char *s_ = gph(md);						\
	OK(strcmp(s_, (want)) == 0, "gopher of \"%s\": got \"%s\", "	\
	    "want \"%s\"", (md), s_, (want));				\
	free(s_);							\
} while (0)

static void
test_links(void)
{
	/* Inline: <a href> gathers the text up to </a>, as [x](u) does. */
	GMI_EQ("See <a href=\"https://a.org/\">the *site*</a> now.\n",
	    "See the site now.\n=> https://a.org/ the site\n");
	GPH_EQ("See <a href=\"https://a.org/\">the site</a> now.\n",
	    "See the site[1] now.\n\nReferences\n----------\n\n"
	    "[1] https://a.org/\n");
	/* Only a link: a link line alone. */
	GMI_EQ("<a href=\"/x\">X</a>\n", "=> /x X\n");
	/* Never closed: to the end of the paragraph. */
	GMI_EQ("a <a href=\"/u\">b c\n", "a b c\n=> /u b c\n");
	/* No href, or a script: just text. */
	GMI_EQ("<a name=\"top\"></a>Top <a href=\"javascript:x()\">j</a>\n",
	    "Top j\n");
	/* An <a> in an <a> closes the first (HTML5). */
	GMI_EQ("x <a href=\"/1\">one <a href=\"/2\">two</a></a>\n",
	    "x one two\n=> /1 one\n=> /2 two\n");
	/* In an HTML block; a link around an image: both lines. */
	GMI_EQ("<p><a href=\"/big.png\"><img src=\"/small.png\" alt=\"Cat\">"
	    "</a></p>\n", "=> /big.png Cat\n=> /small.png Cat\n");
}

static void
test_media(void)
{
	GMI_EQ("<img src=\"/a.png\" alt=\"An A\">\n", "=> /a.png An A\n");
	GMI_EQ("<img src=\"/a.png\">\n", "=> /a.png a.png\n");
	GMI_EQ("<img src=\"data:image/png;base64,xx\" data-src=\"/lazy.png\" "
	    "alt=\"L\">\n", "=> /lazy.png L\n");
	GMI_EQ("<img srcset=\"/s.png 1x, /l.png 2x\" alt=\"S\">\n",
	    "=> /s.png S\n");
	GMI_EQ("<iframe src=\"https://www.youtube.com/embed/Q\"></iframe>\n",
	    "=> https://www.youtube.com/watch?v=Q Embedded: www.youtube.com\n");
	GMI_EQ("<video src=\"/v.mp4\" title=\"Talk\">old browser</video>\n",
	    "=> /v.mp4 Talk\n");
	GMI_EQ("<audio controls><source src=\"/a.ogg\"><source src=\"/a.mp3\">"
	    "</audio>\n", "=> /a.ogg Audio\n=> /a.mp3 Audio\n");
	GMI_EQ("<embed src=\"/f.swf\">\n", "=> /f.swf f.swf\n");
	GMI_EQ("<object data=\"/r.pdf\"><embed src=\"/r.pdf\"></object>\n",
	    "=> /r.pdf r.pdf\n");
	/* A picture is one image, in the size its <img> names. */
	GMI_EQ("<picture><source srcset=\"/p.avif\"><img src=\"/p.jpg\" "
	    "alt=\"P\"></picture>\n", "=> /p.jpg P\n");
	GMI_EQ("<picture><source srcset=\"/only.webp 1x\"></picture>\n",
	    "=> /only.webp only.webp\n");
	/* A figure's caption labels an image that has no alt. */
	GMI_EQ("<figure><img src=\"/f.png\"><figcaption>The <b>plot</b>"
	    "</figcaption></figure>\n", "=> /f.png The plot\n");
	GMI_EQ("<figure><img src=\"/f.png\" alt=\"F\"><figcaption>Cap"
	    "</figcaption></figure>\n", "=> /f.png F\n\nCap\n");
	/*
	 * Past 32 attributes the src, alt and href still count: they
	 * were dropped, and the image with them, without a word.
	 */
	{
		struct buf	 m = BUF_INIT;
		char		*got;
		int		 i;

		buf_addstr(&m, "<a data-a=\"1\"");
		for (i = 0; i < 40; i++)
			buf_printf(&m, " data-x%d=\"%d\"", i, i);
		buf_addstr(&m, " href=\"/far\"><img");
		for (i = 0; i < 60; i++)
			buf_printf(&m, " data-y%d", i);
		buf_addstr(&m, " src=\"/late.png\" alt=\"Late\"></a>\n");
		got = gmi(m.data);
		STR_EQ(got, "=> /far Late\n=> /late.png Late\n",
		    "attributes after the 32nd");
		free(got);
		buf_free(&m);
	}
}

/*
 * A start tag cmark leaves as text, the writer's HTML being not quite
 * HTML: a quote inside a quoted value, a quote never closed.  Its URL
 * is still a link; "<" in prose is still prose.
 */
static void
test_broken_tags(void)
{
	GMI_EQ("see <img src=\"/x.gif\" alt=\"a \"b\" c\" /> after\n",
	    "see a after\n=> /x.gif a\n");
	GMI_EQ("<a href=\"/k>Knight</a> in 2014\n",
	    "Knight in 2014\n=> /k Knight\n");
	/* An absolute one, which cmark's autolink took first. */
	GMI_EQ("See <a href=\"https://x.org/p>The page</a> in 2014.\n",
	    "See The page in 2014.\n=> https://x.org/p The page\n");
	GMI_EQ("<a href='https://x.org/p?a=1&b=2>Words</a>, done\n",
	    "Words, done\n=> https://x.org/p?a=1&b=2 Words\n");
	GPH_EQ("See <a href=\"https://x.org/p>The page</a> now.\n",
	    "See The page[1] now.\n\nReferences\n----------\n\n"
	    "[1] https://x.org/p\n");
	/* A real autolink after a closed tag is left alone. */
	GMI_EQ("Go <a href=\"/a\">A</a> https://x.org/q\n",
	    "Go A https://x.org/q\n=> /a A\n=> https://x.org/q\n");
	GMI_EQ("a <embed src=\"v.mp4\" title=\"T\"> b <img src=\"/i.png\" "
	    "alt=\"I\" x=\"y\"z\">\n", "a T b I\n=> v.mp4 T\n=> /i.png I\n");
	GMI_EQ("1 < 2, x <y and <a name\n", "1 < 2, x <y and <a name\n");
	GMI_EQ("`<img src=\"/c\" alt=\"a \"b\"\">`\n",
	    "`<img src=\"/c\" alt=\"a \"b\"\">`\n");
}

static void
test_blocks(void)
{
	GMI_EQ("<p>One</p><p>Two<br>lines</p>\n", "One\n\nTwo\nlines\n");
	GMI_EQ("<div>a</div><div>b</div>\n", "a\nb\n");
	GMI_EQ("<blockquote><p>Q</p></blockquote>\n", "> Q\n");
	GMI_EQ("<ul><li>a<li>b</ul>\n", "* a\n* b\n");
	GMI_EQ("<ol start=\"7\"><li>a</li></ol>\n", "7. a\n");
	GMI_EQ("<h3>Three</h3><h5>Five</h5>\n",
	    "### Three\n\n### \xe2\x80\xba\xe2\x80\xba Five\n");
	GMI_EQ("<hr>\n", "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
	    "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
	    "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
	    "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
	    "\xe2\x94\x80\n");
	GMI_EQ("<pre>\n  a &lt; b\n    c</pre>\n", "```\n  a < b\n    c\n```\n");
	GMI_EQ("<details><summary>Sum</summary>Body</details>\n",
	    "Sum\n\nBody\n");
	GMI_EQ("<x-conv name=\"Ana\">Hi</x-conv>\n<x-conv label=\"Bo\">Yo"
	    "</x-conv>\n", "Ana: Hi\nBo: Yo\n");
	/* A known element's title is not a label. */
	GMI_EQ("<abbr title=\"HyperText\">HTML</abbr> is\n", "HTML is\n");
	GMI_EQ("<script>x()</script><style>p{}</style><svg><text>no</text>"
	    "</svg>Yes\n", "Yes\n");
	GMI_EQ("Text <script>bad()</script>after.\n", "Text after.\n");
	GMI_EQ("&copy; <q>q</q> <code>a  b</code> <kbd>K</kbd>\n",
	    "\xc2\xa9 \xe2\x80\x9cq\xe2\x80\x9d `a b` `K`\n");
	/* Markdown between HTML blocks goes into the open element. */
	GMI_EQ("<blockquote>\n\n*Quoted* Markdown.\n\n</blockquote>\n",
	    "> Quoted Markdown.\n");
	/* Indented lines inside an open element are HTML, not code. */
	GMI_EQ("<div>\n<blockquote>\n\n\t\tHi <b>there</b>\n\n"
	    "</blockquote>\n</div>\n", "> Hi there\n");
	/* Inline: block elements break the line they are on. */
	GMI_EQ("a<div>b</div>c\n", "a\nb\nc\n");
}

static void
test_tables(void)
{
	GMI_EQ("<table><tr><th>A</th><th>B</th></tr><tr><td>1<td>"
	    "<a href=\"/2\">2</a></tr></table>\n",
	    "```table\nA | B\n--+--\n1 | 2\n```\n=> /2 2\n");
	GPH_EQ("<table><tr><td>x</td></tr><tr><td>y</td><td>z</td></tr>"
	    "</table>\n", "x |\ny | z\n");
	/* Rows without <tr>, a caption, a nested table flattened. */
	GMI_EQ("<table><caption>C</caption><td>a</td></table>\n",
	    "C\n\n```table\na\n```\n");
	GMI_EQ("<table><tr><td><table><tr><td>in</td><td>ner</td></tr>"
	    "</table></td></tr></table>\n", "```table\nin ner\n```\n");
	/* A gfm table whose cells hold only HTML keeps its rows. */
	GMI_EQ("| <b>A</b> | <i>B</i> |\n|---|---|\n| <a href=\"/l\">L</a> | "
	    "<img src=\"/i.png\" alt=\"I\"> |\n",
	    "```table\nA | B\n--+--\nL | I\n```\n=> /l L\n=> /i.png I\n");
	/* An empty table says nothing. */
	GMI_EQ("<table></table>\n\nx\n", "x\n");
}

/* Deep and unbalanced markup stays linear and bounded. */
static void
test_hostile(void)
{
	struct buf	 md = BUF_INIT;
	clock_t		 t0;
	double		 secs;
	char		*out;
	size_t		 i;

	for (i = 0; i < 20000; i++)
		buf_addstr(&md, "<div><blockquote><ul><li><a href=x><table><tr>"
		    "<td>");
	for (i = 0; i < 20000; i++)
		buf_addstr(&md, "</x></td></p></li>");
	buf_add(&md, "", 0);
	t0 = clock();
	out = gmi(md.data);
	free(out);
	out = gph(md.data);
	free(out);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	OK(secs < harness_time_bound(5.0), "nested HTML: %.2f s", secs);
	buf_truncate(&md, 0);
	for (i = 0; i < 50000; i++)
		buf_addstr(&md, "a <b>b <a href=\"/x\">c</b> d ");
	buf_add(&md, "", 0);
	t0 = clock();
	out = gmi(md.data);
	free(out);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	OK(secs < harness_time_bound(5.0), "inline fragments: %.2f s", secs);
	buf_free(&md);
}

/* The notes of md, one per line: "LINE:COL what name". */
static char *
notes(const char *md)
{
	static const char *const what[] = { "linked", "approximated",
	    "dropped" };
	struct html_notes	 ns;
	struct buf		 b = BUF_INIT;
	size_t			 i;

	render_html_notes(md, strlen(md), &ns);
	for (i = 0; i < ns.n; i++)
		buf_printf(&b, "%u:%u %s %s\n", ns.v[i].line, ns.v[i].col,
		    what[ns.v[i].what], ns.v[i].name);
	if (ns.nmore > 0)
		buf_printf(&b, "+%zu\n", ns.nmore);
	buf_add(&b, "", 0);
	html_notes_free(&ns);
	return buf_release(&b);
}

#define NOTES_EQ(md, want) do {						\
	char *n_ = notes(md);						\
	OK(strcmp(n_, (want)) == 0, "notes of \"%s\": got \"%s\", "	\
	    "want \"%s\"", (md), n_, (want));				\
	free(n_);							\
} while (0)

/*
 * What --check --report learns of raw HTML: each element a reader does
 * not get as written, where its tag starts (line and column of the
 * Markdown, across the lines of an HTML block and after inline text).
 */
static void
test_notes(void)
{
	struct buf	 md = BUF_INIT;
	char		*out;
	size_t		 i;

	NOTES_EQ("Plain *Markdown*.\n", "");
	NOTES_EQ("<p>Faithful <em>markup</em></p>\n", "");
	NOTES_EQ("Watch <a href=\"/t\">the talk</a> here.\n",
	    "1:7 linked a\n");
	NOTES_EQ("# Title\n\n<div>\n  <iframe src=\"https://v.example/1\">"
	    "</iframe>\n\t<img src=\"/a.png\">\n</div>\n",
	    "4:3 linked iframe\n5:2 linked img\n");
	NOTES_EQ("<table><tr><td>1</td></tr></table>\n\n"
	    "<details><summary>More</summary>x</details>\n",
	    "1:1 approximated table\n3:1 approximated details\n");
	NOTES_EQ("<x-conv name=\"Ana\">Hi</x-conv>\n",
	    "1:1 approximated x-conv\n");
	NOTES_EQ("<script>alert(1)</script>\n\n<style>p{}</style>\n\n"
	    "a <blink>b</blink> <img alt=\"no src\">\n",
	    "1:1 dropped script\n3:1 dropped style\n5:3 dropped blink\n"
	    "5:20 dropped img\n");
	/* What is inside a skipped element is not noted again. */
	NOTES_EQ("<svg><a href=\"/x\">x</a></svg>\n", "1:1 dropped svg\n");
	/* A video's sources are the links; the video without src is not lost. */
	NOTES_EQ("<video><source src=\"/v.mp4\"></video>\n",
	    "1:8 linked source\n");
	/* A tag cmark left as text has a place still. */
	NOTES_EQ("x\n\nsee <img src=\"/x.gif\" alt=\"a \"b\" c\" /> after\n",
	    "3:1 linked img\n");
	/* No '<': no parse at all; past the cap, counted. */
	NOTES_EQ("no html\n", "");
	for (i = 0; i < HTML_MAX_NOTES + 5; i++)
		buf_addstr(&md, "<script></script>\n");
	buf_add(&md, "", 0);
	out = notes(md.data);
	OK(strstr(out, "1000:1 dropped script\n+5\n") != NULL &&
	    strncmp(out, "1:1 dropped script\n2:1 dropped script\n",
	    strlen("1:1 dropped script\n2:1 dropped script\n")) == 0,
	    "the first %d noted, 5 counted: %.60s", HTML_MAX_NOTES, out);
	free(out);
	buf_free(&md);
}

/*
 * An HTML post's body (htmlbody.c): one HTML block whatever its blank
 * lines and indentation, so the HTML reader reads every line of it.
 */
static void
test_htmlbody(void)
{
	static const char body[] =
	    "<div class=\"section\">\n<h2>Intro</h2>\n\n"
	    "<pre><code>a &lt;- 1\n\nmean(a)</code></pre>\n"
	    "<!-- a\n\ncomment -->\n"
	    "    <p>Indented *not* code.</p>\n\n"
	    "Plain text, not a paragraph of Markdown: _x_\n";
	struct buf	 md = BUF_INIT, g = BUF_INIT;

	htmlbody_markdown(body, strlen(body), &md);
	STR_EQ(md.data, "<div><div class=\"section\">\n<h2>Intro</h2>\n"
	    "<!---->\n<pre><code>a &lt;- 1\n<!---->\nmean(a)</code></pre>\n"
	    "<!-- a\n.\ncomment -->\n    <p>Indented *not* code.</p>\n"
	    "<!---->\nPlain text, not a paragraph of Markdown: _x_\n",
	    "blank lines filled, a block opened");
	render_gemtext(md.data, md.len, NULL, &g);
	STR_EQ(g.data, "## Intro\n\n```\na <- 1\n\nmean(a)\n```\n\n"
	    "Indented *not* code.\n\nPlain text, not a paragraph of "
	    "Markdown: _x_\n", "read as HTML, every line");
	buf_free(&md);
	buf_free(&g);
	htmlbody_markdown("", 0, &md);
	OK(md.data != NULL && md.len == 0, "nothing: nothing");
	buf_free(&md);
}

static const struct harness_test tests[] = {
	TEST(test_htmlbody),
	TEST(test_notes),
	TEST(test_lexer),
	TEST(test_charrefs),
	TEST(test_embed_url),
	TEST(test_links),
	TEST(test_media),
	TEST(test_broken_tags),
	TEST(test_blocks),
	TEST(test_tables),
	TEST(test_hostile),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
