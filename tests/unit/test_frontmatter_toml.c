/*
 * test_frontmatter_toml.c -- TOML front matter (frontmatter_toml.c):
 * the shapes Hugo and Zola write, mapped to the same fields as YAML;
 * errors placed in the file's lines; and a capsule mixing both syntaxes
 * loaded by archive.c, a broken TOML post skipped with its log line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/frontmatter.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/date.h"
#include "core/log.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"

static int
parse(const char *s, struct meta *m, struct fm_error *e)
{
	return frontmatter_parse(s, strlen(s), m, e);
}

/* s must fail at line:col with msg. */
static void
fails(const char *s, unsigned line, unsigned col, const char *msg)
{
	struct meta	 m;
	struct fm_error	 e;

	if (parse(s, &m, &e) == 0) {
		OK(0, "accepted:\n%s", s);
		meta_free(&m);
		return;
	}
	INT_EQ(e.line, line, msg);
	INT_EQ(e.col, col, msg);
	OK(strstr(e.msg, msg) != NULL, "message \"%s\" lacks \"%s\"", e.msg,
	    msg);
	OK(m.title == NULL && m.tags == NULL && m.body_off == 0,
	    "nothing kept: %s", msg);
}

/*
 * s is kept, the value of the wrong shape at line:col ignored (msg),
 * and with it every field the examples below set.
 */
static void
soft(const char *s, unsigned line, unsigned col, const char *msg)
{
	struct meta	 m;
	struct fm_error	 e;

	if (parse(s, &m, &e) == -1) {
		OK(0, "refused (%s):\n%s", e.msg, s);
		return;
	}
	INT_EQ(m.ignored.line, line, msg);
	INT_EQ(m.ignored.col, col, msg);
	OK(strstr(m.ignored.msg, msg) != NULL, "message \"%s\" lacks \"%s\"",
	    m.ignored.msg, msg);
	OK(m.title == NULL && !m.has_date && m.part == 0 && !m.draft &&
	    !m.featured && m.lang == NULL && m.series == NULL,
	    "the value dropped: %s", msg);
	meta_free(&m);
}

/* Hugo's shapes: a TOML datetime, lastmod, draft, tags, categories. */
static void
test_hugo(void)
{
	struct meta	 m;
	struct fm_error	 e;
	const char	*s =
	    "+++\n"
	    "# Hugo's default archetype, filled in\n"
	    "title = 'Moving a Hugo archive'\n"
	    "date = 2024-03-02T09:15:00Z\n"
	    "lastmod = 2024-03-04\n"
	    "draft = false\n"
	    "tags = [\"hugo\", \"toml\", \"Hugo\"]  # case: one tag\n"
	    "categories = ['notes']\n"
	    "series = [\"Leaving the web\"]\n"
	    "weight = 3\n"
	    "slug = \"hugo-move\"\n"
	    "aliases = [\"/2024/03/hugo/\"]\n"
	    "description = \"\"\"\n"
	    "What moving\n"
	    "  took.\"\"\"\n"
	    "[params]\n"
	    "toc = true\n"
	    "+++\n"
	    "# Body\n";

	OK(parse(s, &m, &e) == 0, "hugo: %u:%u: %s", e.line, e.col, e.msg);
	STR_EQ(m.title, "Moving a Hugo archive", "title");
	OK(m.has_date, "date");
	STR_EQ(m.date.ymd, "2024-03-02", "date ymd");
	INT_EQ(m.date.t, 1709370900, "date instant");
	INT_EQ(m.date.tzoff, 0, "Z");
	OK(m.date.has_time, "has a time");
	OK(m.has_updated, "lastmod is updated");
	STR_EQ(m.updated.ymd, "2024-03-04", "updated");
	OK(!m.draft, "not a draft");
	INT_EQ(m.ntags, 3, "tags and categories merged, dups dropped");
	if (m.ntags == 3) {
		STR_EQ(m.tags[0], "hugo", "tag 1");
		STR_EQ(m.tags[1], "toml", "tag 2");
		STR_EQ(m.tags[2], "notes", "tag 3");
	}
	STR_EQ(m.series, "Leaving the web", "series from a list");
	INT_EQ(m.part, 3, "weight is the part");
	STR_EQ(m.slug, "hugo-move", "slug");
	STR_EQ(m.summary, "What moving took.", "multi-line description");
	INT_EQ(m.body_line, 19, "body line");
	STR_EQ(s + m.body_off, "# Body\n", "body");
	meta_free(&m);
}

