/*
 * test_gemini_front.c -- the decisions about a Gemini request line
 * (site/gemini_front.c), without a socket: an upload, a CGI program, a
 * host picked by the URL and checked against the TLS name, an IP
 * literal that is not ours, a bad line, and the router's answer with
 * the writer's certificate or without.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/archive.h"
#include "core/config.h"
#include "files.h"
#include "harness.h"
#include "site/gemini_front.h"
#include "site/router.h"
#include "site/site.h"

static char		 top[64];
static struct config	 hosts[2];
static struct gemini_host ghosts[2] = {
	{ "localhost", 1965, 0 }, { "other.test", 1965, 0 },
};

/* The connection's side, as a test sets it. */
struct fake {
	int		 own;		/* the IP literal is our address */
	const char	*hash;		/* the client's certificate */
	int		 asked_own;
};

static int
fake_own(void *ctx, const struct gemini_request *req)
{
	struct fake	*f = ctx;

	(void)req;
	f->asked_own++;
	return f->own;
}

static const char *
fake_hash(void *ctx)
{
	return ((struct fake *)ctx)->hash;
}

static struct front_gen	 gf;
static int		 port = 1965;	/* ours the client reached */

static enum front_do
ask(struct fake *f, const char *sni, const char *line, int *h,
    struct response *r)
{
	struct front_client	 fc = { sni, fake_own, fake_hash, f, NULL, port,
	    1 };
	struct front_app	 app;
	enum front_do		 d;

	response_init(r);
	d = gemini_front_answer(&gf, &fc, line, strlen(line), &app, r);
	*h = app.host;
	return d;
}

static void
test_decisions(void)
{
	struct fake	 f = { 1, NULL, 0 };
	struct response	 r;
	int		 h;

	INT_EQ(ask(&f, "localhost", "gemini://localhost/posts/small", &h, &r),
	    FRONT_ANSWER, "a post: the router's");
	INT_EQ(r.status, 20, "a post: 20");
	INT_EQ(h, 0, "a post: the first host");
	response_free(&r);

	INT_EQ(ask(&f, "localhost", "titan://localhost/posts/x;size=1", &h,
	    &r), FRONT_UPLOAD, "titan://: an upload");
	response_free(&r);

	INT_EQ(ask(&f, "other.test", "gemini://other.test/cgi-bin/run", &h,
	    &r), FRONT_APP, "the cgi directory: a program");
	INT_EQ(h, 1, "cgi: the URL's host");
	response_free(&r);
	INT_EQ(ask(&f, "other.test", "gemini://other.test/cgi-binx", &h, &r),
	    FRONT_ANSWER, "beside the cgi directory: the router");
	INT_EQ(r.status, 51, "beside the cgi directory: 51");
	response_free(&r);
	INT_EQ(ask(&f, "localhost", "gemini://localhost/cgi-bin/run", &h, &r),
	    FRONT_ANSWER, "another host's cgi: the router");
	INT_EQ(r.status, 51, "another host's cgi: 51");
	response_free(&r);

	INT_EQ(ask(&f, "other.test", "gemini://localhost/", &h, &r),
	    FRONT_ANSWER, "the TLS name disagrees");
	INT_EQ(r.status, 53, "the TLS name disagrees: 53");
	response_free(&r);
	INT_EQ(ask(&f, NULL, "gemini://nowhere.test/", &h, &r),
	    FRONT_ANSWER, "another host");
	INT_EQ(r.status, 53, "another host: 53");
	response_free(&r);

	INT_EQ(ask(&f, NULL, "not a url", &h, &r), FRONT_ANSWER,
	    "a bad line");
	INT_EQ(r.status, 59, "a bad line: 59");
	response_free(&r);

	f.own = 0;
	INT_EQ(ask(&f, NULL, "gemini://127.0.0.1/", &h, &r),
	    FRONT_ANSWER, "another address");
	INT_EQ(r.status, 53, "another address: 53");
	STR_EQ(r.meta, "Proxy request refused: not this server's address",
	    "another address: why");
	response_free(&r);
	f.own = 1;
	f.asked_own = 0;
	ask(&f, "localhost", "gemini://localhost/", &h, &r);
	INT_EQ(f.asked_own, 0, "a host name: no address asked");
	response_free(&r);
}

