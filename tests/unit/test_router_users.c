/*
 * test_router_users.c -- user capsules in the router, without real
 * users: a host's capsule and one "user" capsule made in temp
 * directories, owned by whoever runs the test, the user's configuration
 * view as net/generation.c makes it (base "/~me", owned by our UID).
 *
 * Checked: /~ and /~/ (the list, both protocols); /~me/... answered by
 * the user's site with every link, selector, feed URL and redirect under
 * /~me/, and Markdown's root-relative links (to "/", to "/~other/")
 * kept inside; a name nobody has is 51; a post or file writable by
 * group is not read or served (a post, a file under files/ or of a page
 * bundle); a link under files/ that leads out of
 * the capsule is not followed; a writer of the host's reads no user's
 * drafts; without users (req->users NULL, or
 * cfg->userdirs NULL) /~me/ is a path like any other.  The real lookup
 * of users and a real server are e2e_userdirs's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"
#include "proto/gopher.h"
#include "site/gopher_front.h"
#include "site/router.h"
#include "site/site.h"

static char		 top[] = "/tmp/capsuled-test-rusers.XXXXXX";
static char		 hostdir[128], userdir[128];
static struct config	 host, user;
static struct site	*hsite, *usite;
static struct router_users users;

static void
setup(void)
{
	char	 path[256];

	snprintf(hostdir, sizeof(hostdir), "%s/host", top);
	snprintf(userdir, sizeof(userdir), "%s/me", top);
	mkdir(hostdir, 0755);
	mkdir(userdir, 0755);
	chmod(userdir, 0755);
	test_mkdir(hostdir, "posts");
	test_put(hostdir, "index.md", "---\ntitle: Host\n---\nHost.\n");
	test_put(hostdir, "posts/2024-01-01-hostpost.md",
	    "---\ntitle: Host post\n---\nHOST-ONLY\n");
	test_mkdir(userdir, "posts");
	test_mkdir(userdir, "files");
	snprintf(path, sizeof(path), "%s/posts", userdir);
	chmod(path, 0755);
	snprintf(path, sizeof(path), "%s/files", userdir);
	chmod(path, 0755);
	test_put(userdir, "index.md", "---\ntitle: My place\n---\nMine.\n");
	test_put(userdir, "posts/2024-02-02-hello.md", "---\ntitle: Hello\n"
	    "tags: [one]\n---\nHi, [home](/), [a file](/files/a.txt), "
	    "[theirs](/~other/posts/x) and [rel](../files/a.txt).\n");
	test_put(userdir, "posts/2024-02-03-gw.md", "---\ntitle: GW\n---\n"
	    "group writable\n");
	snprintf(path, sizeof(path), "%s/posts/2024-02-03-gw.md", userdir);
	chmod(path, 0664);
	/* A page bundle: its files are served under the same rule. */
	test_mkdir(userdir, "posts/bundle");
	snprintf(path, sizeof(path), "%s/posts/bundle", userdir);
	chmod(path, 0755);
	test_put(userdir, "posts/bundle/index.md", "---\ntitle: Bundle\n"
	    "date: 2024-02-04\n---\nSee [pic](pic.txt).\n");
	test_put(userdir, "posts/bundle/pic.txt", "PIC\n");
	test_put(userdir, "posts/bundle/gw.txt", "GW-PIC\n");
	snprintf(path, sizeof(path), "%s/posts/bundle/gw.txt", userdir);
	chmod(path, 0664);
	test_put(userdir, "files/a.txt", "MY-FILE\n");
	test_put(userdir, "posts/2024-02-05-d.md", "---\ntitle: D\n"
	    "draft: true\n---\nuser draft\n");
	test_put(hostdir, "posts/2024-01-02-hd.md", "---\ntitle: HD\n"
	    "draft: true\n---\nhost draft\n");
	test_put(userdir, "files/gw.txt", "GW-FILE\n");
	snprintf(path, sizeof(path), "%s/files/gw.txt", userdir);
	chmod(path, 0664);
	snprintf(path, sizeof(path), "%s/files/host.md", userdir);
	if (symlink("../../host/posts/2024-01-01-hostpost.md", path) == -1)
		perror(path);

	memset(&host, 0, sizeof(host));
	host.capsule_dir = hostdir;
	host.site_title = "Host";
	host.lang = "en";
	host.hostname = "localhost";
	host.port[SURFACE_GEMINI] = 1965;
	host.port[SURFACE_GOPHER] = 70;
	host.listings = 1;
	host.latest_posts = 10;
	host.userdirs = "public_gemini";
	/* The view of net/generation.c's user_view(). */
	user = host;
	user.userdirs = NULL;
	user.capsule_dir = userdir;
	user.base = "/~me";
	user.owned = 1;
	user.owner_uid = (unsigned)geteuid();
	user.follow_symlinks = CONFIG_LINKS_INSIDE;
	user.site_title = "~me";
}

