/*
 * e2e_generators.c -- archives as six more generators keep them, each
 * served by the real server from a capsule of its own: a Pelican tree
 * (header lines, Status: draft and hidden, Slug: and slugs from titles,
 * .markdown and .mdown posts, one-digit dates, old links by slug), a
 * Docusaurus blog (.mdx with imports, Tabs, an admonition, the truncate
 * comment, authors.yml, a bundle's image), a blogdown tree (index.html
 * beside index.Rmd, x.html beside x.Rmd, index.markdown beside
 * index.Rmarkdown, a page without front matter), an mkdocs-material
 * blog (dates as mappings, .authors.yml), a Jekyll tree (_posts with
 * .markdown, _drafts dated and not) and an Astro collection
 * (YYYY/slug/index.mdx).  Every post must be listed over both protocols
 * with its title and date, its page say its author, every link line of
 * it answer and every item of its Gopher menu resolve; drafts, sources
 * and JSX are nowhere.
 */
#include "e2e.h"

#define OLD	"https://old.example"

/* A post that must be served: its slug, title, date and author. */
struct want {
	const char	*slug, *title, *date, *author;	/* NULL: none */
};

struct shape {
	const char	*name;
	const char *const *files;	/* path, text, ...; NULL */
	const struct want *posts;	/* ends with a NULL slug */
	const char *const *nowhere;	/* words no page may hold; NULL */
	const char *const *gone;	/* paths that must answer 51; NULL */
	void		(*more)(void);	/* checks of its own, or NULL */
};

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 top[64];

static int
has(const char *hay, const char *needle)
{
	return hay != NULL && strstr(hay, needle) != NULL;
}

/* ---- the shapes ------------------------------------------------------ */

static const char *const pelican_files[] = {
	"posts/2020-11-4-this-week.md",
	"Title: This week: November 4\nDate: 2020-11-04 12:00\n"
	"Category: Weekly\nTags: small web, gemini\nAuthor: Ana Lima\n"
	"Summary: The first week.\n\n"
	"News. Next: [the week after](" OLD "/blog/2020/11/11/"
	"this-week-november-11/).\n",
	"posts/2020-11-11-this-week.md",
	"Title: This week: November 11\nDate: 2020-11-11 12:00\n"
	"Category: Weekly\n\n"
	"Back to [the first](/blog/2020/11/04/this-week-november-4/).\n",
	"posts/2020-11-18-this-week.markdown",
	"Title: This week: November 18\nSlug: eighteenth\n"
	"Category: Weekly\n\nMore.\n",
	"posts/2021-1-5-new-year.mdown", "Title: A new year\n\nHello 2021.\n",
	"posts/2020-12-01-note.md", "Note: this post has no header.\n\n"
	"It is prose.\n",
	"posts/2020-11-25-this-week.md",
	"Title: Unfinished thoughts\nStatus: draft\n\nSecret draft.\n",
	"posts/2020-11-26-hidden.md",
	"Title: Hidden away\nStatus: hidden\n\nSecret hidden.\n",
	NULL,
};

static const struct want pelican_posts[] = {
	{ "this-week-november-4", "This week: November 4", "2020-11-04",
	    "Ana Lima" },
	{ "this-week-november-11", "This week: November 11", "2020-11-11",
	    NULL },
	{ "eighteenth", "This week: November 18", "2020-11-18", NULL },
	{ "a-new-year", "A new year", "2021-01-05", NULL },
	{ "note", "note", "2020-12-01", NULL },
	{ NULL, NULL, NULL, NULL },
};

static const char *const pelican_nowhere[] = {
	"Unfinished thoughts", "Hidden away", "Title:", "Status:", NULL,
};

static const char *const pelican_gone[] = {
	"/posts/unfinished-thoughts", "/posts/hidden-away", NULL,
};

