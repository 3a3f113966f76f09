/*
 * test_archive.c -- archive.c over a capsule made in a temp directory:
 * dates, drafts, broken files, series order, tag grouping, slugs, unsafe
 * files, the links of its own capsule (links.c's other checks are
 * test_links.c's) and the reference count.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/log.h"
#include "files.h"
#include "harness.h"
#include "core/util.h"

static char	 top[64];	/* the temp dir; the capsule is top/capsule */
static char	 capsule[128];

/* The capsule's own files (the other trees name their directory). */
static void
put(const char *rel, const char *text)
{
	test_put(capsule, rel, text);
}

static void
mkdir_in(const char *rel)
{
	test_mkdir(capsule, rel);
}

static void
config_for(struct config *c, const char *dir)
{
	memset(c, 0, sizeof(*c));
	c->capsule_dir = (char *)dir;
	c->site_title = "Config title";
	c->lang = "en";
	c->hostname = "localhost";
}

static void
make_capsule(void)
{
	struct buf	 b = BUF_INIT;
	char		*p, *q;
	int		 i;

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	if (mkdir(capsule, 0755) == -1) {
		perror(capsule);
		exit(2);
	}
	mkdir_in("posts");
	mkdir_in("series");
	mkdir_in("pages");
	mkdir_in("posts/subdir");

	put("index.md", "---\ntitle: My Capsule\nsubtitle: Notes\n---\n"
	    "Welcome.\n");

	/* Dates: file-name prefix, front matter, both (front matter wins). */
	put("posts/2024-01-10-hello.md", "---\ntitle: Hello &amp; welcome\n"
	    "tags: [Gemini, Small Web, Café]\n---\nword word word\n");
	put("posts/2024-02-01-second.md", "---\ndate: 2024-02-03\n"
	    "tags: GEMINI, node.js, cafe, C++, C#\n---\n# Heading title\n\n"
	    "See [hello](2024-01-10-hello.md).\n");
	put("posts/no-prefix.md", "---\ntitle: No prefix\n"
	    "date: 2023-12-25 10:00:00 +0100\nslug: Custom Slug!\n---\n"
	    "Body.\n");
	put("posts/untitled.md", "---\ndate: 2023-06-01\n---\n"
	    "No heading here.\n");
	put("posts/2023-05-05-fenced.md", "```\n# not a heading\n```\n\n"
	    "# Real *heading*\n\ntext\n");
	put("posts/2023-05-06-setext.md", "Intro para.\n\nSetext\ntitle\n"
	    "=====\n\ntext\n");
	put("posts/nodate.md", "---\ntitle: Undated\n---\nx\n");
	put("posts/2024-03-01-draft.md", "---\ntitle: Draft\ndraft: true\n"
	    "---\nsecret\n");
	put("posts/2024-03-05-unpublished.md", "---\npublished: false\n---\n"
	    "secret\n");
	put("posts/2024-03-02-broken.md", "---\ntitle: ok\nx: [open\n---\n");
	put("posts/2024-03-06-soft.md", "---\ntitle: [not, a, string]\n"
	    "part: abc\n---\n# Soft\n");
	put("posts/2024-03-03-hello.md", "---\ntitle: Dup\n---\nx\n");
	/* Soft problems: the post stays (a warning says what was lost). */
	put("posts/2024-03-04-badlang.md", "---\ntitle: writing <em>and</em> "
	    "reading\nlang: en_GB\n---\nx\n");
	put("posts/.hidden.md", "---\ntitle: hidden\n---\n");
	put("posts/notes.txt", "not markdown\n");
	put("posts/subdir/2024-01-01-deep.md", "---\ntitle: deep\n---\n");

	/* A series with skipped part numbers, named in varying case. */
	put("posts/2024-04-01-s1.md", "---\ntitle: S1\nseries: Build a "
	    "Capsule\npart: 3\n---\none two\n");
	put("posts/2024-04-02-s2.md", "---\ntitle: S2\nseries: build a "
	    "capsule\npart: 1\n---\none\n");
	put("posts/2024-04-03-s3.md", "---\ntitle: S3\nseries: BUILD A "
	    "CAPSULE\n---\none\n");
	put("posts/2024-04-04-s4.md", "---\ntitle: S4\nseries: Build a "
	    "capsule\nseries_order: 7\n---\none\n");
	put("posts/2024-04-05-o1.md", "---\ntitle: O1\nseries: Other Tales\n"
	    "---\none\n");
	put("posts/2024-04-06-o2.md", "---\ntitle: O2\nseries: other tales\n"
	    "---\none\n");
	put("series/build-a-capsule.md", "---\ntitle: Building a Capsule\n"
	    "summary: From zero.\nlevel: beginner\naudience: writers\n---\n"
	    "The intro.\n");
	put("series/empty.md", "---\ntitle: Not Yet\n---\nSoon.\n");

	/* Long post: 450 words -> 2 minutes. */
	buf_addstr(&b, "---\ndate: 2022-01-01\n---\n");
	for (i = 0; i < 450; i++)
		buf_addstr(&b, i % 10 == 9 ? "word\n" : "word ");
	put("posts/long.md", b.data);
	buf_free(&b);

	/* Unsafe files: a symlink out of the capsule, a FIFO. */
	p = xasprintf("%s/outside.md", top);
	q = xasprintf("%s/posts/2024-05-01-link.md", capsule);
	put("../outside.md", "---\ntitle: Outside\n---\nsecret\n");
	if (symlink(p, q) == -1)
		perror(q);
	free(p);
	free(q);
	p = xasprintf("%s/posts/2024-05-02-fifo.md", capsule);
	if (mkfifo(p, 0644) == -1)
		perror(p);
	free(p);

	put("pages/about.md", "---\ntitle: About me\nlang: de\n---\nHi.\n");
	put("pages/now.md", "# What I do now\n\nThings.\n");
	put("pages/posts.md", "---\ntitle: Clash\n---\n");
	put("pages/secret.md", "---\ndraft: true\n---\n");
}

