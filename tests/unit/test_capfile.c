/*
 * test_capfile.c -- what a file of a capsule is (core/capfile.c): the
 * kind of each name in each kind of folder, why what is not read is
 * not, names with control characters, and page bundles told by what
 * their folder holds.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/capfile.h"
#include "files.h"
#include "harness.h"

static void
is(enum capfile_kind in, const char *name, bool dir, enum capfile_kind want,
    const char *why)
{
	const char		*got_why;
	enum capfile_kind	 got = capfile_entry(in, name, dir, &got_why);

	OK(got == want, "%s in %d: kind %d, want %d", name, (int)in,
	    (int)got, (int)want);
	STR_EQ(got_why, why, name);
}

static void
test_top(void)
{
	is(CAPFILE_TOP_DIR, "index.md", false, CAPFILE_INDEX, NULL);
	is(CAPFILE_TOP_DIR, "posts", true, CAPFILE_POSTS_DIR, NULL);
	is(CAPFILE_TOP_DIR, "pages", true, CAPFILE_PAGES_DIR, NULL);
	is(CAPFILE_TOP_DIR, "series", true, CAPFILE_SERIES_DIR, NULL);
	is(CAPFILE_TOP_DIR, "files", true, CAPFILE_FILES_DIR, NULL);
	is(CAPFILE_TOP_DIR, "x.md", false, CAPFILE_IGNORED,
	    "not a file of a capsule");
	is(CAPFILE_TOP_DIR, "templates", true, CAPFILE_IGNORED,
	    "not a folder of a capsule");
	is(CAPFILE_TOP_DIR, ".git", true, CAPFILE_IGNORED, "a hidden name");
	is(CAPFILE_TOP_DIR, "in\x01" "dex.md", false, CAPFILE_IGNORED,
	    "not a file of a capsule");
}

static void
test_posts(void)
{
	is(CAPFILE_POSTS_DIR, "2024-01-01-x.md", false, CAPFILE_POST, NULL);
	is(CAPFILE_POSTS_DIR, "x.gmi", false, CAPFILE_POST, NULL);
	is(CAPFILE_POSTS_DIR, "x.md", true, CAPFILE_POST, NULL);
	is(CAPFILE_POSTS_DIR, "index.md", false, CAPFILE_POST, NULL);
	is(CAPFILE_POSTS_DIR, "_index.md", false, CAPFILE_SECTION,
	    "a section's page, not a post");
	is(CAPFILE_POSTS_DIR, "_index.gmi", false, CAPFILE_SECTION,
	    "a section's page, not a post");
	is(CAPFILE_POSTS_DIR, "2019", true, CAPFILE_POSTS_DIR, NULL);
	is(CAPFILE_POSTS_DIR, "notes.txt", false, CAPFILE_RESOURCE,
	    "not Markdown, HTML or gemtext: no post");
	is(CAPFILE_POSTS_DIR, ".md", false, CAPFILE_IGNORED, "a hidden name");
	is(CAPFILE_POSTS_DIR, "a\x01" "b.md", false, CAPFILE_BADNAME,
	    "a file name with control characters");
	is(CAPFILE_POSTS_DIR, "a\x7F" "b", true, CAPFILE_BADNAME,
	    "a file name with control characters");
	is(CAPFILE_POSTS_DIR, "a\x01" "b.png", false, CAPFILE_RESOURCE,
	    "not Markdown, HTML or gemtext: no post");

	/* Markdown under every usual name, MDX, HTML (by name). */
	is(CAPFILE_POSTS_DIR, "x.markdown", false, CAPFILE_POST, NULL);
	is(CAPFILE_POSTS_DIR, "x.mdown", false, CAPFILE_POST, NULL);
	is(CAPFILE_POSTS_DIR, "x.mkd", false, CAPFILE_POST, NULL);
	is(CAPFILE_POSTS_DIR, "x.mkdn", false, CAPFILE_POST, NULL);
	is(CAPFILE_POSTS_DIR, "x.mdx", false, CAPFILE_POST, NULL);
	is(CAPFILE_POSTS_DIR, "x.html", false, CAPFILE_POST, NULL);
	is(CAPFILE_POSTS_DIR, "_index.markdown", false, CAPFILE_SECTION,
	    "a section's page, not a post");
	/* Drafts folders, and markups that are no source. */
	is(CAPFILE_POSTS_DIR, "_drafts", true, CAPFILE_DRAFTS_DIR, NULL);
	is(CAPFILE_DRAFTS_DIR, "x.md", false, CAPFILE_POST, NULL);
	is(CAPFILE_POSTS_DIR, "x.rst", false, CAPFILE_RESOURCE,
	    "reStructuredText is not supported: no post, served as a file");
	is(CAPFILE_POSTS_DIR, "x.Rmd", false, CAPFILE_IGNORED,
	    "an R Markdown source: the .html rendered from it is the post, "
	    "and it is never served");
	is(CAPFILE_BUNDLE_DIR, "index.Rmarkdown", false, CAPFILE_IGNORED,
	    "an R Markdown source: the .markdown rendered from it is the "
	    "post, and it is never served");
	is(CAPFILE_FILES_DIR, "x.Rmd", false, CAPFILE_RESOURCE,
	    "a file served as it is");
	is(CAPFILE_PAGES_DIR, "x.rst", false, CAPFILE_IGNORED,
	    "reStructuredText is not supported: not read");
	is(CAPFILE_TOP_DIR, "x.rst", false, CAPFILE_IGNORED,
	    "not a file of a capsule");
	OK(capfile_in_drafts("_drafts/x.md") &&
	    capfile_in_drafts("blog/_drafts/2024/x/index.md") &&
	    !capfile_in_drafts("x.md") && !capfile_in_drafts("_drafts.md") &&
	    !capfile_in_drafts("drafts/x.md"), "a draft by its folder");

	is(CAPFILE_BUNDLE_DIR, "index.md", false, CAPFILE_BUNDLE, NULL);
	is(CAPFILE_BUNDLE_DIR, "index.mdx", false, CAPFILE_BUNDLE, NULL);
	is(CAPFILE_BUNDLE_DIR, "index.markdown", false, CAPFILE_BUNDLE,
	    NULL);
	is(CAPFILE_BUNDLE_DIR, "index.html", false, CAPFILE_BUNDLE, NULL);
	is(CAPFILE_BUNDLE_DIR, "index.gmi", false, CAPFILE_BUNDLE, NULL);
	is(CAPFILE_BUNDLE_DIR, "notes.md", false, CAPFILE_RESOURCE,
	    "a file of its page bundle");
	is(CAPFILE_BUNDLE_DIR, "img", true, CAPFILE_FILES_DIR, NULL);
	is(CAPFILE_FILES_DIR, "index.md", false, CAPFILE_RESOURCE,
	    "a file served as it is");
	is(CAPFILE_FILES_DIR, "sub", true, CAPFILE_FILES_DIR, NULL);

	OK(capfile_bundle_path("x/index.md") &&
	    capfile_bundle_path("2020/01/x/index.gmi") &&
	    !capfile_bundle_path("index.md") &&
	    !capfile_bundle_path("x/_index.md") &&
	    !capfile_bundle_path("x/index.txt"), "a bundle's post by path");
	OK(capfile_markdown("a.md") && !capfile_markdown("a.gmi") &&
	    !capfile_markdown(".md") && capfile_gemtext("a.gmi") &&
	    !capfile_gemtext("a.md") && capfile_markdown("a.mdx") &&
	    capfile_markdown("a.html"), "bodies by extension");
	OK(capfile_markup("a.mdx") == CAPFILE_MDX &&
	    capfile_markup("a.markdown") == CAPFILE_MARKDOWN &&
	    capfile_markup("a.htm") == CAPFILE_HTML &&
	    capfile_markup("a.gmi") == CAPFILE_GEMTEXT &&
	    capfile_markup("a.rst") == CAPFILE_NO_MARKUP, "markups");
	INT_EQ(capfile_ext("x.html", 6), 5, "an HTML source's extension");
	INT_EQ(capfile_link_ext("x.html", 6), 0, "a link to .html: a page");
	INT_EQ(capfile_link_ext("x.mdx#a", 5), 4, "a link to .mdx: a source");
	INT_EQ(capfile_ext("about.md", 8), 3, "a source's extension");
	INT_EQ(capfile_ext("x.gmi?q", 5), 4, "of the bytes given");
	INT_EQ(capfile_ext("x.png", 5), 0, "no source");
	INT_EQ(capfile_ext(".md", 3), 0, "an extension alone is no name");
}

