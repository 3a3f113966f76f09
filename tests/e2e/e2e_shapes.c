/*
 * e2e_shapes.c -- an archive mixing every shape a post may have (issue
 * 14): YAML and TOML front matter, single files and page bundles,
 * Markdown and gemtext.  The real server must serve every post on both
 * protocols with its title, date, tags and series part; list them in
 * the series (in part order), the tags, the gemlog and the Atom feed;
 * find a gemtext post's words by search; and serve each bundle's
 * picture beside its post, with the post's link pointing there.
 */
#include "e2e.h"

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 capsule[512];

static const struct {
	const char	*file;		/* under posts/ */
	const char	*text;
	const char	*slug, *title, *date, *tag, *part;
} shapes[] = {
	{ "2024-01-01-yaml-file.md", "---\ntitle: Yaml File\ntags: [alpha]\n"
	    "series: Mixed\npart: 1\n---\nA Markdown post.\n",
	  "yaml-file", "Yaml File", "2024-01-01", "alpha", "Part 1 of 5" },
	{ "2024-02-01-toml-file.md", "+++\ntitle = \"Toml File\"\n"
	    "date = 2024-02-02T10:00:00Z\nseries = \"Mixed\"\npart = 2\n"
	    "[taxonomies]\ntags = [\"beta\"]\n+++\nAnother.\n",
	  "toml-file", "Toml File", "2024-02-02", "beta", "Part 2 of 5" },
	{ "2024-03-01-gem-file.gmi", "---\ntags: [alpha]\nseries: Mixed\n"
	    "part: 3\n---\n# Gem File\n\nA walrus in gemtext.\n"
	    "=> 2024-01-01-yaml-file.md The first part\n",
	  "gem-file", "Gem File", "2024-03-01", "alpha", "Part 3 of 5" },
	{ "2024-04-01-toml-bundle/index.md", "+++\ntitle = \"Toml Bundle\"\n"
	    "tags = [\"beta\"]\nseries = \"Mixed\"\npart = 4\n+++\n"
	    "![the picture](pic.png)\n",
	  "toml-bundle", "Toml Bundle", "2024-04-01", "beta", "Part 4 of 5" },
	{ "2024-05-01-gem-bundle/index.gmi", "+++\ntags = [\"alpha\"]\n"
	    "series = \"Mixed\"\npart = 5\n+++\n# Gem Bundle\n"
	    "=> pic.png the picture\n",
	  "gem-bundle", "Gem Bundle", "2024-05-01", "alpha", "Part 5 of 5" },
};

static void
make_capsule(const char *top)
{
	char	 path[1024];

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	snprintf(path, sizeof(path), "%s/posts", capsule);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/posts/2024-04-01-toml-bundle",
	    capsule);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/posts/2024-05-01-gem-bundle",
	    capsule);
	mkdir(path, 0755);
	test_put(capsule, "index.md",
	    "---\ntitle: Shapes\n---\nEvery shape.\n");
	test_put(capsule, "posts/2024-04-01-toml-bundle/pic.png", "PNG-TOML");
	test_put(capsule, "posts/2024-05-01-gem-bundle/pic.png", "PNG-GEM");
}

static int
has(const char *hay, const char *needle)
{
	return hay != NULL && strstr(hay, needle) != NULL;
}

/* Each of the items in order in hay. */
static int
in_order(const char *hay, const char *const *items, size_t n)
{
	size_t	 i;

	for (i = 0; i < n && hay != NULL; i++)
		if ((hay = strstr(hay, items[i])) != NULL)
			hay += strlen(items[i]);
	return hay != NULL;
}

