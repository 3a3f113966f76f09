/*
 * test_gemtext.c -- posts kept in gemtext: the line reader
 * (markdown/gemtext.c), the two renderers of a gemtext body, and such
 * posts in an archive (title, date, tags, series, links, search).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/archive.h"
#include "content/links.h"
#include "content/search.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/log.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"
#include "markdown/gemtext.h"
#include "markdown/render.h"
#include "markdown/scan.h"

static char	 top[64];

static int
span_eq(const char *s, size_t len, const char *want)
{
	return len == strlen(want) && memcmp(s, want, len) == 0;
}

static void
test_lines(void)
{
	static const char src[] =
	    "=>  gemini://a.example/x\tA  label \r\n"
	    "=>\n"
	    "##  Two\n"
	    "#### Four\n"
	    "* item\n"
	    "*not an item\n"
	    ">quote\n"
	    "``` alt\n"
	    "=> inside.gmi\n"
	    "# inside\n"
	    "```\n"
	    "last";
	struct gemtext_iter	 it;
	struct gemtext_line	 l;

	gemtext_iter_init(&it, src, strlen(src), 5);
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_LINK &&
	    span_eq(l.url, l.urllen, "gemini://a.example/x") &&
	    span_eq(l.text, l.textlen, "A  label") && l.lineno == 5 &&
	    span_eq(l.line, l.linelen, "=>  gemini://a.example/x\tA  label "),
	    "a link: URL after blanks, label trimmed, CR dropped");
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_TEXT && l.url == NULL &&
	    span_eq(l.text, l.textlen, "=>"), "\"=>\" alone is text");
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_HEADING &&
	    l.level == 2 && span_eq(l.text, l.textlen, "Two"), "## heading");
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_HEADING &&
	    l.level == 3 && span_eq(l.text, l.textlen, "# Four"),
	    "a fourth # is text of a level-3 heading");
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_ITEM &&
	    span_eq(l.text, l.textlen, "item"), "an item");
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_TEXT,
	    "\"*\" without a space is text");
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_QUOTE &&
	    span_eq(l.text, l.textlen, "quote"), "a quote");
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_PRE_TOGGLE &&
	    span_eq(l.text, l.textlen, "alt"), "a toggle with alt text");
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_PRE && l.url == NULL,
	    "a link in a preformatted block is text");
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_PRE,
	    "so is a heading");
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_PRE_TOGGLE,
	    "the block ends");
	OK(gemtext_next(&it, &l) && l.type == GEMTEXT_TEXT &&
	    span_eq(l.line, l.linelen, "last") && l.lineno == 16,
	    "a last line without LF");
	OK(!gemtext_next(&it, &l), "then the end");
}

static void
test_title_links_plain(void)
{
	static const char src[] =
	    "```\n# Not the title\n```\n"
	    "## Not level 1\n"
	    "#   The Title  \n"
	    "=> other.gmi Other\n"
	    "=> 2024-01-01-x.md?x=1 With a query\n"
	    "=> /posts/slug\n"
	    "=> https://old.example/a.html\n"
	    "=> image.png An image\n"
	    "# Second title\n";
	static const char plain[] =
	    "# Head\n=> u Label\n* item\n\n```\ncode\n```\ntext";
	struct scan_link	*l;
	struct buf		 b = BUF_INIT;
	size_t			 n;
	char			*t;

	t = gemtext_title(src, strlen(src));
	STR_EQ(t, "The Title", "the first level-1 heading outside blocks");
	free(t);
	OK(gemtext_title("## a\n#\n", 7) == NULL, "an empty heading is none");
	l = gemtext_links(src, strlen(src), 10, &n);
	INT_EQ(n, 5, "links that may name posts or files");
	if (n == 5) {
		STR_EQ(l[0].url, "other.gmi", "a .gmi file");
		INT_EQ(l[0].line, 15, "its line in the file");
		INT_EQ(l[0].col, 4, "its column");
		STR_EQ(l[1].url, "2024-01-01-x.md?x=1", "a .md file");
		STR_EQ(l[2].url, "/posts/slug", "a post's path");
		STR_EQ(l[3].url, "https://old.example/a.html",
		    "an absolute URL");
		STR_EQ(l[4].url, "image.png", "a file beside it");
	}
	scan_links_free(l, n);
	gemtext_plain(plain, strlen(plain), &b);
	buf_add(&b, "", 1);
	STR_EQ(b.data, "Head Label item code text", "the words a reader sees");
	buf_free(&b);
	OK(scan_is_checked_link("a.gmi#x", 7) &&
	    scan_is_checked_link("a.gmix", 6) &&
	    !scan_is_checked_link("mailto:a@b", 10) &&
	    !scan_is_checked_link("#top", 4) && !scan_is_checked_link("/", 1),
	    "Markdown links to .gmi files are checked too, and files; not "
	    "mail, fragments, the home page");
}

static char *
rewrite(void *ctx, const char *url)
{
	if (strcmp(url, "other.gmi") == 0)
		return xstrdup("/posts/other");
	if (strcmp(url, "gone.md") == 0)
		return xstrdup("");
	return NULL;
}

static char *
absolute(void *ctx, const char *url)
{
	return xasprintf("gopher://h/0%s", url);
}

static void
test_render(void)
{
	static const char src[] =
	    "# T\r\n"
	    "=>   other.gmi   Other post  \n"
	    "=> gone.md\n"
	    "=> keep.png\tA picture\n"
	    "```\n=> other.gmi in a block\n```\n"
	    "bad \xff byte\n"
	    "end";
	struct render_opts	 o;
	struct buf		 b = BUF_INIT;
	const char		*rel;

	memset(&o, 0, sizeof(o));
	o.rewrite = rewrite;
	o.absolute = absolute;
	o.width = 20;
	render_gemtext_gmi(src, strlen(src), &o, &b);
	buf_add(&b, "", 1);
	STR_EQ(b.data,
	    "# T\n"
	    "=> /posts/other Other post\n"
	    "gone.md\n"
	    "=> keep.png\tA picture\n"
	    "```\n=> other.gmi in a block\n```\n"
	    "bad \xef\xbf\xbd byte\n"
	    "end\n",
	    "as written, links to posts rewritten, bad bytes replaced");
	buf_free(&b);
	render_gopher_gmi(src, strlen(src), &o, &b);
	buf_add(&b, "", 1);
	STR_EQ(b.data,
	    "T\n=\n\n"
	    "Other post[1]\n"
	    "gone.md\n"
	    "A picture[2]\n"
	    "    => other.gmi in a block\n"
	    "bad \xef\xbf\xbd byte\n"
	    "end\n\n"
	    "References\n----------\n\n"
	    "[1] gopher://h/0/posts/other\n"
	    "[2] keep.png\n",
	    "wrapped text, links gathered as a Markdown post's");
	buf_free(&b);
	/*
	 * Relative links: resolved against the page's path as a Gemini
	 * client would; no base, and a dot segment: text, never a selector.
	 */
	o.base = "/posts/2024/plain";
	rel = "=> ./ Back to gemlog\n=> ../\n=> ../../../x/./y.png?q#f Up\n"
	    "=> img/a.png A\n=> #top Top\n";
	render_gopher_gmi(rel, strlen(rel), &o, &b);
	buf_add(&b, "", 1);
	STR_EQ(b.data,
	    "Back to gemlog[1]\n../[2]\nUp[3]\nA[4]\nTop[5]\n\n"
	    "References\n----------\n\n"
	    "[1] gopher://h/0/posts/2024/\n[2] gopher://h/0/posts/\n"
	    "[3] gopher://h/0/x/y.png?q\n[4] gopher://h/0/posts/2024/img/a.png\n"
	    "[5] gopher://h/0/posts/2024/plain\n", "relative links resolved");
	buf_free(&b);
	o.base = NULL;
	rel = "=> ./ Back\n=> ../x Up\n=> y.png Y\n";
	render_gopher_gmi(rel, strlen(rel), &o, &b);
	buf_add(&b, "", 1);
	STR_EQ(b.data, "Back\nUp\nY[1]\n\nReferences\n----------\n\n"
	    "[1] y.png\n", "no base: no dot segment in a selector");
	buf_free(&b);
}

