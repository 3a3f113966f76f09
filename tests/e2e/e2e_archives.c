/*
 * e2e_archives.c -- archives as their writers' generators keep them,
 * served by the real server: a Zola-style tree (sections with an
 * _index.md, TOML front matter, dates only in `path`, `@/` links,
 * `aliases`, a page bundle, a file beside single-file posts, two posts
 * of one name in two years) and a gemlog date tree
 * (YYYY/MM/DD/slug/index.gmi, linking back to its old host under a
 * gemini:// link_aliases prefix).  Every post must be listed with the
 * date its old site showed; every link line of every post must answer
 * 20 on Gemini and every item of its Gopher menu must resolve; every old
 * address must open its own post, and the one two posts share and
 * nothing dates must open neither.
 */
#include "e2e.h"

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 capsule[512];

#define OLD	"https://old.example"

static const struct {
	const char	*file;		/* under posts/ */
	const char	*text;
	const char	*slug, *title, *date;	/* NULL slug: no post */
} posts[] = {
	{ "blog/_index.md", "+++\ntitle = \"The Blog\"\nsort_by = \"date\"\n"
	    "+++\nThe section's own page.\n", NULL, NULL, NULL },
	{ "blog/rust-1.94.1.md", "+++\ntitle = \"Rust 1.94.1\"\n"
	    "path = \"2026/03/26/1.94.1-release\"\n"
	    "aliases = [\"/releases/1.94.1/\", \"" OLD "/r/194\"]\n"
	    "[taxonomies]\ntags = [\"release\"]\n+++\n"
	    "Read [the inside post](@/blog/inside/ir.md) and "
	    "[the bundle](@/blog/bundle/index.md).\n",
	  "rust-1-94-1", "Rust 1.94.1", "2026-03-26" },
	{ "blog/inside/_index.md", "+++\ntitle = \"Inside\"\n+++\n",
	  NULL, NULL, NULL },
	{ "blog/inside/ir.md", "+++\ntitle = \"Inside post\"\n"
	    "path = \"inside-rust/2025/01/05/ir-post\"\n+++\n"
	    "Back to [the release](@/blog/rust-1.94.1.md), "
	    "[the section](@/blog/_index.md).\n",
	  "ir", "Inside post", "2025-01-05" },
	{ "blog/bundle/index.md", "+++\ntitle = \"A bundle\"\n"
	    "path = \"2024/06/01/bundle-post\"\n+++\n![the picture](pic.png)\n",
	  "bundle", "A bundle", "2024-06-01" },
	{ "blog/2021/january-update.md", "+++\ntitle = \"January 2021\"\n"
	    "path = \"blog/2021/01/12/january-update\"\n+++\nOld news.\n",
	  "january-update", "January 2021", "2021-01-12" },
	{ "blog/2022/january-update.md", "+++\ntitle = \"January 2022\"\n"
	    "path = \"blog/2022/01/10/january-update\"\n+++\nNews.\n",
	  "january-update-2022-01-10", "January 2022", "2022-01-10" },
	{ "blog/links.md", "+++\ntitle = \"Old links\"\n"
	    "path = \"2024/07/01/links\"\n+++\n"
	    "[a](" OLD "/blog/2022/01/10/january-update/)\n\n"
	    "[b](" OLD "/2021/01/january-update.html)\n\n"
	    "[c](" OLD "/january-update/)\n\n"
	    "[d](/releases/1.94.1/)\n\n"
	    "[e](/2026/03/26/1.94.1-release/)\n\n"
	    "[f](" OLD "/r/194)\n\n"
	    "[g](img/a.png)\n\n"
	    "[h](missing.md) is gone.\n\n"
	    "[i](/#calendar)\n\n"
	    "[j](//old.example/inside-rust/2025/01/05/ir-post/)\n",
	  "links", "Old links", "2024-07-01" },
	{ "2020/01/02/hello/index.gmi", "# Hello gemlog\n\nThe first.\n"
	    "=> gemini://blog.example/2020/01/03/second/ The next one\n"
	    "=> pic.png A picture\n",
	  "hello", "Hello gemlog", "2020-01-02" },
	{ "2020/01/03/second/index.gmi", "# Second\n\n"
	    "=> gemini://blog.example/2020/01/02/hello/ Back to the first\n"
	    "=> gemini://blog.example/2020/02/third.gmi The third\n",
	  "second", "Second", "2020-01-03" },
	{ "2020/02/third.gmi", "# Third\n\nA month folder: the first.\n"
	    "=> /posts/hello The first\n",
	  "third", "Third", "2020-02-01" },
};

