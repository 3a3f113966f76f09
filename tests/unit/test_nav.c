/*
 * test_nav.c -- navigation pages built from a hand-made snapshot.
 *
 * The archive is filled field by field (no archive.c): posts on the same
 * day, a series whose written part numbers skip, a series without a
 * file, a tag with spaces and dots, a post in no series, an empty
 * archive.  Pages are checked line by line as gemtext, read back the way
 * a feed aggregator reads them (the "Subscribing to Gemini pages"
 * companion specification), and every one is emitted as a gophermap and
 * checked against the menu grammar.
 */
#include <stdlib.h>
#include <string.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/date.h"
#include "harness.h"
#include "core/util.h"
#include "site/nav.h"
#include "site/page.h"

static struct page_target	 target = {
	.format = FORMAT_GOPHER, .host = "localhost", .port = 7070,
	.width = 70,
};

/*
 * Fixture
 */

static struct post *
mkpost(const char *slug, const char *title, const char *date, unsigned min)
{
	struct post	*p;
	const char	*err;

	p = xcalloc(1, sizeof(*p));
	p->slug = xstrdup(slug);
	p->title = xstrdup(title);
	if (date_parse(date, strlen(date), &p->date, &err) == -1)
		abort();
	p->updated = p->date;
	p->reading_min = min;
	p->words = min * 200;
	return p;
}

static struct tag *
mktag(const char *slug, const char *name)
{
	struct tag	*t;

	t = xcalloc(1, sizeof(*t));
	t->slug = xstrdup(slug);
	t->name = xstrdup(name);
	t->posts = xcalloc(8, sizeof(*t->posts));
	return t;
}

static void
tag_post(struct post *p, struct tag *t, const char *as_written)
{
	p->tagnames = xreallocarray(p->tagnames, p->ntags + 1, sizeof(char *));
	p->tags = xreallocarray(p->tags, p->ntags + 1, sizeof(struct tag *));
	p->tagnames[p->ntags] = xstrdup(as_written);
	p->tags[p->ntags++] = t;
	t->posts[t->nposts++] = p;
}

static struct series *
mkseries(const char *slug, const char *title)
{
	struct series	*s;

	s = xcalloc(1, sizeof(*s));
	s->slug = xstrdup(slug);
	s->title = xstrdup(title);
	s->parts = xcalloc(8, sizeof(*s->parts));
	return s;
}

static void
series_add(struct series *s, struct post *p, int part)
{
	p->series = s;
	p->series_name = xstrdup(s->title);
	p->part = part;
	s->parts[s->nparts++] = p;
	p->series_pos = s->nparts;
	s->reading_min += p->reading_min;
	if (s->nparts > 1) {
		p->prev = s->parts[s->nparts - 2];
		p->prev->next = p;
	}
}

static const char intro[] = "---\ntitle: x\n---\nWelcome to the capsule.\n";
static const char sintro[] = "---\ntitle: Gemini\n---\nWe build a server.\n";

/*
 *  posts, newest first:
 *   0 sigpipe   2024-05-02 14:00+02:00  gem part 5 (3rd), tags C, gemini-dev
 *   1 same-day  2024-05-02              featured, tags c, "Emacs Lisp"
 *   2 tofu      2024-01-10              gem part 2 (2nd), tag "Node.js v2"
 *   3 hello     2023-12-31              gem part 1 (1st), title "# Not..."
 *   4 old       2022-03-03              loose (no file), title "* star"
 */
