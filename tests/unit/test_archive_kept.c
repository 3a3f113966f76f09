/*
 * test_archive_kept.c -- archives loaded as other generators keep
 * them, each a small capsule made here (archive.c through its public
 * interface): file names with one-digit dates, Markdown under every
 * usual name, drafts folders, Pelican's header lines, summary
 * separators, authors files, dates as mappings, MDX, HTML posts.  Each
 * test makes its own capsule beneath the temp dir, loads it and checks
 * the posts it must give, by slug, title and date.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/preview.h"
#include "content/archive.h"
#include "core/config.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"

static char	 top[64];	/* the temp dir */

/*
 * A capsule top/name made of files[] (pairs of path and text, ending in
 * NULL), loaded.
 */
static struct archive *
load(const char *name, const char *const *files)
{
	struct config	 c;
	struct archive	*a;
	char		*dir;
	size_t		 i;

	dir = xasprintf("%s/%s", top, name);
	for (i = 0; files[i] != NULL; i += 2)
		test_put(dir, files[i], files[i + 1]);
	memset(&c, 0, sizeof(c));
	c.capsule_dir = dir;
	c.site_title = "Kept";
	c.lang = "en";
	c.hostname = "localhost";
	a = archive_load(&c);
	free(dir);
	return a;
}

/* The post of slug in a: its title and date must be these. */
static void
post_is(const struct archive *a, const char *slug, const char *title,
    const char *ymd)
{
	const struct post	*p = archive_post(a, slug);

	OK(p != NULL, "%s: a post", slug);
	if (p == NULL)
		return;
	OK(strcmp(p->title, title) == 0, "%s: title \"%s\", want \"%s\"",
	    slug, p->title, title);
	OK(strcmp(p->date.ymd, ymd) == 0, "%s: date %s, want %s", slug,
	    p->date.ymd, ymd);
}

/* Jekyll and Pelican read "2020-11-4-x.md": so does the archive. */
static void
test_one_digit(void)
{
	static const char *const files[] = {
		"posts/2020-11-4-this-week.md", "# This week\n\nNews.\n",
		"posts/2021-1-05-january.md", "Text.\n",
		"posts/2021-2-3.md", "---\ntitle: Only a date\n---\nx\n",
		"posts/2022-3-7-trip/index.md", "# Trip\n\nA bundle.\n",
		"posts/2023/4/9/deep.md", "# Deep\n\nIn date folders.\n",
		"posts/2023-13-1-bad.md", "# Bad\n\nNo month 13.\n",
		NULL,
	};
	struct archive	*a;

	if ((a = load("one-digit", files)) == NULL) {
		OK(0, "loads");
		return;
	}
	post_is(a, "this-week", "This week", "2020-11-04");
	post_is(a, "january", "january", "2021-01-05");
	post_is(a, "2021-2-3", "Only a date", "2021-02-03");
	post_is(a, "trip", "Trip", "2022-03-07");
	post_is(a, "deep", "Deep", "2023-04-09");
	OK(archive_post(a, "bad") == NULL &&
	    archive_post(a, "2023-13-1-bad") == NULL, "no month 13: no date");
	INT_EQ(a->nposts, 5, "five posts");
	archive_unref(a);
}

/*
 * A Jekyll tree: posts under every Markdown name, and _drafts/, whose
 * posts are drafts whether their names are dated or not.
 */
