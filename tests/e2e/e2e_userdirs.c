/*
 * e2e_userdirs.c -- user capsules ("userdirs") over the real server,
 * with real local users made by useradd for the test and removed after
 * (needs root: skipped otherwise, with the reason).
 *
 * Users: A and B publish (UIDs in the configured range); D's capsule is
 * writable by its group (refused, logged); C publishes but is outside
 * the range; E appears after the start and is published on SIGHUP.
 * Checked: A's post at /~A/posts/x over Gemini and Gopher with every
 * link, selector, feed URL and redirect under /~A/; /~/ lists A and B
 * only, on both protocols; a group-writable post and file, a file that
 * is not A's, and a symbolic link out of A's capsule (into B's) are not
 * served, each with a log line naming it; a root-relative link of A's
 * to /~B/ stays within A's capsule; "..", and /~A/~B/, do not reach B;
 * an edit in A's capsule goes live; E shows up after SIGHUP.  Then, served
 * as nobody, a capsule nobody cannot read (0700) is not published.
 */
#include <pwd.h>

#include "e2e.h"

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 top[] = "/tmp/capsuled-e2e-userdirs.XXXXXX";
static char	 capsule[512];		/* the host's own */
static char	 name[5][32];		/* A B C D E */
static int	 made[5];
static unsigned	 base_uid;
static int	 skipped;

enum { UA, UB, UC, UD, UE };

static void	crawl_plain(void);

static void
skip(const char *why)
{
	skipped++;
	fprintf(stderr, "SKIPPED: %s\n", why);
}

static void
drop_users(void)
{
	char	 cmd[256];
	int	 i;

	for (i = 0; i < 5; i++)
		if (made[i]) {
			snprintf(cmd, sizeof(cmd), "userdel %s 2>/dev/null",
			    name[i]);
			(void)!system(cmd);
			made[i] = 0;
		}
}

/*
 * useradd user i with UID uid and a home under top (not made: we make
 * it); a few tries, since another test run may hold /etc/passwd's lock.
 */
static int
add_user(int i, unsigned uid)
{
	char	 cmd[512];
	int	 tries;

	for (tries = 0; tries < 20; tries++) {
		snprintf(cmd, sizeof(cmd), "useradd -N -M -u %u -d %s/home/%s "
		    "-s /usr/sbin/nologin %s 2>/dev/null", uid, top, name[i],
		    name[i]);
		if (system(cmd) == 0) {
			made[i] = 1;
			return 0;
		}
		e2e_sleep_ms(100);
	}
	return -1;
}

/* top/home/<user i>/public_gemini/rel, owned by the user, mode mode. */
static void
put(int i, const char *rel, const char *text, mode_t mode)
{
	struct passwd	*pw = getpwnam(name[i]);
	char		 path[512];

	snprintf(path, sizeof(path), "%s/home/%s/public_gemini/%s", top,
	    name[i], rel);
	test_write(path, "%s", text);
	if (pw != NULL && chown(path, pw->pw_uid, pw->pw_gid) == -1)
		perror(path);
	chmod(path, mode);
}

/* The home and capsule of user i, their folders owned by the user. */
static void
make_home(int i, mode_t capmode)
{
	static const char *const dirs[] = { "", "/public_gemini",
	    "/public_gemini/posts", "/public_gemini/files" };
	struct passwd	*pw = getpwnam(name[i]);
	char		 path[512];
	size_t		 k;

	for (k = 0; k < nitems(dirs); k++) {
		snprintf(path, sizeof(path), "%s/home/%s%s", top, name[i],
		    dirs[k]);
		mkdir(path, 0755);
		if (pw != NULL && chown(path, pw->pw_uid, pw->pw_gid) == -1)
			perror(path);
		chmod(path, k == 1 ? capmode : 0755);
	}
}

/* A Gopher selector's whole answer into out (empty on failure). */