static struct archive *
fixture(void)
{
	struct archive	*a;
	struct post	**p;
	struct series	*gem, *loose;
	struct tag	*c, *el, *gd, *nj;

	a = xcalloc(1, sizeof(*a));
	a->title = xstrdup("Alice's capsule");
	a->subtitle = xstrdup("Notes about cats & C");
	a->author = xstrdup("Alice");
	a->lang = xstrdup("en");
	a->index_src = xstrdup(intro);
	a->index_len = strlen(intro);
	a->index_body_off = strlen("---\ntitle: x\n---\n");

	a->nposts = 5;
	a->posts = p = xcalloc(a->nposts, sizeof(*p));
	p[0] = mkpost("sigpipe", "Why my server died",
	    "2024-05-02T14:00:00+02:00", 4);
	p[1] = mkpost("same-day", "Same day, second post", "2024-05-02", 2);
	p[2] = mkpost("tofu", "TOFU explained", "2024-01-10", 7);
	p[3] = mkpost("hello", "# Not a heading", "2023-12-31", 3);
	p[4] = mkpost("old", "* star title", "2022-03-03", 61);
	free(p[0]->title);
	p[0]->title = xstrdup("Why my server died");
	{
		const char	*err;

		date_parse("2024-06-01", 10, &p[0]->updated, &err);
	}
	p[0]->author = xstrdup("Bob");
	p[1]->featured = true;

	gem = mkseries("gem", "Gemini from scratch");
	gem->summary = xstrdup("Build a server");
	gem->level = xstrdup("intermediate");
	gem->audience = xstrdup("C programmers");
	gem->src = xstrdup(sintro);
	gem->srclen = strlen(sintro);
	gem->body_off = strlen("---\ntitle: Gemini\n---\n");
	series_add(gem, p[3], 1);
	series_add(gem, p[2], 2);
	series_add(gem, p[0], 5);		/* 3 and 4 never written */
	loose = mkseries("loose-ends", "loose ends");	/* no file */
	series_add(loose, p[4], 0);
	a->nseries = 2;
	a->series = xcalloc(2, sizeof(*a->series));
	a->series[0] = gem;
	a->series[1] = loose;

	/* Most used first, then slug: the archive's order. */
	c = mktag("c", "C");
	el = mktag("emacs-lisp", "Emacs Lisp");
	gd = mktag("gemini-dev", "gemini-dev");
	nj = mktag("node.js-v2", "Node.js v2");
	tag_post(p[0], c, "C");
	tag_post(p[0], gd, "gemini-dev");
	tag_post(p[1], c, "c");		/* differs only in case: one tag */
	tag_post(p[1], el, "Emacs Lisp");
	tag_post(p[2], nj, "Node.js v2");
	a->ntags = 4;
	a->tags = xcalloc(4, sizeof(*a->tags));
	a->tags[0] = c;
	a->tags[1] = el;
	a->tags[2] = gd;
	a->tags[3] = nj;

	a->ndocs = 2;
	a->docs = xcalloc(2, sizeof(*a->docs));
	a->docs[0] = xcalloc(1, sizeof(struct doc));
	a->docs[0]->name = xstrdup("about");
	a->docs[0]->title = xstrdup("About me");
	a->docs[1] = xcalloc(1, sizeof(struct doc));
	a->docs[1]->name = xstrdup("now page");	/* no title */
	return a;
}

static void
fixture_free(struct archive *a)
{
	size_t	 i, j;

	for (i = 0; i < a->nposts; i++) {
		struct post	*p = a->posts[i];

		for (j = 0; j < p->ntags; j++)
			free(p->tagnames[j]);
		free(p->tagnames);
		free(p->tags);
		free(p->slug);
		free(p->title);
		free(p->author);
		free(p->series_name);
		free(p);
	}
	for (i = 0; i < a->nseries; i++) {
		free(a->series[i]->slug);
		free(a->series[i]->title);
		free(a->series[i]->summary);
		free(a->series[i]->level);
		free(a->series[i]->audience);
		free(a->series[i]->src);
		free(a->series[i]->parts);
		free(a->series[i]);
	}
	for (i = 0; i < a->ntags; i++) {
		free(a->tags[i]->slug);
		free(a->tags[i]->name);
		free(a->tags[i]->posts);
		free(a->tags[i]);
	}
	for (i = 0; i < a->ndocs; i++) {
		free(a->docs[i]->name);
		free(a->docs[i]->title);
		free(a->docs[i]);
	}
	free(a->posts);
	free(a->series);
	free(a->tags);
	free(a->docs);
	free(a->title);
	free(a->subtitle);
	free(a->author);
	free(a->lang);
	free(a->index_src);
	free(a);
}

/*
 * Helpers
 */

/* Gemtext of a page built by fn: malloc'd. */
static char *
gmi(struct page *p)
{
	struct buf	 out = BUF_INIT;

	page_emit_gemtext(p, &target, &out);
	if (out.data == NULL)
		return xstrdup("");
	return buf_release(&out);
}

/* Line n (0-based) of s into a static buffer; NULL past the end. */
static const char *
line(const char *s, int n)
{
	static char	 l[1024];
	const char	*nl;
	size_t		 len;

	for (; n > 0; n--) {
		if ((nl = strchr(s, '\n')) == NULL)
			return NULL;
		s = nl + 1;
	}
	if (*s == '\0')
		return NULL;
	nl = strchr(s, '\n');
	len = nl ? (size_t)(nl - s) : strlen(s);
	if (len >= sizeof(l))
		len = sizeof(l) - 1;
	memcpy(l, s, len);
	l[len] = '\0';
	return l;
}

