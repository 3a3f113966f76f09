/*
 * e2e_hugo.c -- an archive kept as a Hugo blog on a documentation theme
 * keeps it: url: in front matter, page bundles whose images shortcodes
 * pick by name or pattern (imgproc, gallery, figure), callouts with a
 * title, ordered lists, code in a quote, and a gemtext post with
 * relative links.  The real server must serve every post on both
 * protocols; every local link line of a post must answer 20 over
 * Gemini, and every item of its Gopher menu resolve (no error menu, no
 * selector with a dot segment); a shortcode that names nothing is
 * warned about with its place.
 */
#include "e2e.h"

#include "core/url.h"

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 capsule[512];

static const struct {
	const char	*file;		/* under the capsule */
	const char	*text;
} tree[] = {
	{ "index.md", "---\ntitle: Docs blog\n---\nA Hugo blog.\n" },
	{ "posts/2024-03-02-kubecon/index.md",
	  "---\ntitle: KubeCon recap\ndate: 2024-03-02\n"
	  "url: /blog/2024/03/kubecon-recap/\ntags: [events]\n---\n"
	  "We were there.\n\n"
	  "{{< imgproc kubecon-welcome Resize 600x >}}\n"
	  "The welcome desk.\n{{< /imgproc >}}\n\n"
	  "{{% alert title=\"Breaking change\" color=\"warning\" %}}\n"
	  "The API moved.\n{{% /alert %}}\n\n"
	  "{{< gallery match=\"flickr/*\" sortOrder=\"desc\" >}}\n\n"
	  "{{< figure src=\"stage.png\" caption=\"On stage\" >}}\n\n"
	  "1. Register\n2. Attend\n   1. Keynote\n\n"
	  "> Said on stage:\n>\n> ```sh\n> kubectl apply -f x.yaml\n> ```\n\n"
	  "[Back to all posts](/posts/) and [the next](../2024-04-01-docsy/)\n" },
	{ "posts/2024-03-02-kubecon/kubecon-welcome-featured.jpg", "JPG-WELCOME" },
	{ "posts/2024-03-02-kubecon/stage.png", "PNG-STAGE" },
	{ "posts/2024-03-02-kubecon/flickr/a.jpg", "JPG-A" },
	{ "posts/2024-03-02-kubecon/flickr/b.png", "PNG-B" },
	{ "posts/2024-03-02-kubecon/flickr/notes.txt", "not an image" },
	{ "posts/2024-04-01-docsy/index.md",
	  "+++\ntitle = \"Docsy shortcodes\"\nurl = \"/blog/2024/04/docsy/\"\n"
	  "+++\n"
	  "{{% pageinfo %}}\nA page note.\n{{% /pageinfo %}}\n\n"
	  "{{< imgproc spruce Fill \"400x450\" >}}\nNorway spruce.\n"
	  "{{< /imgproc >}}\n\n"
	  "{{< img src=\"diagram\" alt=\"The diagram\" >}}\n\n"
	  "{{< imgproc missing-one Fit \"10x10\" >}}\n" },
	{ "posts/2024-04-01-docsy/spruce-featured.jpg", "JPG-SPRUCE" },
	{ "posts/2024-04-01-docsy/diagram.svg", "<svg/>" },
	{ "posts/2024-05-01-gemlog.gmi",
	  "# A gemlog entry\n\nWritten by hand.\n\n"
	  "=> ./ Back to the gemlog\n=> ../ Home\n"
	  "=> 2024-03-02-kubecon/index.md The recap\n" },
};

static int
has(const char *hay, const char *needle)
{
	return hay != NULL && strstr(hay, needle) != NULL;
}

static void
make_capsule(const char *top)
{
	static const char *const dirs[] = { "", "/posts",
	    "/posts/2024-03-02-kubecon", "/posts/2024-03-02-kubecon/flickr",
	    "/posts/2024-04-01-docsy" };
	char	 path[1024];
	size_t	 i;

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	for (i = 0; i < nitems(dirs); i++) {
		snprintf(path, sizeof(path), "%s%s", capsule, dirs[i]);
		mkdir(path, 0755);
	}
	for (i = 0; i < nitems(tree); i++)
		test_put(capsule, tree[i].file, tree[i].text);
}

/* Every "=> /local" line of the page at path answers 20; how many. */
static int
links_answer(const char *path, int *bad)
{
	struct reply	 r, l;
	char		*body, *line, *sp, *save = NULL;
	int		 n = 0;

	r = e2e_gemini_get(srv.gemini_port, ctx, "%s", path);
	if (r.status != 20 || r.body.data == NULL) {
		(*bad)++;
		reply_free(&r);
		return 0;
	}
	body = xstrdup(r.body.data);
	for (line = strtok_r(body, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "=> /", 4) != 0)
			continue;
		if ((sp = strchr(line + 3, ' ')) != NULL)
			*sp = '\0';
		l = e2e_gemini_get(srv.gemini_port, ctx, "%s", line + 3);
		OK(l.status == 20, "gemini %s: %s answers %d", path, line + 3,
		    l.status);
		*bad += l.status != 20;
		n++;
		reply_free(&l);
	}
	free(body);
	reply_free(&r);
	return n;
}