static void
make_users(void)
{
	char	 path[512];
	int	 i, tries;

	static const unsigned off[] = { 0, 1, 2, 3, 8 };

	/* Free UIDs, somewhere no distribution hands out. */
	for (tries = 0; tries < 50; tries++) {
		base_uid = 62000 + (unsigned)((getpid() + tries * 11) % 3000);
		for (i = 0; i < 5; i++)
			if (getpwuid(base_uid + off[i]) != NULL)
				break;
		if (i == 5)
			break;
	}
	for (i = 0; i < 5; i++)
		snprintf(name[i], sizeof(name[i]), "cud%c%d", 'a' + i,
		    (int)(getpid() % 100000));
	snprintf(path, sizeof(path), "%s/home", top);
	mkdir(path, 0755);
	chmod(top, 0755);
	/* A, B and D in the range [base, base + 2]; C out of it. */
	add_user(UA, base_uid);
	add_user(UB, base_uid + 1);
	add_user(UD, base_uid + 2);
	add_user(UC, base_uid + 8);
}

static void
fill_capsules(void)
{
	char	 path[512], to[512], text[512];

	make_home(UA, 0755);
	put(UA, "index.md", "---\ntitle: Aye's place\n---\nWelcome.\n", 0644);
	snprintf(text, sizeof(text), "---\ntitle: Hello\ntags: [one]\n---\n"
	    "Hi. [home](/) and [the file](/files/a.txt), and "
	    "[B's post](/~%s/posts/bee).\n", name[UB]);
	put(UA, "posts/2024-01-01-hello.md", text, 0644);
	put(UA, "posts/2024-01-02-groupw.md", "---\ntitle: GW\n---\nno\n",
	    0664);
	put(UA, "files/a.txt", "plain text of A\n", 0644);
	put(UA, "files/gw.txt", "group writable\n", 0664);
	/* A file in A's capsule that is not A's. */
	snprintf(path, sizeof(path), "%s/home/%s/public_gemini/files/root.txt",
	    top, name[UA]);
	test_write(path, "root's\n");
	chmod(path, 0644);

	make_home(UB, 0755);
	put(UB, "index.md", "---\ntitle: Bee's place\n---\nBzz.\n", 0644);
	put(UB, "posts/2024-03-03-bee.md", "---\ntitle: Bee\n---\n"
	    "SECRET-OF-BEE\n", 0644);
	/* A link of A's, leading into B's capsule. */
	snprintf(path, sizeof(path), "%s/home/%s/public_gemini/files/b.md",
	    top, name[UA]);
	snprintf(to, sizeof(to), "%s/home/%s/public_gemini/posts/"
	    "2024-03-03-bee.md", top, name[UB]);
	if (symlink(to, path) == 0) {
		struct passwd *pw = getpwnam(name[UA]);

		if (pw != NULL)
			(void)!lchown(path, pw->pw_uid, pw->pw_gid);
	}

	make_home(UC, 0755);
	put(UC, "index.md", "---\ntitle: Out of range\n---\nC\n", 0644);
	make_home(UD, 0775);		/* group-writable: refused */
	put(UD, "index.md", "---\ntitle: Dee\n---\nD\n", 0644);
}

