/*
 * test_frontmatter_header.c -- frontmatter_header.c: metadata header
 * lines without a fence, as Pelican and MultiMarkdown write them, read
 * through frontmatter_parse(); and the files that must stay all body.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/frontmatter.h"
#include "content/slug.h"
#include "harness.h"

static int
parse(const char *s, struct meta *m, struct fm_error *e)
{
	return frontmatter_parse(s, strlen(s), m, e);
}

/* Pelican's post as it writes one. */
static void
test_pelican(void)
{
	static const char src[] =
	    "Title: This week: November 4\n"
	    "Date: 2020-11-04 12:00\n"
	    "Modified: 2020-11-05\n"
	    "Tags: small web, gemini\n"
	    "Keywords: capsule\n"
	    "Category: Weekly Notes\n"
	    "Authors: Ana Lima; Bo Chen\n"
	    "Summary: What happened\n"
	    "    this week.\n"
	    "Lang: pt-BR\n"
	    "Series: Weekly\n"
	    "series_index: 2\n"
	    "Save_as: blog/x.html\n"
	    "URL: blog/2020/11/04/this-week-november-4/\n"
	    "\n"
	    "# Hello\n";
	struct meta	 m;
	struct fm_error	 e;

	if (parse(src, &m, &e) == -1) {
		OK(0, "refused: %s", e.msg);
		return;
	}
	STR_EQ(m.title, "This week: November 4", "title");
	STR_EQ(m.date.ymd, "2020-11-04", "date");
	OK(m.has_date && m.date.has_time, "a date with its time");
	STR_EQ(m.updated.ymd, "2020-11-05", "modified");
	INT_EQ(m.ntags, 4, "tags, keywords and the category");
	if (m.ntags == 4) {
		STR_EQ(m.tags[0], "small web", "a tag split on commas only");
		STR_EQ(m.tags[1], "gemini", "second tag");
		STR_EQ(m.tags[2], "capsule", "a keyword");
		STR_EQ(m.tags[3], "Weekly Notes", "the category, whole");
	}
	STR_EQ(m.author, "Ana Lima, Bo Chen", "authors split on semicolons");
	STR_EQ(m.summary, "What happened this week.", "a continued value");
	STR_EQ(m.lang, "pt-BR", "lang");
	STR_EQ(m.series, "Weekly", "series");
	INT_EQ(m.part, 2, "series_index");
	STR_EQ(m.address, "blog/2020/11/04/this-week-november-4/", "url");
	OK(!m.draft, "published");
	OK(m.slug_from_title, "Pelican's slug is its title's");
	STR_EQ(src + m.body_off, "# Hello\n", "the body after the blank line");
	INT_EQ(m.body_line, 16, "its line");
	INT_EQ(frontmatter_syntax(src, strlen(src), m.body_off),
	    FM_SYNTAX_HEADER, "header syntax");
	INT_EQ(m.nwarns, 0, "no warning");
	meta_free(&m);
}

/* Status: draft and hidden are drafts; anything else is said. */
static void
test_status(void)
{
	static const char *const drafts[] = {
		"Title: a\nStatus: draft\n\nx\n",
		"Title: a\nstatus: Hidden\n\nx\n",
		"TITLE: a\nSTATUS: DRAFT\n\nx\n",
	};
	struct meta	 m;
	struct fm_error	 e;
	size_t		 i;

	for (i = 0; i < sizeof(drafts) / sizeof(drafts[0]); i++) {
		OK(parse(drafts[i], &m, &e) == 0 && m.draft, "a draft: %s",
		    drafts[i]);
		meta_free(&m);
	}
	OK(parse("Title: a\nStatus: published\n\nx\n", &m, &e) == 0 &&
	    !m.draft, "published");
	meta_free(&m);
	OK(parse("Title: a\nStatus: soon\n\nx\n", &m, &e) == 0 && !m.draft &&
	    m.nignored == 1 && m.ignored.line == 2 && m.ignored.col == 9 &&
	    strstr(m.ignored.msg, "Status: expected draft, hidden or "
	    "published") != NULL, "another status: ignored, said where");
	meta_free(&m);
	OK(parse("Title: a\nDate: soon\nseries_index: two\n\nx\n", &m, &e) ==
	    0 && !m.has_date && m.part == 0 && m.nwarns == 2 &&
	    m.warns[0].line == 2 && m.warns[1].line == 3,
	    "a date and a part of the wrong shape: ignored");
	meta_free(&m);
}