static void
test_gemini(void)
{
	struct reply	 r;
	int		 bad = 0, n;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/kubecon");
	OK(r.status == 20, "the bundle post is served");
	/* One image link line each, labelled as the writer labelled it. */
	OK(has(r.body.data, "=> /posts/kubecon/kubecon-welcome-featured.jpg "
	    "The welcome desk.\n"), "imgproc: by name's start, its caption");
	OK(has(r.body.data, "=> /posts/kubecon/flickr/a.jpg a.jpg\n"
	    "=> /posts/kubecon/flickr/b.png b.png\n") &&
	    !has(r.body.data, "notes.txt"), "gallery: every image matched");
	OK(has(r.body.data, "=> /posts/kubecon/stage.png On stage\n"),
	    "figure: relative to the bundle, its caption");
	OK(has(r.body.data, "Breaking change\nThe API moved.\n"),
	    "the callout's title, a line before its text");
	OK(has(r.body.data, "\n1. Register\n2. Attend\n    1. Keynote\n"),
	    "ordered lists are numbered lines, nested in order");
	OK(has(r.body.data, "> Said on stage:\n>\n```sh\n"
	    "kubectl apply -f x.yaml\n```\n"), "code in a quote: preformatted");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/docsy");
	OK(has(r.body.data, "=> /posts/docsy/spruce-featured.jpg "
	    "Norway spruce.\n") && has(r.body.data,
	    "=> /posts/docsy/diagram.svg The diagram\n"),
	    "imgproc and img in a TOML bundle");
	OK(has(r.body.data, "\nFit") == 0 && !has(r.body.data, "missing-one"),
	    "a shortcode naming nothing leaves no dead link");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/atom.xml");
	OK(has(r.body.data, "<summary>Written by hand.</summary>"),
	    "the gemtext post's summary in the feed");
	reply_free(&r);

	n = links_answer("/posts/kubecon", &bad);
	n += links_answer("/posts/docsy", &bad);
	n += links_answer("/posts/gemlog", &bad);
	OK(n >= 12 && bad == 0, "%d local link lines, %d not answering 20", n,
	    bad);
}

/* The item lines of a Gopher menu that name this server: each resolves. */
static int
items_resolve(const char *sel, int *bad)
{
	struct buf	 g, it;
	char		*menu, *line, *save = NULL, *f[4], *p;
	int		 n = 0, k;

	e2e_gopher_get(srv.gopher_port, &g, "%s", sel);
	menu = xstrdup(g.data != NULL ? g.data : "");
	buf_free(&g);
	for (line = strtok_r(menu, "\r\n", &save); line != NULL;
	    line = strtok_r(NULL, "\r\n", &save)) {
		if (line[0] == 'i' || line[0] == '.' || line[0] == '\0')
			continue;
		OK(line[0] != '3', "gopher %s: no error item: %s", sel, line);
		*bad += line[0] == '3';
		for (p = line, k = 0; k < 4 && p != NULL; k++) {
			f[k] = p;
			if ((p = strchr(p, '\t')) != NULL)
				*p++ = '\0';
		}
		if (k < 4 || strcmp(f[2], "localhost") != 0 ||
		    atoi(f[3]) != srv.gopher_port)
			continue;	/* another server's, or a URL: item */
		OK(!url_has_dot_segment(f[1]), "gopher %s: %s has no dot "
		    "segment", sel, f[1]);
		e2e_gopher_get(srv.gopher_port, &it, "%s", f[1]);
		/* An error is a type-3 menu line. */
		k = it.data == NULL || it.len == 0 || it.data[0] == '3';
		OK(!k, "gopher %s: item %s resolves", sel, f[1]);
		*bad += k;
		n++;
		buf_free(&it);
	}
	free(menu);
	return n;
}

static void
test_gopher(void)
{
	struct buf	 g;
	int		 bad = 0, n;

	e2e_gopher_get(srv.gopher_port, &g, "/posts/kubecon");
	OK(has(g.data, "KubeCon recap\r\n=") &&
	    has(g.data, "The welcome desk.[") && has(g.data, "On stage["),
	    "the bundle post as Gopher text, its images referenced");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/posts/gemlog");
	OK(has(g.data, "/posts/\r\n") && !has(g.data, "/./") &&
	    !has(g.data, "/../"), "relative gemtext links resolved");
	buf_free(&g);
	n = items_resolve("/posts/kubecon/", &bad);
	n += items_resolve("/posts/docsy/", &bad);
	n += items_resolve("/posts/gemlog/", &bad);
	OK(n >= 12 && bad == 0, "%d items of this server, %d not resolving",
	    n, bad);
}

static void
test_warnings(void)
{
	OK(e2e_log_count(&srv, "posts/2024-04-01-docsy/index.md:15:1: "
	    "template: {{< imgproc missing-one Fit \"10x10\" >}} names no "
	    "file of the page bundle") == 1,
	    "the shortcode that names nothing, with its place");
	OK(e2e_log_count(&srv, "names no file") == 1,
	    "no other shortcode warned about");
}

static const struct harness_test tests[] = {
	NAMED("gemini"),
	NAMED("gopher"),
	NAMED("warnings"),
};

int
main(int argc, char **argv)
{
	char	 top[64], cmd[128];

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	snprintf(top, sizeof(top), "/tmp/capsuled-hugo.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_capsule(top);
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, "rate_limit: off\n") == -1) {
		OK(0, "server start");
	} else {
		RUN("gemini", test_gemini());
		RUN("gopher", test_gopher());
		RUN("warnings", test_warnings());
		INT_EQ(e2e_stop(&srv), 0, "clean exit");
	}
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