static void
pelican_more(void)
{
	struct reply	 r;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/this-week-november-4");
	OK(has(r.body.data, "=> /posts/this-week-november-11 the week after"),
	    "an old link by its title's slug");
	OK(has(r.body.data, "Tags: Weekly, small web, gemini"),
	    "tags split on commas, the category one of them");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx,
	    "/posts/this-week-november-11");
	OK(has(r.body.data, "=> /posts/this-week-november-4 the first"),
	    "a root-relative old link, back");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/note");
	OK(has(r.body.data, "Note: this post has no header."),
	    "\"Note:\" stays a paragraph");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/tags/weekly/");
	OK(r.status == 20 && has(r.body.data, "This week: November 18"),
	    "the category's page");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/atom.xml");
	OK(has(r.body.data, "<summary>The first week.</summary>"),
	    "Summary: in the feed");
	reply_free(&r);
}

static const char *const docusaurus_files[] = {
	"posts/authors.yml", "ana:\n  name: Ana Lima\n  title: Writer\n"
	"bo:\n  name: Bo Chen\n  url: https://bo.example\n",
	"posts/2021-08-26-welcome/index.mdx",
	"---\nslug: welcome\ntitle: Welcome\nauthors: [ana, bo]\n"
	"tags: [hello]\n---\n"
	"import Tabs from '@theme/Tabs';\nimport TabItem from "
	"'@theme/TabItem';\n\n"
	"The opening words, before the cut.\n\n{/* truncate */}\n\n"
	"After the cut.\n\n"
	"<Tabs>\n  <TabItem value=\"apple\" label=\"Apple\">\n\n"
	"    An apple a day.\n\n  </TabItem>\n"
	"  <TabItem value=\"pear\" label=\"Pear\">\n\n    A pear.\n\n"
	"  </TabItem>\n</Tabs>\n\n"
	"![The picture](./pic.png)\n\n"
	"See <Link to=\"/blog/first\">the first post</Link>.\n",
	"posts/2021-08-26-welcome/pic.png", "PNG-WELCOME",
	"posts/2021-08-01-first.md", "---\ntitle: First\nauthors: bo\n---\n"
	"The first.\n\n<!--truncate-->\n\nMore.\n",
	"posts/2021-09-01-notes.mdx",
	"---\ntitle: Notes\nauthors:\n  - name: Guest Writer\n"
	"    title: Guest\n---\n"
	"import Admonition from '@theme/Admonition';\n\n"
	"<Admonition type=\"tip\" title=\"Remember\">\n  Drink water.\n"
	"</Admonition>\n\n<Highlight color=\"#25c2a0\">Green</Highlight> "
	"text {props.x}.\n",
	"posts/2021-09-02-later.mdx", "---\ntitle: Not yet\ndraft: true\n---\n"
	"Drafted.\n",
	NULL,
};

static const struct want docusaurus_posts[] = {
	{ "welcome", "Welcome", "2021-08-26", "Ana Lima, Bo Chen" },
	{ "first", "First", "2021-08-01", "Bo Chen" },
	{ "notes", "Notes", "2021-09-01", "Guest Writer" },
	{ NULL, NULL, NULL, NULL },
};

static const char *const docusaurus_nowhere[] = {
	"Not yet", "import ", "<Tab", "TabItem", "Admonition", "Highlight",
	"truncate", "{", "props", NULL,
};

static const char *const docusaurus_gone[] = {
	"/posts/not-yet", "/posts/first/authors.yml", NULL,
};