/* Zola's shapes: [taxonomies], [extra], a local date. */
static void
test_zola(void)
{
	struct meta	 m;
	struct fm_error	 e;
	const char	*s =
	    "+++\r\n"
	    "title = \"Static sites &amp; small servers\"\r\n"
	    "description = \"Short.\"\r\n"
	    "date = 2023-11-05\r\n"
	    "updated = 2023-11-06T08:00:00\r\n"
	    "\r\n"
	    "[taxonomies]\r\n"
	    "tags = [\"zola\", \"rust\"]\r\n"
	    "categories = [\"notes\"]\r\n"
	    "genres = [\"ignored\"]\r\n"
	    "title = \"not read here\"\r\n"
	    "\r\n"
	    "[extra]\r\n"
	    "series = \"Static sites\"\r\n"
	    "part = 2\r\n"
	    "author = [\"Ann\", \"Bo\"]\r\n"
	    "featured = true\r\n"
	    "lang = \"pt-BR\"\r\n"
	    "title = \"ranks below the top level\"\r\n"
	    "toc = { depth = 2 }\r\n"
	    "+++\r\n"
	    "Body\r\n";

	OK(parse(s, &m, &e) == 0, "zola: %u:%u: %s", e.line, e.col, e.msg);
	STR_EQ(m.title, "Static sites & small servers", "title, entities");
	STR_EQ(m.summary, "Short.", "description");
	STR_EQ(m.date.ymd, "2023-11-05", "local date");
	OK(!m.date.has_time, "no time");
	INT_EQ(m.date.t, 1699185600, "a date alone is noon UTC");
	INT_EQ(m.updated.t, 1699257600, "a local date-time is UTC");
	INT_EQ(m.ntags, 3, "taxonomies: tags and categories");
	if (m.ntags == 3) {
		STR_EQ(m.tags[0], "zola", "tag 1");
		STR_EQ(m.tags[2], "notes", "tag 3");
	}
	STR_EQ(m.series, "Static sites", "extra: series");
	INT_EQ(m.part, 2, "extra: part");
	STR_EQ(m.author, "Ann, Bo", "extra: authors joined");
	OK(m.featured, "extra: featured");
	STR_EQ(m.lang, "pt-BR", "extra: lang");
	STR_EQ(s + m.body_off, "Body\r\n", "body after a CRLF fence");
	INT_EQ(m.body_line, 22, "body line");
	meta_free(&m);
}

/* Aliases rank as in YAML; [extra] below the top level in any order. */
static void
test_ranks(void)
{
	struct meta	 m;
	struct fm_error	 e;

	OK(parse("+++\npublishdate = 2020-01-01\ndate = 2021-02-02\n"
	    "pubdate = 2022-03-03\n+++\n", &m, &e) == 0, "ranks: %s", e.msg);
	STR_EQ(m.date.ymd, "2021-02-02", "date beats its aliases");
	meta_free(&m);

	OK(parse("+++\n[extra]\nseries = 'From extra'\npart = 9\n[params]\n"
	    "series = 'From params'\n[other]\nseries = 1\n+++\n", &m, &e) == 0,
	    "extra: %s", e.msg);
	STR_EQ(m.series, "From params",
	    "ranked alike: the later wins, as a key written twice in YAML");
	INT_EQ(m.part, 9, "part from extra");
	meta_free(&m);

	OK(parse("+++\nextra.series = 'Extra'\nseries = 'Top'\n+++\n", &m,
	    &e) == 0, "extra first: %s", e.msg);
	STR_EQ(m.series, "Top", "the top level wins, written after");
	meta_free(&m);

	OK(parse("+++\ndate = '2024-03-02T09:15:00+01:00'\nupdated = "
	    "\"2024-03-05 18:30\"\npublished = false\n+++\n", &m, &e) == 0,
	    "quoted dates: %s", e.msg);
	INT_EQ(m.date.tzoff, 60, "a quoted date keeps its offset");
	OK(m.has_updated, "a quoted space form");
	OK(m.draft, "published = false is a draft");
	meta_free(&m);

	OK(parse("+++\npublished = 2024-01-02T03:04:05-05:00\ndraft = true\n"
	    "tags = 'gemini, small web'\ntitle = ''\n+++\n# Heading\n", &m,
	    &e) == 0, "published date: %s", e.msg);
	STR_EQ(m.date.ymd, "2024-01-02", "published as a date");
	INT_EQ(m.date.tzoff, -300, "its offset");
	OK(m.draft, "draft");
	INT_EQ(m.ntags, 2, "a tag string split on commas");
	OK(m.title == NULL, "an empty title is no title");
	meta_free(&m);

	OK(parse("+++\ntags = 'c gemini'\nTITLE = 'Case'\nauthor = 'Ann'\n"
	    "[taxonomies]\nauthors = ['Bo']\nseries = 'S'\n+++\n", &m, &e) == 0,
	    "misc: %s", e.msg);
	INT_EQ(m.ntags, 2, "a tag string split on blanks");
	STR_EQ(m.title, "Case", "keys in any case, as in YAML");
	STR_EQ(m.author, "Ann", "author beats authors");
	STR_EQ(m.series, "S", "series from taxonomies");
	meta_free(&m);
}

