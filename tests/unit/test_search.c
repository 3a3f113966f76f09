/*
 * test_search.c -- search.c: folding, Markdown to text, query parsing,
 * ranking, phrases, filters and snippets over the sample archive in
 * capsule/ and over synthetic ones; drafts never show up.
 *
 *   test_search                  the tests (a 1,000-post archive included)
 *   test_search --bench [N]      generate N posts (default 10000) in a
 *                                temporary directory, load them, build
 *                                the index and time queries; prints the
 *                                figures (docs/performance.md,
 *                                "Search"), then removes
 *                                the directory
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/config.h"
#include "files.h"
#include "harness.h"
#include "content/search.h"
#include "markdown/plain.h"
#include "core/log.h"
#include "core/utf8.h"
#include "core/util.h"
#include "site/nav.h"
#include "site/page.h"

static char	 top[64];

static struct archive *
load(const char *dir, struct config *c)
{
	config_defaults(c, "/nonexistent");
	free(c->capsule_dir);
	c->capsule_dir = xstrdup(dir);
	return archive_load(c);
}

static char *
folded(const char *s)
{
	struct buf	 b = BUF_INIT;

	search_fold(s, strlen(s), &b);
	buf_addc(&b, '\0');
	return buf_release(&b);
}

static char *
plain(const char *s)
{
	struct buf	 b = BUF_INIT;

	plain_markdown(s, strlen(s), &b);
	buf_addc(&b, '\0');
	return buf_release(&b);
}

static void
test_fold(void)
{
	static const struct {
		const char	*in, *want;
	} cases[] = {
		{ "Hello, World!", "hello world" },
		{ "Caf\xc3\xa9 Cr\xc3\xa8me", "cafe creme" },	/* é è */
		{ "\xc3\x89" "COLE", "ecole" },			/* É */
		{ "Stra\xc3\x9f" "e", "strasse" },			/* ß */
		{ "e\xcc\x81t\xc3\xa9", "ete" },		/* e + U+0301 */
		{ "\xc5\x81\xc3\xb3" "d\xc5\xba", "lodz" },	/* Łódź */
		{ "\xc3\x86sir \xc5\x92uvre", "aesir oeuvre" },
		{ "\xce\x91\xce\x92\xce\x93", "\xce\xb1\xce\xb2\xce\xb3" },
		{ "\xd0\x9f\xd0\xa0\xd0\x98", "\xd0\xbf\xd1\x80\xd0\xb8" },
		{ "tls1.3", "tls1 3" },
		{ "don't e-mail", "don t e mail" },
		{ "a\xe2\x80\x94" "b \xc2\xab" "c\xc2\xbb", "a b c" },	/* — « » */
		{ "2\xc3\x97" "3", "2 3" },				/* × */
		{ "\xff\xfe" "bad\xc3", "bad" },		/* invalid bytes */
		{ "!!! ... ---", "" },
		{ "", "" },
	};
	size_t	 i;
	char	*got, what[64];

	for (i = 0; i < nitems(cases); i++) {
		got = folded(cases[i].in);
		snprintf(what, sizeof(what), "fold case %zu", i);
		STR_EQ(got, cases[i].want, what);
		free(got);
	}
	/* A long word is cut at SEARCH_TOKEN_MAX bytes, on a character. */
	{
		struct buf	 b = BUF_INIT;

		for (i = 0; i < 60; i++)
			buf_addstr(&b, "\xc3\xa9");		/* éééé... */
		buf_addstr(&b, "x");
		got = folded(b.data);
		INT_EQ(strlen(got), SEARCH_TOKEN_MAX, "long token cut");
		free(got);
		buf_free(&b);
		for (i = 0; i < 30; i++)
			buf_addstr(&b, "\xd0\x96");		/* Ж, 2 bytes */
		buf_addstr(&b, "a");
		got = folded(b.data);
		OK(utf8_valid(got, strlen(got)), "cut keeps UTF-8 whole");
		free(got);
		buf_free(&b);
	}
}

