/*
 * e2e_generator_files.c -- archives kept where their generators keep their
 * files (issue 33, items 5 to 7), served by the real server over both
 * protocols: a Hexo tree (post asset folders, asset_img, asset_link,
 * post_link, post_url with a fragment, codeblock, an include with
 * parameters, a site's own figure tag, an unknown tag used twice, a JSX
 * prop), an mkdocs-material post linking ../assets/ beside posts/, a Hugo
 * gallery of files whose names a URL must escape, a geomyidae gopherhole
 * (index.gph menus in every shape, a .gph file linked, a gophermap and an
 * index.gph side by side, an index.gmi beside an index.gph) and gemtext
 * files of the static tree read over Gopher. Every page is crawled: every
 * local link line answers 20 over Gemini, every item of this server resolves
 * over Gopher.
 */
#include "e2e.h"

#include "core/url.h"

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 capsule[512];

/* A line of 5,136 characters, as one hand-written page had. */
static char	 longline[5200];

static const struct {
	const char	*file;		/* under the capsule */
	const char	*text;
} tree[] = {
	{ "index.md", "---\ntitle: Generators\n---\nKept as they keep it.\n" },
	{ "posts/_posts/2020-01-02-hexo-post.md",
	  "---\ntitle: A Hexo post\ndate: 2020-01-02\n---\n"
	  "{% asset_img cat.png A cat %}\n\n"
	  "{% asset_link paper.pdf The paper %}\n\n"
	  "See {% post_link 2020-01-03-second %} and "
	  "{% post_link 2020-01-03-second The second one %}.\n\n"
	  "[Setup]({% post_url 2020-01-03-second %}#setup)\n\n"
	  "{% codeblock Deploy lang:sh %}\nmake deploy\n{% endcodeblock %}\n\n"
	  "{% include person.html name=\"Ada Lovelace\" role=\"Engineer\" %}\n"
	  "\n{% cloudimg /assets/logo.png \"The logo\" %}\n\n"
	  "{% note info %}A note{% endnote %}\n\n"
	  "{% note warn %}Another{% endnote %}\n\n"
	  "<div style={{color: \"red\"}}>Styled</div>\n" },
	{ "posts/_posts/2020-01-02-hexo-post/cat.png", "PNG-CAT" },
	{ "posts/_posts/2020-01-02-hexo-post/paper.pdf", "PDF-PAPER" },
	{ "posts/_posts/2020-01-03-second.md",
	  "---\ntitle: Second\ndate: 2020-01-03\n---\n## Setup\n\nText.\n" },
	{ "posts/2023/2023-05-01-mk.md",
	  "---\ntitle: Mkdocs post\ndate: 2023-05-01\n---\n"
	  "![Chart](../../assets/img/chart.png) and [home](../../), "
	  "[the Hexo post](../_posts/2020-01-02-hexo-post.md).\n" },
	{ "assets/img/chart.png", "PNG-CHART" },
	{ "assets/img/secret.png", "PNG-UNLINKED" },
	{ "assets/logo.png", "PNG-LOGO" },
	{ "layouts/base.html", "<html>a template</html>" },
	{ "posts/2024-01-01-gallery/index.md",
	  "---\ntitle: Gallery\n---\n{{< gallery match=\"imgs/*\" >}}\n" },
	{ "posts/2024-01-01-gallery/imgs/image (1).jpeg", "JPEG-1" },
	{ "posts/2024-01-01-gallery/imgs/a#b.png", "PNG-HASH" },
	{ "posts/2024-01-01-gallery/imgs/50%.png", "PNG-PERCENT" },
	{ "files/index.gph",
	  "Welcome to the hole\n"
	  "[1|Phlog|/phlog/|server|port]\n"
	  "[1|Notes (relative)|notes/|server|port]\n"
	  "[0|A text|phlog/2020-02-26-a-title.txt|server|port]\n"
	  "[h|Web|URL:https://example.org/|server|port]\n"
	  "[1|Elsewhere|/|sdf.org|70]\n"
	  "t[bracketed text]\n"
	  "[0|Pipe \\| in name|phlog/2020-02-26-a-title.txt|server|port]\n"
	  "[1|Both|both/|server|port]\n"
	  "[1|Plain|plain/|server|port]\n"
	  "[1|The gemlog|/gemlog/|server|port]\n" },
	{ "files/phlog/index.gph",
	  "[0|2020-02-26 A title|2020-02-26-a-title.txt|server|port]\n"
	  "[1|Older|older.gph|server|port]\n"
	  "[1|Home|..|server|port]\n" },
	{ "files/phlog/older.gph", "Older posts\n[1|Back|./|server|port]\n" },
	{ "files/phlog/2020-02-26-a-title.txt", "A title\n\nThe text.\n" },
	{ "files/both/gophermap", "From the gophermap\n" },
	{ "files/both/index.gph", "From the gph\n" },
	{ "files/notes/index.gmi", "# Notes\n=> long.gmi Long\n" },
	{ "files/notes/index.gph", "[0|Long (gph)|long.gmi|server|port]\n" },
	{ "files/notes/other.gmi", "# Other\n=> long.gmi Back\n" },
	{ "files/plain/a.gmi", "# A\n" },
	{ "files/plain/m.gph", "[1|Up|..|server|port]\n" },
};

