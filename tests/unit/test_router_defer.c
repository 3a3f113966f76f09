/*
 * test_router_defer.c -- pages slow to render are left to
 * response_render() (no first request stalls a worker).
 *
 * Over a capsule made in a temp directory: a caller that can wait
 * (may_defer) gets, for a large post or page, or a small post with a
 * table row of very many columns, a 20 with its final META and a render
 * job instead of a body; response_render() then gives the very bytes an
 * inline render gives, and publishes them, so the next request is served
 * from the cache.  Small posts, and every caller that cannot wait, get
 * the body at once.  Gopher's answer (gopher_respond()) defers the same,
 * posts' and pages' menus too, but for the Gopher+ forms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/cache.h"
#include "core/config.h"
#include "core/log.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"
#include "proto/gopher.h"
#include "site/gopher_front.h"
#include "site/router.h"
#include "site/site.h"

static char		 top[64];
static struct config	 cfg;

static struct archive *
load(void)
{
	struct buf	 big = BUF_INIT, wide = BUF_INIT;
	int		 i;

	test_mkdir(top, "posts");
	test_mkdir(top, "pages");
	buf_addstr(&big, "---\ntitle: Big\ntags: [x]\n---\n");
	for (i = 0; big.len < (64u << 10); i++)
		buf_printf(&big, "Paragraph %d with *some* words in it.\n\n",
		    i);
	test_put(top, "posts/2024-01-01-big.md", big.data);
	test_put(top, "pages/big.md", big.data + strlen("---\ntitle: Big\n"
	    "tags: [x]\n---\n"));
	buf_addstr(&wide, "---\ntitle: Wide\n---\n");
	for (i = 0; i < 300; i++)
		buf_addstr(&wide, "|a");
	buf_addstr(&wide, "|\n");
	for (i = 0; i < 300; i++)
		buf_addstr(&wide, "|-");
	buf_addstr(&wide, "|\n");
	test_put(top, "posts/2024-01-02-wide.md", wide.data);
	test_put(top, "posts/2024-01-03-small.md", "---\ntitle: Small\n---\n"
	    "A | few | pipes.\n");
	buf_free(&big);
	buf_free(&wide);
	memset(&cfg, 0, sizeof(cfg));
	cfg.capsule_dir = top;
	cfg.site_title = "Site";
	cfg.lang = "en";
	cfg.hostname = "localhost";
	cfg.port[SURFACE_GEMINI] = 1965;
	cfg.port[SURFACE_GOPHER] = 70;
	return archive_load(&cfg);
}

static void
ask(struct site *s, enum surface proto, const char *path, int may_defer,
    struct response *r)
{
	struct router_req	 req = { proto, path, NULL, 0, NULL, NULL, 0 };

	response_init(r);
	r->may_defer = may_defer;
	router_handle(&cfg, s, &req, r);
}

/* path defers, and renders to what an inline render gives. */
static void
deferred(struct archive *a, enum surface proto, const char *path,
    const char *meta)
{
	struct site	*s = site_new(a, 0), *t = site_new(a, 0);
	struct response	 r, now, again;

	ask(s, proto, path, 1, &r);
	OK(r.status == 20, "%s: 20 at once (%d)", path, r.status);
	OK(r.job != NULL && r.body == NULL && r.bodylen == 0,
	    "%s: a job, no body yet", path);
	OK(strcmp(r.meta, meta) == 0, "%s: the META is final: %s", path,
	    r.meta);
	response_render(&r);
	OK(r.job == NULL && r.bodylen > 0, "%s: rendered", path);
	ask(t, proto, path, 0, &now);
	OK(now.job == NULL, "%s: no job for a caller that cannot wait",
	    path);
	OK(r.bodylen == now.bodylen && memcmp(r.body, now.body,
	    r.bodylen) == 0, "%s: the same bytes as at once", path);
	ask(s, proto, path, 1, &again);
	OK(again.job == NULL && again.body == r.body,
	    "%s: published: the next request is served from the cache",
	    path);
	response_render(&again);	/* no job: nothing */
	OK(again.body == r.body, "%s: nothing to render", path);
	response_free(&again);
	response_free(&now);
	response_free(&r);
	site_unref(t);
	site_unref(s);
}