static void
test_load(struct archive *a)
{
	struct post	*p;
	size_t		 i;

	STR_EQ(a->title, "My Capsule", "site title from index.md");
	STR_EQ(a->subtitle, "Notes", "subtitle");
	STR_EQ(a->lang, "en", "lang from config");
	OK(a->index_src != NULL, "index kept");
	STR_EQ(a->index_src + a->index_body_off, "Welcome.\n", "index body");

	/*
	 * hello, second, no-prefix (custom-slug), untitled, long, s1-s4,
	 * o1, o2, fenced, setext, the second hello, badlang, soft, and
	 * deep (in a sub-folder of posts/) = 17.
	 * Skipped with a warning: nodate, broken (YAML that does not
	 * parse), link, fifo.  Drafts are silent.
	 */
	INT_EQ(a->nposts, 17, "posts loaded");
	for (i = 0; i < a->nposts; i++)
		OK(strcmp(a->posts[i]->slug, "draft") != 0 &&
		    strcmp(a->posts[i]->slug, "unpublished") != 0 &&
		    strcmp(a->posts[i]->slug, "link") != 0 &&
		    strcmp(a->posts[i]->slug, "fifo") != 0, "no %s",
		    a->posts[i]->slug);
	OK((p = archive_post(a, "deep")) != NULL &&
	    strcmp(p->path, "posts/subdir/2024-01-01-deep.md") == 0 &&
	    strcmp(p->date.ymd, "2024-01-01") == 0, "a sub-folder's post");
	OK(archive_post(a, "draft") == NULL, "draft not served");
	OK(archive_post(a, "unpublished") == NULL, "published: false hidden");
	OK(archive_post(a, "nodate") == NULL, "undated post skipped");
	OK(archive_post(a, "broken") == NULL, "broken post skipped");
	OK(archive_post(a, "link") == NULL, "symlink skipped");
	OK(archive_post(a, "fifo") == NULL, "FIFO skipped");
	/* pages/posts.md (a reserved name) is the fifth skip. */
	INT_EQ(a->nskipped, 5, "skipped files");
	/*
	 * The Café/cafe slug clash, the second hello, the bad lang and
	 * the values of the wrong shape (each one a warning of its own)
	 * and series/empty.md, which no post names, are warnings, not
	 * skips.
	 */
	INT_EQ(a->nwarnings, 11, "warnings");

	/* Newest first. */
	STR_EQ(a->posts[0]->slug, "o2", "newest");
	for (i = 1; i < a->nposts; i++)
		OK(a->posts[i - 1]->date.t >= a->posts[i]->date.t,
		    "sorted at %zu", i);
	STR_EQ(a->posts[a->nposts - 1]->slug, "long", "oldest");

	p = archive_post(a, "hello");
	OK(p != NULL, "hello by slug");
	if (p == NULL)
		return;
	STR_EQ(p->path, "posts/2024-01-10-hello.md", "first hello wins");
	STR_EQ(p->title, "Hello & welcome", "entities decoded");
	STR_EQ(p->date.ymd, "2024-01-10", "date from file name");
	INT_EQ(p->date.t, p->updated.t, "updated defaults to date");
	INT_EQ(p->words, 3, "words");
	INT_EQ(p->reading_min, 1, "at least a minute");
	STR_EQ(p->src + p->body_off, "word word word\n", "body");
	INT_EQ(p->body_line, 5, "body line");

	/* Both hellos stay: the second told apart by its date. */
	p = archive_post(a, "hello-2024-03-03");
	OK(p != NULL && strcmp(p->path, "posts/2024-03-03-hello.md") == 0,
	    "second hello kept, by date");
	OK(archive_post_file(a, "2024-03-03-hello.md") == p,
	    "and found by its file");
	p = archive_post(a, "badlang");
	OK(p != NULL, "a post with a bad lang is kept");
	if (p != NULL) {
		OK(p->lang == NULL, "its lang dropped (the site's is used)");
		STR_EQ(p->title, "writing and reading", "HTML in the title");
	}

	p = archive_post(a, "soft");
	OK(p != NULL && strcmp(p->title, "Soft") == 0 && p->part == 0,
	    "values of the wrong shape ignored, the post kept");

	p = archive_post(a, "second");
	OK(p != NULL, "second");
	if (p != NULL) {
		STR_EQ(p->date.ymd, "2024-02-03", "front matter date wins");
		STR_EQ(p->title, "Heading title", "title from first heading");
	}
	p = archive_post(a, "custom-slug");
	OK(p != NULL, "slug from front matter, sanitised");
	if (p != NULL)
		INT_EQ(p->date.tzoff, 60, "space date form");
	p = archive_post(a, "untitled");
	OK(p != NULL && strcmp(p->title, "untitled") == 0,
	    "title from file name");
	p = archive_post(a, "fenced");
	OK(p != NULL && strcmp(p->title, "Real heading") == 0,
	    "heading after a code block: %s", p ? p->title : "NULL");
	p = archive_post(a, "setext");
	OK(p != NULL && strcmp(p->title, "Setext title") == 0,
	    "setext heading: %s", p ? p->title : "NULL");
	p = archive_post(a, "long");
	OK(p != NULL && p->words == 450 && p->reading_min == 2,
	    "reading time of 450 words");
}