static void
docusaurus_more(void)
{
	struct reply	 r;
	struct buf	 g;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/welcome");
	OK(has(r.body.data, "### Apple\n\nAn apple a day.") &&
	    has(r.body.data, "### Pear\n\nA pear."),
	    "tabs as labelled sections");
	OK(has(r.body.data, "=> /posts/welcome/pic.png The picture"),
	    "the bundle's image");
	OK(has(r.body.data, "=> /posts/first the first post"),
	    "a Link to the old address");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/welcome/pic.png");
	OK(r.status == 20 && has(r.body.data, "PNG-WELCOME"),
	    "the image served");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/notes");
	OK(has(r.body.data, "> Remember\n>\n> Drink water."),
	    "an admonition as a titled quote");
	OK(has(r.body.data, "Green text ."), "a component's children's text");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/atom.xml");
	OK(has(r.body.data, "<summary>The opening words, before the "
	    "cut.</summary>") && !has(r.body.data, "After the cut.</summary>"),
	    "the truncate comment ends the summary");
	OK(has(r.body.data, "<summary>The first.</summary>"),
	    "<!--truncate--> in Markdown");
	reply_free(&r);
	e2e_gopher_get(srv.gopher_port, &g, "/posts/welcome");
	OK(has(g.data, "An apple a day.") && !has(g.data, "TabItem"),
	    "gopher: the tabs' text");
	buf_free(&g);
}

static const char *const blogdown_files[] = {
	"posts/2020-05-01-stats/index.html",
	"---\ntitle: \"Stats, in R\"\nauthor: Ana Lima\ndate: "
	"'2020-05-01'\n---\n\n"
	"<div id=\"intro\" class=\"section level2\">\n<h2>Intro</h2>\n"
	"<p>Some <em>statistics</em>.</p>\n\n"
	"<pre class=\"r\"><code>x &lt;- 1:10\n\nmean(x)</code></pre>\n"
	"<pre><code>## [1] 5.5</code></pre>\n"
	"<p><img src=\"index_files/figure-html/plot-1.png\" width=\"672\" />"
	"</p>\n    <p>Indented, and not code.</p>\n</div>\n",
	"posts/2020-05-01-stats/index.Rmd", "---\ntitle: Stats\n---\n"
	"```{r}\nx <- 1:10\n```\nSECRET-RMD\n",
	"posts/2020-05-01-stats/index_files/figure-html/plot-1.png",
	"PNG-PLOT",
	"posts/2020-06-01-single.html", "+++\ntitle = \"Single file\"\n"
	"+++\n<p>One <a href=\"/post/2020-05-01-stats/\">file</a>.</p>\n",
	"posts/2020-06-01-single.Rmd", "SECRET-RMD-SINGLE\n",
	"posts/2020-07-01-rendered/index.markdown", "---\ntitle: Rendered\n"
	"---\nFrom R Markdown.\n",
	"posts/2020-07-01-rendered/index.Rmarkdown", "SECRET-RMARKDOWN\n",
	"posts/old-page.html", "<!doctype html>\n<title>Old</title>\n"
	"<p>An old page, no post.</p>\n",
	NULL,
};

static const struct want blogdown_posts[] = {
	{ "stats", "Stats, in R", "2020-05-01", "Ana Lima" },
	{ "single", "Single file", "2020-06-01", NULL },
	{ "rendered", "Rendered", "2020-07-01", NULL },
	{ NULL, NULL, NULL, NULL },
};

static const char *const blogdown_nowhere[] = {
	"SECRET-RMD", "SECRET-RMARKDOWN", "<div", "<p>", NULL,
};

static const char *const blogdown_gone[] = {
	"/posts/stats/index.Rmd", "/posts/stats/index.html",
	"/posts/single/2020-06-01-single.Rmd",
	"/posts/single/2020-06-01-single.html",
	"/posts/rendered/index.Rmarkdown", "/posts/old-page", NULL,
};