static void
test_posts(void)
{
	struct reply	 r;
	struct buf	 g;
	char		 path[256], line[256];
	size_t		 i;

	for (i = 0; i < nitems(shapes); i++) {
		snprintf(path, sizeof(path), "/posts/%s", shapes[i].slug);
		r = e2e_gemini_get(srv.gemini_port, ctx, "%s", path);
		snprintf(line, sizeof(line), "# %s\n%s ·", shapes[i].title,
		    shapes[i].date);
		OK(r.status == 20 && has(r.body.data, line),
		    "gemini %s: title and date", path);
		snprintf(line, sizeof(line), "Tags: %s\n", shapes[i].tag);
		OK(has(r.body.data, line), "gemini %s: tags", path);
		snprintf(line, sizeof(line), "=> /series/mixed/ %s in Mixed",
		    shapes[i].part);
		OK(has(r.body.data, line), "gemini %s: series part", path);
		reply_free(&r);

		e2e_gopher_get(srv.gopher_port, &g, "%s", path);
		snprintf(line, sizeof(line), "%s\r\n=", shapes[i].title);
		OK(has(g.data, line) && has(g.data, shapes[i].date),
		    "gopher %s: title and date", path);
		snprintf(line, sizeof(line), "Tags: %s", shapes[i].tag);
		OK(has(g.data, line), "gopher %s: tags", path);
		snprintf(line, sizeof(line), "%s in Mixed", shapes[i].part);
		OK(has(g.data, line), "gopher %s: series part", path);
		buf_free(&g);
	}
}

static void
test_lists(void)
{
	static const char *const parts[] = { "Yaml File", "Toml File",
	    "Gem File", "Toml Bundle", "Gem Bundle" };
	static const char *const newest[] = { "Gem Bundle", "Toml Bundle",
	    "Gem File", "Toml File", "Yaml File" };
	struct reply	 r;
	struct buf	 g;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/series/mixed/");
	OK(r.status == 20 && in_order(r.body.data, parts, nitems(parts)),
	    "the series lists all five in part order");
	reply_free(&r);
	e2e_gopher_get(srv.gopher_port, &g, "/series/mixed/");
	OK(in_order(g.data, parts, nitems(parts)), "so does its menu");
	buf_free(&g);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/");
	OK(r.status == 20 && in_order(r.body.data, newest, nitems(newest)),
	    "the archive lists all five, newest first");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/tags/alpha/");
	OK(r.status == 20 && has(r.body.data, "Yaml File") &&
	    has(r.body.data, "Gem File") && has(r.body.data, "Gem Bundle") &&
	    !has(r.body.data, "Toml File"), "the tag lists its three");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/atom.xml");
	OK(r.status == 20 && in_order(r.body.data, newest, nitems(newest)),
	    "the Atom feed has all five");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/search?walrus");
	OK(r.status == 20 && has(r.body.data, "/posts/gem-file"),
	    "search finds a gemtext post's words");
	reply_free(&r);
}

static void
test_files(void)
{
	struct reply	 r;
	struct buf	 g;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/gem-file");
	OK(has(r.body.data, "=> /posts/yaml-file The first part"),
	    "a gemtext link to a .md post is rewritten");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/toml-bundle");
	OK(has(r.body.data, "=> /posts/toml-bundle/pic.png the picture"),
	    "a Markdown bundle's image points at its file");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/gem-bundle");
	OK(has(r.body.data, "=> /posts/gem-bundle/pic.png the picture"),
	    "a gemtext bundle's link points at its file");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/toml-bundle/pic.png");
	OK(r.status == 20 && strcmp(r.header, "20 image/png") == 0 &&
	    has(r.body.data, "PNG-TOML"), "the picture, as image/png");
	reply_free(&r);
	e2e_gopher_get(srv.gopher_port, &g, "/posts/gem-bundle/pic.png");
	OK(has(g.data, "PNG-GEM"), "the picture over Gopher");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/posts/gem-bundle");
	OK(has(g.data, "/I/posts/gem-bundle/pic.png"),
	    "its Gopher reference is an image item");
	buf_free(&g);
}

static const struct harness_test tests[] = {
	NAMED("posts"),
	NAMED("lists"),
	NAMED("files"),
};

int
main(int argc, char **argv)
{
	char	 top[64], cmd[128];
	size_t	 i;

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	snprintf(top, sizeof(top), "/tmp/capsuled-shapes.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_capsule(top);
	for (i = 0; i < nitems(shapes); i++) {
		char rel[256];

		snprintf(rel, sizeof(rel), "posts/%s", shapes[i].file);
		test_put(capsule, rel, shapes[i].text);
	}
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, "rate_limit: off\n") == -1) {
		OK(0, "server start");
	} else {
		RUN("posts", test_posts());
		RUN("lists", test_lists());
		RUN("files", test_files());
		INT_EQ(e2e_stop(&srv), 0, "clean exit");
	}
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