/* What the old addresses of "links" must become, as link lines. */
static const char *const old_links[] = {
	"=> /posts/january-update-2022-01-10 a\n",
	"=> /posts/january-update b\n",
	"=> " OLD "/january-update/ c\n",	/* two posts, no date */
	"=> /posts/rust-1-94-1 d\n",
	"=> /posts/rust-1-94-1 e\n",
	"=> /posts/rust-1-94-1 f\n",
	"=> /posts/links/img/a.png g\n",
	"=> " OLD "/#calendar i\n",
	"=> /posts/ir j\n",
};

static int
has(const char *hay, const char *needle)
{
	return hay != NULL && strstr(hay, needle) != NULL;
}

static void
make_capsule(const char *top)
{
	static const char *const dirs[] = { "posts", "posts/blog",
	    "posts/blog/inside", "posts/blog/bundle", "posts/blog/2021",
	    "posts/blog/2022", "posts/blog/img", "posts/blog/drafty", "posts/2020",
	    "posts/2020/01", "posts/2020/01/02", "posts/2020/01/02/hello",
	    "posts/2020/01/03", "posts/2020/01/03/second", "posts/2020/02" };
	char	 rel[256];
	size_t	 i;

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	for (i = 0; i < nitems(dirs); i++)
		test_mkdir(capsule, dirs[i]);
	test_put(capsule, "index.md", "---\ntitle: Archives\n---\nOld.\n");
	test_put(capsule, "posts/blog/bundle/pic.png", "PNG-BUNDLE");
	test_put(capsule, "posts/blog/img/a.png", "PNG-BESIDE");
	test_put(capsule, "posts/blog/drafty/index.md", "+++\ndraft = true\n"
	    "date = 2024-01-01\n+++\nNot yet.\n");
	test_put(capsule, "posts/blog/drafty/pic.png", "PNG-DRAFT");
	test_put(capsule, "posts/2020/01/02/hello/pic.png", "PNG-GEMLOG");
	for (i = 0; i < nitems(posts); i++) {
		snprintf(rel, sizeof(rel), "posts/%s", posts[i].file);
		test_put(capsule, rel, posts[i].text);
	}
}

/* Every post in the list with its date, and no section page. */
static void
test_listed(void)
{
	struct reply	 r;
	struct buf	 g;
	char		 line[256];
	size_t		 i;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/");
	OK(r.status == 20, "the archive answers");
	for (i = 0; i < nitems(posts); i++) {
		if (posts[i].slug == NULL)
			continue;
		snprintf(line, sizeof(line), "=> /posts/%s %s %s\n",
		    posts[i].slug, posts[i].date, posts[i].title);
		OK(has(r.body.data, line), "listed: %s", line);
	}
	OK(!has(r.body.data, "The Blog") && !has(r.body.data, "Inside\n"),
	    "no section page is a post");
	reply_free(&r);
	e2e_gopher_get(srv.gopher_port, &g, "/posts/");
	for (i = 0; i < nitems(posts); i++)
		if (posts[i].slug != NULL) {
			snprintf(line, sizeof(line), "1%s %s\t/posts/%s/\t",
			    posts[i].date, posts[i].title, posts[i].slug);
			OK(has(g.data, line), "gopher lists %s", posts[i].slug);
		}
	buf_free(&g);
}