static void
test_series(struct archive *a)
{
	struct series	*s;
	size_t		 i;

	INT_EQ(a->nseries, 3, "series");
	s = archive_series(a, "build-a-capsule");
	OK(s != NULL, "series by slug");
	if (s == NULL)
		return;
	STR_EQ(s->title, "Building a Capsule", "title from series file");
	STR_EQ(s->summary, "From zero.", "summary");
	STR_EQ(s->level, "beginner", "level");
	STR_EQ(s->audience, "writers", "audience");
	STR_EQ(s->src + s->body_off, "The intro.\n", "intro");
	INT_EQ(s->nparts, 4, "parts grouped ignoring case");
	if (s->nparts == 4) {
		STR_EQ(s->parts[0]->slug, "s2", "part 1");
		STR_EQ(s->parts[1]->slug, "s1", "part 3");
		STR_EQ(s->parts[2]->slug, "s4", "series_order 7");
		STR_EQ(s->parts[3]->slug, "s3", "no part: last");
		for (i = 0; i < 4; i++) {
			INT_EQ(s->parts[i]->series_pos, i + 1, "series_pos");
			OK(s->parts[i]->series == s, "post->series");
			OK(s->parts[i]->prev == (i ? s->parts[i - 1] : NULL),
			    "prev");
			OK(s->parts[i]->next == (i < 3 ? s->parts[i + 1] :
			    NULL), "next");
		}
	}
	INT_EQ(s->reading_min, 4, "reading time summed");

	s = archive_series(a, "other-tales");
	OK(s != NULL && strcmp(s->title, "Other Tales") == 0 &&
	    s->nparts == 2 && s->src == NULL,
	    "series without a file: named as first written");
	s = archive_series(a, "empty");
	OK(s != NULL && s->nparts == 0 && strcmp(s->title, "Not Yet") == 0,
	    "series file without posts");
	/* By title, ignoring case. */
	STR_EQ(a->series[0]->title, "Building a Capsule", "series order 1");
	STR_EQ(a->series[1]->title, "Not Yet", "series order 2");
	STR_EQ(a->series[2]->title, "Other Tales", "series order 3");
}

static void
test_tags(struct archive *a)
{
	struct tag	*t;
	struct post	*p;
	size_t		 i;

	t = archive_tag(a, "gemini");
	OK(t != NULL, "gemini tag");
	if (t != NULL) {
		STR_EQ(t->name, "Gemini", "display form of the oldest post");
		INT_EQ(t->nposts, 2, "grouped ignoring case");
		STR_EQ(t->posts[0]->slug, "second", "tag posts newest first");
	}
	OK(archive_tag(a, "small-web") != NULL, "tag with a space");
	OK(archive_tag(a, "node-js") != NULL, "tag with a dot");
	t = archive_tag(a, "c-plus-plus");
	OK(t != NULL && strcmp(t->name, "C++") == 0, "c++");
	OK(archive_tag(a, "c-sharp") != NULL, "c#");
	t = archive_tag(a, "cafe");
	OK(t != NULL && strcmp(t->name, "Café") == 0, "café keeps cafe");
	t = archive_tag(a, "cafe-2");
	OK(t != NULL && strcmp(t->name, "cafe") == 0, "clash gets -2");
	/* Most posts first, then by slug. */
	STR_EQ(a->tags[0]->slug, "gemini", "most used tag first");
	for (i = 1; i < a->ntags; i++)
		OK(a->tags[i - 1]->nposts > a->tags[i]->nposts ||
		    (a->tags[i - 1]->nposts == a->tags[i]->nposts &&
		    strcmp(a->tags[i - 1]->slug, a->tags[i]->slug) < 0),
		    "tag order at %zu", i);
	p = archive_post(a, "second");
	if (p != NULL && p->ntags == 5) {
		STR_EQ(p->tagnames[0], "GEMINI", "post keeps its own spelling");
		OK(p->tags[0] == archive_tag(a, "gemini"), "parallel arrays");
		OK(p->tags[2] == archive_tag(a, "cafe-2"), "parallel cafe");
	} else
		OK(0, "second has 5 tags");
}