static void
load(void)
{
	struct archive	*a;

	a = archive_load(&host);
	hsite = site_new(a, 0);
	archive_unref(a);
	a = archive_load(&user);
	usite = site_new(a, 0);
	archive_unref(a);
	users.n = 1;
	users.cfgs = &user;
	users.sites = &usite;
}

/* path over Gemini from the host, with the users; body NUL-ended. */
static int
gem(const char *path, struct response *r)
{
	struct router_req	 req = { SURFACE_GEMINI, path, NULL, 0, &users, NULL, 0 };

	response_init(r);
	router_handle(&host, hsite, &req, r);
	if (r->body != NULL && r->body != r->owned.data) {
		buf_add(&r->owned, r->body, r->bodylen);
		response_use_owned(r);
	}
	if (r->fd != -1) {
		char	 tmp[4096];
		ssize_t	 n;

		while ((n = read(r->fd, tmp, sizeof(tmp))) > 0)
			buf_add(&r->owned, tmp, (size_t)n);
		response_use_owned(r);
	}
	buf_addc(&r->owned, '\0');
	r->owned.len--;
	r->body = r->owned.data;
	return r->status;
}

static void
gph(const char *sel, struct buf *out)
{
	struct response	 r;

	response_init(&r);
	buf_init(out);
	gopher_respond(&host, hsite, &users, sel, strlen(sel), &r);
	if (r.body != NULL)
		buf_add(out, r.body, r.bodylen);
	buf_addc(out, '\0');
	out->len--;
	response_free(&r);
}