static void
test_crawl(void)
{
	struct reply	 r;
	struct buf	 g;
	char		 path[256], line[256];
	size_t		 i;

	for (i = 0; i < nitems(posts); i++) {
		if (posts[i].slug == NULL)
			continue;
		snprintf(path, sizeof(path), "/posts/%s", posts[i].slug);
		r = e2e_gemini_get(srv.gemini_port, ctx, "%s", path);
		snprintf(line, sizeof(line), "# %s\n%s ·", posts[i].title,
		    posts[i].date);
		OK(r.status == 20 && has(r.body.data, line),
		    "gemini %s: title and date", path);
		e2e_crawl_gemini(srv.gemini_port, ctx, posts[i].slug,
		    r.body.data);
		reply_free(&r);
		snprintf(path, sizeof(path), "/posts/%s/", posts[i].slug);
		e2e_gopher_get(srv.gopher_port, &g, "%s", path);
		OK(has(g.data, posts[i].date), "gopher %s: the date", path);
		e2e_crawl_gopher(srv.gopher_port, posts[i].slug, g.data);
		buf_free(&g);
	}
}

static void
test_old_addresses(void)
{
	struct reply	 r;
	size_t		 i;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/links");
	for (i = 0; i < nitems(old_links); i++)
		OK(has(r.body.data, old_links[i]), "old address: %s",
		    old_links[i]);
	OK(has(r.body.data, "missing.md") ? !has(r.body.data,
	    "=> missing.md") : 1, "a source that is not here is text");
	OK(!has(r.body.data, "=> /posts/january-update c") &&
	    !has(r.body.data, "=> /posts/january-update-2022-01-10 c"),
	    "the shared name opens neither post");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/rust-1-94-1");
	OK(has(r.body.data, "=> /posts/ir the inside post") &&
	    has(r.body.data, "=> /posts/bundle the bundle"),
	    "@/ links name their posts");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/ir");
	OK(has(r.body.data, "=> /posts/rust-1-94-1 the release") &&
	    has(r.body.data, "=> /gemlog/ the section"),
	    "@/ links back, and to a section's page");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/hello");
	OK(has(r.body.data, "=> /posts/second The next one") &&
	    has(r.body.data, "=> /posts/hello/pic.png A picture"),
	    "the gemlog's old-host link and its picture");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/second");
	OK(has(r.body.data, "=> /posts/hello Back to the first") &&
	    has(r.body.data, "=> /posts/third The third"),
	    "old-host links by date path and by file");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/links/img/a.png");
	OK(r.status == 20 && has(r.body.data, "PNG-BESIDE"),
	    "a file beside a single-file post is served");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/links/links.md");
	OK(r.status == 51, "a post's source beside it is not: %d", r.status);
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/links/drafty/pic.png");
	OK(r.status == 51, "nor a (draft) bundle's folder: %d", r.status);
	reply_free(&r);
	OK(e2e_log_count(&srv, "_index.md: a section's page, not a post") ==
	    2, "both section pages named in the log");
	OK(e2e_log_count(&srv, "link to missing post " OLD
	    "/january-update/") == 1,
	    "the shared name is warned about");
}

static const struct harness_test tests[] = {
	NAMED("listed"),
	NAMED("crawl"),
	NAMED("old-addresses"),
};

int
main(int argc, char **argv)
{
	char	 top[64], cmd[128];

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	snprintf(top, sizeof(top), "/tmp/capsuled-archives.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_capsule(top);
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, "rate_limit: off\n"
	    "web_url: " OLD "\n"
	    "link_aliases: [\"" OLD "/\", \"gemini://blog.example/\"]\n")
	    == -1) {
		OK(0, "server start");
	} else {
		RUN("listed", test_listed());
		RUN("crawl", test_crawl());
		RUN("old-addresses", test_old_addresses());
		INT_EQ(e2e_stop(&srv), 0, "clean exit");
	}
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
