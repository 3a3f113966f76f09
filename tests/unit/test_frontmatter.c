/*
 * test_frontmatter.c -- frontmatter.c: the shapes real blogs write, the
 * errors (with the line and column in the file) and the alias guard.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "content/frontmatter.h"
#include "core/buf.h"
#include "core/util.h"
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
	if (strstr(e.msg, msg) == NULL)
		OK(0, "message \"%s\" lacks \"%s\"", e.msg, msg);
	else
		OK(1, "message");
}

/*
 * A soft problem: the post is kept, the value dropped, and where it was
 * is said for the warning.
 */
static void
ignored(const char *s, unsigned line, unsigned col, const char *msg)
{
	struct meta	 m;
	struct fm_error	 e;

	if (parse(s, &m, &e) == -1) {
		OK(0, "refused (%s):\n%s", e.msg, s);
		return;
	}
	OK(m.lang == NULL && m.title == NULL && m.part == 0 &&
	    !m.has_date && !m.has_updated && !m.draft && m.ntags == 0 &&
	    m.series == NULL && m.author == NULL, "%s: dropped", msg);
	INT_EQ(m.ignored.line, line, msg);
	INT_EQ(m.ignored.col, col, msg);
	OK(strstr(m.ignored.msg, msg) != NULL, "message \"%s\" has \"%s\"",
	    m.ignored.msg, msg);
	meta_free(&m);
}

/* What is usable stays; the first ignored value is the one named. */
static void
test_soft(void)
{
	struct meta	 m;
	struct fm_error	 e;

	if (parse("---\ntitle: Kept\npart: two\ntags: [a, [b], c]\n"
	    "date: 2024-01-02\nlang: x_y\n---\nBody\n", &m, &e) == -1) {
		OK(0, "refused: %s", e.msg);
		return;
	}
	STR_EQ(m.title, "Kept", "title kept");
	INT_EQ(m.part, 0, "part ignored");
	INT_EQ(m.ntags, 2, "the usable tags kept");
	OK(m.has_date, "date kept");
	INT_EQ(m.nignored, 3, "three values ignored");
	INT_EQ(m.ignored.line, 3, "the first named");
	STR_EQ(m.ignored.msg, "part: expected a whole number; ignored",
	    "its message");
	STR_EQ(m.title, "Kept", "title");
	meta_free(&m);
}

static void
test_html_titles(void)
{
	struct meta	 m;
	struct fm_error	 e;

	if (parse("---\ntitle: writing for action <em>and</em> flexibility\n"
	    "summary: \"<p>One &amp; <a href='x'>two</a></p>\"\n"
	    "---\n", &m, &e) == -1) {
		OK(0, "parse: %s", e.msg);
		return;
	}
	STR_EQ(m.title, "writing for action and flexibility", "title: tags");
	STR_EQ(m.summary, "One & two", "summary: tags");
	OK(m.ignored.line == 0, "nothing ignored");
	meta_free(&m);
	/* "<" that starts no tag, and an escaped tag, stay text. */
	if (parse("---\ntitle: \"a < b, 1<2 and &lt;em&gt; x<br/>y\"\n---\n",
	    &m, &e) == -1) {
		OK(0, "parse: %s", e.msg);
		return;
	}
	STR_EQ(m.title, "a < b, 1<2 and <em> x y", "title: text kept");
	meta_free(&m);
}

static void
test_basic(void)
{
	struct meta	 m;
	struct fm_error	 e;
	const char	*s = "---\ntitle: Hello\ndate: 2024-01-02\n"
	    "tags: [a, b]\nsummary: One line.\nslug: hi\nlang: fr\n"
	    "author: Ann\nfeatured: yes\n---\nBody\n";

	OK(parse(s, &m, &e) == 0, "basic: %s", e.msg);
	STR_EQ(m.title, "Hello", "title");
	OK(m.has_date, "has date");
	STR_EQ(m.date.ymd, "2024-01-02", "date");
	OK(!m.has_updated, "no updated");
	INT_EQ(m.ntags, 2, "two tags");
	STR_EQ(m.tags[0], "a", "tag a");
	STR_EQ(m.tags[1], "b", "tag b");
	STR_EQ(m.summary, "One line.", "summary");
	STR_EQ(m.slug, "hi", "slug");
	STR_EQ(m.lang, "fr", "lang");
	STR_EQ(m.author, "Ann", "author");
	OK(m.featured, "featured");
	OK(!m.draft, "not a draft");
	STR_EQ(s + m.body_off, "Body\n", "body offset");
	INT_EQ(m.body_line, 11, "body line");
	meta_free(&m);

	/* "..." closes too; trailing blanks on fences are fine. */
	OK(parse("--- \ntitle: Dots\n...  \nText", &m, &e) == 0, "dots");
	STR_EQ(m.title, "Dots", "title before ...");
	INT_EQ(m.body_off, 23, "body after ...");
	INT_EQ(m.body_line, 4, "body line after ...");
	meta_free(&m);

	/* Front matter closing at end of file, no newline. */
	OK(parse("---\ntitle: End\n---", &m, &e) == 0, "fence at EOF");
	INT_EQ(m.body_off, 18, "empty body");
	meta_free(&m);

	/* Empty front matter. */
	OK(parse("---\n---\nbody", &m, &e) == 0, "empty front matter");
	OK(m.title == NULL, "no title");
	INT_EQ(m.body_off, 8, "body after empty front matter");
	meta_free(&m);
	OK(parse("---\n# only a comment\n\n---\nbody", &m, &e) == 0,
	    "comment-only front matter");
	meta_free(&m);
}