/* Only a known key on the first line makes a header. */
static void
test_not_header(void)
{
	static const char *const bodies[] = {
		"Note: this is prose\nmore prose\n",
		"Dear reader: hello\n",
		"title : spaced\n\nx\n",
		"http://example.com: a link\n",
		"\nTitle: after a blank line\n",
		"# Title: a heading\n",
		"Title:no space is fine too",	/* a header: see below */
	};
	struct meta	 m;
	struct fm_error	 e;
	size_t		 i;

	for (i = 0; i + 1 < sizeof(bodies) / sizeof(bodies[0]); i++) {
		OK(parse(bodies[i], &m, &e) == 0 && m.body_off == 0 &&
		    m.title == NULL && !m.slug_from_title, "all body: %s",
		    bodies[i]);
		meta_free(&m);
	}
	OK(parse(bodies[i], &m, &e) == 0 && m.title != NULL &&
	    strcmp(m.title, "no space is fine too") == 0 &&
	    m.body_off == strlen(bodies[i]), "a header to the end");
	meta_free(&m);
}

/* Where a header ends, and what it leaves of the body. */
static void
test_ends(void)
{
	struct meta	 m;
	struct fm_error	 e;
	const char	*s;

	s = "Title: a\nSome text\n\nmore\n";
	OK(parse(s, &m, &e) == 0 && strcmp(s + m.body_off, "Some text\n\n"
	    "more\n") == 0 && m.body_line == 2,
	    "a line that is no key opens the body");
	meta_free(&m);
	s = "\xEF\xBB\xBFTitle: bom\r\nDate: 2021-01-02\r\n\r\nBody\r\n";
	OK(parse(s, &m, &e) == 0 && m.title != NULL &&
	    strcmp(m.title, "bom") == 0 && m.has_date &&
	    strcmp(s + m.body_off, "Body\r\n") == 0 && m.body_line == 4,
	    "a BOM and CRLF");
	meta_free(&m);
	s = "Title: only a header\n";
	OK(parse(s, &m, &e) == 0 && m.body_off == strlen(s),
	    "no body at all");
	meta_free(&m);
	s = "Title: a\nBase Header Level: 2\nX-Unknown: y\n  more of y\n"
	    "Author: Me\n\nBody\n";
	OK(parse(s, &m, &e) == 0 && strcmp(m.author, "Me") == 0 &&
	    strcmp(s + m.body_off, "Body\n") == 0,
	    "MultiMarkdown's unknown keys (with spaces) skipped");
	meta_free(&m);
	s = "Title: a\n   Date: 2021-01-02\n\nx\n";
	OK(parse(s, &m, &e) == 0 && m.has_date, "a key indented three: a key");
	meta_free(&m);
}

/* Pelican makes the slug of the title; Slug: wins. */
static void
test_slugs(void)
{
	char	*s;

	s = archive_file_slug(NULL, "This week: C'est l'été!", "2020-11-4-x",
	    NULL);
	STR_EQ(s, "this-week-cest-lete", "the title's, punctuation dropped");
	free(s);
	s = archive_file_slug("given", "A title", "x", NULL);
	STR_EQ(s, "given", "Slug: wins");
	free(s);
	s = archive_file_slug(NULL, "!!!", "2020-01-02-name", NULL);
	STR_EQ(s, "name", "a title of no letters: the file's");
	free(s);
	s = archive_file_slug(NULL, NULL, "2020-01-02-name", NULL);
	STR_EQ(s, "name", "no title: the file's");
	free(s);
}

static const struct harness_test tests[] = {
	TEST(test_pelican),
	TEST(test_status),
	TEST(test_not_header),
	TEST(test_ends),
	TEST(test_slugs),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