/* Not front matter, or refused with the place in the file. */
static void
test_errors(void)
{
	struct meta	 m;
	struct fm_error	 e;
	const char	*s;

	s = "+++ not a fence\ntitle = 'x'\n+++\n";
	OK(parse(s, &m, &e) == 0 && m.title == NULL && m.body_off == 0,
	    "a +++ line with words is body");
	meta_free(&m);
	s = "\xEF\xBB\xBF+++\ntitle = 'BOM'\n+++\nx";
	OK(parse(s, &m, &e) == 0, "BOM: %s", e.msg);
	STR_EQ(m.title, "BOM", "after a BOM");
	STR_EQ(s + m.body_off, "x", "body");
	meta_free(&m);
	s = "+++  \t\n+++\n";
	OK(parse(s, &m, &e) == 0 && m.body_off == strlen(s), "empty: %s",
	    e.msg);
	meta_free(&m);

	fails("+++\ntitle = 'x'\n", 1, 1, "not closed (no +++ line");
	fails("+++\ntitle = 'x'\n---\n", 1, 1, "not closed");
	fails("+++\ntitle = \"x\n+++\n", 2, 11, "not closed on its line");
	fails("+++\ntitle = 'a'\ntitle = 'b'\n+++\n", 3, 1,
	    "duplicate key 'title'");
	fails("+++\n\n\ndate = 2024-02-30\n+++\n", 4, 8, "date out of range");
	/* A value of the wrong shape is ignored, the post kept. */
	soft("+++\ntitle = 1\n+++\n", 2, 9,
	    "title: expected a string (got integer)");
	soft("+++\ntags = ['a', 2]\n+++\n", 2, 14,
	    "tags: expected a list of strings (got integer)");
	soft("+++\ntags = 3\n+++\n", 2, 8,
	    "tags: expected a list or a string");
	soft("+++\ndraft = 'yes'\n+++\n", 2, 9,
	    "draft: expected true or false (got string)");
	soft("+++\nweight = 1.5\n+++\n", 2, 10,
	    "weight: expected a whole number");
	soft("+++\npart = 2000000\n+++\n", 2, 8,
	    "part: 2000000 is out of range");
	soft("+++\ndate = 09:15:00\n+++\n", 2, 8,
	    "date: a time of day without a date");
	soft("+++\ndate = true\n+++\n", 2, 8,
	    "date: expected a date (got boolean)");
	soft("+++\ndate = 'soon'\n+++\n", 2, 8, "date: not a date");
	soft("+++\ndate = 0000-01-01\n+++\n", 2, 8, "date: year out of range");
	soft("+++\npublished = 3\n+++\n", 2, 13,
	    "published: expected true, false or a date");
	soft("+++\nlang = 'en; q=1'\n+++\n", 2, 8, "is not a language tag");
	soft("+++\nseries = [1]\n+++\n", 2, 11,
	    "series: expected a list of strings");
	soft("+++\ntaxonomies = ['tags']\n+++\n", 2, 14,
	    "taxonomies: expected a table");
	soft("+++\n[extra]\nfeatured = 1\n+++\n", 3, 12,
	    "featured: expected true or false");
	soft("+++\n[taxonomies]\ntags = {a = 1}\n+++\n", 3, 8,
	    "tags: expected a list or a string (got table)");
	fails("+++\nx = 1\n\xFF\n+++\n", 3, 1, "invalid UTF-8");
}