static void
test_no_frontmatter(void)
{
	struct meta	 m;
	struct fm_error	 e;

	OK(parse("# Hi\n\ntext\n", &m, &e) == 0, "no front matter");
	INT_EQ(m.body_off, 0, "all body");
	INT_EQ(m.body_line, 1, "body line 1");
	OK(m.title == NULL && !m.has_date, "nothing set");
	meta_free(&m);
	OK(parse("\xEF\xBB\xBF# Hi\n", &m, &e) == 0, "BOM, no front matter");
	INT_EQ(m.body_off, 3, "BOM skipped");
	meta_free(&m);
	OK(parse("", &m, &e) == 0, "empty file");
	meta_free(&m);
	OK(parse("----\ntitle: x\n----\n", &m, &e) == 0, "---- is not a fence");
	INT_EQ(m.body_off, 0, "---- file is all body");
	meta_free(&m);
	OK(parse(" ---\ntitle: x\n---\n", &m, &e) == 0, "indented fence");
	INT_EQ(m.body_off, 0, "indented fence is body");
	meta_free(&m);
}

static void
test_tags(void)
{
	struct meta	 m;
	struct fm_error	 e;

	OK(parse("---\ntags: Gemini protocol, C\n---\n", &m, &e) == 0,
	    "comma string");
	INT_EQ(m.ntags, 2, "comma string: two tags");
	STR_EQ(m.tags[0], "Gemini protocol", "tag with a space kept");
	STR_EQ(m.tags[1], "C", "second tag");
	meta_free(&m);

	OK(parse("---\ntags: c  gemini\tsmolweb\n---\n", &m, &e) == 0,
	    "blank string");
	INT_EQ(m.ntags, 3, "blank string: three tags");
	STR_EQ(m.tags[2], "smolweb", "third");
	meta_free(&m);

	OK(parse("---\ntags:\n  - Small Web\n  - node.js\n  -\n  - GO\n"
	    "categories: [go, Life]\ntag: extra\n---\n", &m, &e) == 0,
	    "block list + categories + tag");
	INT_EQ(m.ntags, 5, "merged, deduplicated ignoring case");
	STR_EQ(m.tags[0], "Small Web", "display form kept");
	STR_EQ(m.tags[1], "node.js", "dots kept");
	STR_EQ(m.tags[2], "GO", "first spelling kept");
	STR_EQ(m.tags[3], "Life", "categories merged");
	STR_EQ(m.tags[4], "extra", "tag merged");
	meta_free(&m);

	OK(parse("---\ntags: [2024, \"a &amp; b\", '  x  ']\n---\n", &m, &e)
	    == 0, "flow list");
	INT_EQ(m.ntags, 3, "flow: three");
	STR_EQ(m.tags[0], "2024", "number as tag");
	STR_EQ(m.tags[1], "a & b", "entity decoded");
	STR_EQ(m.tags[2], "x", "trimmed");
	meta_free(&m);

	ignored("---\ntags: {a: 1}\n---\n", 2, 7,
	    "tags: expected a list or a string");
	OK(parse("---\ntags: [a, [b]]\n---\n", &m, &e) == 0, "item ignored");
	INT_EQ(m.ntags, 1, "the others kept");
	INT_EQ(m.ignored.line, 2, "the item's line");
	INT_EQ(m.ignored.col, 11, "the item's column");
	meta_free(&m);
}

