/*
 * e2e_pages.c -- golden navigation pages over the sample capsule.
 *
 * Starts the real server on capsule/ and fetches every kind of page over
 * Gemini and over Gopher; each must equal tests/golden/pages/NAME.gmi
 * (or NAME.gph), with the ephemeral port written as PORT.  The two
 * emitters of one page model are checked side by side here.  Posts'
 * menus are Gopher only; a second server with gopher_charset: ascii
 * gives NAME.ascii.gph, where every byte must be ASCII.  With
 * CAPSULED_UPDATE_GOLDEN=1 (make golden) the expectations are rewritten:
 * review the diff.
 */
#include "e2e.h"

static struct e2e_server srv;

static const struct {
	const char	*name;
	const char	*path;
} pages[] = {
	{ "home", "/" },
	{ "posts", "/posts/" },
	{ "series", "/series/" },
	{ "series-running-a-capsule", "/series/running-a-capsule/" },
	{ "series-gopher-archaeology", "/series/gopher-archaeology/" },
	{ "tags", "/tags/" },
	{ "tag-gemini", "/tags/gemini/" },
	{ "tag-small-web", "/tags/small-web/" },
	{ "gemlog", "/gemlog/" },
	{ "post-running-a-capsule-2", "/posts/running-a-capsule-2" },
	{ "post-plain-text-habits-tables", "/posts/plain-text-habits-tables" },
	/* One post of each format: TOML front matter, gemtext, a bundle. */
	{ "post-moving-a-hugo-archive", "/posts/moving-a-hugo-archive" },
	{ "post-a-post-kept-in-gemtext", "/posts/a-post-kept-in-gemtext" },
	{ "post-a-post-with-its-own-picture",
	    "/posts/a-post-with-its-own-picture" },
	{ "page-about", "/about" },
};

/*
 * Gopher only: a post's or a page's menu (over Gemini "/posts/<slug>/"
 * and "/<page>/" are redirects), and the same server with gopher_charset: ascii, whose
 * pages are NAME.ascii.gph.
 */
static const struct {
	const char	*name;
	const char	*path;
	int		 ascii;
} gopher_pages[] = {
	{ "postmenu-running-a-capsule-2", "/posts/running-a-capsule-2/", 0 },
	{ "postmenu-plain-text-habits-tables",
	    "/posts/plain-text-habits-tables/", 0 },
	{ "pagemenu-about", "/about/", 0 },
	/* The links of a gemtext post, and a bundle's picture, as items. */
	{ "postmenu-a-post-kept-in-gemtext", "/posts/a-post-kept-in-gemtext/",
	    0 },
	{ "postmenu-a-post-with-its-own-picture",
	    "/posts/a-post-with-its-own-picture/", 0 },
	{ "home", "/", 1 },
	{ "posts", "/posts/", 1 },
	{ "series", "/series/", 1 },
	{ "tag-gemini", "/tags/gemini/", 1 },
	{ "postmenu-plain-text-habits-tables",
	    "/posts/plain-text-habits-tables/", 1 },
	{ "post-plain-text-habits-tables", "/posts/plain-text-habits-tables",
	    1 },
	{ "page-about", "/about", 1 },
};

/* Replace every decimal occurrence of port with "PORT". */
static void
portless(struct buf *b, int port)
{
	struct buf	 out = BUF_INIT;
	char		 num[16];
	size_t		 nlen, i;

	nlen = (size_t)snprintf(num, sizeof(num), "%d", port);
	for (i = 0; i < b->len; i++) {
		if (i + nlen <= b->len && memcmp(b->data + i, num, nlen) == 0) {
			buf_addstr(&out, "PORT");
			i += nlen - 1;
		} else
			buf_addc(&out, b->data[i]);
	}
	buf_free(b);
	*b = out;
}