/* Every line of want, in order, as consecutive lines of got. */
static void
lines_eq(const char *got, const char *const *want, size_t n,
    const char *what)
{
	size_t	 i;
	char	 w[64];

	for (i = 0; i < n; i++) {
		snprintf(w, sizeof(w), "%s line %zu", what, i);
		STR_EQ(line(got, (int)i), want[i], w);
	}
	snprintf(w, sizeof(w), "%s: no more lines", what);
	OK(line(got, (int)n) == NULL, "%s (next: %s)", w,
	    line(got, (int)n));
}

static int
u8cols(const char *s, size_t len)
{
	size_t	 i;
	int	 n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

/* The menu grammar of RFC 1436, with "i" and "3" lines; count of problems. */
static int
gophermap_bad(const char *m, int width)
{
	const char	*s = m, *crlf, *t1;
	int		 bad = 0, tabs;
	size_t		 i, len;

	for (; (crlf = strstr(s, "\r\n")) != NULL; s = crlf + 2) {
		len = (size_t)(crlf - s);
		if (len == 1 && *s == '.')
			return bad + (crlf[2] != '\0');
		for (i = 0, tabs = 0; i < len; i++)
			tabs += s[i] == '\t';
		if (tabs != 3 || memchr(s, '\n', len) != NULL || len == 0 ||
		    strchr("01379ghIids", *s) == NULL) {
			fprintf(stderr, "bad menu line: %.*s\n", (int)len, s);
			bad++;
			continue;
		}
		t1 = memchr(s, '\t', len);
		if (u8cols(s + 1, (size_t)(t1 - s - 1)) > width) {
			fprintf(stderr, "too wide: %.*s\n", (int)len, s);
			bad++;
		}
		if (*s == 'i' && strncmp(t1, "\tfake\t(NULL)\t0\r\n", 16) != 0)
			bad++;
		if (*s != 'i' && *s != 'h' && t1[1] != '/')
			bad++;
	}
	fprintf(stderr, "menu without final .\n");
	return bad + 1;
}

static void
check_gopher(struct page *p, const char *what)
{
	struct buf	 out = BUF_INIT;

	page_emit_gophermap(p, &target, &out);
	INT_EQ(gophermap_bad(out.data, 70), 0, what);
	buf_free(&out);
	target.width = 24;
	page_emit_gophermap(p, &target, &out);
	INT_EQ(gophermap_bad(out.data, 24), 0, what);
	target.width = 70;
	buf_free(&out);
}

/*
 * A gemlog feed as an aggregator reads it ("Subscribing to Gemini pages"):
 * the first "#" heading is the title, a link whose label starts with a
 * YYYY-MM-DD date is an entry.
 */
struct feed_entry {
	char	 url[256];
	char	 date[11];
	char	 title[256];
};

struct feed {
	char			 title[256];
	char			 subtitle[256];
	struct feed_entry	 e[64];
	int			 n;
};

static int
real_date(const char *s)
{
	static const int	 mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31,
	    30, 31, 30, 31 };
	int			 i, m, d;

	for (i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : !(s[i] >= '0' &&
		    s[i] <= '9'))
			return 0;
	m = (s[5] - '0') * 10 + s[6] - '0';
	d = (s[8] - '0') * 10 + s[9] - '0';
	return m >= 1 && m <= 12 && d >= 1 && d <= mdays[m - 1];
}

static void
trim_copy(char *dst, size_t cap, const char *s)
{
	size_t	 len;

	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len >= cap)
		len = cap - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

static void
feed_parse(const char *gemtext, struct feed *f)
{
	const char	*l, *url, *label;
	int		 i, window = 0, pre = 0;
	size_t		 ulen;

	memset(f, 0, sizeof(*f));
	for (i = 0; (l = line(gemtext, i)) != NULL; i++) {
		if (strncmp(l, "```", 3) == 0) {
			pre = !pre;
			window = 0;
			continue;
		}
		if (pre)
			continue;
		if (l[0] == '#' && l[1] != '#' && f->title[0] == '\0') {
			trim_copy(f->title, sizeof(f->title), l + 1);
			window = 1;
			continue;
		}
		if (strncmp(l, "##", 2) == 0 && l[2] != '#' && window &&
		    f->subtitle[0] == '\0') {
			trim_copy(f->subtitle, sizeof(f->subtitle), l + 2);
			continue;
		}
		if (l[0] != '\0' && l[0] != '#')
			window = 0;
		if (strncmp(l, "=>", 2) != 0)
			continue;
		url = l + 2 + strspn(l + 2, " \t");
		ulen = strcspn(url, " \t");
		label = url + ulen + strspn(url + ulen, " \t");
		if (ulen == 0 || strlen(label) < 10 || !real_date(label) ||
		    f->n == (int)nitems(f->e))
			continue;
		snprintf(f->e[f->n].url, sizeof(f->e[0].url), "%.*s",
		    (int)ulen, url);
		memcpy(f->e[f->n].date, label, 10);
		/* The title: the label without its first token. */
		label += strcspn(label, " \t");
		trim_copy(f->e[f->n].title, sizeof(f->e[0].title), label);
		f->n++;
	}
}