static void
test_titles(void)
{
	struct meta	 m;
	struct fm_error	 e;

	OK(parse("---\ntitle: >\n  A long\n  folded title\n---\n", &m, &e) == 0,
	    "folded");
	STR_EQ(m.title, "A long folded title", "folded title");
	meta_free(&m);
	OK(parse("---\ntitle: |\n  Two\n  lines\n\n---\n", &m, &e) == 0,
	    "literal");
	STR_EQ(m.title, "Two lines", "literal title on one line");
	meta_free(&m);
	OK(parse("---\ntitle: \"A quoted\n  multi-line   title\"\n---\n", &m,
	    &e) == 0, "double-quoted multi-line");
	STR_EQ(m.title, "A quoted multi-line title", "quoted multi-line");
	meta_free(&m);
	OK(parse("---\ntitle: 'It''s\n  plain'\n---\n", &m, &e) == 0,
	    "single-quoted");
	STR_EQ(m.title, "It's plain", "single-quoted title");
	meta_free(&m);
	OK(parse("---\ntitle: plain\n  continued\n---\n", &m, &e) == 0,
	    "plain multi-line");
	STR_EQ(m.title, "plain continued", "plain multi-line title");
	meta_free(&m);

	OK(parse("---\ntitle: \"Tom &amp; Jerry &mdash; it&#8217;s &#x27;q"
	    "&#39; &eacute;t&eacute; &hellip; &bogus; &amp &#146;\"\n---\n",
	    &m, &e) == 0, "entities");
	STR_EQ(m.title, "Tom & Jerry \xE2\x80\x94 it\xE2\x80\x99s 'q' "
	    "\xC3\xA9t\xC3\xA9 \xE2\x80\xA6 &bogus; & \xE2\x80\x99",
	    "entities decoded (&amp without ';' too, as HTML5 does)");
	meta_free(&m);

	OK(parse("---\ntitle: \"a\\tb\\x01c\\u0085d\\x7fe &#1;f\"\n---\n",
	    &m, &e) == 0, "control characters");
	STR_EQ(m.title, "a bc de f", "controls stripped, NEL a space");
	meta_free(&m);

	OK(parse("---\ntitle: ~\nsummary:\nslug: \"\"\n---\n", &m, &e) == 0,
	    "nulls");
	OK(m.title == NULL && m.summary == NULL && m.slug == NULL,
	    "null and empty values are absent");
	meta_free(&m);
}

static void
test_dates(void)
{
	struct meta	 m;
	struct fm_error	 e;

	OK(parse("---\ndate: '2021-03-04 9:05:00 -4'\nlastmod: 2021-04-01\n"
	    "---\n", &m, &e) == 0, "quoted date");
	OK(m.has_date && m.date.tzoff == -240, "quoted space form");
	OK(m.has_updated, "lastmod is updated");
	STR_EQ(m.updated.ymd, "2021-04-01", "lastmod");
	meta_free(&m);
	OK(parse("---\ndate: 2024-05-02T14:00:00+02:00\n---\n", &m, &e) == 0,
	    "unquoted RFC 3339");
	INT_EQ(m.date.tzoff, 120, "RFC 3339 zone");
	meta_free(&m);
	OK(parse("---\npubDate: 2020-01-01\ndate: 2020-02-02\n---\n", &m, &e)
	    == 0, "date beats pubDate");
	STR_EQ(m.date.ymd, "2020-02-02", "date wins");
	meta_free(&m);
	OK(parse("---\npubDate: 'Jul 08 2022'\nupdatedDate: 2022-08-01\n---\n",
	    &m, &e) == 0 && m.has_date && strcmp(m.date.ymd, "2022-07-08") ==
	    0 && m.has_updated && strcmp(m.updated.ymd, "2022-08-01") == 0,
	    "Astro's pubDate and updatedDate");
	meta_free(&m);
	OK(parse("---\npublished: 2019-09-09\n---\n", &m, &e) == 0,
	    "published as a date");
	STR_EQ(m.date.ymd, "2019-09-09", "published date");
	OK(!m.draft, "published date is not a draft");
	meta_free(&m);
	/* mkdocs-material: date: {created, updated}. */
	OK(parse("---\ndate:\n  created: 2023-12-31\n  updated: 2024-01-02\n"
	    "  other: [x]\ntitle: T\n---\n", &m, &e) == 0, "a date mapping");
	OK(m.has_date && strcmp(m.date.ymd, "2023-12-31") == 0,
	    "created is the date");
	OK(m.has_updated && strcmp(m.updated.ymd, "2024-01-02") == 0,
	    "updated is the updated time");
	STR_EQ(m.title, "T", "the keys after it read");
	INT_EQ(m.nwarns, 0, "no warning");
	meta_free(&m);
	OK(parse("---\ndate: {created: soon}\npubdate: 2020-01-01\n---\n",
	    &m, &e) == 0 && m.has_date &&
	    strcmp(m.date.ymd, "2020-01-01") == 0 && m.nignored == 1 &&
	    strstr(m.ignored.msg, "date.created") != NULL && m.ignored.line ==
	    2, "a bad created: ignored, named, an alias wins");
	meta_free(&m);
	OK(parse("---\nupdated: 2024-05-05\ndate:\n  updated: 2024-01-01\n"
	    "---\n", &m, &e) == 0 && strcmp(m.updated.ymd, "2024-05-05") ==
	    0 && !m.has_date, "updated at the top wins alike");
	meta_free(&m);
}