static void
test_router(struct archive *a)
{
	struct site	*s = site_new(a, 0);
	struct response	 r;

	const char	*gmi = "text/gemini; charset=utf-8; lang=en";

	deferred(a, SURFACE_GEMINI, "/posts/big", gmi);
	deferred(a, SURFACE_GOPHER, "/posts/big", gmi);
	deferred(a, SURFACE_GEMINI, "/big", gmi);
	deferred(a, SURFACE_GEMINI, "/posts/wide", gmi);
	/* Gopher's menus of a post or page render its Markdown too. */
	deferred(a, SURFACE_GOPHER, "/posts/big/", gmi);
	deferred(a, SURFACE_GOPHER, "/big/", gmi);

	ask(s, SURFACE_GEMINI, "/posts/small", 1, &r);
	OK(r.job == NULL && r.bodylen > 0, "a small post: at once");
	response_free(&r);

	/* A feed renders its posts only with atom_full_content. */
	ask(s, SURFACE_GEMINI, "/atom.xml", 1, &r);
	OK(r.job == NULL && r.bodylen > 0, "a feed of summaries: at once");
	response_free(&r);
	cfg.atom_full_content = 1;
	deferred(a, SURFACE_GEMINI, "/atom.xml", "application/atom+xml");
	deferred(a, SURFACE_GOPHER, "/tags/x/atom.xml", "application/atom+xml");
	cfg.atom_full_content = 0;

	/* Never rendered: the job goes with the response. */
	ask(s, SURFACE_GEMINI, "/posts/big", 1, &r);
	OK(r.job != NULL, "a job");
	response_free(&r);
	OK(r.job == NULL, "freed with the response");
	site_unref(s);
}

static void
test_gopher(struct archive *a)
{
	struct site	*s = site_new(a, 0);
	struct response	 r;

	response_init(&r);
	r.may_defer = 1;
	INT_EQ(gopher_respond(&cfg, s, NULL, "/posts/big", 10, &r), 20,
	    "gopher: 20");
	OK(r.job != NULL && r.gopher_type == '0', "gopher: a text job");
	response_render(&r);
	OK(r.bodylen > 0 && strstr(r.body, "Paragraph 0") != NULL,
	    "gopher: rendered");
	response_free(&r);

	response_init(&r);
	r.may_defer = 1;
	INT_EQ(gopher_respond(&cfg, s, NULL, "/posts/big/", 11, &r), 20,
	    "gopher menu: 20");
	OK(r.job != NULL && r.gopher_type == '1', "gopher: a menu job");
	response_render(&r);
	OK(r.bodylen > 0 && strstr(r.body, "\t/posts/big\t") != NULL &&
	    memcmp(r.body + r.bodylen - 3, ".\r\n", 3) == 0,
	    "gopher: the menu rendered, the text its item");
	response_free(&r);

	/* The Gopher+ forms frame the body: never deferred. */
	response_init(&r);
	r.may_defer = 1;
	INT_EQ(gopher_respond(&cfg, s, NULL, "/posts/wide\t+", 13, &r), 20,
	    "gopher+: 20");
	OK(r.job == NULL && r.bodylen > 0 && r.body[0] == '+',
	    "gopher+: rendered at once, framed");
	response_free(&r);
	site_unref(s);
}

static const struct harness_test tests[] = {
	NAMED("router"),
	NAMED("gopher"),
};

int
main(int argc, char **argv)
{
	struct archive	*a;
	size_t		 held;

	HARNESS_INIT(argc, argv, tests);

	log_set_level(LOG_LEVEL_ERROR);
	snprintf(top, sizeof(top), "/tmp/capsuled-defer-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	held = cache_bytes();
	if ((a = load()) == NULL) {
		OK(0, "archive_load");
		test_rm_tree(top);
		return harness_done();
	}
	INT_EQ(a->nposts, 3, "three posts");
	RUN("router", test_router(a));
	RUN("gopher", test_gopher(a));
	archive_unref(a);
	INT_EQ(cache_bytes(), held, "every byte given back");
	test_rm_tree(top);
	return harness_done();
}