/* Is the post an entry of f with its date and title? */
static int
feed_has(const struct feed *f, const struct post *p, const char *title)
{
	char	 url[256];
	int	 i;

	snprintf(url, sizeof(url), "/posts/%s", p->slug);
	for (i = 0; i < f->n; i++)
		if (strcmp(f->e[i].url, url) == 0)
			return strcmp(f->e[i].date, p->date.ymd) == 0 &&
			    strcmp(f->e[i].title, title) == 0;
	return 0;
}

/*
 * Tests
 */

static void
test_gemlog(struct archive *a)
{
	static const char *const want[] = {
		"# Alice's capsule",
		"## Notes about cats & C",
		"",
		"=> /posts/sigpipe 2024-05-02 Why my server died",
		"=> /posts/same-day 2024-05-02 Same day, second post",
		"=> /posts/tofu 2024-01-10 TOFU explained",
		"=> /posts/hello 2023-12-31 # Not a heading",
		"=> /posts/old 2022-03-03 * star title",
		"",
		"=> /atom.xml Atom feed",
		"=> / Home",
	};
	struct page	 p;
	struct feed	 f;
	char		*g;
	size_t		 i;

	page_init(&p);
	nav_gemlog(&p, a);
	g = gmi(&p);
	lines_eq(g, want, nitems(want), "gemlog");
	feed_parse(g, &f);
	STR_EQ(f.title, "Alice's capsule", "feed title");
	STR_EQ(f.subtitle, "Notes about cats & C", "feed subtitle");
	INT_EQ(f.n, (long long)a->nposts, "one entry per post");
	for (i = 0; i < a->nposts; i++)
		OK(feed_has(&f, a->posts[i], a->posts[i]->title),
		    "entry for %s", a->posts[i]->slug);
	check_gopher(&p, "gemlog menu");
	free(g);
	page_free(&p);

	/* Without a subtitle: "Gemlog". */
	free(a->subtitle);
	a->subtitle = NULL;
	page_init(&p);
	nav_gemlog(&p, a);
	g = gmi(&p);
	STR_EQ(line(g, 1), "## Gemlog", "default subtitle");
	free(g);
	page_free(&p);
	a->subtitle = xstrdup("Notes about cats & C");
}

static void
test_posts(struct archive *a)
{
	static const char *const want[] = {
		"# Alice's capsule: archive",
		"## Notes about cats & C",
		"",
		"5 posts, newest first.",
		"",
		"## 2024",
		"=> /posts/sigpipe 2024-05-02 Why my server died",
		"=> /posts/same-day 2024-05-02 Same day, second post",
		"=> /posts/tofu 2024-01-10 TOFU explained",
		"",
		"## 2023",
		"=> /posts/hello 2023-12-31 # Not a heading",
		"",
		"## 2022",
		"=> /posts/old 2022-03-03 * star title",
		"",
		"=> /gemlog/ Gemlog (subscribe)",
		"=> / Back to Alice's capsule",
	};
	struct page	 p;
	struct feed	 f;
	char		*g;
	size_t		 i;

	page_init(&p);
	nav_posts(&p, a);
	g = gmi(&p);
	lines_eq(g, want, nitems(want), "posts");
	feed_parse(g, &f);
	STR_EQ(f.subtitle, "Notes about cats & C", "a year is no subtitle");
	INT_EQ(f.n, (long long)a->nposts, "posts: entries");
	for (i = 0; i < a->nposts; i++)
		OK(feed_has(&f, a->posts[i], a->posts[i]->title),
		    "posts: entry for %s", a->posts[i]->slug);
	check_gopher(&p, "posts menu");
	free(g);
	page_free(&p);
}