/*
 * One rule for both syntaxes (frontmatter_apply()): each case, written in
 * YAML and in TOML, means the same.  Pinned where the two readers used
 * to differ: a value ignored or left empty held its field against a
 * lower alias (both readers, so date: [x] hid pubdate), an alias not kept
 * was not looked at in YAML (authors: [[b]] said nothing), and YAML's
 * part out of range read as "expected a whole number".
 */
static void
test_one_rule(void)
{
	static const struct {
		const char	*yaml, *toml, *what;
		const char	*date, *lang, *summary, *author;
		int		 part, nignored;
		const char	*msg;
	} c[] = {
		{ "date: [x]\npubdate: 2024-01-02\n",
		  "date = [1]\npubdate = 2024-01-02\n", "an ignored alias",
		  "2024-01-02", NULL, NULL, NULL, 0, 1, "date: expected" },
		{ "lang: x y\nlanguage: en\n",
		  "lang = \"x y\"\nlanguage = \"en\"\n", "a bad lang",
		  NULL, "en", NULL, NULL, 0, 1, "not a language tag" },
		{ "summary: \" \"\ndescription: D\n",
		  "summary = \" \"\ndescription = \"D\"\n", "an empty alias",
		  NULL, NULL, "D", NULL, 0, 0, NULL },
		{ "author: A\nauthors: [[b]]\n",
		  "author = \"A\"\nauthors = [[\"b\"]]\n", "an alias not kept",
		  NULL, NULL, NULL, "A", 0, 1, "authors: expected a list" },
		{ "part: 1000001\nweight: 3\n",
		  "part = 1000001\nweight = 3\n", "a part out of range",
		  NULL, NULL, NULL, NULL, 3, 1, "1000001 is out of range" },
		{ "draft: false\npublished: false\n",
		  "draft = false\npublished = false\n", "the draft merge",
		  NULL, NULL, NULL, NULL, 0, 0, NULL },
	};
	struct meta	 m;
	struct fm_error	 e;
	char		 src[256];
	size_t		 i, k;

	for (i = 0; i < nitems(c); i++)
		for (k = 0; k < 2; k++) {
			snprintf(src, sizeof(src), k == 0 ? "---\n%s---\n" :
			    "+++\n%s+++\n", k == 0 ? c[i].yaml : c[i].toml);
			if (parse(src, &m, &e) == -1) {
				OK(0, "%s refused: %s", c[i].what, e.msg);
				continue;
			}
			OK(m.has_date == (c[i].date != NULL) &&
			    (c[i].date == NULL ||
			    strcmp(m.date.ymd, c[i].date) == 0),
			    "%s (%s): date", c[i].what, k ? "TOML" : "YAML");
			OK((m.lang == NULL) == (c[i].lang == NULL) &&
			    (m.lang == NULL || strcmp(m.lang, c[i].lang) == 0),
			    "%s (%s): lang", c[i].what, k ? "TOML" : "YAML");
			OK((m.summary == NULL) == (c[i].summary == NULL) &&
			    (m.summary == NULL ||
			    strcmp(m.summary, c[i].summary) == 0),
			    "%s (%s): summary", c[i].what, k ? "TOML" : "YAML");
			OK((m.author == NULL) == (c[i].author == NULL) &&
			    (m.author == NULL ||
			    strcmp(m.author, c[i].author) == 0),
			    "%s (%s): author", c[i].what, k ? "TOML" : "YAML");
			INT_EQ(m.part, c[i].part, c[i].what);
			INT_EQ(m.nignored, c[i].nignored, c[i].what);
			OK(c[i].msg == NULL ||
			    strstr(m.ignored.msg, c[i].msg) != NULL,
			    "%s (%s): \"%s\" has \"%s\"", c[i].what,
			    k ? "TOML" : "YAML", m.ignored.msg,
			    c[i].msg ? c[i].msg : "");
			OK(m.draft == (i == nitems(c) - 1), "%s: draft",
			    c[i].what);
			meta_free(&m);
		}
}