static void
blogdown_more(void)
{
	struct reply	 r;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/stats");
	OK(has(r.body.data, "## Intro\n\nSome statistics.\n") &&
	    has(r.body.data, "```\nx <- 1:10\n\nmean(x)\n```") &&
	    has(r.body.data, "Indented, and not code."),
	    "the HTML read for its meaning, every line");
	OK(has(r.body.data, "=> /posts/stats/index_files/figure-html/"
	    "plot-1.png"), "its figure");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx,
	    "/posts/stats/index_files/figure-html/plot-1.png");
	OK(r.status == 20 && has(r.body.data, "PNG-PLOT"), "served");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/single");
	OK(has(r.body.data, "=> /posts/stats file"), "an old link in HTML");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/single/old-page.html");
	OK(r.status == 20 && has(r.body.data, "An old page"),
	    "an HTML page without front matter: a file beside the posts");
	reply_free(&r);
}

static const char *const mkdocs_files[] = {
	".authors.yml", "authors:\n  squidfunk:\n    name: Martin Donath\n"
	"    description: Creator\n    avatar: https://x.example/a.png\n",
	"posts/2023-01-01-misdated.md", "---\ndate:\n  created: 2023-12-31\n"
	"  updated: 2024-01-10\nauthors:\n  - squidfunk\ncategories:\n"
	"  - News\n---\n# Dated by its mapping\n\nThe text.\n",
	"posts/plain.md", "---\ndate: 2024-02-02\n---\n# Plain\n\nx\n",
	"posts/wip.md", "---\ndate:\n  created: 2024-03-01\ndraft: true\n"
	"---\n# Work in progress\n\nx\n",
	NULL,
};

static const struct want mkdocs_posts[] = {
	{ "misdated", "Dated by its mapping", "2023-12-31", "Martin Donath" },
	{ "plain", "Plain", "2024-02-02", NULL },
	{ NULL, NULL, NULL, NULL },
};

static const char *const mkdocs_nowhere[] = {
	"Work in progress", "squidfunk", NULL,
};

static void
mkdocs_more(void)
{
	struct reply	 r;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/misdated");
	OK(has(r.body.data, "2023-12-31 · updated 2024-01-10"),
	    "created and updated");
	reply_free(&r);
}

static const char *const jekyll_files[] = {
	"posts/_posts/2019-01-01-one.markdown", "---\ntitle: One\n---\n"
	"The first.\n",
	"posts/_posts/2019-1-2-two.md", "---\ntitle: Two\n---\nThe second, "
	"after [one]({% post_url 2019-01-01-one %}).\n",
	"posts/_drafts/2019-03-01-dated-draft.md", "---\ntitle: Dated "
	"draft\n---\nDRAFT-DATED\n",
	"posts/_drafts/undated-draft.markdown", "---\ntitle: Undated "
	"draft\n---\nDRAFT-UNDATED\n",
	NULL,
};

static const struct want jekyll_posts[] = {
	{ "one", "One", "2019-01-01", NULL },
	{ "two", "Two", "2019-01-02", NULL },
	{ NULL, NULL, NULL, NULL },
};

static const char *const jekyll_nowhere[] = {
	"Dated draft", "Undated draft", "DRAFT-", NULL,
};

static const char *const jekyll_gone[] = {
	"/posts/dated-draft", "/posts/undated-draft", "/drafts/",
	"/drafts/dated-draft", NULL,
};

static void
jekyll_more(void)
{
	struct reply	 r;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/two");
	OK(has(r.body.data, "=> /posts/one one"), "post_url, one-digit date");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/search?draft");
	OK(r.status == 20 && !has(r.body.data, "DRAFT-") &&
	    !has(r.body.data, "Dated draft"), "no draft in search");
	reply_free(&r);
}

static const char *const astro_files[] = {
	"posts/2024/first-post/index.mdx", "---\ntitle: 'First post'\n"
	"description: 'Lorem ipsum'\npubDate: 'Jul 08 2022'\n"
	"heroImage: '../hero.jpg'\n---\n"
	"import Hero from '../../components/Hero.astro';\n\n<Hero />\n\n"
	"Text of the first.\n",
	"posts/2024/second-post/index.mdx", "---\ntitle: 'Second post'\n"
	"pubDate: 2024-07-15\n---\nSecond.\n",
	"posts/2025/third-post/index.mdx", "---\ntitle: 'Third post'\n"
	"pubDate: 2025-01-02\nupdatedDate: 2025-02-03\n---\nThird.\n",
	NULL,
};