/* render_gemtext_summary(): the first text lines with words in them. */
static void
test_summary(void)
{
	static const struct { const char *gmi, *want; } cases[] = {
		{ "# T\n\n=> /x link\n* item\n> quote\n...\n\nFirst "
		    "line\nsecond line\n\nLater.\n", "First line second line" },
		{ "```\nin a block\n```\nAfter.\n", "After." },
		{ "  \t\nA \xff byte\n", "A \xef\xbf\xbd byte" },
		{ "# Only a heading\n=> x y\n", NULL },
	};
	struct buf	 b = BUF_INIT;
	char		*s;
	size_t		 i;

	for (i = 0; i < nitems(cases); i++) {
		s = render_gemtext_summary(cases[i].gmi,
		    strlen(cases[i].gmi), 300);
		OK(cases[i].want == NULL ? s == NULL : s != NULL &&
		    strcmp(s, cases[i].want) == 0, "summary %zu: %s", i,
		    s ? s : "(none)");
		free(s);
	}
	for (i = 0; i < 200; i++)
		buf_addstr(&b, "word ");
	buf_addstr(&b, "\n");
	s = render_gemtext_summary(b.data, b.len, 20);
	OK(s != NULL && strcmp(s, "word word word\xe2\x80\xa6") == 0,
	    "cut at a word: %s", s ? s : "(none)");
	free(s);
	buf_free(&b);
}