static void
test_aliases_and_flags(void)
{
	struct meta	 m;
	struct fm_error	 e;

	OK(parse("---\ndescription: D\nsummary: S\nweight: 5\npart: 2\n"
	    "series: [Build, Other]\nauthors: [Ann, Bo]\n---\n", &m, &e) == 0,
	    "aliases");
	STR_EQ(m.summary, "S", "summary beats description");
	INT_EQ(m.part, 2, "part beats weight");
	STR_EQ(m.series, "Build", "series list: first item");
	STR_EQ(m.author, "Ann, Bo", "authors joined");
	meta_free(&m);
	OK(parse("---\nweight: 5\nDescription: D\n---\n", &m, &e) == 0,
	    "alias alone");
	INT_EQ(m.part, 5, "weight alone is the part");
	STR_EQ(m.summary, "D", "keys are case-insensitive");
	meta_free(&m);
	OK(parse("---\nseries_order: '-3'\n---\n", &m, &e) == 0, "quoted int");
	INT_EQ(m.part, -3, "negative part");
	meta_free(&m);

	OK(parse("---\ndraft: true\n---\n", &m, &e) == 0 && m.draft,
	    "draft: true");
	meta_free(&m);
	OK(parse("---\ndraft: no\n---\n", &m, &e) == 0 && !m.draft,
	    "draft: no");
	meta_free(&m);
	OK(parse("---\npublished: false\n---\n", &m, &e) == 0 && m.draft,
	    "published: false is a draft");
	meta_free(&m);
	OK(parse("---\ndraft: Off\npublished: On\n---\n", &m, &e) == 0 &&
	    !m.draft, "published: on");
	meta_free(&m);

	OK(parse("---\nsubtitle: Sub\nlevel: beginner\naudience: everyone\n"
	    "---\n", &m, &e) == 0, "index and series keys");
	STR_EQ(m.subtitle, "Sub", "subtitle");
	STR_EQ(m.level, "beginner", "level");
	STR_EQ(m.audience, "everyone", "audience");
	meta_free(&m);
}

static void
test_unknown(void)
{
	struct meta	 m;
	struct fm_error	 e;

	OK(parse("---\nextra:\n  a: [1, {b: 2, c: [3, 4]}]\n  d: e\n"
	    "? [complex, key]\n: value\nimages: [x.png]\n&anchor z: 1\n"
	    "title: T\n---\n", &m, &e) == 0, "unknown keys: %s", e.msg);
	STR_EQ(m.title, "T", "title after unknown keys");
	meta_free(&m);
}

static void
test_crlf_bom(void)
{
	struct meta	 m;
	struct fm_error	 e;
	const char	*s = "\xEF\xBB\xBF---\r\ntitle: X\r\ndate: 2024-01-01"
	    "\r\ntags: a, b\r\n---\r\nBody\r\n";

	OK(parse(s, &m, &e) == 0, "CRLF + BOM: %s", e.msg);
	STR_EQ(m.title, "X", "CRLF title");
	STR_EQ(m.date.ymd, "2024-01-01", "CRLF date");
	INT_EQ(m.ntags, 2, "CRLF tags");
	STR_EQ(m.tags[1], "b", "no CR in the last tag");
	STR_EQ(s + m.body_off, "Body\r\n", "CRLF body offset");
	INT_EQ(m.body_line, 6, "CRLF body line");
	meta_free(&m);
	/* Errors count lines the same way with CRLF. */
	ignored("---\r\npart: x\r\n---\r\n", 2, 7,
	    "part: expected a whole number");
}