static const struct want astro_posts[] = {
	{ "first-post", "First post", "2022-07-08", NULL },
	{ "second-post", "Second post", "2024-07-15", NULL },
	{ "third-post", "Third post", "2025-01-02", NULL },
	{ NULL, NULL, NULL, NULL },
};

static const char *const astro_nowhere[] = {
	"import", "<Hero", NULL,
};

static void
astro_more(void)
{
	struct reply	 r;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/third-post");
	OK(has(r.body.data, "2025-01-02 · updated 2025-02-03"), "updatedDate");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/atom.xml");
	OK(has(r.body.data, "<summary>Lorem ipsum</summary>"),
	    "description is the summary");
	reply_free(&r);
	OK(e2e_log_count(&srv, "no date") == 0, "every post dated");
}

static const struct shape shapes[] = {
	{ "pelican", pelican_files, pelican_posts, pelican_nowhere,
	    pelican_gone, pelican_more },
	{ "docusaurus", docusaurus_files, docusaurus_posts,
	    docusaurus_nowhere, docusaurus_gone, docusaurus_more },
	{ "blogdown", blogdown_files, blogdown_posts, blogdown_nowhere,
	    blogdown_gone, blogdown_more },
	{ "mkdocs", mkdocs_files, mkdocs_posts, mkdocs_nowhere, NULL,
	    mkdocs_more },
	{ "jekyll", jekyll_files, jekyll_posts, jekyll_nowhere, jekyll_gone,
	    jekyll_more },
	{ "astro", astro_files, astro_posts, astro_nowhere, NULL,
	    astro_more },
};

/* ---- what every shape must give -------------------------------------- */

/* Every post listed over both protocols with its date, and only they. */
static void
listed(const struct shape *sh)
{
	struct reply	 r;
	struct buf	 g;
	const struct want *w;
	const char	*p;
	char		 line[256];
	size_t		 n = 0, want = 0;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/");
	e2e_gopher_get(srv.gopher_port, &g, "/posts/");
	for (w = sh->posts; w->slug != NULL; w++, want++) {
		snprintf(line, sizeof(line), "=> /posts/%s %s %s\n", w->slug,
		    w->date, w->title);
		OK(has(r.body.data, line), "%s: listed: %s", sh->name, line);
		snprintf(line, sizeof(line), "1%s %s\t/posts/%s/\t", w->date,
		    w->title, w->slug);
		OK(has(g.data, line), "%s: gopher lists %s", sh->name,
		    w->slug);
	}
	for (p = r.body.data; p != NULL && (p = strstr(p, "=> /posts/")) !=
	    NULL; p++)
		n++;
	INT_EQ(n, want, "only its posts listed");
	reply_free(&r);
	buf_free(&g);
}

/* Each post: its title, date and author, its links, its Gopher menu. */
static void
crawled(const struct shape *sh)
{
	struct reply	 r;
	struct buf	 g;
	const struct want *w;
	char		 path[256], line[512];

	for (w = sh->posts; w->slug != NULL; w++) {
		snprintf(path, sizeof(path), "/posts/%s", w->slug);
		r = e2e_gemini_get(srv.gemini_port, ctx, "%s", path);
		snprintf(line, sizeof(line), "# %s\n%s ·", w->title, w->date);
		OK(r.status == 20 && has(r.body.data, line),
		    "%s %s: title and date", sh->name, path);
		if (w->author != NULL) {
			snprintf(line, sizeof(line), " · by %s\n", w->author);
			OK(has(r.body.data, line), "%s %s: by %s", sh->name,
			    path, w->author);
		}
		e2e_crawl_gemini(srv.gemini_port, ctx, w->slug, r.body.data);
		reply_free(&r);
		snprintf(path, sizeof(path), "/posts/%s/", w->slug);
		e2e_gopher_get(srv.gopher_port, &g, "%s", path);
		OK(has(g.data, w->date) && has(g.data, w->title),
		    "%s gopher %s: title and date", sh->name, path);
		e2e_crawl_gopher(srv.gopher_port, w->slug, g.data);
		buf_free(&g);
	}
}