static void
test_docs(struct archive *a)
{
	struct doc	*d;

	INT_EQ(a->ndocs, 2, "pages: about, now");
	d = archive_doc(a, "about");
	OK(d != NULL && strcmp(d->title, "About me") == 0 &&
	    strcmp(d->lang, "de") == 0 && strcmp(d->path, "pages/about.md")
	    == 0, "about page");
	d = archive_doc(a, "now");
	OK(d != NULL && strcmp(d->title, "What I do now") == 0,
	    "page title from heading");
	OK(archive_doc(a, "posts") == NULL, "reserved name skipped");
	OK(archive_doc(a, "secret") == NULL, "draft page hidden");
	if (a->ndocs == 2)
		STR_EQ(a->docs[0]->name, "about", "docs by name");
}

static void
link_is(struct archive *a, const char *from, const char *url,
    const char *want)
{
	char	*got;

	got = links_resolve(a, from, url);
	OK(want == NULL ? got == NULL : got != NULL && strcmp(got, want) == 0,
	    "%s from %s: got %s, want %s", url, from, got ? got : "NULL",
	    want ? want : "NULL");
	free(got);
}

static void
test_links(struct archive *a)
{
	const char	*h = "posts/2024-01-10-hello.md";

	link_is(a, h, "2024-02-01-second.md", "/posts/second");
	link_is(a, h, "second.md", "/posts/second");
	link_is(a, h, "./second.md#part-2", "/posts/second");
	link_is(a, h, "../posts/2024-02-01-second.md?x=1", "/posts/second");
	link_is(a, h, "/posts/no-prefix.md", "/posts/custom-slug");
	link_is(a, h, "custom-slug.md", "/posts/custom-slug");
	link_is(a, h, "2020-01-01-second.md", "/posts/second");
	link_is(a, h, "%32024-02-01-second.md", "/posts/second");
	link_is(a, h, "2024-02-01-%73econd.md", "/posts/second");
	link_is(a, h, "/posts/second", NULL);
	link_is(a, h, "gemini://example.org/second.md", NULL);
	/* "//host/x": the web page it came from was https. */
	link_is(a, h, "//example.org/posts/second.md",
	    "https://example.org/posts/second.md");
	link_is(a, h, "../pages/about.md", "/about");
	link_is(a, h, "../series/build-a-capsule.md",
	    "/series/build-a-capsule/");
	link_is(a, h, "../index.md", "/");
	/* A source that names nothing served: text, not a dead link. */
	link_is(a, h, "../../x.md", "");
	link_is(a, h, "../../posts/second.md", "");
	link_is(a, h, "missing.md", "");
	link_is(a, h, "2024-03-01-draft.md", "");
	link_is(a, h, "", NULL);
	link_is(a, h, "#top", "");		/* gemtext has no anchors */
	link_is(a, h, ".md", NULL);
	link_is(a, "pages/about.md", "../posts/second.md", "/posts/second");
	link_is(a, "pages/about.md", "now.md", "/now");
	link_is(a, "index.md", "posts/second.md", "/posts/second");
	link_is(a, "index.md", "second.md", "/posts/second");
	link_is(a, "pages/about.md", "2024-02-01-second.md", "/posts/second");
	link_is(a, "pages/about.md", "./now.md", "/now");
	link_is(a, "pages/about.md", "sub/second.md", "");
	link_is(a, "index.md", "about.md", "");
}

/* Ids are places in the arrays; the site layer keys its slots by them. */
static void
test_ids(struct archive *a)
{
	size_t	 i;

	for (i = 0; i < a->nposts; i++)
		INT_EQ(a->posts[i]->id, i, "post id");
	for (i = 0; i < a->ndrafts; i++)
		INT_EQ(a->drafts[i]->id, i, "draft id");
	for (i = 0; i < a->nseries; i++)
		INT_EQ(a->series[i]->id, i, "series id");
	for (i = 0; i < a->ntags; i++)
		INT_EQ(a->tags[i]->id, i, "tag id");
	for (i = 0; i < a->ndocs; i++)
		INT_EQ(a->docs[i]->id, i, "doc id");
}

static void
test_refs(struct archive *a)
{
	archive_ref(a);
	INT_EQ(atomic_load(&a->refs), 2, "two references");
	archive_unref(a);
	INT_EQ(atomic_load(&a->refs), 1, "one left");
	OK(archive_post(a, "hello") != NULL, "still usable");
	/* The last unref frees all: ASan checks leaks. */
}

static void
test_no_dir(void)
{
	struct config	 c;
	char		*dir;

	dir = xasprintf("%s/nonexistent", top);
	config_for(&c, dir);
	OK(archive_load(&c) == NULL, "missing capsule: NULL");
	free(dir);
}

/* An empty capsule: all from the config. */
static void
test_empty(void)
{
	struct config	 c;
	struct archive	*a;
	char		*dir;

	dir = xasprintf("%s/empty", top);
	mkdir(dir, 0755);
	config_for(&c, dir);
	c.site_subtitle = "Sub";
	c.author = "Me";
	a = archive_load(&c);
	OK(a != NULL, "empty capsule loads");
	if (a != NULL) {
		STR_EQ(a->title, "Config title", "title from config");
		STR_EQ(a->subtitle, "Sub", "subtitle from config");
		STR_EQ(a->author, "Me", "author from config");
		INT_EQ(a->nposts + a->nseries + a->ntags + a->ndocs, 0,
		    "nothing");
		OK(archive_post(a, "x") == NULL, "lookup in empty index");
		archive_unref(a);
	}
	free(dir);
}