static void
test_errors(void)
{
	fails("---\ntitle: x\nbody without end\n", 1, 1, "not closed");
	fails("---\n", 1, 1, "not closed");
	/* An unclosed quote: where it opens, not at the closing "---". */
	fails("---\ntitle: \"It's here\ndate: 2024-01-01\ntags: [a, b]\n"
	    "---\nBody\n", 2, 8, "quoted scalar opened here is never closed");
	fails("---\ntitle: x\nsummary: 'one\n  two\nslug: s\n---\n", 3, 10,
	    "quoted scalar opened here is never closed");
	/* A value of the wrong shape is ignored, the post kept. */
	ignored("---\ntitle: [a, b]\n---\n", 2, 8, "title: expected a "
	    "string; ignored");
	ignored("---\ntitle: {a: b}\n---\n", 2, 8, "title: expected a string");
	ignored("---\npart: abc\n---\n", 2, 7, "part: expected a whole number");
	ignored("---\nweight: 1.5\n---\n", 2, 9, "weight: expected a whole");
	ignored("---\n\ndate: notadate\n---\n", 3, 7, "date: not a date");
	ignored("---\nupdated: 2023-02-29\n---\n", 2, 10,
	    "updated: day out of range");
	ignored("---\ndate: [2024-01-01]\n---\n", 2, 7,
	    "date: expected a date");
	ignored("---\ndraft: maybe\n---\n", 2, 8,
	    "draft: expected true or false");
	ignored("---\npublished: sometimes\n---\n", 2, 12,
	    "published: expected true, false or a date");
	ignored("---\ntags: {a: b}\n---\n", 2, 7, "tags: expected a list");
	ignored("---\nseries: {a: b}\n---\n", 2, 9, "series: expected a "
	    "string");
	ignored("---\nauthor: [[a]]\n---\n", 2, 10, "author: expected a list "
	    "of strings");
	fails("---\n- a\n- b\n---\n", 2, 1, "must be a mapping");
	fails("---\njust a string\n---\n", 2, 1, "must be a mapping");
	fails("---\nx: [unclosed\n---\n", 3, 1, "did not find expected");
	fails("---\ntitle: a\n  b: c\n---\n", 3, 4, "mapping values");
	fails("---\ntitle: a\n--- b\n---\n", 3, 1, "more than one YAML");
	fails("---\ntitle: \"bad \xff byte\"\n---\n", 2, 13, "invalid");
	/* libyaml ends a line at a lone CR; so does the error's place. */
	fails("---\ntitle: a\rauthor: \"\xff\"\n---\n", 3, 10, "invalid");
	fails("---\ntitle: a\r\nauthor: \"\xff\"\n---\n", 3, 10, "invalid");
	ignored("\xEF\xBB\xBF---\ntitle: [a]\n---\n", 2, 8,
	    "title: expected a string");
	/* lang goes into the MIME type: a tag and nothing more. */
	ignored("---\nlang: \"de; q=1\"\n---\n", 2, 7,
	    "lang: 'de; q=1' is not a language tag");
	ignored("---\nlanguage: en_GB\n---\n", 2, 11,
	    "language: 'en_GB' is not a language tag");
	ignored("---\nlang: de-\n---\n", 2, 7, "is not a language tag");
	ignored("---\nlang: 1de\n---\n", 2, 7, "is not a language tag");
	ignored("---\nlang: a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s\n---\n", 2,
	    7, "is not a language tag");
}

static void
test_limits(void)
{
	struct buf	 b = BUF_INIT;
	struct meta	 m;
	struct fm_error	 e;
	int		 i;

	/* Deep nesting under an unknown key. */
	buf_addstr(&b, "---\nx: ");
	for (i = 0; i < 100; i++)
		buf_addc(&b, '[');
	for (i = 0; i < 100; i++)
		buf_addc(&b, ']');
	buf_addstr(&b, "\n---\n");
	OK(frontmatter_parse(b.data, b.len, &m, &e) == -1, "deep nesting");
	HAS(e.msg, "nested too deeply", "depth message");
	INT_EQ(e.line, 2, "depth line");
	buf_truncate(&b, 0);

	/* Too many nodes. */
	buf_addstr(&b, "---\nx: [");
	for (i = 0; i < 20000; i++)
		buf_addstr(&b, "1,");
	buf_addstr(&b, "1]\n---\n");
	OK(frontmatter_parse(b.data, b.len, &m, &e) == -1, "too many nodes");
	HAS(e.msg, "too large", "node cap message");
	buf_truncate(&b, 0);

	/* Too many tags from one string. */
	buf_addstr(&b, "---\ntags: ");
	for (i = 0; i < 1000; i++)
		buf_printf(&b, "t%d ", i);
	buf_addstr(&b, "\n---\n");
	OK(frontmatter_parse(b.data, b.len, &m, &e) == -1, "too many tags");
	HAS(e.msg, "more than 256 tags", "tag cap message");
	buf_free(&b);
}

static void
test_billion_laughs(void)
{
	const char	*s = "---\n"
	    "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
	    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
	    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
	    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
	    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
	    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
	    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
	    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
	    "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
	    "title: *i\n"
	    "---\nbody\n";
	struct meta	 m;
	struct fm_error	 e;
	struct timespec	 t0, t1;
	double		 ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	OK(parse(s, &m, &e) == -1, "billion laughs rejected");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	OK(ms < harness_time_bound(0.1) * 1000, "rejected in %.1f ms", ms);
	STR_EQ(e.msg, "YAML aliases are not supported", "alias message");
	INT_EQ(e.line, 3, "alias line");
	INT_EQ(e.col, 8, "alias column");
	fails("---\nbase: &b x\ntitle: *b\n---\n", 3, 8, "aliases");
}