/* What a shape must show nowhere, and paths that must not answer. */
static void
nowhere(const struct shape *sh)
{
	static const char *const pages[] = { "/", "/posts/", "/atom.xml",
	    "/tags/" };
	const struct want *w;
	struct reply	 r;
	struct buf	 g;
	const char *const *x;
	char		 path[256];
	size_t		 i;

	for (i = 0; i < nitems(pages); i++) {
		r = e2e_gemini_get(srv.gemini_port, ctx, "%s", pages[i]);
		e2e_gopher_get(srv.gopher_port, &g, "%s", pages[i]);
		for (x = sh->nowhere; x != NULL && *x != NULL; x++) {
			if (strcmp(*x, "{") == 0)
				continue;	/* Atom's XML may hold one */
			OK(!has(r.body.data, *x) && !has(g.data, *x),
			    "%s %s: no \"%s\"", sh->name, pages[i], *x);
		}
		reply_free(&r);
		buf_free(&g);
	}
	for (w = sh->posts; w->slug != NULL; w++) {
		snprintf(path, sizeof(path), "/posts/%s", w->slug);
		r = e2e_gemini_get(srv.gemini_port, ctx, "%s", path);
		e2e_gopher_get(srv.gopher_port, &g, "%s", path);
		for (x = sh->nowhere; x != NULL && *x != NULL; x++)
			OK(!has(r.body.data, *x) && !has(g.data, *x),
			    "%s %s: no \"%s\"", sh->name, path, *x);
		reply_free(&r);
		buf_free(&g);
	}
	for (x = sh->gone; x != NULL && *x != NULL; x++) {
		r = e2e_gemini_get(srv.gemini_port, ctx, "%s", *x);
		OK(r.status == 51, "%s %s: 51, got %d", sh->name, *x, r.status);
		reply_free(&r);
	}
}

static void
serve(const struct shape *sh)
{
	char	 dir[128];
	size_t	 i;

	snprintf(dir, sizeof(dir), "%s/%s", top, sh->name);
	test_put(dir, "index.md", "---\ntitle: Kept\n---\nHello.\n");
	for (i = 0; sh->files[i] != NULL; i += 2)
		test_put(dir, sh->files[i], sh->files[i + 1]);
	if (e2e_start(&srv, dir, "rate_limit: off\nweb_url: " OLD "\n"
	    "link_aliases: [\"" OLD "/\"]\n") == -1) {
		OK(0, "%s: server start", sh->name);
		return;
	}
	listed(sh);
	crawled(sh);
	nowhere(sh);
	if (sh->more != NULL)
		sh->more();
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
}

static void test_pelican(void) { serve(&shapes[0]); }
static void test_docusaurus(void) { serve(&shapes[1]); }
static void test_blogdown(void) { serve(&shapes[2]); }
static void test_mkdocs(void) { serve(&shapes[3]); }
static void test_jekyll(void) { serve(&shapes[4]); }
static void test_astro(void) { serve(&shapes[5]); }

static const struct harness_test tests[] = {
	TEST(test_pelican),
	TEST(test_docusaurus),
	TEST(test_blogdown),
	TEST(test_mkdocs),
	TEST(test_jekyll),
	TEST(test_astro),
};

int
main(int argc, char **argv)
{
	char	 cmd[128];

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	snprintf(top, sizeof(top), "/tmp/capsuled-generators.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	ctx = e2e_client_ctx(0);
	harness_run();
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