/*
 * The site's name when the writer gave none: never the program's
 * ("capsuled", issue 34 item 6): index.md's front matter, "title:",
 * index.md's heading, the folder's name (the host for "/", which has
 * none).
 */
static void
test_default_title(void)
{
	static const struct {
		const char	*index;		/* index.md, or NULL */
		const char	*config;	/* "title:", or NULL */
		const char	*want;
	} cases[] = {
		{ "---\ntitle: Front\n---\n# Heading\n", "Set", "Front" },
		{ "# Heading\n", "Set", "Set" },
		{ "# Heading\n", NULL, "Heading" },
		{ "Just words.\n", NULL, "writing" },
		{ NULL, NULL, "writing" },
	};
	struct config	 c;
	struct archive	*a;
	char		*dir, *index;
	size_t		 i;

	dir = xasprintf("%s/writing", top);
	index = xasprintf("%s/index.md", dir);
	mkdir(dir, 0755);
	for (i = 0; i < nitems(cases); i++) {
		unlink(index);
		if (cases[i].index != NULL)
			test_put(dir, "index.md", cases[i].index);
		config_for(&c, dir);
		c.site_title = (char *)cases[i].config;
		if ((a = archive_load(&c)) == NULL) {
			OK(0, "case %zu loads", i);
			continue;
		}
		STR_EQ(a->title, cases[i].want, cases[i].want);
		archive_unref(a);
	}
	free(index);
	free(dir);
}

/*
 * An archive as a generator left it: template syntax in the body is
 * read when the file is (the snapshot keeps the rewritten body and
 * warns about what it removed), and a post without summary: gets its
 * first paragraph as one.
 */
static void
test_generated(void)
{
	struct config	 c;
	struct archive	*a;
	struct post	*p;
	char		*dir, *posts;
	const char	*body;
	unsigned	 w;

	dir = xasprintf("%s/generated", top);
	posts = xasprintf("%s/posts", dir);
	mkdir(dir, 0755);
	mkdir(posts, 0755);
	test_put(posts, "2024-01-01-tmpl.md", "---\ntitle: T\n---\n"
	    "Back [home]({{ \"/\" | url }}).\n\n"
	    "{{ \"ana\" | team_photo }}\n");
	test_put(posts, "2024-01-02-plain.md", "---\ntitle: P\n---\n"
	    "![logo](l.png)\n\nFirst *real* paragraph, with "
	    "[a link](https://x.org/) &amp; more.\n\nSecond.\n");
	test_put(posts, "2024-01-03-own.md", "---\ntitle: O\n"
	    "excerpt: Written by hand.\n---\nBody.\n");
	config_for(&c, dir);
	w = 0;
	a = archive_load(&c);
	OK(a != NULL, "generated capsule loads");
	if (a != NULL) {
		p = archive_post(a, "tmpl");
		OK(p != NULL, "tmpl post");
		if (p != NULL) {
			body = p->src + p->body_off;
			STR_EQ(body, "Back [home](/).\n\n\n",
			    "body rewritten once, at load");
			STR_EQ(p->summary, "Back home.", "summary from it");
		}
		w = a->nwarnings;
		INT_EQ(w, 1, "the removed construct is warned about");
		p = archive_post(a, "plain");
		if (p != NULL)
			STR_EQ(p->summary, "First real paragraph, with a link "
			    "& more.", "first paragraph with words");
		p = archive_post(a, "own");
		if (p != NULL)
			STR_EQ(p->summary, "Written by hand.", "own excerpt");
		archive_unref(a);
	}
	free(posts);
	free(dir);
}

static void
test_slugify(void)
{
	static const char *const cases[][2] = {
		{ "Small Web", "small-web" },
		{ "node.js", "node-js" },
		{ "  --Hello,  World!--  ", "hello-world" },
		{ "C++", "c-plus-plus" },
		{ "C#", "c-sharp" },
		{ "#gemini", "gemini" },
		{ "R&D", "r-and-d" },
		{ "Don't panic", "dont-panic" },
		{ "Don\xE2\x80\x99t", "dont" },
		{ "Café Crème", "cafe-creme" },
		{ "Straße", "strasse" },
		{ "Łódź", "lodz" },
		{ "Ærø", "aero" },
		{ "漢字", "u6f22-u5b57" },
		{ "a\xE2\x80\x94" "b", "a-b" },
		{ "\xff\xfe", "" },
		{ "!!!", "" },
		{ "2024", "2024" },
	};
	size_t	 i;
	char	*s;

	for (i = 0; i < nitems(cases); i++) {
		s = archive_slugify(cases[i][0]);
		STR_EQ(s, cases[i][1], cases[i][0]);
		free(s);
	}
}