static void
test_jekyll(void)
{
	static const char *const files[] = {
		"posts/_posts/2020-01-02-one.markdown", "---\ntitle: One\n---\n"
		    "x\n",
		"posts/_posts/2020-01-03-two.mdown", "# Two\n\nx\n",
		"posts/_posts/2020-01-04-three.mkdn", "# Three\n\nx\n",
		"posts/_posts/2020-01-05-four.mkd", "# Four\n\nx\n",
		"posts/_posts/2020-01-06-five.md", "# Five\n\nx\n",
		"posts/_drafts/2020-02-01-dated.md", "---\ntitle: Dated draft\n"
		    "---\nx\n",
		"posts/_drafts/undated.markdown", "---\ntitle: Undated draft\n"
		    "---\nx\n",
		"posts/_drafts/2020-02-02-bundle/index.md", "# Bundled draft\n",
		"posts/blog/_drafts/2020-02-03-deep.md", "# Deep draft\n",
		"posts/_posts/notes.rst", "Not *Markdown*\n",
		"pages/about.markdown", "# About\n\nMe.\n",
		"pages/about.md", "# About again\n\nMe too.\n",
		NULL,
	};
	struct archive	*a;
	size_t		 i;

	if ((a = load("jekyll", files)) == NULL) {
		OK(0, "loads");
		return;
	}
	post_is(a, "one", "One", "2020-01-02");
	post_is(a, "two", "Two", "2020-01-03");
	post_is(a, "three", "Three", "2020-01-04");
	post_is(a, "four", "Four", "2020-01-05");
	post_is(a, "five", "Five", "2020-01-06");
	INT_EQ(a->nposts, 5, "five posts, no draft among them");
	INT_EQ(a->ndrafts, 4, "four drafts");
	for (i = 0; i < a->ndrafts; i++)
		OK(strstr(a->drafts[i]->path, "_drafts/") != NULL &&
		    archive_post(a, a->drafts[i]->slug) == NULL,
		    "%s: a draft, in no index", a->drafts[i]->path);
	OK(archive_draft(a, "dated") != NULL, "the dated draft");
	OK(archive_draft(a, "undated") != NULL, "the undated draft");
	INT_EQ(a->ndocs, 1, "a page under another Markdown name, once");
	OK(archive_doc(a, "about") != NULL &&
	    strcmp(archive_doc(a, "about")->title, "About") == 0,
	    "the name that sorts first keeps /about");
	archive_unref(a);
}

/*
 * A Pelican tree: header lines, slugs from titles (weekly posts whose
 * file names share their words), Slug:, Status: draft and hidden.
 */
static void
test_pelican(void)
{
	static const char *const files[] = {
		"posts/2020-11-4-this-week.md", "Title: This week: November 4\n"
		    "Date: 2020-11-04 12:00\nCategory: Weekly\n\nNews.\n",
		"posts/2020-11-11-this-week.md", "Title: This week: November "
		    "11\nDate: 2020-11-11 12:00\n\nMore news.\n",
		"posts/2020-11-18-this-week.md", "Title: This week: November "
		    "18\nSlug: the-eighteenth\n\nNews again.\n",
		"posts/2020-11-25-this-week.md", "Title: Unfinished\n"
		    "Status: draft\n\nSoon.\n",
		"posts/2020-11-26-this-week.md", "Title: Hidden away\n"
		    "Status: hidden\n\nNot listed.\n",
		"posts/note.md", "Note: this post has no header\n\nBody.\n",
		NULL,
	};
	struct archive	*a;

	if ((a = load("pelican", files)) == NULL) {
		OK(0, "loads");
		return;
	}
	post_is(a, "this-week-november-4", "This week: November 4",
	    "2020-11-04");
	post_is(a, "this-week-november-11", "This week: November 11",
	    "2020-11-11");
	post_is(a, "the-eighteenth", "This week: November 18", "2020-11-18");
	INT_EQ(a->nposts, 3, "three posts: the draft, the hidden one and the "
	    "undated note are none");
	INT_EQ(a->ndrafts, 2, "draft and hidden are drafts");
	OK(archive_draft(a, "unfinished") != NULL, "the draft, by its title");
	OK(archive_post(a, "this-week") == NULL, "no slug of the file name");
	archive_unref(a);
}