static void
test_oneline(void)
{
	char	*s;

	s = frontmatter_oneline("  a\n\n b\t\tc  ", 12, 0);
	STR_EQ(s, "a b c", "blanks collapsed");
	free(s);
	s = frontmatter_oneline("x &amp; y", 9, 0);
	STR_EQ(s, "x &amp; y", "entities left without FM_ENTITIES");
	free(s);
	s = frontmatter_oneline("x &amp; y", 9, FM_ENTITIES);
	STR_EQ(s, "x & y", "entities with FM_ENTITIES");
	free(s);
	s = frontmatter_oneline("&#x1F600;&#xD800;&#0;&#99999999;", 32,
	    FM_ENTITIES);
	STR_EQ(s, "\xF0\x9F\x98\x80\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD",
	    "numeric references (past U+10FFFF: U+FFFD)");
	free(s);
	s = frontmatter_oneline("a\xe2\x80\xa8" "b\xc2\x9f" "c", 8, 0);
	STR_EQ(s, "a bc", "line separator a space, C1 dropped");
	free(s);
	s = frontmatter_oneline("", 0, FM_ENTITIES);
	STR_EQ(s, "", "empty");
	free(s);
}

/* s parses with warning i at line:col saying msg. */
static void
warns(const char *s, size_t i, unsigned line, unsigned col, const char *msg)
{
	struct meta	 m;
	struct fm_error	 e;

	if (parse(s, &m, &e) == -1) {
		OK(0, "refused (%s):\n%s", e.msg, s);
		return;
	}
	OK(m.nwarns > i, "%s: warning %zu of %zu", msg, i, m.nwarns);
	if (m.nwarns > i) {
		INT_EQ(m.warns[i].line, line, msg);
		INT_EQ(m.warns[i].col, col, msg);
		HAS(m.warns[i].msg, msg, "the warning says it");
	}
	meta_free(&m);
}

/* Issue 18: a key given twice is a warning at the second. */
static void
test_duplicates(void)
{
	struct meta	 m;
	struct fm_error	 e;
	struct buf	 b = BUF_INIT;
	int		 i;

	warns("---\ntitle: One\ndate: 2024-01-01\ntitle: Two\n---\n", 0, 4,
	    1, "duplicate key \"title\" (first on line 2)");
	warns("---\nTags: [a]\nx: 1\ntags: b\n---\n", 0, 4, 1,
	    "duplicate key \"Tags\"");
	warns("---\nmy_key: 1\n  \nmy_key: 2\n---\n", 0, 4, 1,
	    "duplicate key \"my_key\"");
	OK(parse("---\ntitle: One\ntitle: Two\n---\n", &m, &e) == 0 &&
	    m.nwarns == 1 && strcmp(m.title, "Two") == 0,
	    "still parsed, one warning");
	meta_free(&m);
	OK(parse("---\ndate: 2024-01-01\npubdate: 2024-02-02\ntitle: x\n"
	    "nested:\n  title: y\n---\n", &m, &e) == 0 && m.nwarns == 0,
	    "aliases and nested keys are no repeats");
	meta_free(&m);
	/* Many repeats: FM_WARN_MAX warnings kept, no more. */
	buf_addstr(&b, "---\n");
	for (i = 0; i < 100; i++)
		buf_addstr(&b, "k: v\n");
	buf_addstr(&b, "---\n");
	OK(frontmatter_parse(b.data, b.len, &m, &e) == 0 &&
	    m.nwarns == FM_WARN_MAX, "warnings capped at %d (%zu)",
	    FM_WARN_MAX, m.nwarns);
	meta_free(&m);
	buf_free(&b);
}