static void
test_user_capsule(void)
{
	struct reply	 r;
	struct buf	 g;
	char		 want[256];

	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/posts/hello", name[UA]);
	INT_EQ(r.status, 20, "A's post over Gemini");
	snprintf(want, sizeof(want), "=> /~%s/ home", name[UA]);
	HAS(r.body.data, want, "a link to / is A's home");
	snprintf(want, sizeof(want), "=> /~%s/files/a.txt", name[UA]);
	HAS(r.body.data, want, "a link to /files/ is A's files/");
	snprintf(want, sizeof(want), "=> /~%s/tags/one/", name[UA]);
	HAS(r.body.data, want, "the tag link is A's");
	snprintf(want, sizeof(want), "=> /~%s/", name[UB]);
	OK(strstr(r.body.data ? r.body.data : "", want) == NULL,
	    "A's root-relative link to /~B/ does not lead to B");
	reply_free(&r);

	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/", name[UA]);
	INT_EQ(r.status, 20, "A's home");
	HAS(r.body.data, "# Aye's place", "A's title");
	snprintf(want, sizeof(want), "=> /~%s/atom.xml", name[UA]);
	HAS(r.body.data, want, "A's feed link");
	reply_free(&r);

	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/posts", name[UA]);
	INT_EQ(r.status, 31, "/~A/posts redirects");
	snprintf(want, sizeof(want), "31 /~%s/posts/", name[UA]);
	STR_EQ(r.header, want, "to /~A/posts/");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s", name[UA]);
	snprintf(want, sizeof(want), "31 /~%s/", name[UA]);
	STR_EQ(r.header, want, "/~A redirects to /~A/");
	reply_free(&r);

	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/atom.xml", name[UA]);
	INT_EQ(r.status, 20, "A's Atom feed");
	snprintf(want, sizeof(want), "gemini://localhost:%d/~%s/posts/hello",
	    srv.gemini_port, name[UA]);
	HAS(r.body.data, want, "the feed's entry is under /~A/");
	reply_free(&r);

	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/search?hello", name[UA]);
	INT_EQ(r.status, 20, "search within A's capsule");
	snprintf(want, sizeof(want), "=> /~%s/posts/hello", name[UA]);
	HAS(r.body.data, want, "finds A's post, under /~A/");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/search?SECRET-OF-BEE",
	    name[UA]);
	OK(strstr(r.body.data ? r.body.data : "", "Bee") == NULL,
	    "A's search does not find B's post");
	reply_free(&r);

	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/files/a.txt", name[UA]);
	INT_EQ(r.status, 20, "A's file");
	HAS(r.body.data, "plain text of A", "its bytes");
	reply_free(&r);

	e2e_gopher_get(srv.gopher_port, &g, "/~%s/posts/hello/", name[UA]);
	snprintf(want, sizeof(want), "\t/~%s/files/a.txt\t", name[UA]);
	HAS(g.data, want, "Gopher: the post's menu selects A's file");
	snprintf(want, sizeof(want), "\t/~%s/tags/one/\t", name[UA]);
	HAS(g.data, want, "Gopher: the tag is A's");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/~%s/posts/hello", name[UA]);
	snprintf(want, sizeof(want), "gopher://localhost:%d/0/~%s/files/a.txt",
	    srv.gopher_port, name[UA]);
	HAS(g.data, want, "Gopher text: the reference is under /~A/");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/~%s/posts", name[UA]);
	HAS(g.data, "2024-01-01 Hello\t", "Gopher follows /~A/posts to the "
	    "archive");
	buf_free(&g);
}

static void
test_listing(void)
{
	struct reply	 r;
	struct buf	 g;
	char		 want[256];

	r = e2e_gemini_get(srv.gemini_port, ctx, "/~/");
	INT_EQ(r.status, 20, "/~/");
	snprintf(want, sizeof(want), "=> /~%s/ ~%s", name[UA], name[UA]);
	HAS(r.body.data, want, "lists A");
	snprintf(want, sizeof(want), "=> /~%s/ ~%s", name[UB], name[UB]);
	HAS(r.body.data, want, "lists B");
	OK(strstr(r.body.data ? r.body.data : "", name[UC]) == NULL,
	    "not C, out of the UID range");
	OK(strstr(r.body.data ? r.body.data : "", name[UD]) == NULL,
	    "not D, whose capsule is group-writable");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~");
	STR_EQ(r.header, "31 /~/", "/~ redirects to /~/");
	reply_free(&r);
	e2e_gopher_get(srv.gopher_port, &g, "/~/");
	snprintf(want, sizeof(want), "1~%s\t/~%s/\t", name[UA], name[UA]);
	HAS(g.data, want, "Gopher: /~/ lists A as a menu");
	buf_free(&g);

	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/", name[UC]);
	INT_EQ(r.status, 51, "C: not published");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/", name[UD]);
	INT_EQ(r.status, 51, "D: not published");
	reply_free(&r);
	snprintf(want, sizeof(want), "home/%s/public_gemini of %s: writable "
	    "by group or others, not published", name[UD], name[UD]);
	OK(e2e_log_count(&srv, want) > 0, "the log names D's capsule");
}