static void
test_pages(void)
{
	is(CAPFILE_PAGES_DIR, "about.md", false, CAPFILE_PAGE, NULL);
	is(CAPFILE_PAGES_DIR, "about.markdown", false, CAPFILE_PAGE, NULL);
	is(CAPFILE_PAGES_DIR, "about.html", false, CAPFILE_IGNORED,
	    "not Markdown: not read");
	is(CAPFILE_PAGES_DIR, "about.gmi", false, CAPFILE_IGNORED,
	    "not Markdown: not read");
	is(CAPFILE_PAGES_DIR, "old", true, CAPFILE_IGNORED,
	    "a folder: only the files of this folder are read");
	is(CAPFILE_SERIES_DIR, "rust.md", false, CAPFILE_SERIES_FILE, NULL);
	is(CAPFILE_SERIES_DIR, "r\x01.md", false, CAPFILE_BADNAME,
	    "a file name with control characters");
	is(CAPFILE_SERIES_DIR, "r\x01.txt", false, CAPFILE_IGNORED,
	    "not Markdown: not read");
}

static void
test_bundle(void)
{
	char	 top[64], idx[CAPFILE_INDEX_MAX], other[CAPFILE_INDEX_MAX];
	int	 fd, dfd;

	snprintf(top, sizeof(top), "/tmp/capsuled-capfile-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	test_put(top, "md/index.md", "x");
	test_put(top, "gmi/index.gmi", "x");
	test_put(top, "two/index.md", "x");
	test_put(top, "two/index.gmi", "x");
	test_put(top, "none/_index.md", "x");
	test_put(top, "mdx/index.mdx", "x");
	test_put(top, "html/index.html", "---\ntitle: x\n---\n<p>x</p>\n");
	test_put(top, "html/index.Rmd", "---\ntitle: x\n---\nx\n");
	test_put(top, "page/index.html", "<!doctype html>\n<p>x</p>\n");
	test_put(top, "bom/index.htm", "\xEF\xBB\xBF+++ \r\ntitle = 'x'\n"
	    "+++\n<p>x</p>\n");
	test_put(top, "dashes/index.html", "----\n<p>x</p>\n");
	test_put(top, "mdhtml/index.md", "x");
	test_put(top, "mdhtml/index.html", "---\n---\nx");
	if ((fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		perror(top);
		exit(2);
	}
	STR_EQ(capfile_bundle(fd, "md", idx, sizeof(idx), other), "index.md",
	    "index.md");
	STR_EQ(other, "", "one index");
	STR_EQ(capfile_bundle(fd, "gmi", idx, sizeof(idx), NULL),
	    "index.gmi", "index.gmi");
	STR_EQ(capfile_bundle(fd, "two", idx, sizeof(idx), other), "index.md",
	    "both: index.md is the post");
	STR_EQ(other, "index.gmi", "the other said");
	OK(capfile_bundle(fd, "none", idx, sizeof(idx), NULL) == NULL,
	    "a section's page makes no bundle");
	STR_EQ(capfile_bundle(fd, "mdx", idx, sizeof(idx), NULL),
	    "index.mdx", "index.mdx");
	STR_EQ(capfile_bundle(fd, "html", idx, sizeof(idx), other),
	    "index.html", "index.html with front matter");
	STR_EQ(other, "", "its R Markdown source is no index");
	OK(capfile_bundle(fd, "page", idx, sizeof(idx), NULL) == NULL,
	    "an HTML page without front matter makes no bundle");
	STR_EQ(capfile_bundle(fd, "bom", idx, sizeof(idx), NULL),
	    "index.htm", "a BOM, then +++ and blanks");
	OK(capfile_bundle(fd, "dashes", idx, sizeof(idx), NULL) == NULL,
	    "four dashes are no fence");
	STR_EQ(capfile_bundle(fd, "mdhtml", idx, sizeof(idx), other),
	    "index.md", "index.md before index.html");
	STR_EQ(other, "index.html", "and index.html is said");
	INT_EQ(capfile_entry_at(fd, CAPFILE_POSTS_DIR, "page", true, NULL),
	    CAPFILE_POSTS_DIR, "a folder stays one");
	close(fd);
	test_put(top, "p/a.html", "---\ntitle: a\n---\n<p>a</p>\n");
	test_put(top, "p/b.html", "<p>b</p>\n");
	if ((fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		perror(top);
		exit(2);
	}
	dfd = fd;
	if ((fd = openat(dfd, "p", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1) {
		perror("p");
		exit(2);
	}
	close(dfd);
	INT_EQ(capfile_entry_at(fd, CAPFILE_POSTS_DIR, "a.html", false, NULL),
	    CAPFILE_POST, "an HTML file with front matter is a post");
	INT_EQ(capfile_entry_at(fd, CAPFILE_POSTS_DIR, "b.html", false, NULL),
	    CAPFILE_RESOURCE, "one without is served beside the posts");
	close(fd);
	test_rm_tree(top);
}

/* The folders beside a post file that generators keep its files in. */
static void
test_asset_dirs(void)
{
	char	 d[64];

	OK(capfile_asset_dir(0, "2020-01-02-x.md", d, sizeof(d)) &&
	    strcmp(d, "2020-01-02-x") == 0, "Hexo's: the name without .md");
	OK(capfile_asset_dir(1, "x.gmi", d, sizeof(d)) &&
	    strcmp(d, "x.assets") == 0, "Typora's: .assets");
	OK(!capfile_asset_dir(2, "x.md", d, sizeof(d)), "no third");
	OK(!capfile_asset_dir(0, "x.png", d, sizeof(d)), "no source, none");
	OK(!capfile_asset_dir(1, "a-long-name.md", d, 8), "too long: none");
}

static const struct harness_test tests[] = {
	TEST(test_asset_dirs),
	TEST(test_top),
	TEST(test_posts),
	TEST(test_pages),
	TEST(test_bundle),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