/* Issue 18: titles, summaries and tags have a length, cut with a warning. */
static void
test_lengths(void)
{
	struct meta	 m;
	struct fm_error	 e;
	struct buf	 b = BUF_INIT;
	int		 i;

	/* 199 "é" and a "x": exactly 200 characters, kept. */
	buf_addstr(&b, "---\ntitle: ");
	for (i = 0; i < 199; i++)
		buf_addstr(&b, "\xc3\xa9");
	buf_addstr(&b, "x\n---\n");
	OK(parse(b.data, &m, &e) == 0 && m.nwarns == 0 &&
	    strlen(m.title) == 199 * 2 + 1, "200 characters: whole");
	meta_free(&m);

	/* 300 "é": cut to 200, never inside a character. */
	buf_truncate(&b, 0);
	buf_addstr(&b, "---\ndate: 2024-01-01\ntitle: ");
	for (i = 0; i < 300; i++)
		buf_addstr(&b, "\xc3\xa9");
	buf_addstr(&b, "\n---\n");
	OK(parse(b.data, &m, &e) == 0, "a long title parses");
	INT_EQ(strlen(m.title), 400, "cut to 200 characters (400 bytes)");
	INT_EQ(m.nwarns, 1, "one warning");
	if (m.nwarns == 1) {
		INT_EQ(m.warns[0].line, 3, "at the title's line");
		INT_EQ(m.warns[0].col, 8, "at its value");
		HAS(m.warns[0].msg, "title: longer than 200 characters, cut",
		    "says so");
	}
	meta_free(&m);

	/* A summary of 5,000 characters: 1,000; a cut space goes too. */
	buf_truncate(&b, 0);
	buf_addstr(&b, "---\nsummary: ");
	for (i = 0; i < 1000; i++)
		buf_addstr(&b, "word ");
	buf_addstr(&b, "\n---\n");
	OK(parse(b.data, &m, &e) == 0 && m.summary != NULL &&
	    strlen(m.summary) == 999, "summary cut to 1,000, its blank "
	    "dropped (%zu)", m.summary ? strlen(m.summary) : 0);
	OK(m.nwarns == 1 && strstr(m.warns[0].msg, "summary: longer than "
	    "1000 characters") != NULL, "with a warning");
	meta_free(&m);

	/* Tags: 64 characters each; two that agree in those are one. */
	buf_truncate(&b, 0);
	buf_addstr(&b, "---\ntags:\n  - ok\n  - ");
	for (i = 0; i < 70; i++)
		buf_addstr(&b, "\xe6\xbc\xa2");
	buf_addstr(&b, "\n  - ");
	for (i = 0; i < 80; i++)
		buf_addstr(&b, "\xe6\xbc\xa2");
	buf_addstr(&b, "\n---\n");
	OK(parse(b.data, &m, &e) == 0 && m.ntags == 2, "tags parse (%zu)",
	    m.ntags);
	if (m.ntags == 2)
		INT_EQ(strlen(m.tags[1]), 64 * 3, "a tag cut to 64 characters");
	INT_EQ(m.nwarns, 2, "a warning for each long tag");
	if (m.nwarns > 0) {
		INT_EQ(m.warns[0].line, 4, "at the tag");
		INT_EQ(m.warns[0].col, 5, "at its value");
	}
	meta_free(&m);

	/* A 7 MB title (the issue's): 200 characters. */
	buf_truncate(&b, 0);
	buf_addstr(&b, "---\ntitle: ");
	for (i = 0; i < 7 * 1024 * 1024 / 8; i++)
		buf_addstr(&b, "abcdefg ");
	buf_addstr(&b, "\n---\n");
	OK(frontmatter_parse(b.data, b.len, &m, &e) == 0 && m.title != NULL &&
	    strlen(m.title) == 199, "7 MB title: 200 characters, the blank "
	    "at the cut dropped");
	meta_free(&m);

	/* TOML front matter: the same limits, the warning at the value. */
	buf_truncate(&b, 0);
	buf_addstr(&b, "+++\ndate = 2024-01-01\ntitle = \"");
	for (i = 0; i < 300; i++)
		buf_addstr(&b, "\xc3\xa9");
	buf_addstr(&b, "\"\ntags = [\"ok\", \"");
	for (i = 0; i < 70; i++)
		buf_addstr(&b, "t");
	buf_addstr(&b, "\"]\n+++\n");
	OK(parse(b.data, &m, &e) == 0, "TOML: parses (%s)", e.msg);
	OK(m.title != NULL && strlen(m.title) == 400, "TOML: title cut to "
	    "200 characters");
	OK(m.ntags == 2 && strlen(m.tags[1]) == 64, "TOML: a tag cut to 64");
	INT_EQ(m.nwarns, 2, "TOML: two warnings");
	if (m.nwarns == 2) {
		INT_EQ(m.warns[0].line, 3, "TOML: the title's line");
		INT_EQ(m.warns[0].col, 9, "TOML: at its value");
		HAS(m.warns[1].msg, "tags: a tag longer than 64 characters",
		    "TOML: the tag's warning");
	}
	meta_free(&m);

	/* frontmatter_cut() itself. */
	{
		char	 t[] = "ab\xc3\xa9" "cd";

		INT_EQ(frontmatter_cut(t, 5), 0, "5 characters: not cut");
		INT_EQ(frontmatter_cut(t, 3), 1, "3: cut");
		STR_EQ(t, "ab\xc3\xa9", "whole characters");
	}
	buf_free(&b);
}

static const struct harness_test tests[] = {
	TEST(test_basic),
	TEST(test_no_frontmatter),
	TEST(test_tags),
	TEST(test_titles),
	TEST(test_dates),
	TEST(test_aliases_and_flags),
	TEST(test_one_rule),
	TEST(test_unknown),
	TEST(test_crlf_bom),
	TEST(test_errors),
	TEST(test_html_titles),
	TEST(test_soft),
	TEST(test_limits),
	TEST(test_billion_laughs),
	TEST(test_oneline),
	TEST(test_duplicates),
	TEST(test_lengths),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