static void
test_plain(void)
{
	/*
	 * Code as markdown/blocks.c reads it, which search shares with
	 * scan.c and template.c: a backtick run with a backtick after it
	 * is inline code, not a fence (search took it for one), indented
	 * code is code, its *stars* kept; a definition as CommonMark's.
	 */
	static const struct {
		const char	*md, *want, *what;
	} code[] = {
		{ "``` `x` *y*\nafter\n", "x y after", "no fence: inline code" },
		{ "Para.\n\n    *kept*\n", "Para. *kept*", "indented code" },
		{ "[r]:http://r.example/\ntext\n", "text",
		  "a definition needs no blank after ':'" },
	};
	size_t	 i;
	char	*got;

	got = plain("# Heading *one*\n\nSome **bold** and `code` and "
	    "[a link](http://x.example/p \"t\") and ![an image](i.png).\n"
	    "> quoted\n> > deeper\n\n- item one\n* item two\n12. numbered\n"
	    "- [x] done task\n\n```c\nint x = 1;\n```\n\n"
	    "| col a | col b |\n|---|:---:|\n| 1 | 2 |\n\n"
	    "[ref]: http://ref.example/\n\n<b>html</b> snake_case 2*3 "
	    "<https://auto.example/> a\\*b\n***\nSetext\n======\n");
	STR_EQ(got, "Heading one Some bold and code and a link and an image. "
	    "quoted deeper item one item two numbered done task int x = 1; "
	    "col a col b 1 2 html snake_case 2*3 https://auto.example/ a*b "
	    "Setext", "markdown stripped");
	free(got);
	got = plain("~~~\n```\nstill code\n~~~\nafter\n");
	STR_EQ(got, "``` still code after", "fences match by kind");
	free(got);
	for (i = 0; i < nitems(code); i++) {
		got = plain(code[i].md);
		STR_EQ(got, code[i].want, code[i].what);
		free(got);
	}
	got = plain("\r\n\r\n  text\twith\ttabs  \r\n");
	STR_EQ(got, "text with tabs", "blanks collapsed");
	free(got);
	got = plain("");
	STR_EQ(got, "", "empty");
	free(got);
}

static void
test_parse(void)
{
	struct search_query	 q;

	OK(search_parse("hello \"Small Web\" tag:Gemini series:\"Running a "
	    "Capsule\" e-mail TAG:c", &q) == 0, "parse");
	INT_EQ(q.nterms, 6, "six terms");
	if (q.nterms == 6) {
		INT_EQ(q.terms[0].kind, SEARCH_WORDS, "word");
		INT_EQ(q.terms[0].nwords, 1, "one word");
		STR_EQ(q.terms[0].words[0], "hello", "word folded");
		INT_EQ(q.terms[1].nwords, 2, "phrase");
		STR_EQ(q.terms[1].words[1], "web", "phrase word");
		INT_EQ(q.terms[2].kind, SEARCH_TAG, "tag");
		STR_EQ(q.terms[2].name, "Gemini", "tag name as typed");
		INT_EQ(q.terms[3].kind, SEARCH_SERIES, "series");
		STR_EQ(q.terms[3].name, "Running a Capsule", "quoted series");
		INT_EQ(q.terms[4].nwords, 2, "e-mail is a phrase");
		INT_EQ(q.terms[5].kind, SEARCH_TAG, "TAG: any case");
	}
	search_query_free(&q);
	OK(search_parse("", &q) == -1, "empty query");
	search_query_free(&q);
	OK(search_parse("   \t ", &q) == -1, "blank query");
	search_query_free(&q);
	OK(search_parse("!!! \"...\" tag:", &q) == -1, "nothing to search");
	search_query_free(&q);
	OK(search_parse("\"unterminated phrase", &q) == 0 &&
	    q.nterms == 1 && q.terms[0].nwords == 2, "open quote runs on");
	search_query_free(&q);
	OK(search_parse("a b c d e f g h i j k l m n o p q r s t", &q) == 0 &&
	    q.nterms == SEARCH_MAX_TERMS, "terms capped");
	search_query_free(&q);
}

static int
has_slug(const struct search_result *r, const char *slug)
{
	size_t	 i;

	for (i = 0; i < r->nhits; i++)
		if (strcmp(r->hits[i].post->slug, slug) == 0)
			return 1;
	return 0;
}