static int
has(const char *hay, const char *needle)
{
	return hay != NULL && strstr(hay, needle) != NULL;
}

static void
make_capsule(const char *top)
{
	static const char *const dirs[] = { "", "/posts", "/posts/_posts",
	    "/posts/_posts/2020-01-02-hexo-post", "/posts/2023", "/assets",
	    "/assets/img", "/layouts", "/posts/2024-01-01-gallery",
	    "/posts/2024-01-01-gallery/imgs", "/files", "/files/phlog",
	    "/files/both", "/files/notes", "/files/plain" };
	struct buf	 b = BUF_INIT;
	char		 path[1024];
	size_t		 i;

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	for (i = 0; i < nitems(dirs); i++) {
		snprintf(path, sizeof(path), "%s%s", capsule, dirs[i]);
		mkdir(path, 0755);
	}
	for (i = 0; i < nitems(tree); i++)
		test_put(capsule, tree[i].file, tree[i].text);
	for (i = 0; i + 8 < 5136; i += 8)
		memcpy(longline + i, "lorem i ", 8);
	longline[i] = '\0';
	buf_printf(&b, "# Long\n\n%s\n=> other.gmi Other\n=> ../phlog/ The "
	    "phlog\n", longline);
	buf_addc(&b, '\0');
	test_put(capsule, "files/notes/long.gmi", b.data);
	buf_free(&b);
}

/*
 * Every "=> /local" line of the pages reached from start, breadth
 * first (at most 200 pages): each answers 20; how many links.
 */
static int
crawl_gemini(const char *start, int *bad)
{
	struct reply	 r;
	char		*queue[200], *body, *line, *sp, *save;
	size_t		 head = 0, tail = 0, i;
	int		 n = 0, seen;

	queue[tail++] = xstrdup(start);
	while (head < tail) {
		r = e2e_gemini_get(srv.gemini_port, ctx, "%s", queue[head]);
		/* 10: the search asks for its query. */
		OK(r.status == 20 || r.status == 31 || r.status == 10,
		    "gemini %s answers %d", queue[head], r.status);
		*bad += r.status != 20 && r.status != 31 && r.status != 10;
		if (r.status != 20 || strncmp(r.header + 3, "text/gemini",
		    11) != 0 || r.body.data == NULL) {
			reply_free(&r);
			head++;
			continue;
		}
		body = xstrdup(r.body.data);
		save = NULL;
		for (line = strtok_r(body, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "=> /", 4) != 0)
				continue;
			if ((sp = strchr(line + 3, ' ')) != NULL)
				*sp = '\0';
			n++;
			for (seen = 0, i = 0; i < tail && !seen; i++)
				seen = strcmp(queue[i], line + 3) == 0;
			if (!seen && tail < nitems(queue))
				queue[tail++] = xstrdup(line + 3);
		}
		free(body);
		reply_free(&r);
		head++;
	}
	for (i = 0; i < tail; i++)
		free(queue[i]);
	return n;
}

/*
 * Every item of this server in the menus reached from start, breadth
 * first (at most 200 selectors): none is an error, none has a dot
 * segment, each answers something; how many items.
 */