static void
test_series(struct archive *a)
{
	static const char *const want[] = {
		"# Gemini from scratch",
		"## Build a server",
		"",
		"Level: intermediate \xc2\xb7 Audience: C programmers",
		"A series on Alice's capsule: 3 parts \xc2\xb7 14 min.",
		"",
	};
	static const char *const tail[] = {
		"## Parts",
		"=> /posts/hello 2023-12-31 Part 1: # Not a heading (3 min)",
		"=> /posts/tofu 2024-01-10 Part 2: TOFU explained (7 min)",
		/* Part 4 is not published: the gap shows. */
		("=> /posts/sigpipe 2024-05-02 Part 5: Why my server died "
		    "(4 min)"),
		"",
		"=> /series/gem/atom.xml Atom feed of this series",
		"=> /series/ All series",
		"=> / Back to Alice's capsule",
	};
	static const char *const loose[] = {
		"# loose ends",
		"",
		"A series on Alice's capsule: 1 part \xc2\xb7 1 h 1 min.",
		"",
		"## Parts",
		"=> /posts/old 2022-03-03 Part 1: * star title (1 h 1 min)",
		"",
		"=> /series/loose-ends/atom.xml Atom feed of this series",
		"=> /series/ All series",
		"=> / Back to Alice's capsule",
	};
	static const char *const index[] = {
		"# Alice's capsule: series",
		"",
		"2 series, each read in order.",
		"",
		"=> /series/gem/ Gemini from scratch (3 parts, 14 min)",
		"Build a server",
		"Level: intermediate \xc2\xb7 Audience: C programmers",
		"",
		"=> /series/loose-ends/ loose ends (1 part, 1 h 1 min)",
		"",
		"=> / Back to Alice's capsule",
	};
	struct page	 p;
	struct feed	 f;
	char		*g, *rest;
	size_t		 i;
	int		 n;

	page_init(&p);
	nav_series(&p, a, a->series[0]);
	g = gmi(&p);
	for (i = 0; i < nitems(want); i++)
		STR_EQ(line(g, (int)i), want[i], "series head");
	HAS(g, "We build a server.", "series intro");
	/* After the intro, the parts, in part order. */
	rest = strstr(g, "## Parts\n");
	OK(rest != NULL, "parts heading");
	if (rest != NULL)
		lines_eq(rest, tail, nitems(tail), "series parts");
	feed_parse(g, &f);
	STR_EQ(f.title, "Gemini from scratch", "series feed title");
	STR_EQ(f.subtitle, "Build a server", "series feed subtitle");
	INT_EQ(f.n, 3, "series: every part is an entry");
	for (i = 0; i < a->series[0]->nparts; i++) {
		char	 t[128];

		snprintf(t, sizeof(t), "Part %d: %s (%u min)",
		    a->series[0]->parts[i]->part,
		    a->series[0]->parts[i]->title,
		    a->series[0]->parts[i]->reading_min);
		OK(feed_has(&f, a->series[0]->parts[i], t), "part %zu", i);
	}
	check_gopher(&p, "series menu");
	free(g);
	page_free(&p);

	page_init(&p);
	nav_series(&p, a, a->series[1]);
	g = gmi(&p);
	lines_eq(g, loose, nitems(loose), "series without a file");
	check_gopher(&p, "loose menu");
	free(g);
	page_free(&p);

	page_init(&p);
	nav_series_index(&p, a);
	g = gmi(&p);
	lines_eq(g, index, nitems(index), "series index");
	feed_parse(g, &f);
	INT_EQ(f.n, 0, "series index: no entries");
	check_gopher(&p, "series index menu");
	free(g);
	page_free(&p);

	/* A series with no parts yet. */
	a->series[1]->nparts = 0;
	page_init(&p);
	nav_series(&p, a, a->series[1]);
	nav_series_index(&p, a);
	g = gmi(&p);
	HAS(g, "No parts published yet.", "empty series");
	HAS(g, "=> /series/loose-ends/ loose ends (no parts yet)",
	    "empty series in the index");
	for (n = 0; line(g, n) != NULL; n++)
		OK(strcmp(line(g, n), "## Parts") != 0, "no parts heading");
	free(g);
	page_free(&p);
	a->series[1]->nparts = 1;
}