/* Many posts load fast (10,000 in well under a second unsanitised). */
static void
test_many(void)
{
	struct config	 c;
	struct archive	*a;
	struct timespec	 t0, t1;
	struct buf	 b = BUF_INIT;
	char		*dir, *path;
	double		 ms;
	int		 i, fd;

	dir = xasprintf("%s/many", top);
	mkdir(dir, 0755);
	path = xasprintf("%s/posts", dir);
	mkdir(path, 0755);
	free(path);
	for (i = 0; i < 2000; i++) {
		buf_truncate(&b, 0);
		buf_printf(&b, "---\ntitle: Post %d\ndate: 2020-01-01T00:00:"
		    "00Z\ntags: [t%d, common]\nseries: s%d\npart: %d\n---\n",
		    i, i % 50, i % 20, i);
		while (b.len < 6000)
			buf_addstr(&b, "Lorem ipsum dolor sit amet. ");
		path = xasprintf("%s/posts/p%05d.md", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd == -1 || write(fd, b.data, b.len) != (ssize_t)b.len)
			perror(path);
		if (fd != -1)
			close(fd);
		free(path);
	}
	buf_free(&b);
	config_for(&c, dir);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	a = archive_load(&c);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	OK(a != NULL && a->nposts == 2000, "2000 posts");
	OK(ms < harness_time_bound(2.0) * 1000, "loaded in %.0f ms", ms);
	if (a != NULL) {
		INT_EQ(a->nseries, 20, "20 series");
		INT_EQ(a->ntags, 51, "51 tags");
		STR_EQ(a->tags[0]->slug, "common", "common first");
		INT_EQ(a->tags[0]->nposts, 2000, "common on all");
		STR_EQ(a->posts[0]->slug, "p00000", "same date: by slug");
		archive_unref(a);
	}
	free(dir);
}

/*
 * archive_reload(): unchanged files are shared with the previous
 * snapshot (the very same bytes), changed ones read again, fresh ones
 * (changed within the timestamp granularity) never trusted, and every
 * snapshot stays valid whatever order they are released in.
 */
static void
test_reload(void)
{
	struct config	 c;
	struct archive	*a1, *a2, *a3, *a4, *a5, *a6, *a7, *a8, *o;
	struct post	*p, *q;
	struct timespec	 ts = { 2, 200 * 1000000L };
	char		*dir, *other, *path;

	dir = xasprintf("%s/reload", top);
	mkdir(dir, 0755);
	path = xasprintf("%s/posts", dir);
	mkdir(path, 0755);
	free(path);
	path = xasprintf("%s/series", dir);
	mkdir(path, 0755);
	free(path);
	test_put(dir, "index.md", "---\ntitle: Site\n---\nHi.\n");
	test_put(dir, "posts/2024-01-01-a.md", "---\ntitle: A\ntags: [x]\n"
	    "series: S\n---\nAlpha.\n");
	test_put(dir, "posts/2024-01-02-b.md", "# Bee heading\n\nBeta.\n");
	test_put(dir, "posts/2024-01-03-c.md", "---\ntitle: C\ntags: [x, y]\n"
	    "series: S\n---\nGamma.\n");
	test_put(dir, "posts/broken.md", "---\ntitle: [oops\n---\n");
	test_put(dir, "series/s.md", "---\ntitle: The S\n---\nIntro.\n");
	config_for(&c, dir);

	a1 = archive_load(&c);
	OK(a1 != NULL, "load");
	INT_EQ(a1->nread, 6, "all read");
	INT_EQ(a1->nreused, 0, "nothing to reuse");
	a2 = archive_reload(&c, a1);
	INT_EQ(a2->nreused, 0, "files changed this instant are read again");
	INT_EQ(a2->nposts, 3, "same posts");
	nanosleep(&ts, NULL);		/* older than the racy window now */
	a3 = archive_reload(&c, a2);
	INT_EQ(a3->nread, 6, "a2 could not trust them: read again");
	a4 = archive_reload(&c, a3);
	INT_EQ(a4->nread, 0, "a4: nothing read");
	INT_EQ(a4->nreused, 6, "a4: all shared");
	INT_EQ(a4->nposts, 3, "a4: posts");
	INT_EQ(a4->nwarnings, a1->nwarnings, "a broken file warns every time");
	p = archive_post(a3, "b");
	q = archive_post(a4, "b");
	OK(p != NULL && q != NULL && p != q, "posts are per snapshot");
	OK(p != NULL && q != NULL && p->src == q->src, "bytes are shared");
	STR_EQ(q ? q->title : NULL, "Bee heading", "first heading kept");
	OK(q != NULL && q->series == NULL && archive_series(a4, "s") != NULL &&
	    archive_series(a4, "s")->nparts == 2, "series rebuilt");
	archive_unref(a1);
	archive_unref(a2);

	/* One post edited in place: only it is read. */
	test_put(dir, "posts/2024-01-03-c.md", "---\ntitle: C2\ntags: [z]\n"
	    "---\nGamma two.\n");
	a5 = archive_reload(&c, a4);
	INT_EQ(a5->nread, 1, "a5: one read");
	INT_EQ(a5->nreused, 5, "a5: the rest shared");
	p = archive_post(a5, "c");
	STR_EQ(p ? p->title : NULL, "C2", "edit seen");
	OK(archive_tag(a5, "y") == NULL && archive_tag(a5, "z") != NULL,
	    "tags follow the edit");
	OK(archive_series(a5, "s")->nparts == 1, "left the series");
	OK(archive_post(a5, "a")->src == archive_post(a4, "a")->src,
	    "unchanged post shared");
	archive_unref(a3);
	STR_EQ(archive_post(a4, "c")->title, "C", "a4 unchanged by a5");

	/* Deleted. */
	path = xasprintf("%s/posts/2024-01-01-a.md", dir);
	unlink(path);
	free(path);
	a6 = archive_reload(&c, a5);
	INT_EQ(a6->nposts, 2, "deleted post gone");
	/* c, edited a moment ago, is still too fresh to trust. */
	INT_EQ(a6->nread, 1, "nothing else read for a deletion");
	OK(archive_series(a6, "s") != NULL && archive_series(a6, "s")->nparts
	    == 0, "a series with a file and no parts");
	archive_unref(a5);
	archive_unref(a4);
	STR_EQ(archive_post(a6, "b")->src, "# Bee heading\n\nBeta.\n",
	    "bytes live as long as a snapshot holds them");

	/* Another capsule shares nothing, even with equal names. */
	other = xasprintf("%s/reload2", top);
	path = xasprintf("cp -r '%s' '%s'", dir, other);
	OK(system(path) == 0, "copy");
	free(path);
	config_for(&c, other);
	o = archive_reload(&c, a6);
	INT_EQ(o->nreused, 0, "other capsule: nothing shared");
	INT_EQ(o->nposts, 2, "other capsule: loaded");
	archive_unref(o);

	/*
	 * Emptied, as open(2) with O_TRUNC leaves a post before its writer
	 * writes: the version before stays; a new empty file waits.
	 */
	config_for(&c, dir);
	test_put(dir, "posts/2024-01-02-b.md", "");
	test_put(dir, "posts/2024-01-04-d.md", "");
	a7 = archive_reload(&c, a6);
	p = archive_post(a7, "b");
	STR_EQ(p != NULL ? p->src : NULL, "# Bee heading\n\nBeta.\n",
	    "an emptied post keeps its version before");
	OK(archive_post(a7, "d") == NULL, "a new empty file is left out");
	INT_EQ(a7->nheld, 2, "both counted as being written");
	test_put(dir, "posts/2024-01-02-b.md", "# Bee again\n");
	a8 = archive_reload(&c, a7);
	p = archive_post(a8, "b");
	STR_EQ(p != NULL ? p->title : NULL, "Bee again", "written: taken");
	archive_unref(a8);
	archive_unref(a7);
	archive_unref(a6);
	free(other);
	free(dir);
}