static int
crawl_gopher(const char *start, int *bad)
{
	struct buf	 g;
	char		*queue[200], *menu, *line, *save, *f[4], *p;
	char		 types[200];
	size_t		 head = 0, tail = 0, i;
	int		 n = 0, k, seen;

	types[tail] = '1';
	queue[tail++] = xstrdup(start);
	while (head < tail) {
		e2e_gopher_get(srv.gopher_port, &g, "%s", queue[head]);
		k = g.data == NULL || g.len == 0 || g.data[0] == '3';
		OK(!k, "gopher %s resolves", queue[head]);
		*bad += k;
		if (types[head] != '1' || k) {
			buf_free(&g);
			head++;
			continue;
		}
		menu = xstrdup(g.data);
		buf_free(&g);
		save = NULL;
		for (line = strtok_r(menu, "\r\n", &save); line != NULL;
		    line = strtok_r(NULL, "\r\n", &save)) {
			if (line[0] == 'i' || line[0] == '.' || line[0] == 'h')
				continue;
			OK(line[0] != '3', "gopher %s: no error item: %s",
			    queue[head], line);
			*bad += line[0] == '3';
			for (p = line, k = 0; k < 4 && p != NULL; k++) {
				f[k] = p;
				if ((p = strchr(p, '\t')) != NULL)
					*p++ = '\0';
			}
			if (k < 4 || strcmp(f[2], "localhost") != 0 ||
			    atoi(f[3]) != srv.gopher_port)
				continue;	/* another server's */
			OK(!url_has_dot_segment(f[1]), "gopher %s: %s has no "
			    "dot segment", queue[head], f[1]);
			n++;
			for (seen = 0, i = 0; i < tail && !seen; i++)
				seen = strcmp(queue[i], f[1]) == 0;
			if (!seen && tail < nitems(queue)) {
				types[tail] = line[0];
				queue[tail++] = xstrdup(f[1]);
			}
		}
		free(menu);
		head++;
	}
	for (i = 0; i < tail; i++)
		free(queue[i]);
	return n;
}

static void
test_hexo(void)
{
	struct reply	 r;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/gemlog/posts/hexo-post");
	OK(r.status == 20, "the Hexo post is served");
	OK(has(r.body.data, "=> /gemlog/posts/hexo-post/cat.png A cat\n"),
	    "asset_img: an image of its asset folder");
	OK(has(r.body.data, "=> /gemlog/posts/hexo-post/paper.pdf The paper\n"),
	    "asset_link: a link to its asset folder's file");
	OK(has(r.body.data, "=> /gemlog/posts/second 2020-01-03-second\n") &&
	    has(r.body.data, "=> /gemlog/posts/second The second one\n"),
	    "post_link: the post, with or without a title");
	OK(has(r.body.data, "=> /gemlog/posts/second Setup\n"),
	    "post_url with a fragment keeps the link");
	OK(has(r.body.data, "```sh Deploy\nmake deploy\n```\n"),
	    "codeblock: preformatted, its language and title");
	OK(has(r.body.data, "Ada Lovelace, Engineer"),
	    "the include's parameters kept");
	OK(has(r.body.data, "=> /gemlog/assets/logo.png The logo\n"),
	    "a site's own figure tag naming a file: an image");
	OK(has(r.body.data, "A note") && has(r.body.data, "Another") &&
	    !has(r.body.data, "{%"), "an unknown tag removed, its text kept");
	OK(has(r.body.data, "\nStyled\n") && !has(r.body.data, "style"),
	    "a JSX prop leaves no broken HTML");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx,
	    "/gemlog/posts/hexo-post/cat.png");
	OK(r.status == 20 && has(r.body.data, "PNG-CAT"),
	    "the asset folder's file is served");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/gemlog/posts/mk");
	OK(has(r.body.data, "=> /gemlog/assets/img/chart.png Chart\n"),
	    "../assets/ from posts/: the file beside posts/");
	OK(has(r.body.data, "=> /gemlog/ home\n") &&
	    has(r.body.data, "=> /gemlog/posts/hexo-post the Hexo post\n"),
	    "relative links by the file, then by the address");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx,
	    "/gemlog/assets/img/chart.png");
	OK(r.status == 20 && has(r.body.data, "PNG-CHART"),
	    "the asset is served at its path");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx,
	    "/gemlog/assets/img/secret.png");
	OK(r.status == 51, "a file no post links to is not: %d", r.status);
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/gemlog/layouts/base.html");
	OK(r.status == 51, "nor a generator's template: %d", r.status);
	reply_free(&r);
}