static void
test_tags(struct archive *a)
{
	static const char *const want[] = {
		"# Alice's capsule: tags",
		"",
		"4 tags, most used first.",
		"",
		"=> /tags/c/ C (2 posts)",
		"=> /tags/emacs-lisp/ Emacs Lisp (1 post)",
		"=> /tags/gemini-dev/ gemini-dev (1 post)",
		"=> /tags/node.js-v2/ Node.js v2 (1 post)",
		"",
		"=> / Back to Alice's capsule",
	};
	static const char *const tag[] = {
		("# Posts tagged \xe2\x80\x9c" "C\xe2\x80\x9d"),
		"## Alice's capsule",
		"",
		"=> /posts/sigpipe 2024-05-02 Why my server died",
		"=> /posts/same-day 2024-05-02 Same day, second post",
		"",
		"=> /tags/c/atom.xml Atom feed of this tag",
		"=> /tags/ All tags",
		"=> / Back to Alice's capsule",
	};
	struct page	 p;
	struct feed	 f;
	char		*g;

	page_init(&p);
	nav_tags(&p, a);
	g = gmi(&p);
	lines_eq(g, want, nitems(want), "tags");
	check_gopher(&p, "tags menu");
	free(g);
	page_free(&p);

	page_init(&p);
	nav_tag(&p, a, a->tags[0]);
	g = gmi(&p);
	lines_eq(g, tag, nitems(tag), "tag");
	feed_parse(g, &f);
	STR_EQ(f.title, "Posts tagged \xe2\x80\x9c" "C\xe2\x80\x9d",
	    "tag feed title");
	INT_EQ(f.n, 2, "tag entries");
	OK(feed_has(&f, a->posts[0], a->posts[0]->title) &&
	    feed_has(&f, a->posts[1], a->posts[1]->title), "tag posts");
	check_gopher(&p, "tag menu");
	free(g);
	page_free(&p);

	page_init(&p);
	nav_tag(&p, a, a->tags[3]);
	g = gmi(&p);
	STR_EQ(line(g, 0), "# Posts tagged \xe2\x80\x9cNode.js v2\xe2\x80\x9d",
	    "tag with spaces and dots");
	HAS(g, "=> /tags/node.js-v2/atom.xml ", "slug as given");
	free(g);
	page_free(&p);
}

static void
test_home(struct archive *a)
{
	struct config	 c;
	struct page	 p;
	struct feed	 f;
	char		*g;
	size_t		 i;

	memset(&c, 0, sizeof(c));
	c.latest_posts = 2;
	page_init(&p);
	nav_home(&p, a, &c);
	g = gmi(&p);
	STR_EQ(line(g, 0), "# Alice's capsule", "home title");
	STR_EQ(line(g, 1), "## Notes about cats & C", "home subtitle");
	STR_EQ(line(g, 2), "", "home blank");
	HAS(g, "Welcome to the capsule.", "intro from index.md");
	OK(strstr(g, "title: x") == NULL, "front matter not shown");
	HAS(g, "## Start here\n=> /posts/same-day 2024-05-02 Same day, second "
	    "post\n\n", "featured");
	HAS(g, "## Latest posts\n"
	    "=> /posts/sigpipe 2024-05-02 Why my server died\n"
	    "=> /posts/same-day 2024-05-02 Same day, second post\n"
	    "=> /posts/ All 5 posts\n\n", "latest N");
	HAS(g, "## Series\n"
	    "=> /series/gem/ Gemini from scratch (3 parts, 14 min)\n"
	    "=> /series/loose-ends/ loose ends (1 part, 1 h 1 min)\n\n",
	    "series with parts and time");
	HAS(g, "## Tags\n=> /tags/c/ C (2)\n=> /tags/emacs-lisp/ Emacs Lisp "
	    "(1)\n", "tags, most used first");
	HAS(g, "=> /posts/ Archive", "archive link");
	HAS(g, "=> /tags/ Tags\n", "tags link");
	HAS(g, "=> /series/ Series\n", "series link");
	HAS(g, "=> /gemlog/ ", "gemlog link");
	HAS(g, "=> /atom.xml Atom feed\n", "atom link");
	HAS(g, "## Pages\n=> /about About me\n=> /now%20page now page\n",
	    "standalone pages");
	OK(g[strlen(g) - 1] == '\n' && strstr(g, "\n\n\n") == NULL,
	    "home blank lines");
	feed_parse(g, &f);
	STR_EQ(f.title, "Alice's capsule", "home feed title");
	for (i = 0; i < (size_t)f.n; i++)
		OK(strncmp(f.e[i].url, "/posts/", 7) == 0, "home entry %s",
		    f.e[i].url);
	check_gopher(&p, "home menu");
	free(g);
	page_free(&p);

	/* Without a subtitle the archive says its order once (item 9). */
	{
		char	*sub = a->subtitle;

		a->subtitle = NULL;
		page_init(&p);
		nav_posts(&p, a);
		g = gmi(&p);
		HAS(g, "5 posts, newest first.", "posts: the order");
		OK(strstr(strstr(g, "newest first") + 1, "newest first") ==
		    NULL, "posts: said once, not as a heading too:\n%s", g);
		free(g);
		page_free(&p);
		a->subtitle = sub;
	}

	/* No config: 10 latest, no "All" link with 5 posts. */
	page_init(&p);
	nav_home(&p, a, NULL);
	g = gmi(&p);
	HAS(g, "=> /posts/old 2022-03-03 * star title\n\n", "all 5 latest");
	OK(strstr(g, "All 5 posts") == NULL, "no all link");
	free(g);
	page_free(&p);
}