/* Summary separators end the summary, and are never in the body. */
static void
test_summaries(void)
{
	static const char *const files[] = {
		"posts/2024-01-01-hugo.md", "---\ntitle: Hugo\n---\nOne.\n\n"
		    "Two.\n\n<!--more-->\n\nThree.\n",
		"posts/2024-01-02-docs.md", "---\ntitle: Docs\n---\nAlpha.\n\n"
		    "<!-- truncate -->\nBeta.\n",
		"posts/2024-01-03-jekyll.md", "---\ntitle: Jekyll\n"
		    "excerpt_separator: \"~cut here~\"\n---\nIntro.\n\nMore "
		    "intro.\n~cut here~\n\nRest.\n",
		"posts/2024-01-04-given.md", "---\ntitle: Given\nsummary: "
		    "Written.\n---\nFirst.\n\n<!--more-->\nSecond.\n",
		"posts/2024-01-05-none.md", "---\ntitle: None\n---\nFirst.\n\n"
		    "Second.\n",
		NULL,
	};
	struct archive		*a;
	const struct post	*p;

	if ((a = load("summaries", files)) == NULL) {
		OK(0, "loads");
		return;
	}
	STR_EQ((p = archive_post(a, "hugo")) ? p->summary : NULL,
	    "One. Two.", "<!--more-->: what is before it");
	STR_EQ((p = archive_post(a, "docs")) ? p->summary : NULL, "Alpha.",
	    "<!-- truncate -->");
	STR_EQ((p = archive_post(a, "jekyll")) ? p->summary : NULL,
	    "Intro. More intro.", "excerpt_separator");
	OK(p != NULL && strstr(p->src + p->body_off, "~cut here~") == NULL &&
	    strstr(p->src + p->body_off, "Rest.") != NULL,
	    "the separator is never shown");
	STR_EQ((p = archive_post(a, "given")) ? p->summary : NULL, "Written.",
	    "a written summary wins");
	STR_EQ((p = archive_post(a, "none")) ? p->summary : NULL, "First.",
	    "no separator: the first paragraph");
	archive_unref(a);
}

/* The author of slug in a must be who. */
static void
author_is(const struct archive *a, const char *slug, const char *who)
{
	const struct post	*p = archive_post(a, slug);

	OK(p != NULL && p->author != NULL && strcmp(p->author, who) == 0,
	    "%s: author \"%s\", want \"%s\"", slug, p && p->author ?
	    p->author : "(null)", who);
}

/*
 * Author keys through the authors file nearest a post: Docusaurus's
 * authors.yml in its blog folder, inline authors, a nearer file.
 */
static void
test_authors(void)
{
	static const char *const files[] = {
		"posts/authors.yml", "ana:\n  name: Ana Lima\n  title: Writer\n"
		    "  url: https://ana.example\nbo:\n  name: Bo &amp; Co\n"
		    "authors:\n  name: Not a list\n",
		"posts/2021-08-26-welcome.md", "---\ntitle: Welcome\n"
		    "authors: [ana, bo]\n---\nx\n",
		"posts/2021-08-27-one.md", "---\ntitle: One\nauthors: ana\n"
		    "---\nx\n",
		"posts/2021-08-28-other.md", "---\ntitle: Other\n"
		    "authors: [ana, zed]\n---\nx\n",
		"posts/2021-08-29-inline.md", "---\ntitle: Inline\nauthors:\n"
		    "  - name: Joel M\n    title: Co-creator\n  - bo\n---\nx\n",
		"posts/2021-08-30-plain.md", "---\ntitle: Plain\n"
		    "author: Someone Else\n---\nx\n",
		"posts/team/authors.yml", "ana:\n  name: Ana of the team\n",
		"posts/team/2021-09-01-near.md", "---\ntitle: Near\n"
		    "authors: [ana, bo]\n---\nx\n",
		"posts/broken/authors.yml", "ana: [unclosed\n",
		"posts/broken/2021-09-02-b.md", "---\ntitle: B\nauthors: ana\n"
		    "---\nx\n",
		NULL,
	};
	struct archive	*a;

	if ((a = load("authors", files)) == NULL) {
		OK(0, "loads");
		return;
	}
	author_is(a, "welcome", "Ana Lima, Bo & Co");
	author_is(a, "one", "Ana Lima");
	author_is(a, "other", "Ana Lima, zed");
	author_is(a, "inline", "Joel M, Bo & Co");
	author_is(a, "plain", "Someone Else");
	author_is(a, "near", "Ana of the team, bo");
	/* A file that does not parse is said, and the next one up read. */
	author_is(a, "b", "Ana Lima");
	INT_EQ(a->nposts, 7, "seven posts");
	archive_unref(a);
}