static void
test_gallery(void)
{
	static const char *const want[] = {
		"/gemlog/posts/gallery/imgs/50%25.png",
		"/gemlog/posts/gallery/imgs/a%23b.png",
		"/gemlog/posts/gallery/imgs/image%20(1).jpeg",
	};
	struct reply	 r, f;
	char		 line[200];
	size_t		 i;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/gemlog/posts/gallery");
	for (i = 0; i < nitems(want); i++) {
		snprintf(line, sizeof(line), "=> %s ", want[i]);
		OK(has(r.body.data, line), "the gallery links %s", want[i]);
		f = e2e_gemini_get(srv.gemini_port, ctx, "%s", want[i]);
		OK(f.status == 20, "%s is served: %d", want[i], f.status);
		reply_free(&f);
	}
	reply_free(&r);
}

static void
test_gph_gemini(void)
{
	struct reply	 r;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/");
	OK(r.status == 20 && has(r.body.data, "Welcome to the hole\n"
	    "=> /phlog/ Phlog\n=> /notes/ Notes (relative)\n"
	    "=> /phlog/2020-02-26-a-title.txt A text\n"
	    "=> https://example.org/ Web\n=> gopher://sdf.org/1/ Elsewhere\n"
	    "[bracketed text]\n=> /phlog/2020-02-26-a-title.txt Pipe | in "
	    "name\n"), "index.gph over Gemini: its menu as gemtext links");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/phlog/older.gph");
	OK(r.status == 20 && has(r.body.data, "Older posts\n=> /phlog/ Back\n")
	    && !has(r.body.data, "[1|"), "a .gph file: its menu, never its "
	    "bytes");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/both/");
	OK(has(r.body.data, "From the gph"), "no gophermap over Gemini");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/notes/");
	OK(has(r.body.data, "# Notes\n"), "index.gmi before index.gph");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/notes/long.gmi");
	OK(r.status == 20 && has(r.body.data, longline),
	    "a gemtext file is itself over Gemini");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/notes/long.gmi/raw");
	OK(r.status == 20 && has(r.header, "text/plain") &&
	    has(r.body.data, "=> other.gmi Other\n"), "its source at /raw");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/notes/long.gmi/");
	OK(r.status == 31 && has(r.header, "/notes/long.gmi"),
	    "its menu is Gopher's: %s", r.header);
	reply_free(&r);
}