static void
test_routes(void)
{
	struct response	 r;
	struct buf	 g;

	INT_EQ(gem("/~", &r), 31, "/~: 31");
	STR_EQ(r.meta, "/~/", "to /~/");
	response_free(&r);
	INT_EQ(gem("/~/", &r), 20, "/~/: the list");
	HAS(r.body, "=> /~me/ ~me", "lists me");
	response_free(&r);
	INT_EQ(gem("/~nobody/", &r), 51, "a name nobody has: 51");
	response_free(&r);
	INT_EQ(gem("/~me", &r), 31, "/~me: 31");
	STR_EQ(r.meta, "/~me/", "to /~me/");
	response_free(&r);

	INT_EQ(gem("/~me/", &r), 20, "the user's home");
	HAS(r.body, "# My place", "the user's title");
	HAS(r.body, "=> /~me/posts/hello", "a post link under /~me/");
	HAS(r.body, "=> /~me/atom.xml", "the feed under /~me/");
	OK(strstr(r.body, "GW") == NULL, "the group-writable post is not "
	    "in the archive");
	response_free(&r);

	INT_EQ(gem("/~me/posts/hello", &r), 20, "the user's post");
	HAS(r.body, "=> /~me/ home", "/ is the user's home");
	HAS(r.body, "=> /~me/files/a.txt a file", "/files/ the user's");
	HAS(r.body, "=> /~me/tags/one/", "tags the user's");
	OK(strstr(r.body, "=> /~other") == NULL, "a link to /~other/ stays "
	    "inside (%s)", r.body);
	response_free(&r);

	INT_EQ(gem("/~me/posts", &r), 31, "/~me/posts: 31");
	STR_EQ(r.meta, "/~me/posts/", "the redirect has the base");
	response_free(&r);

	INT_EQ(gem("/~me/atom.xml", &r), 20, "the user's feed");
	HAS(r.body, "gemini://localhost/~me/posts/hello", "entries under /~me/");
	HAS(r.body, "href=\"gemini://localhost/~me/atom.xml\"", "self too");
	response_free(&r);

	INT_EQ(gem("/~me/files/a.txt", &r), 20, "the user's file");
	HAS(r.body, "MY-FILE", "its bytes");
	response_free(&r);
	INT_EQ(gem("/~me/files/gw.txt", &r), 51, "a group-writable file: 51");
	response_free(&r);
	INT_EQ(gem("/~me/files/host.md", &r), 51,
	    "a link out of the user's capsule: 51");
	response_free(&r);
	INT_EQ(gem("/~me/files/", &r), 20, "the user's files/ listing");
	HAS(r.body, "=> /~me/files/a.txt", "lists a.txt under /~me/");
	OK(strstr(r.body, "gw.txt") == NULL, "not the group-writable file");
	response_free(&r);
	INT_EQ(gem("/~me/posts/gw", &r), 51, "a group-writable post: 51");
	response_free(&r);
	INT_EQ(gem("/~me/posts/hostpost", &r), 51, "the host's post is not "
	    "the user's");
	response_free(&r);
	INT_EQ(gem("/~me/posts/bundle", &r), 20, "the user's page bundle");
	HAS(r.body, "=> /~me/posts/bundle/pic.txt", "its file under /~me/");
	response_free(&r);
	INT_EQ(gem("/~me/posts/bundle/pic.txt", &r), 20, "a bundle's file");
	HAS(r.body, "PIC", "its bytes");
	response_free(&r);
	INT_EQ(gem("/~me/posts/bundle/gw.txt", &r), 51,
	    "a group-writable file of a bundle: 51");
	response_free(&r);
	INT_EQ(gem("/~me/~me/", &r), 51, "/~me/~me/: no users inside");
	response_free(&r);

	gph("/~/", &g);
	HAS(g.data, "1~me\t/~me/\tlocalhost\t70", "Gopher: the list");
	buf_free(&g);
	gph("/~me/posts/hello/", &g);
	HAS(g.data, "\t/~me/files/a.txt\tlocalhost\t70", "Gopher: the menu's "
	    "items under /~me/");
	HAS(g.data, "\t/~me/tags/one/\t", "Gopher: the tag's");
	buf_free(&g);
	gph("/~me/posts/hello", &g);
	HAS(g.data, "gopher://localhost:70/0/~me/files/a.txt", "Gopher text: "
	    "references under /~me/");
	HAS(g.data, "gopher://localhost:70/1/~me/", "Gopher text: home");
	buf_free(&g);
	gph("/~me/posts", &g);
	HAS(g.data, "\t/~me/posts/hello/\t", "Gopher follows the redirect "
	    "inside the user's capsule");
	buf_free(&g);
	gph("/~me/search\thello", &g);
	HAS(g.data, "\t/~me/posts/hello/\t", "Gopher search in the user's "
	    "capsule");
	OK(strstr(g.data, "hostpost") == NULL, "not the host's posts");
	buf_free(&g);
}

/* A writer of the host (titan_writers) reads no user's drafts. */
static void
test_drafts(void)
{
	struct router_req	 req = { SURFACE_GEMINI, "/~me/drafts/d", NULL, 1,
				    &users, NULL, 0 };
	struct response		 r;

	response_init(&r);
	router_handle(&host, hsite, &req, &r);
	INT_EQ(r.status, 51, "a host writer: no user's draft");
	response_free(&r);
	req.path = "/drafts/hd";
	response_init(&r);
	router_handle(&host, hsite, &req, &r);
	INT_EQ(r.status, 20, "while the host's own draft is there for them");
	response_free(&r);
}

/* Without users, /~me/ is the host's own path, and not found. */
static void
test_off(void)
{
	struct router_req	 req = { SURFACE_GEMINI, "/~/", NULL, 0, NULL, NULL, 0 };
	struct response		 r;

	response_init(&r);
	router_handle(&host, hsite, &req, &r);
	INT_EQ(r.status, 51, "req->users NULL: /~/ not found");
	response_free(&r);
	host.userdirs = NULL;
	req.users = &users;
	response_init(&r);
	router_handle(&host, hsite, &req, &r);
	INT_EQ(r.status, 51, "userdirs off: /~/ not found");
	response_free(&r);
	host.userdirs = "public_gemini";
}

static const struct harness_test tests[] = {
	TEST(test_routes),
	TEST(test_drafts),
	TEST(test_off),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	if (mkdtemp(top) == NULL) {
		perror(top);
		return 2;
	}
	chmod(top, 0755);
	umask(022);
	setup();
	load();
	harness_run();
	site_unref(hsite);
	site_unref(usite);
	test_rm_tree(top);
	return harness_done();
}