/*
 * The label a part gets on the series page: "Part N: " unless the
 * title itself says it is part N.
 */
static void
test_part_labels(struct archive *a)
{
	static const struct {
		const char	*title;
		const char	*label;
	} cases[] = {
		{ "Notes on Python 2", "Part 2: Notes on Python 2" },
		{ "release 0.2.1", "Part 2: release 0.2.1" },
		{ "2024 in review", "Part 2: 2024 in review" },
		{ "Part 2: the middle", "Part 2: the middle" },
		{ "The saga, part two", "Part 2: The saga, part two" },
		{ "The saga, Pt. 2", "The saga, Pt. 2" },
		{ "Chapter II", "Chapter II" },
		{ "Episode 02 - Keys", "Episode 02 - Keys" },
		{ "Notes #2", "Notes #2" },
		{ "TLS (2/5)", "TLS (2/5)" },
		{ "TLS, 2 of 5", "TLS, 2 of 5" },
		{ "2. Keys", "2. Keys" },
		{ "02 - Keys", "02 - Keys" },
		{ "2.5 Keys", "Part 2: 2.5 Keys" },
		{ "Part 3", "Part 2: Part 3" },
		{ "Apart 2", "Part 2: Apart 2" },
	};
	struct post	*p = a->series[0]->parts[1];	/* tofu, part 2 */
	struct page	 pg;
	char		*g, *was = p->title, want[160];
	size_t		 i;

	for (i = 0; i < nitems(cases); i++) {
		p->title = (char *)cases[i].title;
		page_init(&pg);
		nav_series(&pg, a, a->series[0]);
		g = gmi(&pg);
		snprintf(want, sizeof(want), "=> /posts/tofu 2024-01-10 %s "
		    "(7 min)\n", cases[i].label);
		HAS(g, want, cases[i].title);
		free(g);
		page_free(&pg);
	}
	p->title = was;

	/* A part without part: follows the one before it. */
	a->series[0]->parts[2]->part = 0;
	page_init(&pg);
	nav_series(&pg, a, a->series[0]);
	nav_post_header(&pg, a, a->series[0]->parts[2]);
	g = gmi(&pg);
	HAS(g, "2024-05-02 Part 3: Why my server died (4 min)", "unnumbered");
	HAS(g, "=> /series/gem/ Part 3 of 3 in Gemini from scratch",
	    "unnumbered header");
	free(g);
	page_free(&pg);
	a->series[0]->parts[2]->part = 5;
}

static void
test_post_parts(struct archive *a)
{
	static const char *const head[] = {
		"# Why my server died",
		("2024-05-02 \xc2\xb7 updated 2024-06-01 \xc2\xb7 4 min read "
		    "\xc2\xb7 by Bob"),
		"Tags: C, gemini-dev",
		"=> /series/gem/ Part 5 of 5 in Gemini from scratch",
		"",
	};
	static const char *const foot[] = {
		"=> /posts/tofu \xe2\x86\x90 Part 2: TOFU explained",
		"=> /series/gem/ All parts of Gemini from scratch",
		"",
		"=> /tags/c/ #C",
		"=> /tags/gemini-dev/ #gemini-dev",
		"",
		"=> /posts/ All posts",
		"=> / Back to Alice's capsule",
	};
	struct page	 p;
	struct buf	 out = BUF_INIT;
	char		*g;

	page_init(&p);
	nav_post_header(&p, a, a->posts[0]);
	g = gmi(&p);
	lines_eq(g, head, nitems(head), "header");
	free(g);
	page_free(&p);

	buf_addstr(&out, "Body text.\n");
	page_init(&p);
	nav_post_footer(&p, a, a->posts[0]);
	page_emit_gemtext(&p, &target, &out);
	STR_EQ(line(out.data, 0), "Body text.", "body");
	STR_EQ(line(out.data, 1), "", "footer blank");
	lines_eq(strchr(out.data, '\n') + 2, foot, nitems(foot), "footer");
	buf_free(&out);
	page_free(&p);

	/* First part: next only, no "updated", no author. */
	page_init(&p);
	nav_post_header(&p, a, a->posts[3]);
	nav_post_footer(&p, a, a->posts[3]);
	g = gmi(&p);
	STR_EQ(line(g, 0), "# # Not a heading", "title kept as heading");
	STR_EQ(line(g, 1), "2023-12-31 \xc2\xb7 3 min read", "plain meta");
	HAS(g, "=> /posts/tofu Part 2: TOFU explained \xe2\x86\x92\n",
	    "next part");
	OK(strstr(g, "\xe2\x86\x90") == NULL, "no previous part");
	free(g);
	page_free(&p);

	/* Same-day post in no series, two tags (case variant). */
	page_init(&p);
	nav_post_header(&p, a, a->posts[1]);
	nav_post_footer(&p, a, a->posts[1]);
	g = gmi(&p);
	OK(strstr(g, "Part ") == NULL, "no series lines");
	HAS(g, "=> /tags/c/ #c\n=> /tags/emacs-lisp/ #Emacs Lisp\n",
	    "tags as written");
	check_gopher(&p, "post parts menu");
	free(g);

	/* The Gopher post header/footer as text. */
	page_emit_text(&p, &target, &out);
	HAS(out.data, "Same day, second post\n=====================\n",
	    "text heading");
	HAS(out.data, "#c: gopher://localhost:7070/1/tags/c/\n", "text tag");
	HAS(out.data, "All posts: gopher://localhost:7070/1/posts/\n",
	    "text back link");
	buf_free(&out);
	page_free(&p);
}