static struct archive *
load(void)
{
	struct config	 c;

	test_mkdir(top, "posts");
	test_put(top, "posts/2024-01-01-md.md", "---\ntitle: Markdown\n"
	    "series: Mixed\n---\nSee [the gemtext one](2024-02-01-plain.gmi)."
	    "\n");
	test_put(top, "posts/2024-02-01-plain.gmi", "# Plain gemtext\n\n"
	    "A walrus in gemtext.\n=> 2024-01-01-md.md Back\n"
	    "=> missing.gmi Gone\n");
	test_put(top, "posts/fm.gmi", "---\ndate: 2024-03-01\n"
	    "tags: [Gemini, notes]\nseries: Mixed\n---\n"
	    "Intro line before the title.\n# With &amp; front matter\n");
	test_put(top, "posts/toml.gmi", "+++\ntitle = \"TOML titled\"\n"
	    "date = 2024-04-01T10:00:00Z\n[taxonomies]\ntags = [\"notes\"]\n"
	    "+++\n# Not the title\n");
	test_put(top, "posts/undated.gmi", "# No date anywhere\n");
	test_put(top, "posts/2024-05-01-notitle.gmi", "Just text.\n");
	test_put(top, "posts/.hidden.gmi", "# Hidden\n");
	test_mkdir(top, "pages");
	test_put(top, "pages/page.gmi", "# Not a page\n");
	memset(&c, 0, sizeof(c));
	c.capsule_dir = top;
	c.site_title = "Site";
	c.lang = "en";
	c.hostname = "localhost";
	return archive_load(&c);
}

static void
test_archive(void)
{
	struct archive		*a;
	struct post		*p;
	struct search_index	*x;
	struct search_result	 r;
	char			*s;

	if ((a = load()) == NULL) {
		OK(0, "archive_load");
		return;
	}
	INT_EQ(a->nposts, 5, "five posts; the undated and hidden ones skipped");
	INT_EQ(a->ndocs, 0, "pages are Markdown only");
	p = archive_post(a, "plain");
	OK(p != NULL && p->gemtext && strcmp(p->title, "Plain gemtext") == 0 &&
	    strcmp(p->date.ymd, "2024-02-01") == 0 &&
	    strcmp(p->path, "posts/2024-02-01-plain.gmi") == 0,
	    "title from the first heading, date from the file name");
	p = archive_post(a, "fm");
	OK(p != NULL && p->gemtext && strcmp(p->date.ymd, "2024-03-01") == 0 &&
	    strcmp(p->title, "With &amp; front matter") == 0 && p->ntags == 2 &&
	    p->series != NULL && p->series->nparts == 2,
	    "date, tags, series from YAML front matter; no entities");
	p = archive_post(a, "toml");
	OK(p != NULL && strcmp(p->title, "TOML titled") == 0 &&
	    p->ntags == 1 && strcmp(p->tagnames[0], "notes") == 0,
	    "TOML front matter on a gemtext post");
	p = archive_post(a, "notitle");
	OK(p != NULL && strcmp(p->title, "notitle") == 0,
	    "no heading: the file name");
	/* A summary, as a Markdown post's: the first text lines. */
	p = archive_post(a, "plain");
	STR_EQ(p != NULL ? p->summary : NULL, "A walrus in gemtext.",
	    "summary: the first text line");
	p = archive_post(a, "fm");
	STR_EQ(p != NULL ? p->summary : NULL, "Intro line before the title.",
	    "summary before the heading");
	p = archive_post(a, "toml");
	OK(p != NULL && p->summary == NULL, "no text: no summary");
	OK(archive_post(a, "md") != NULL && !archive_post(a, "md")->gemtext,
	    "Markdown posts are not gemtext");
	OK(archive_tag(a, "notes") != NULL &&
	    archive_tag(a, "notes")->nposts == 2, "in tags like any post");

	s = links_resolve(a, "posts/2024-01-01-md.md", "2024-02-01-plain.gmi");
	STR_EQ(s, "/posts/plain", "a Markdown link to a .gmi post");
	free(s);
	s = links_resolve(a, "posts/fm.gmi", "../posts/2024-01-01-md.md");
	STR_EQ(s, "/posts/md", "a gemtext link to a .md post");
	free(s);
	s = links_resolve(a, "posts/fm.gmi", "plain.gmi");
	STR_EQ(s, "/posts/plain", "by name without date prefix");
	free(s);
	OK(links_resolve(a, "posts/fm.gmi", "/pages/page.gmi") == NULL,
	    "pages are never .gmi");
	INT_EQ(links_check(a), 1, "one link to a missing .gmi post");

	x = search_build(a);
	OK(search_run(x, "walrus", 10, &r) == 0 && r.total == 1 &&
	    strcmp(r.hits[0].post->slug, "plain") == 0 &&
	    strstr(r.hits[0].snippet, "walrus") != NULL,
	    "search finds words of a gemtext body");
	search_result_free(&r);
	OK(search_run(x, "gone", 10, &r) == 0 && r.total == 1,
	    "and its link labels");
	search_result_free(&r);
	search_free(x);
	archive_unref(a);
}

static const struct harness_test tests[] = {
	NAMED("lines"),
	NAMED("title_links_plain"),
	NAMED("render"),
	NAMED("summary"),
	NAMED("archive"),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	log_set_level(LOG_LEVEL_ERROR);
	RUN("lines", test_lines());
	RUN("title_links_plain", test_title_links_plain());
	RUN("render", test_render());
	RUN("summary", test_summary());
	snprintf(top, sizeof(top), "/tmp/capsuled-gemtext-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	RUN("archive", test_archive());
	test_rm_tree(top);
	return harness_done();
}