/*
 * Issue 18: what the front matter let pass is logged as file:line:col,
 * counted with the warnings, and the post is served.
 */
static void
test_fm_warnings(void)
{
	struct config	 c;
	struct archive	*a;
	struct post	*p;
	struct buf	 b = BUF_INIT;
	char		*dir, *logpath, *log;
	size_t		 len;
	int		 i;

	dir = xasprintf("%s/warned", top);
	logpath = xasprintf("%s/warned.log", top);
	test_mkdir(top, "warned");
	test_mkdir(dir, "posts");
	test_put(dir, "posts/2024-01-01-dup.md", "---\ntitle: One\n"
	    "date: 2024-01-01\ntitle: Two\n---\nBody.\n");
	buf_addstr(&b, "# ");
	for (i = 0; i < 1000; i++)
		buf_addstr(&b, "long ");
	buf_addstr(&b, "\n\nBody.\n");
	test_put(dir, "posts/2024-01-02-heading.md", b.data);
	config_for(&c, dir);
	log_open(logpath, LOG_LEVEL_WARN);
	a = archive_load(&c);
	log_open(NULL, LOG_LEVEL_WARN);
	OK(a != NULL, "loads");
	if (a == NULL)
		goto out;
	INT_EQ(a->nwarnings, 2, "two warnings");
	INT_EQ(a->nskipped, 0, "nothing skipped");
	p = archive_post(a, "dup");
	OK(p != NULL && strcmp(p->title, "Two") == 0, "the post is served");
	p = archive_post(a, "heading");
	OK(p != NULL && strlen(p->title) == 199, "a heading as the title is "
	    "cut too (%zu)", p ? strlen(p->title) : 0);
	log = util_read_file(logpath, 1 << 20, &len);
	HAS(log, "posts/2024-01-01-dup.md:4:1: duplicate key \"title\" "
	    "(first on line 2)", "file:line:col in the log");
	HAS(log, "posts/2024-01-02-heading.md:1:1: the first heading, as the "
	    "title: longer than 200 characters, cut", "the cut heading");
	free(log);
	archive_unref(a);
out:
	buf_free(&b);
	free(logpath);
	free(dir);
}

/*
 * The posts tree: dates from front matter addresses, names and folders
 * in their order; folders deeper than the limit left; a generator's
 * "@N" and a declared address as old addresses.
 */