/* Unknown keys and tables are skipped, whatever they hold. */
static void
test_unknown(void)
{
	struct meta	 m;
	struct fm_error	 e;
	struct buf	 b = BUF_INIT;
	int		 i;

	OK(parse("+++\ntemplate = 'post.html'\nin_search_index = true\n"
	    "[[resources]]\nsrc = 'a.png'\n[cascade]\nx = [1, 'two', {}]\n"
	    "[extra.nested]\ntitle = 5\n+++\n", &m, &e) == 0, "unknown: %s",
	    e.msg);
	OK(m.title == NULL, "a table inside [extra] is not read");
	meta_free(&m);

	buf_addstr(&b, "+++\ntags = [");
	for (i = 0; i < 300; i++)
		buf_printf(&b, "'t%d', ", i);
	buf_addstr(&b, "]\n+++\n");
	OK(frontmatter_parse(b.data, b.len, &m, &e) == -1, "300 tags");
	HAS(e.msg, "more than 256 tags", "tag cap");
	buf_free(&b);
}

/* archive.c: a capsule of YAML and TOML posts; a broken one skipped. */
static void
test_archive(void)
{
	char		 top[64], capsule[128], logpath[160], line[512];
	struct config	 c;
	struct archive	*a;
	struct post	*p;
	FILE		*f;
	int		 found = 0;

	snprintf(top, sizeof(top), "/tmp/capsuled-fmtoml-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	snprintf(logpath, sizeof(logpath), "%s/log", top);
	test_mkdir(top, "capsule");
	test_mkdir(capsule, "posts");
	test_put(capsule, "posts/2024-01-01-yaml.md",
	    "---\ntitle: From YAML\ntags: [gemini]\nseries: Moving\n"
	    "part: 1\n---\nOne.\n");
	test_put(capsule, "posts/toml.md",
	    "+++\ntitle = \"From TOML\"\ndate = 2024-02-02T10:00:00+01:00\n"
	    "[taxonomies]\ntags = [\"Gemini\", \"hugo\"]\n[extra]\n"
	    "series = \"moving\"\npart = 2\n+++\nTwo.\n");
	test_put(capsule, "posts/2024-03-03-broken.md",
	    "+++\ntitle = \"Broken\"\n\ntags = [\"a\" \"b\"]\n+++\nThree.\n");

	memset(&c, 0, sizeof(c));
	c.capsule_dir = capsule;
	c.site_title = "T";
	c.lang = "en";
	c.hostname = "localhost";
	if (log_open(logpath, LOG_LEVEL_INFO) == -1) {
		perror(logpath);
		exit(2);
	}
	a = archive_load(&c);
	log_close();
	OK(a != NULL, "archive_load");
	if (a == NULL)
		return;
	INT_EQ(a->nposts, 2, "two posts, the broken one skipped");
	INT_EQ(a->nskipped, 1, "one skipped");
	p = archive_post(a, "toml");
	OK(p != NULL, "the TOML post is served");
	if (p != NULL) {
		STR_EQ(p->title, "From TOML", "title");
		STR_EQ(p->date.ymd, "2024-02-02", "date");
		INT_EQ(p->ntags, 2, "tags");
		OK(p->series != NULL && p->series->nparts == 2,
		    "one series across both syntaxes");
		INT_EQ(p->series_pos, 2, "part 2");
		STR_EQ(p->src + p->body_off, "Two.\n", "body");
	}
	OK(archive_tag(a, "gemini") != NULL &&
	    archive_tag(a, "gemini")->nposts == 2, "one tag across both");
	archive_unref(a);

	if ((f = fopen(logpath, "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL)
			if (strstr(line, "posts/2024-03-03-broken.md:4:13: "
			    "expected ',' or ']'") != NULL)
				found = 1;
		fclose(f);
	}
	OK(found, "the skipped post is logged as file:line:col: why");
	test_rm_tree(top);
}

static const struct harness_test tests[] = {
	TEST(test_hugo),
	TEST(test_zola),
	TEST(test_ranks),
	TEST(test_errors),
	TEST(test_unknown),
	TEST(test_archive),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