/* mkdocs-material: .authors.yml above posts/, dates as mappings. */
static void
test_mkdocs(void)
{
	static const char *const files[] = {
		".authors.yml", "authors:\n  squidfunk:\n    name: Martin "
		    "Donath\n    description: Creator\n    avatar: x.png\n",
		"posts/2023-01-01-misdated.md", "---\ndate:\n  created: "
		    "2023-12-31\n  updated: 2024-01-02\nauthors:\n"
		    "  - squidfunk\n"
		    "categories: [News]\n---\n# Dated by its mapping\n\nx\n",
		"posts/plain.md", "---\ndate: 2024-02-02\n---\n# Plain\n\nx\n",
		NULL,
	};
	struct archive		*a;
	const struct post	*p;

	if ((a = load("mkdocs", files)) == NULL) {
		OK(0, "loads");
		return;
	}
	post_is(a, "misdated", "Dated by its mapping", "2023-12-31");
	OK((p = archive_post(a, "misdated")) != NULL &&
	    strcmp(p->updated.ymd, "2024-01-02") == 0, "updated");
	author_is(a, "misdated", "Martin Donath");
	post_is(a, "plain", "Plain", "2024-02-02");
	archive_unref(a);
}

/*
 * A Docusaurus blog: .mdx posts and bundles with imports, components
 * and the truncate comment, beside .md ones; an Astro collection of
 * YYYY/slug/index.mdx bundles.
 */
static void
test_mdx(void)
{
	static const char *const files[] = {
		"posts/authors.yml", "ana:\n  name: Ana Lima\n",
		"posts/2021-08-26-welcome/index.mdx", "---\nslug: welcome\n"
		    "title: Welcome\nauthors: [ana]\n---\n"
		    "import Tabs from '@theme/Tabs';\n"
		    "import TabItem from '@theme/TabItem';\n\n"
		    "The opening words.\n\n{/* truncate */}\n\n"
		    "<Tabs>\n  <TabItem value=\"a\" label=\"Apple\">\n\n"
		    "    An apple.\n\n  </TabItem>\n</Tabs>\n",
		"posts/2021-08-27-plain.md", "---\ntitle: Plain\n---\n"
		    "See [welcome](2021-08-26-welcome/index.mdx).\n",
		"posts/2024/astro-post/index.mdx", "---\ntitle: Astro post\n"
		    "pubDate: 2024-03-05\ndescription: From Astro\n---\n"
		    "import Pic from '../Pic.astro';\n\n<Pic />\nText.\n",
		"posts/2024/other/index.mdx", "---\ntitle: Other\n"
		    "pubDate: 2024-04-01\n---\nx\n",
		NULL,
	};
	struct archive		*a;
	const struct post	*p;
	const char		*body;

	if ((a = load("mdx", files)) == NULL) {
		OK(0, "loads");
		return;
	}
	post_is(a, "welcome", "Welcome", "2021-08-26");
	post_is(a, "plain", "Plain", "2021-08-27");
	post_is(a, "astro-post", "Astro post", "2024-03-05");
	post_is(a, "other", "Other", "2024-04-01");
	INT_EQ(a->nposts, 4, "four posts");
	if ((p = archive_post(a, "welcome")) != NULL) {
		body = p->src + p->body_off;
		OK(strstr(body, "import") == NULL && strstr(body, "<Tab") ==
		    NULL && strstr(body, "### Apple") != NULL,
		    "the body is Markdown:\n%s", body);
		STR_EQ(p->summary, "The opening words.", "truncate ends it");
		STR_EQ(p->author, "Ana Lima", "its author's name");
		OK(p->bundle, "a bundle of index.mdx");
	}
	archive_unref(a);
}