static void
compare(const char *name, const char *ext, struct buf *got)
{
	char	 path[1024], *want;
	FILE	*f;
	long	 len;
	const char *top = getenv("CAPSULED_TOP");

	snprintf(path, sizeof(path), "%s/tests/golden/pages/%s.%s",
	    top ? top : ".", name, ext);
	if (getenv("CAPSULED_UPDATE_GOLDEN") != NULL) {
		if ((f = fopen(path, "wb")) != NULL) {
			fwrite(got->data, 1, got->len, f);
			fclose(f);
		}
	}
	if ((f = fopen(path, "rb")) == NULL) {
		OK(0, "%s: missing (run make golden)", path);
		return;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	want = xmalloc((size_t)len + 1);
	len = (long)fread(want, 1, (size_t)len, f);
	want[len] = '\0';
	fclose(f);
	OK((size_t)len == got->len && memcmp(want, got->data, got->len) == 0,
	    "%s.%s differs from the golden file; got:\n%s", name, ext,
	    got->data);
	free(want);
}

/* The Gopher pages of gopher_pages[] whose ascii is ascii. */
static void
gopher_only(int ascii)
{
	struct buf	 g;
	char		 req[1200];
	size_t		 i;
	int		 len;

	for (i = 0; i < nitems(gopher_pages); i++) {
		if (gopher_pages[i].ascii != ascii)
			continue;
		len = snprintf(req, sizeof(req), "%s\r\n",
		    gopher_pages[i].path);
		if (e2e_plain(srv.gopher_port, req, (size_t)len, &g) == -1) {
			OK(0, "%s: no Gopher answer", gopher_pages[i].path);
			continue;
		}
		portless(&g, srv.gopher_port);
		if (ascii) {
			size_t k;

			for (k = 0; k < g.len; k++)
				if ((unsigned char)g.data[k] >= 0x80)
					break;
			OK(k == g.len, "%s (ascii): byte %zu is not ASCII",
			    gopher_pages[i].path, k);
		}
		compare(gopher_pages[i].name, ascii ? "ascii.gph" : "gph", &g);
		buf_free(&g);
	}
}

static const struct harness_test tests[] = {
	NAMED("pages"),
};

int
main(int argc, char **argv)
{
	SSL_CTX		*ctx;
	const char	*top = getenv("CAPSULED_TOP");
	char		 capsule[600], req[1200];
	size_t		 i;
	int		 len;

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	snprintf(capsule, sizeof(capsule), "%s/capsule", top ? top : ".");
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, "") == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	for (i = 0; i < nitems(pages); i++) {
		struct reply	 r;
		struct buf	 g;

		len = snprintf(req, sizeof(req), "gemini://localhost:%d%s\r\n",
		    srv.gemini_port, pages[i].path);
		if (e2e_gemini_raw(srv.gemini_port, req, (size_t)len, &r, ctx,
		    "localhost") == -1 || r.status != 20) {
			OK(0, "%s: no 20 answer", pages[i].path);
			reply_free(&r);
			continue;
		}
		portless(&r.body, srv.gemini_port);
		compare(pages[i].name, "gmi", &r.body);
		reply_free(&r);

		len = snprintf(req, sizeof(req), "%s\r\n", pages[i].path);
		if (e2e_plain(srv.gopher_port, req, (size_t)len, &g) == -1) {
			OK(0, "%s: no Gopher answer", pages[i].path);
			continue;
		}
		portless(&g, srv.gopher_port);
		compare(pages[i].name, "gph", &g);
		buf_free(&g);
	}
	gopher_only(0);
	INT_EQ(e2e_stop(&srv), 0, "clean exit");

	if (e2e_start(&srv, capsule, "gopher_charset: ascii\n") == -1) {
		OK(0, "server (ascii) did not start");
		return harness_done();
	}
	gopher_only(1);
	INT_EQ(e2e_stop(&srv), 0, "clean exit (ascii)");
	SSL_CTX_free(ctx);
	return harness_done();
}