static void
test_tree(void)
{
	static const char *const dirs[] = { "posts", "posts/a", "posts/a/b",
	    "posts/a/b/c", "posts/a/b/c/d", "posts/a/b/c/d/e",
	    "posts/a/b/c/d/e/f", "posts/a/b/c/d/e/f/g",
	    "posts/a/b/c/d/e/f/g/h", "posts/a/b/c/d/e/f/g/h/i",
	    "posts/2019", "posts/2019/07", "posts/2019/07/04",
	    "posts/blog" };
	struct config	 c;
	struct archive	*a;
	struct post	*p;
	char		*dir;
	size_t		 i;
	int		 amb;

	dir = xasprintf("%s/tree", top);
	mkdir(dir, 0755);
	for (i = 0; i < nitems(dirs); i++)
		test_mkdir(dir, dirs[i]);
	/* The front matter's date beats the path's, the path the name's. */
	test_put(dir, "posts/2019/07/04/2018-01-01-x.md", "---\ndate: "
	    "2017-05-05\npath: 2016/06/06/x\n---\nx\n");
	test_put(dir, "posts/2019/07/04/2018-01-02-y.md", "---\npath: "
	    "2016/06/07/y\n---\ny\n");
	test_put(dir, "posts/2019/07/04/2018-01-03-z.md", "z\n");
	test_put(dir, "posts/2019/07/04/w.md", "w\n");
	test_put(dir, "posts/2019/07/v.md", "v\n");
	test_put(dir, "posts/blog/u.md", "+++\nurl = \"/blog/2015/02/u/\"\n"
	    "+++\nu\n");
	test_put(dir, "posts/blog/t@2.md", "+++\ndate = 2014-01-01\n+++\nt\n");
	test_put(dir, "posts/a/b/c/d/e/f/g/h/2013-01-01-deep8.md", "d\n");
	test_put(dir, "posts/a/b/c/d/e/f/g/h/i/2013-01-01-deep9.md", "d\n");
	test_put(dir, "posts/blog/nodate.md", "---\nslug: v2026-3\n---\nx\n");
	config_for(&c, dir);
	a = archive_load(&c);
	OK(a != NULL, "the tree loads");
	if (a == NULL)
		goto done;
	OK((p = archive_post(a, "x")) && !strcmp(p->date.ymd, "2017-05-05"),
	    "front matter date first");
	OK((p = archive_post(a, "y")) && !strcmp(p->date.ymd, "2016-06-07"),
	    "then the path's");
	OK((p = archive_post(a, "z")) && !strcmp(p->date.ymd, "2018-01-03"),
	    "then the file name's");
	OK((p = archive_post(a, "w")) && !strcmp(p->date.ymd, "2019-07-04"),
	    "then the folders'");
	OK((p = archive_post(a, "v")) && !strcmp(p->date.ymd, "2019-07-01"),
	    "a month folder: its first day");
	OK((p = archive_post(a, "u")) && !strcmp(p->date.ymd, "2015-02-01"),
	    "a month in the url");
	OK(archive_post(a, "deep8") != NULL, "eight folders down: loaded");
	OK(archive_post(a, "deep9") == NULL, "nine: not loaded");
	OK(archive_post(a, "v2026-3") == NULL, "no date: skipped");
	OK((p = archive_post_address(a, "/blog/2015/02/u/", &amb)) != NULL &&
	    !strcmp(p->slug, "u"), "the declared url");
	OK((p = archive_post_address(a, "/2014/01/01/t/", &amb)) != NULL &&
	    !strcmp(p->slug, "t-2"), "a name without its @N, Jekyll's shape");
	OK((p = archive_post_address(a, "2016/06/06/x.html", &amb)) != NULL &&
	    !strcmp(p->slug, "x"), "the path, though the date is another");
	OK(archive_post_address(a, "/blog/2015/02/nothing/", &amb) == NULL &&
	    !amb, "nothing, and not for want of a date");
	archive_unref(a);
done:
	free(dir);
}

static const struct harness_test tests[] = {
	NAMED("tree"),
	NAMED("load"),
	NAMED("series"),
	NAMED("tags"),
	NAMED("docs"),
	NAMED("links"),
	NAMED("ids"),
	NAMED("refs"),
	NAMED("no_dir"),
	NAMED("empty"),
	NAMED("default_title"),
	NAMED("generated"),
	NAMED("slugify"),
	NAMED("many"),
	NAMED("reload"),
	NAMED("fm_warnings"),
};

int
main(int argc, char **argv)
{
	struct config	 c;
	struct archive	*a;

	HARNESS_INIT(argc, argv, tests);

	snprintf(top, sizeof(top), "/tmp/capsuled-archive-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	make_capsule();
	config_for(&c, capsule);
	a = archive_load(&c);
	OK(a != NULL, "archive_load");
	if (a != NULL) {
		RUN("load", test_load(a));
		RUN("series", test_series(a));
		RUN("tags", test_tags(a));
		RUN("docs", test_docs(a));
		RUN("links", test_links(a));
		RUN("ids", test_ids(a));
		RUN("refs", test_refs(a));
		archive_unref(a);
	}
	RUN("tree", test_tree());
	RUN("no_dir", test_no_dir());
	RUN("empty", test_empty());
	RUN("default_title", test_default_title());
	RUN("generated", test_generated());
	RUN("slugify", test_slugify());
	RUN("many", test_many());
	RUN("reload", test_reload());
	RUN("fm_warnings", test_fm_warnings());
	test_rm_tree(top);
	return harness_done();
}