/*
 * A blogdown tree: HTML content files with front matter (bundles'
 * index.html beside index.Rmd, single files beside their .Rmd), an
 * .Rmarkdown beside its .markdown, and an HTML page without front
 * matter, which is no post.
 */
static void
test_blogdown(void)
{
	static const char *const files[] = {
		"posts/2020-05-01-stats/index.html", "---\ntitle: \"Stats\"\n"
		    "date: 2020-05-01\n---\n\n<div class=\"section level2\">\n"
		    "<h2>Intro</h2>\n<p>Some <em>text</em>.</p>\n\n"
		    "<pre class=\"r\"><code>x &lt;- 1\n\nmean(x)</code></pre>\n"
		    "    <p>Indented, not code.</p>\n</div>\n",
		"posts/2020-05-01-stats/index.Rmd", "---\ntitle: Stats\n---\n"
		    "```{r}\nx <- 1\n```\n",
		"posts/2020-06-01-single.html", "+++\ntitle = \"Single\"\n+++\n"
		    "<p>One file.</p>\n",
		"posts/2020-06-01-single.Rmd", "source\n",
		"posts/2020-07-01-md.markdown",
		"---\ntitle: Rendered\n---\nx\n",
		"posts/2020-07-01-md.Rmarkdown",
		"---\ntitle: Source\n---\nx\n",
		"posts/2020-08-01-page.html",
		"<!doctype html>\n<p>A page</p>\n",
		NULL,
	};
	struct archive		*a;
	const struct post	*p;
	const char		*body;
	char			*dir;

	if ((a = load("blogdown", files)) == NULL) {
		OK(0, "loads");
		return;
	}
	post_is(a, "stats", "Stats", "2020-05-01");
	post_is(a, "single", "Single", "2020-06-01");
	post_is(a, "md", "Rendered", "2020-07-01");
	INT_EQ(a->nposts, 3, "three posts: no source, no page");
	if ((p = archive_post(a, "stats")) != NULL) {
		body = p->src + p->body_off;
		OK(strncmp(body, "<div>", 5) == 0 && strstr(body, "\n\n") ==
		    NULL, "one HTML block:\n%s", body);
		STR_EQ(p->summary, "Some text.", "its first paragraph");
		INT_EQ(p->words, 10, "its words, not its tags");
	}
	/* serve DIR: a folder of HTML pages is a tree, not posts. */
	dir = xasprintf("%s/pages-only", top);
	test_put(dir, "index.html", "<!doctype html>\n<p>x</p>\n");
	test_put(dir, "about.html", "<p>about</p>\n");
	INT_EQ(preview_layout(dir), PREVIEW_OTHER, "HTML pages: a tree");
	test_put(dir, ".authors.yml", "authors: {}\n");
	INT_EQ(preview_layout(dir), PREVIEW_OTHER, "a hidden one: still");
	test_put(dir, "2020-01-01-post.html", "---\ntitle: P\n---\n<p>p</p>\n");
	INT_EQ(preview_layout(dir), PREVIEW_BARE,
	    "an HTML post with front matter: posts");
	test_put(dir, "authors.yml", "ana:\n  name: Ana\n");
	INT_EQ(preview_layout(dir), PREVIEW_BARE,
	    "a blog folder's authors.yml: still posts");
	free(dir);
	archive_unref(a);
}

static const struct harness_test tests[] = {
	TEST(test_one_digit),
	TEST(test_jekyll),
	TEST(test_pelican),
	TEST(test_summaries),
	TEST(test_authors),
	TEST(test_mkdocs),
	TEST(test_mdx),
	TEST(test_blogdown),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);

	snprintf(top, sizeof(top), "/tmp/capsuled-kept-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	harness_run();
	test_rm_tree(top);
	return harness_done();
}