/* Drafts: for the writer's certificate only. */
static void
test_writer(void)
{
	struct fake	 f = { 1, NULL, 0 };
	struct response	 r;
	int		 h;

	ask(&f, "localhost", "gemini://localhost/drafts/", &h, &r);
	INT_EQ(r.status, 51, "no certificate: no drafts");
	response_free(&r);
	f.hash = "0123";
	ask(&f, "localhost", "gemini://localhost/drafts/", &h, &r);
	INT_EQ(r.status, 51, "another certificate: no drafts");
	response_free(&r);
	f.hash = "abcd";
	ask(&f, "localhost", "gemini://localhost/drafts/", &h, &r);
	INT_EQ(r.status, 20, "the writer's certificate: drafts");
	response_free(&r);
}

/* A host with a port of its own is answered there, and only there. */
static void
test_own_port(void)
{
	struct fake	 f = { 1, NULL, 0 };
	struct response	 r;
	int		 h;

	hosts[1].port[SURFACE_GEMINI] = 1966;
	ghosts[1].port = 1966;
	ask(&f, "other.test", "gemini://other.test:1966/", &h, &r);
	INT_EQ(r.status, 53, "its port named, the shared port reached: 53");
	STR_EQ(r.meta, "Proxy request refused: that host is not served on "
	    "this port", "why");
	response_free(&r);
	port = 1966;
	ask(&f, "other.test", "gemini://other.test:1966/", &h, &r);
	INT_EQ(r.status, 20, "on its own port: 20");
	INT_EQ(h, 1, "on its own port: the host");
	response_free(&r);
	ask(&f, "localhost", "gemini://localhost/", &h, &r);
	INT_EQ(r.status, 53, "the first host on the second's port: 53");
	response_free(&r);
	ask(&f, NULL, "gemini://127.0.0.1:1966/", &h, &r);
	INT_EQ(r.status, 20, "an IP literal on its port: 20");
	INT_EQ(h, 1, "an IP literal: the listener's host");
	response_free(&r);
	port = 1965;
	ask(&f, NULL, "gemini://127.0.0.1/", &h, &r);
	INT_EQ(h, 0, "an IP literal on the shared port: the first host");
	response_free(&r);
	hosts[1].port[SURFACE_GEMINI] = 1965;
	ghosts[1].port = 1965;
}

int
main(void)
{
	static char	*writers[] = { "abcd" };
	struct archive	*a;
	struct site	*sites[2];
	size_t		 i;

	snprintf(top, sizeof(top), "/tmp/capsuled-gfront-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_mkdir(top, "posts");
	test_put(top, "posts/2024-01-03-small.md", "---\ntitle: Small\n---\n"
	    "Hello.\n");
	for (i = 0; i < 2; i++) {
		memset(&hosts[i], 0, sizeof(hosts[i]));
		hosts[i].capsule_dir = top;
		hosts[i].site_title = "Site";
		hosts[i].lang = "en";
		hosts[i].hostname = (char *)ghosts[i].hostname;
		hosts[i].port[SURFACE_GEMINI] = 1965;
		hosts[i].port[SURFACE_GOPHER] = 70;
	}
	hosts[1].cgi = "cgi-bin";
	hosts[0].titan_writers = writers;
	hosts[0].ntitan_writers = 1;
	if ((a = archive_load(&hosts[0])) == NULL) {
		OK(0, "archive_load");
		test_rm_tree(top);
		return harness_done();
	}
	sites[0] = site_new(a, 0);
	sites[1] = site_new(a, 0);
	gf.cfg = &hosts[0];
	gf.hosts = hosts;
	gf.ghosts = ghosts;
	gf.nhosts = 2;
	gf.sites = sites;
	gf.users = NULL;
	test_decisions();
	test_writer();
	test_own_port();
	site_unref(sites[0]);
	site_unref(sites[1]);
	archive_unref(a);
	test_rm_tree(top);
	return harness_done();
}