static void
test_gph_gopher(void)
{
	struct buf	 g;
	char		 want[256], *line, *save = NULL;
	size_t		 longest = 0;

	e2e_gopher_get(srv.gopher_port, &g, "/");
	snprintf(want, sizeof(want), "1Phlog\t/phlog/\tlocalhost\t%d\r\n"
	    "1Notes (relative)\t/notes/\tlocalhost\t%d\r\n", srv.gopher_port,
	    srv.gopher_port);
	OK(has(g.data, "iWelcome to the hole\t") && has(g.data, want) &&
	    has(g.data, "i[bracketed text]\t") &&
	    has(g.data, "0Pipe | in name\t/phlog/2020-02-26-a-title.txt\t") &&
	    has(g.data, "1Elsewhere\t/\tsdf.org\t70\r\n") &&
	    has(g.data, "hWeb\tURL:https://example.org/\t"),
	    "index.gph as written: %s", g.data);
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/phlog/");
	snprintf(want, sizeof(want), "1Home\t/\tlocalhost\t%d\r\n",
	    srv.gopher_port);
	OK(has(g.data, "02020-02-26 A title\t/phlog/2020-02-26-a-title.txt\t")
	    && has(g.data, "1Older\t/phlog/older.gph\t") && has(g.data, want),
	    "the dated index, relative selectors");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/both/");
	OK(has(g.data, "iFrom the gophermap") && !has(g.data, "From the gph"),
	    "the gophermap wins over Gopher");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/notes/");
	OK(has(g.data, "0Long (gph)\t/notes/long.gmi\t"),
	    "index.gph over Gopher, index.gmi beside it");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/index.gph");
	OK(has(g.data, "1Phlog\t") && !has(g.data, "[1|"),
	    "a .gph file is never served as a file");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/plain/");
	snprintf(want, sizeof(want), "1A\t/plain/a.gmi/\tlocalhost\t%d",
	    srv.gopher_port);
	OK(has(g.data, want) && has(g.data, "1m.gph\t/plain/m.gph\t"),
	    "a listing links a gemtext file's menu, a .gph file's menu");
	buf_free(&g);

	/* A gemtext file of the tree: wrapped, its links numbered. */
	e2e_gopher_get(srv.gopher_port, &g, "/notes/long.gmi");
	for (line = strtok_r(g.data, "\r\n", &save); line != NULL;
	    line = strtok_r(NULL, "\r\n", &save))
		if (strlen(line) > longest && strncmp(line, "[", 1) != 0)
			longest = strlen(line);
	OK(longest <= 70 && longest > 0, "wrapped: the longest line %zu",
	    longest);
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/notes/long.gmi");
	OK(has(g.data, "Other[1]") && has(g.data, "References") &&
	    has(g.data, "/notes/other.gmi/"), "its links numbered, resolved "
	    "against its own path");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/notes/long.gmi/");
	OK(has(g.data, "0Read the text\t/notes/long.gmi\t") &&
	    has(g.data, "1Link 1: Other\t/notes/other.gmi/\t") &&
	    has(g.data, "1Link 2: The phlog\t/phlog/\t") &&
	    has(g.data, "0The file as written (gemtext)\t"
	    "/notes/long.gmi/raw\t"),
	    "its menu: the text, its links as items, the file: %s", g.data);
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/notes/long.gmi/raw");
	OK(has(g.data, longline) && has(g.data, "=> other.gmi Other"),
	    "the file as written");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/gemlog/posts/hexo-post");
	OK(has(g.data, "A cat[") && has(g.data, "/posts/hexo-post/cat.png"),
	    "the Hexo post over Gopher, its image referenced");
	buf_free(&g);
}

static void
test_crawl(void)
{
	int	 bad = 0, n;

	n = crawl_gemini("/", &bad);
	n += crawl_gemini("/gemlog/", &bad);
	OK(n >= 30 && bad == 0, "gemini: %d local link lines, %d not "
	    "answering", n, bad);
	bad = 0;
	n = crawl_gopher("/", &bad);
	n += crawl_gopher("/gemlog/", &bad);
	OK(n >= 30 && bad == 0, "gopher: %d items of this server, %d not "
	    "resolving", n, bad);
}

static void
test_warnings(void)
{

	OK(e2e_log_count(&srv, "posts/_posts/2020-01-02-hexo-post.md:21:1: "
	    "template: removed {% note info %} (and 1 more like it in this "
	    "file)") == 1, "an unknown tag said once, where it is first");
	OK(e2e_log_count(&srv, "template: removed {% note warn") == 0,
	    "not again");
	OK(e2e_log_count(&srv, "names nothing") == 0 &&
	    e2e_log_count(&srv, "missing") == 0, "no link names nothing");
}

static const struct harness_test tests[] = {
	NAMED("hexo"),
	NAMED("gallery"),
	NAMED("gph_gemini"),
	NAMED("gph_gopher"),
	NAMED("crawl"),
	NAMED("warnings"),
};

int
main(int argc, char **argv)
{
	char	 top[64], cmd[128];

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	snprintf(top, sizeof(top), "/tmp/capsuled-generators.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_capsule(top);
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, "rate_limit: off\nroot: files\n"
	    "mount: /gemlog\n") == -1) {
		OK(0, "server start");
	} else {
		RUN("hexo", test_hexo());
		RUN("gallery", test_gallery());
		RUN("gph_gemini", test_gph_gemini());
		RUN("gph_gopher", test_gph_gopher());
		RUN("crawl", test_crawl());
		RUN("warnings", test_warnings());
		INT_EQ(e2e_stop(&srv), 0, "clean exit");
	}
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