/* Case-insensitive (ASCII) substring. */
static int
has_ci(const char *hay, const char *needle)
{
	size_t	 n = strlen(needle);

	for (; *hay != '\0'; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return 1;
	return 0;
}

static void
check_snippets(const struct search_result *r, const char *word,
    const char *what)
{
	const char	*s;
	size_t		 i;

	for (i = 0; i < r->nhits; i++) {
		s = r->hits[i].snippet;
		OK(s != NULL && strlen(s) <= SEARCH_SNIPPET + 8,
		    "%s: snippet %zu is %zu bytes", what, i, strlen(s));
		OK(utf8_valid(s, strlen(s)), "%s: snippet %zu UTF-8", what, i);
		OK(strchr(s, '\n') == NULL, "%s: one line", what);
		OK(strstr(s, "**") == NULL && strstr(s, "](") == NULL,
		    "%s: no Markdown in \"%s\"", what, s);
		if (word != NULL && r->hits[i].meta == 0)
			OK(has_ci(s, word), "%s: \"%s\" in \"%s\"", what, word,
			    s);
	}
}

static void
test_sample(void)
{
	struct config		 c;
	struct archive		*a;
	struct search_index	*x;
	struct search_result	 r;
	struct page		 pg;
	struct page_target	 t;
	struct buf		 out = BUF_INIT;
	const char		*topdir = getenv("CAPSULED_TOP");
	char			*dir;
	size_t			 i;

	dir = xasprintf("%s/capsule", topdir ? topdir : ".");
	a = load(dir, &c);
	free(dir);
	OK(a != NULL, "sample archive loads");
	if (a == NULL) {
		config_free(&c);
		return;
	}
	OK(a->ndrafts >= 1, "the sample has a draft");
	OK(archive_draft(a, "gopher-archaeology-3") != NULL, "draft by slug");
	OK(archive_post(a, "gopher-archaeology-3") == NULL,
	    "draft not a post");
	x = search_build(a);

	/* A word in one title and one body. */
	OK(search_run(x, "slow loris", 50, &r) == 0, "slow loris");
	OK(r.nhits >= 1 && strcmp(r.hits[0].post->slug, "bounded-servers") ==
	    0, "the slow-loris post first");
	OK(r.nhits >= 1 && r.hits[0].meta == 2, "both words in its title");
	check_snippets(&r, "loris", "slow loris");
	search_result_free(&r);

	/* Title above body: "certificate" is in one title, many bodies. */
	OK(search_run(x, "Certificate", 50, &r) == 0, "certificate");
	OK(r.total >= 5, "certificate in many posts (%zu)", r.total);
	OK(r.nhits > 0 && strcmp(r.hits[0].post->slug,
	    "the-certificate-that-expired") == 0, "title match first: %s",
	    r.nhits ? r.hits[0].post->slug : "-");
	/*
	 * BM25 with libm's log() (search.c once carried its own series):
	 * the scores it gives the sample, to 1e-12.  They move with what
	 * is indexed (since markdown/blocks.c, indented code is kept).
	 */
	OK(r.nhits >= 2 && fabs(r.hits[0].score - 1.7207222672103115) < 1e-12 &&
	    fabs(r.hits[1].score - 1.7039170085084829) < 1e-12,
	    "BM25 scores as before: %.17g %.17g",
	    r.nhits > 0 ? r.hits[0].score : 0,
	    r.nhits > 1 ? r.hits[1].score : 0);
	for (i = 1; i < r.nhits; i++)
		OK(r.hits[i].meta <= r.hits[i - 1].meta &&
		    (r.hits[i].meta < r.hits[i - 1].meta ||
		    r.hits[i].score <= r.hits[i - 1].score),
		    "ranked: meta, then score");
	check_snippets(&r, "certificate", "certificate");
	search_result_free(&r);

	/* Phrases match consecutive words only. */
	OK(search_run(x, "\"trust on first use\"", 50, &r) == 0, "phrase");
	OK(has_slug(&r, "tofu-explained"), "phrase finds the TOFU post");
	check_snippets(&r, "trust on first use", "phrase");
	search_result_free(&r);
	OK(search_run(x, "\"use first on trust\"", 50, &r) == 0 &&
	    r.total == 0, "reversed phrase finds nothing");
	search_result_free(&r);

	/* AND: every word must be there. */
	OK(search_run(x, "tofu xyzzyplugh", 50, &r) == 0 && r.total == 0,
	    "AND with an unknown word");
	search_result_free(&r);

	/* tag: and series: */
	OK(search_run(x, "tag:security", 50, &r) == 0, "tag:security");
	INT_EQ(r.total, archive_tag(a, "security")->nposts, "tag count");
	OK(has_slug(&r, "bounded-servers") && has_slug(&r, "tofu-explained"),
	    "tagged posts");
	for (i = 1; i < r.nhits; i++)
		OK(r.hits[i - 1].post->date.t >= r.hits[i].post->date.t,
		    "filter alone: newest first");
	search_result_free(&r);
	OK(search_run(x, "tag:Security tofu", 50, &r) == 0 && r.total == 1 &&
	    has_slug(&r, "tofu-explained"), "tag and word");
	search_result_free(&r);
	OK(search_run(x, "tag:nonesuch", 50, &r) == 0 && r.total == 0 &&
	    strstr(r.why, "nonesuch") != NULL, "unknown tag said");
	search_result_free(&r);
	OK(search_run(x, "series:\"Running a Capsule\"", 50, &r) == 0,
	    "series by name");
	INT_EQ(r.total, 4, "four parts");
	search_result_free(&r);
	OK(search_run(x, "series:gopher-archaeology", 50, &r) == 0,
	    "series by slug");
	INT_EQ(r.total, 3, "three published parts (one is a draft)");
	OK(!has_slug(&r, "gopher-archaeology-3"), "no draft in a series");
	search_result_free(&r);

	/* Drafts are in no result. */
	OK(search_run(x, "veronica", 50, &r) == 0, "veronica");
	for (i = 0; i < r.nhits; i++)
		OK(!r.hits[i].post->draft, "no draft among hits");
	OK(!has_slug(&r, "gopher-archaeology-3"), "the draft is not found");
	search_result_free(&r);
	OK(search_run(x, "jughead", 50, &r) == 0 && r.total == 0,
	    "a word only the draft has finds nothing");
	search_result_free(&r);

	/* Limits. */
	OK(search_run(x, "the", 3, &r) == 0 && r.nhits == 3 && r.total > 3,
	    "max hits, total counted");
	check_snippets(&r, "the", "the");
	search_result_free(&r);
	OK(search_run(x, "  ", 50, &r) == -1 && r.nhits == 0, "blank: -1");
	search_result_free(&r);

	/* The page, both emitters. */
	page_init(&pg);
	nav_search(&pg, x, "slow loris");
	memset(&t, 0, sizeof(t));
	t.host = "localhost";
	t.port = 1965;
	t.width = 70;
	page_emit_gemtext(&pg, &t, &out);
	HAS(out.data, "# Search\n", "heading");
	HAS(out.data, "Results for: slow loris\n", "query shown");
	HAS(out.data, "=> /posts/bounded-servers 2025-10-05 Slow loris and "
	    "the case for bounded servers\n", "hit link with date");
	HAS(out.data, "=> /search Search again\n", "search link");
	buf_free(&out);
	t.port = 7070;
	page_emit_gophermap(&pg, &t, &out);
	HAS(out.data, "1" "2025-10-05 Slow loris and the case for bounded "
	    "servers\t/posts/bounded-servers/\tlocalhost\t7070\r\n",
	    "gopher hit item: the post's menu");
	HAS(out.data, "7Search again\t/search\tlocalhost\t7070\r\n",
	    "type-7 item");
	buf_free(&out);
	page_free(&pg);

	page_init(&pg);
	nav_search(&pg, x, "\xff\x01zzzqqq");
	t.port = 1965;
	page_emit_gemtext(&pg, &t, &out);
	HAS(out.data, "Results for: ? zzzqqq\n", "query cleaned for show");
	HAS(out.data, "No post matches.", "nothing found said");
	buf_free(&out);
	page_free(&pg);

	OK(search_bytes(x) > 0, "index has a size");
	search_free(x);
	archive_unref(a);
	config_free(&c);
}

/* ---- synthetic archives --------------------------------------------- */

static uint64_t	 rng = 88172645463325252ULL;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* A pseudo-word for rank r: a few syllables, stable per rank. */
static void
word(struct buf *b, uint32_t r)
{
	static const char *const syl[] = {
		"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "po",
		"an", "el", "is", "or", "un", "ba", "de", "fi", "go", "hu",
		"ja", "ke", "li", "mo", "nu", "pe", "ri", "so", "tu", "wa",
	};
	do {
		buf_addstr(b, syl[r % nitems(syl)]);
		r /= nitems(syl);
	} while (r > 0);
}

/* Zipf-like: small ranks are common. */
static uint32_t
zipf(uint32_t vocab)
{
	double	 u = (rnd() % 1000000) / 1e6;

	return (uint32_t)(vocab * u * u * u) % vocab;
}

/* Write n posts of about `words` words each under dir/posts. */
static void
generate(const char *dir, size_t n, size_t words)
{
	struct buf	 b = BUF_INIT;
	char		 name[64];
	size_t		 i, j;

	test_mkdir(dir, "posts");
	for (i = 0; i < n; i++) {
		buf_truncate(&b, 0);
		buf_printf(&b, "---\ntitle: \"");
		for (j = 0; j < 4; j++) {
			if (j)
				buf_addc(&b, ' ');
			word(&b, zipf(20000));
		}
		buf_printf(&b, "\"\ndate: %04zu-%02zu-%02zu\ntags: [t%u, t%u]\n",
		    2000 + i / 336 % 30, 1 + i / 28 % 12, 1 + i % 28,
		    rnd() % 200, rnd() % 200);
		if (i % 10 == 0)
			buf_printf(&b, "series: s%zu\n", i % 37);
		buf_printf(&b, "summary: post %zu about ", i);
		word(&b, zipf(20000));
		buf_addstr(&b, "\n---\n");
		for (j = 0; j < words; j++) {
			if (j % 80 == 79)
				buf_addstr(&b, ".\n\n## ");
			else if (j % 13 == 12)
				buf_addstr(&b, ", *");
			else if (j)
				buf_addc(&b, ' ');
			word(&b, zipf(20000));
			if (j % 13 == 12)
				buf_addc(&b, '*');
		}
		buf_addstr(&b, ".\n");
		snprintf(name, sizeof(name), "posts/p%06zu.md", i);
		test_put(dir, name, b.data);
	}
	buf_free(&b);
}

static void
test_synthetic(void)
{
	struct config		 c;
	struct archive		*a;
	struct search_index	*x;
	struct search_result	 r;
	struct buf		 b = BUF_INIT;
	char			*dir, name[64];
	size_t			 i;

	dir = xasprintf("%s/synth", top);
	test_mkdir(top, "synth");
	test_mkdir(dir, "posts");
	/* 60 posts say "common"; odd ones have it in the title too. */
	for (i = 0; i < 60; i++) {
		buf_truncate(&b, 0);
		buf_printf(&b, "---\ntitle: Post %zu%s\ndate: 2024-01-%02zu\n"
		    "%s---\nA common body line for number %zu.\n", i,
		    i % 2 ? " common" : "", 1 + i % 28,
		    i == 7 ? "summary: The summary of seven.\n" : "", i);
		snprintf(name, sizeof(name), "posts/p%02zu.md", i);
		test_put(dir, name, b.data);
	}
	/* Accents, a long body with the match far in, a phrase in a tag. */
	test_put(dir, "posts/cafe.md",
	    "---\ntitle: Le caf\xc3\xa9\ndate: 2023-01-01\n"
	    "tags: [na\xc3\xafve art]\n---\nUn cr\xc3\xa8me br\xc3\xbbl\xc3\xa9"
	    "e et un \xc3\xa9t\xc3\xa9 \xc3\xa0 Z\xc3\xbcrich.\n");
	buf_truncate(&b, 0);
	buf_addstr(&b, "---\ntitle: Long\ndate: 2023-02-01\n---\n");
	for (i = 0; i < 300; i++)
		buf_addstr(&b, "\xc3\xa9l\xc3\xa8ve ");	/* élève */
	buf_addstr(&b, "needle ");
	for (i = 0; i < 300; i++)
		buf_addstr(&b, "\xd0\xb6\xd0\xb8\xd0\xb2 ");	/* жив */
	buf_addstr(&b, "\n");
	test_put(dir, "posts/long.md", b.data);
	test_put(dir, "posts/draft.md",
	    "---\ntitle: Secret common\ndraft: true\n---\n"
	    "common secretword\n");
	a = load(dir, &c);
	OK(a != NULL, "synthetic archive loads");
	if (a == NULL)
		goto out;
	INT_EQ(a->ndrafts, 1, "one draft, undated");
	OK(a->ndrafts == 1 && a->drafts[0]->date.ymd[0] != '\0',
	    "an undated draft takes its file's day");
	x = search_build(a);

	OK(search_run(x, "common", 50, &r) == 0, "common");
	INT_EQ(r.total, 60, "60 posts match");
	INT_EQ(r.nhits, 50, "50 shown");
	for (i = 0; i < 30 && i < r.nhits; i++)
		OK(r.hits[i].meta == 1, "title matches first (%zu)", i);
	OK(r.nhits == 50 && r.hits[30].meta == 0, "then body matches");
	for (i = 0; i < r.nhits; i++)
		OK(!r.hits[i].post->draft, "no draft");
	search_result_free(&r);

	OK(search_run(x, "secretword", 50, &r) == 0 && r.total == 0,
	    "draft words are not indexed");
	search_result_free(&r);

	OK(search_run(x, "CAFE", 50, &r) == 0 && r.total == 1 &&
	    r.hits[0].meta == 1, "folded: CAFE finds café in a title");
	search_result_free(&r);
	OK(search_run(x, "Cr\xc3\x88me brulee", 50, &r) == 0 && r.total == 1,
	    "CRÈME brulee finds crème brûlée");
	OK(r.nhits == 1 && strstr(r.hits[0].snippet,
	    "cr\xc3\xa8me br\xc3\xbbl\xc3\xa9" "e") != NULL,
	    "snippet shows the text as written: %s",
	    r.nhits ? r.hits[0].snippet : "-");
	search_result_free(&r);
	OK(search_run(x, "\"naive art\"", 50, &r) == 0 && r.total == 1 &&
	    r.hits[0].meta == 1, "a phrase in a tag");
	search_result_free(&r);
	OK(search_run(x, "\"cafe naive\"", 50, &r) == 0 && r.total == 0,
	    "no phrase across fields");
	search_result_free(&r);
	OK(search_run(x, "tag:\"Naïve Art\"", 50, &r) == 0 && r.total == 1,
	    "tag by display name");
	search_result_free(&r);

	OK(search_run(x, "needle", 50, &r) == 0 && r.total == 1, "needle");
	if (r.nhits == 1) {
		const char *s = r.hits[0].snippet;

		HAS(s, "needle", "snippet around a late match");
		OK(strncmp(s, "\xe2\x80\xa6", 3) == 0, "leading ellipsis");
		OK(strlen(s) >= 3 && strcmp(s + strlen(s) - 3,
		    "\xe2\x80\xa6") == 0, "trailing ellipsis");
		OK(strlen(s) <= SEARCH_SNIPPET + 8, "snippet size %zu",
		    strlen(s));
		OK(utf8_valid(s, strlen(s)), "snippet UTF-8");
		OK(strstr(s, "\xc3\xa9l\xc3\xa8ve") != NULL &&
		    strstr(s, "\xd0\xb6\xd0\xb8\xd0\xb2") != NULL,
		    "whole words both sides: %s", s);
	}
	search_result_free(&r);

	/* Title-only match: the summary, else the opening of the body. */
	OK(search_run(x, "\"post 7\"", 50, &r) == 0, "post 7");
	OK(r.nhits >= 1 && strcmp(r.hits[0].snippet,
	    "The summary of seven.") == 0, "summary as snippet: %s",
	    r.nhits ? r.hits[0].snippet : "-");
	search_result_free(&r);
	OK(search_run(x, "\"post 8\"", 50, &r) == 0 && r.nhits >= 1 &&
	    strcmp(r.hits[0].post->slug, "p08") == 0, "post 8 first");
	OK(r.nhits >= 1 && strcmp(r.hits[0].snippet,
	    "A common body line for number 8.") == 0, "body start: %s",
	    r.nhits ? r.hits[0].snippet : "-");
	search_result_free(&r);

	search_free(x);
	archive_unref(a);
out:
	config_free(&c);
	buf_free(&b);
	free(dir);
}

/*
 * Generate n posts, load, build, time queries.  verbose: print figures.
 * Returns the slowest query in ms.
 */
static double
bench(size_t n, int verbose)
{
	static const char *const queries[] = {
		"kaka", "lo mi", "\"lo mi\"", "ne ru sa", "tag:t7",
		"tag:t7 ka", "series:s3 lo", "vokaru", "zzzz",
		"ka lo mi ne ru sa ti vo",
	};
	struct config		 c;
	struct archive		*a;
	struct search_result	 r;
	struct search_index	*x;
	char			*dir;
	double			 t0, t_gen, t_load, t_build, q, worst = 0, sum = 0;
	size_t			 i, k, runs = 5, total_hits = 0;

	dir = xasprintf("%s/bench", top);
	test_mkdir(top, "bench");
	t0 = harness_now_msf();
	generate(dir, n, 400);
	t_gen = harness_now_msf() - t0;
	t0 = harness_now_msf();
	a = load(dir, &c);
	t_load = harness_now_msf() - t0;
	OK(a != NULL && a->nposts == n, "bench archive: %zu posts",
	    a ? a->nposts : 0);
	if (a == NULL)
		goto out;
	t0 = harness_now_msf();
	x = search_build(a);
	t_build = harness_now_msf() - t0;
	for (i = 0; i < nitems(queries); i++) {
		for (k = 0; k < runs; k++) {
			t0 = harness_now_msf();
			search_run(x, queries[i], SEARCH_MAX_RESULTS, &r);
			q = harness_now_msf() - t0;
			sum += q;
			if (q > worst)
				worst = q;
			if (k == 0) {
				total_hits += r.total;
				if (verbose)
					printf("  %-28s %6zu matches  %7.3f ms\n",
					    queries[i], r.total, q);
			}
			search_result_free(&r);
		}
	}
	if (verbose) {
		printf("posts: %zu (generated in %.0f ms, loaded in %.0f ms)\n",
		    n, t_gen, t_load);
		printf("index: built in %.1f ms; %zu tokens; %zu bytes = "
		    "%.0f bytes/post\n", t_build, search_nterms(x),
		    search_bytes(x), (double)search_bytes(x) / (double)n);
		printf("queries: %zu runs, mean %.3f ms, slowest %.3f ms "
		    "(snippets included)\n", nitems(queries) * runs,
		    sum / (double)(nitems(queries) * runs), worst);
	}
	OK(total_hits > 0, "bench queries find posts");
	search_free(x);
	archive_unref(a);
out:
	config_free(&c);
	test_rm_tree(dir);
	free(dir);
	return worst;
}

static const struct harness_test tests[] = {
	NAMED("fold"),
	NAMED("plain"),
	NAMED("parse"),
	NAMED("sample"),
	NAMED("synthetic"),
	NAMED("bench_1000"),
};

int
main(int argc, char **argv)
{
	double	 worst;
	int	 bench_only = argc > 1 && strcmp(argv[1], "--bench") == 0;

	if (!bench_only)	/* --bench N is a measure, not a check's name */
		HARNESS_INIT(argc, argv, tests);
	log_set_level(LOG_LEVEL_ERROR);
	snprintf(top, sizeof(top), "/tmp/capsuled-search-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	if (bench_only) {
		bench(argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 10000,
		    1);
		test_rm_tree(top);
		return harness_done();
	}
	RUN("fold", test_fold());
	RUN("plain", test_plain());
	RUN("parse", test_parse());
	RUN("sample", test_sample());
	RUN("synthetic", test_synthetic());
	/* Bounded, even under sanitizers: 1,000 posts, 100 ms a query. */
	if (harness_selected("bench_1000")) {
		worst = bench(1000, 0);
		OK(worst < harness_time_bound(0.1) * 1000,
		    "1,000 posts: slowest query %.1f ms", worst);
	}
	test_rm_tree(top);
	return harness_done();
}