static void
test_empty(void)
{
	struct archive	 a;
	struct series	 s;
	struct tag	 t;
	struct page	 p;
	struct feed	 f;
	char		*g;

	memset(&a, 0, sizeof(a));
	memset(&s, 0, sizeof(s));
	memset(&t, 0, sizeof(t));
	s.slug = "s";
	t.slug = "t";
	page_init(&p);
	nav_gemlog(&p, &a);
	g = gmi(&p);
	feed_parse(g, &f);
	STR_EQ(f.title, "Capsule", "fallback title");
	STR_EQ(f.subtitle, "Gemlog", "empty subtitle");
	INT_EQ(f.n, 0, "no entries");
	free(g);
	page_free(&p);
	/*
	 * No way from home to a page that would only say it is empty
	 * (issue 34, item 9); the feeds stay, to subscribe before the first
	 * post.
	 */
	page_init(&p);
	nav_home(&p, &a, NULL);
	g = gmi(&p);
	OK(strstr(g, "=> /series/") == NULL && strstr(g, "=> /tags/") == NULL
	    && strstr(g, "=> /posts/") == NULL && strstr(g, "=> /search") ==
	    NULL, "home: no link to an empty list");
	HAS(g, "=> /gemlog/ ", "home: the gemlog still");
	HAS(g, "=> /atom.xml Atom feed\n", "home: the feed still");
	free(g);
	page_free(&p);
	page_init(&p);
	nav_home(&p, &a, NULL);
	nav_posts(&p, &a);
	nav_series_index(&p, &a);
	nav_series(&p, &a, &s);
	nav_tags(&p, &a);
	nav_tag(&p, &a, &t);
	g = gmi(&p);
	HAS(g, "Nothing published yet.", "home: empty");
	HAS(g, "No posts yet.", "posts: empty");
	HAS(g, "No series yet.", "series: empty");
	HAS(g, "No tags yet.", "tags: empty");
	HAS(g, "# s\n", "series title falls back to slug");
	HAS(g, "Posts tagged \xe2\x80\x9ct\xe2\x80\x9d", "tag name fallback");
	OK(strstr(g, "## 20") == NULL, "no year headings");
	check_gopher(&p, "empty menus");
	free(g);
	page_free(&p);
}

static void
test_minutes(void)
{
	char	 m[32];

	nav_minutes(5, m);
	STR_EQ(m, "5 min", "minutes");
	nav_minutes(120, m);
	STR_EQ(m, "2 h", "hours");
	nav_minutes(125, m);
	STR_EQ(m, "2 h 5 min", "hours and minutes");
}

static const struct harness_test tests[] = {
	NAMED("gemlog"),
	NAMED("posts"),
	NAMED("series"),
	NAMED("tags"),
	NAMED("home"),
	NAMED("part_labels"),
	NAMED("post_parts"),
	NAMED("empty"),
	NAMED("minutes"),
};

int
main(int argc, char **argv)
{
	struct archive	*a;

	HARNESS_INIT(argc, argv, tests);

	a = fixture();
	RUN("gemlog", test_gemlog(a));
	RUN("posts", test_posts(a));
	RUN("series", test_series(a));
	RUN("tags", test_tags(a));
	RUN("home", test_home(a));
	RUN("part_labels", test_part_labels(a));
	RUN("post_parts", test_post_parts(a));
	fixture_free(a);
	RUN("empty", test_empty());
	RUN("minutes", test_minutes());
	return harness_done();
}