static void
test_refusals(void)
{
	struct reply	 r;
	struct buf	 g;
	char		 want[256];

	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/posts/groupw", name[UA]);
	INT_EQ(r.status, 51, "a group-writable post is not served");
	reply_free(&r);
	snprintf(want, sizeof(want), "public_gemini/posts/2024-01-02-groupw.md"
	    ":1:1: not owned by UID %u alone", base_uid);
	OK(e2e_log_count(&srv, want) > 0, "the log names the post");
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/files/gw.txt", name[UA]);
	INT_EQ(r.status, 51, "a group-writable file is not served");
	reply_free(&r);
	OK(e2e_log_count(&srv, "files/gw.txt: not owned by UID") > 0,
	    "the log names the file");
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/files/root.txt",
	    name[UA]);
	INT_EQ(r.status, 51, "a file that is not A's is not served");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/files/b.md", name[UA]);
	INT_EQ(r.status, 51, "a link out of A's capsule is not followed");
	OK(strstr(r.body.data ? r.body.data : "", "SECRET") == NULL,
	    "nothing of B's file");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/files/", name[UA]);
	OK(strstr(r.body.data ? r.body.data : "", "gw.txt") == NULL &&
	    strstr(r.body.data ? r.body.data : "", "root.txt") == NULL,
	    "the listing leaves out what is not served");
	reply_free(&r);

	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/../~%s/posts/bee",
	    name[UA], name[UB]);
	OK(r.status != 20, "/~A/../~B/...: not B's post over Gemini (%d)",
	    r.status);
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/~%s/posts/bee",
	    name[UA], name[UB]);
	INT_EQ(r.status, 51, "/~A/~B/posts/bee: not found in A's capsule");
	reply_free(&r);
	e2e_gopher_get(srv.gopher_port, &g, "/~%s/../~%s/posts/bee", name[UA],
	    name[UB]);
	OK(strstr(g.data ? g.data : "", "SECRET") == NULL,
	    "Gopher: /~A/../~B/ is not B's post");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/~%s/~%s/posts/bee", name[UA],
	    name[UB]);
	OK(strstr(g.data ? g.data : "", "SECRET") == NULL,
	    "Gopher: /~A/~B/ is not B's post");
	buf_free(&g);
	/* B's post is there, at its own place. */
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/posts/bee", name[UB]);
	INT_EQ(r.status, 20, "B's post at /~B/posts/bee");
	reply_free(&r);
}

static void
test_live(void)
{
	char	 path[256], extra[256];

	put(UA, "posts/2024-05-05-fresh.md", "---\ntitle: Fresh\n---\nNew.\n",
	    0644);
	snprintf(path, sizeof(path), "/~%s/posts/fresh", name[UA]);
	OK(e2e_gemini_wait(srv.gemini_port, ctx, path, 20, NULL, 1,
	    10000) >= 0, "an edit in A's capsule goes live");

	/* E appears: published after SIGHUP. */
	add_user(UE, base_uid + 3);
	make_home(UE, 0755);
	/* A plain capsule: gemtext files, no layout (a static tree). */
	put(UE, "index.gmi", "# Eee's plain capsule\n=> files/ Notes\n", 0644);
	put(UE, "files/note.gmi", "# A note of Eee's\n=> ../ Home\n", 0644);
	snprintf(extra, sizeof(extra), "userdirs: public_gemini\n"
	    "userdirs_uid_min: %u\nuserdirs_uid_max: %u\n", base_uid,
	    base_uid + 3);
	e2e_write_config(&srv, srv.gopher_port, capsule, "", extra);
	kill(srv.pid, SIGHUP);
	snprintf(path, sizeof(path), "/~%s/", name[UE]);
	OK(e2e_gemini_wait(srv.gemini_port, ctx, path, 20, NULL, 1,
	    10000) >= 0, "a new user's capsule after SIGHUP");
	crawl_plain();
}

/*
 * E's capsule has no layout: served as a static tree at /~E/, every
 * link of it answering 20, listed with titles under its base.
 */
static void
crawl_plain(void)
{
	static const char *const paths[] = { "/", "/files/", "/files/note.gmi" };
	struct reply	 r;
	struct buf	 g;
	char		 want[128];
	size_t		 i;

	for (i = 0; i < nitems(paths); i++) {
		r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s%s", name[UE],
		    paths[i]);
		INT_EQ(r.status, 20, paths[i]);
		if (i == 0)
			OK(strstr(r.body.data, "# Eee's plain capsule") != NULL,
			    "a plain capsule's index.gmi is its home");
		if (i == 1) {
			snprintf(want, sizeof(want),
			    "=> /~%s/files/note.gmi A note of Eee's", name[UE]);
			OK(strstr(r.body.data, want) != NULL,
			    "its listing, titled, under its base");
		}
		reply_free(&r);
	}
	OK(e2e_gopher_get(srv.gopher_port, &g, "/~%s/files/", name[UE]) == 0,
	    "Gopher: an answer");
	snprintf(want, sizeof(want), "1A note of Eee's\t/~%s/files/note.gmi/\t",
	    name[UE]);
	OK(g.data != NULL && strstr(g.data, want) != NULL,
	    "Gopher: the plain capsule's menu");
	buf_free(&g);
}

/*
 * Served as nobody: A's capsule (0755, 0644) is read, B's made 0700 is
 * not published, and the log says why.
 */
static void
test_nobody(const char *userdirs)
{
	struct reply	 r;
	char		 path[512], extra[512], want[256];

	if (getpwnam("nobody") == NULL) {
		skip("no user nobody on this system");
		return;
	}
	snprintf(path, sizeof(path), "%s/home/%s/public_gemini", top,
	    name[UB]);
	chmod(path, 0700);
	snprintf(extra, sizeof(extra), "user: nobody\n%s", userdirs);
	if (e2e_start(&srv, capsule, extra) == -1) {
		OK(0, "user: nobody: server starts");
		return;
	}
	e2e_wait_serving(&srv);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~%s/posts/hello", name[UA]);
	INT_EQ(r.status, 20, "as nobody: A's post");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/~/");
	snprintf(want, sizeof(want), "/~%s/", name[UB]);
	OK(r.status == 20 && strstr(r.body.data ? r.body.data : "", want) ==
	    NULL, "as nobody: B's 0700 capsule is not listed");
	reply_free(&r);
	snprintf(want, sizeof(want), "public_gemini of %s: Permission denied,"
	    " not published", name[UB]);
	OK(e2e_log_count(&srv, want) > 0, "the log says why");
	INT_EQ(e2e_stop(&srv), 0, "clean exit (nobody)");
}

static const struct harness_test tests[] = {
	NAMED("user_capsule"),
	NAMED("listing"),
	NAMED("refusals"),
	NAMED("live"),
	NAMED("nobody"),
};

int
main(int argc, char **argv)
{
	char	 extra[256], path[600];

	HARNESS_INIT(argc, argv, tests);

	if (geteuid() != 0) {
		skip("needs root to make users (useradd)");
		printf("0 passed, 0 failed, %d skipped\n", skipped);
		return 0;
	}
	if (system("command -v useradd >/dev/null 2>&1") != 0) {
		skip("no useradd");
		printf("0 passed, 0 failed, %d skipped\n", skipped);
		return 0;
	}
	if (mkdtemp(top) == NULL) {
		perror(top);
		return 2;
	}
	atexit(drop_users);
	make_users();
	OK(made[UA] && made[UB] && made[UC] && made[UD], "four users made");
	fill_capsules();
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	snprintf(path, sizeof(path), "%s/index.md", capsule);
	test_write(path, "---\ntitle: The host\n---\nHost.\n");
	snprintf(extra, sizeof(extra), "userdirs: public_gemini\n"
	    "userdirs_uid_min: %u\nuserdirs_uid_max: %u\n", base_uid,
	    base_uid + 2);
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, extra) == -1) {
		OK(0, "server starts");
		drop_users();
		return harness_done();
	}
	e2e_wait_serving(&srv);
	RUN("user_capsule", test_user_capsule());
	RUN("listing", test_listing());
	RUN("refusals", test_refusals());
	RUN("live", test_live());
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
	RUN("nobody", test_nobody(extra));
	SSL_CTX_free(ctx);
	drop_users();
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		(void)!system(cmd);
	}
	printf("%d passed, %d failed, %d skipped\n", harness_passed,
	    harness_failed, skipped);
	return harness_failed > 0;
}
