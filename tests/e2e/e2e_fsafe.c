/*
 * e2e_fsafe.c -- no way out of the capsule, over the real server:
 * ".." in every encoding (Gemini and Gopher), absolute paths, symbolic
 * links under each follow_symlinks setting, FIFOs, sockets and devices
 * (refused, and never opened: inotify sees no IN_OPEN), a file that
 * shrinks while it is sent (cut short without close_notify), one that
 * is unlinked while sent (sent whole), unreadable files (skipped as
 * root, who reads everything; see e2e_privs.c), and the files of a page
 * bundle (no hidden file, no link of any kind).  Small files are served
 * from memory once read (file_cache_max): a file already served that
 * gains a second name, becomes a link into posts/ or is renamed hidden
 * is refused again within a bounded time (the watcher's new site).
 */
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/un.h>

#include "e2e.h"

static SSL_CTX		*ctx;
static char		 top[] = "/tmp/capsuled-e2e-fsafe.XXXXXX";
static char		 capsule[512];
static int		 skipped;
static int		 have_dev;

static void
path_of(char *out, size_t len, const char *rel)
{
	snprintf(out, len, "%s/%s", capsule, rel);
}

static void
make_capsule(void)
{
	char			 p[1024], t[1024];
	struct sockaddr_un	 sun;
	int			 fd;

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	path_of(p, sizeof(p), "files");
	mkdir(p, 0755);
	path_of(p, sizeof(p), "files/sub");
	mkdir(p, 0755);
	path_of(p, sizeof(p), "index.md");
	test_write(p, "# Files\n");
	path_of(p, sizeof(p), "files/a.txt");
	test_write(p, "plain text\n");
	path_of(p, sizeof(p), "files/sub/b.txt");
	test_write(p, "bee\n");
	snprintf(p, sizeof(p), "%s/secret.txt", top);
	test_write(p, "TOP-SECRET\n");
	snprintf(p, sizeof(p), "%s/outside", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/outside/x.txt", top);
	test_write(p, "TOP-SECRET outside\n");

	/* Links: two that stay inside, four that lead out. */
	path_of(p, sizeof(p), "files/in-link");
	(void)!symlink("a.txt", p);
	path_of(p, sizeof(p), "files/in-dir");
	(void)!symlink("sub", p);
	path_of(p, sizeof(p), "files/out-abs");
	snprintf(t, sizeof(t), "%s/secret.txt", top);
	(void)!symlink(t, p);
	path_of(p, sizeof(p), "files/out-rel");
	(void)!symlink("../../secret.txt", p);
	path_of(p, sizeof(p), "files/out-dir");
	snprintf(t, sizeof(t), "%s/outside", top);
	(void)!symlink(t, p);
	path_of(p, sizeof(p), "files/etc");
	(void)!symlink("/etc", p);

	/* Things that are not files. */
	path_of(p, sizeof(p), "files/fifo");
	mkfifo(p, 0644);
	path_of(p, sizeof(p), "files/sock");
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(p) < sizeof(sun.sun_path))
		memcpy(sun.sun_path, p, strlen(p) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	(void)!bind(fd, (struct sockaddr *)&sun, sizeof(sun));
	close(fd);
	path_of(p, sizeof(p), "files/null");
	have_dev = mknod(p, S_IFCHR | 0666, makedev(1, 3)) == 0;

	/* A page bundle: a post, its files, and what may not be served. */
	path_of(p, sizeof(p), "posts");
	mkdir(p, 0755);
	path_of(p, sizeof(p), "posts/2024-01-01-b");
	mkdir(p, 0755);
	path_of(p, sizeof(p), "posts/2024-01-01-b/sub");
	mkdir(p, 0755);
	path_of(p, sizeof(p), "posts/2024-01-01-b/index.md");
	test_write(p, "# Bundle\n\n![pic](pic.txt)\n");
	path_of(p, sizeof(p), "posts/2024-01-01-b/pic.txt");
	test_write(p, "bundle file\n");
	path_of(p, sizeof(p), "posts/2024-01-01-b/sub/deep.txt");
	test_write(p, "deep file\n");
	path_of(p, sizeof(p), "posts/2024-01-01-b/.hidden.txt");
	test_write(p, "TOP-SECRET hidden\n");
	path_of(p, sizeof(p), "posts/draft.md");
	test_write(p, "---\ndate: 2024-01-02\ndraft: true\n---\n"
	    "TOP-SECRET draft\n");
	path_of(p, sizeof(p), "posts/2024-01-01-b/in-link");
	(void)!symlink("pic.txt", p);
	path_of(p, sizeof(p), "posts/2024-01-01-b/to-draft");
	(void)!symlink("../draft.md", p);
	path_of(p, sizeof(p), "posts/2024-01-01-b/out-rel");
	(void)!symlink("../../../secret.txt", p);
	/* A folder that is a link is no bundle, even with an index. */
	snprintf(p, sizeof(p), "%s/outside/index.md", top);
	test_write(p, "---\ndate: 2024-01-03\n---\nTOP-SECRET post\n");
	path_of(p, sizeof(p), "posts/2024-01-03-linked");
	snprintf(t, sizeof(t), "%s/outside", top);
	(void)!symlink(t, p);

	/* Big, sparse: for the shrinking and vanishing cases. */
	path_of(p, sizeof(p), "files/shrink.bin");
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	(void)!ftruncate(fd, 64 << 20);
	close(fd);
	path_of(p, sizeof(p), "files/vanish.bin");
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	(void)!ftruncate(fd, 8 << 20);
	close(fd);
}

static int
leaked(const struct buf *b)
{
	return b->data != NULL && (strstr(b->data, "TOP-SECRET") != NULL ||
	    strstr(b->data, "root:") != NULL);
}

static void
expect(int port, const char *path, int status, const char *needle)
{
	struct reply	 r = e2e_gemini_get(port, ctx, "%s", path);

	OK(r.status == status, "%s: status %d, want %d (%s)", path, r.status,
	    status, r.header);
	if (needle != NULL)
		OK(r.body.data != NULL && strstr(r.body.data, needle) != NULL,
		    "%s: has \"%s\"", path, needle);
	else
		OK(!leaked(&r.body), "%s: nothing from outside", path);
	reply_free(&r);
}

/* expect(), polled until it holds (5 s at most): the watcher's rebuild. */
static void
expect_soon(int port, const char *path, int status, const char *needle)
{
	struct reply	 r;
	uint64_t	 t0 = e2e_now_ms();
	int		 done;

	for (;;) {
		r = e2e_gemini_get(port, ctx, "%s", path);
		done = r.status == status && (needle == NULL ?
		    !leaked(&r.body) : r.body.data != NULL &&
		    strstr(r.body.data, needle) != NULL);
		reply_free(&r);
		if (done || e2e_now_ms() - t0 > 5000)
			break;
		e2e_sleep_ms(20);
	}
	expect(port, path, status, needle);
}

/* path_of(rel) replaced by a symbolic link to target, in one rename. */
static void
relink(const char *rel, const char *target)
{
	char	 p[1024], t[1100];

	path_of(p, sizeof(p), rel);
	snprintf(t, sizeof(t), "%s.tmp-link", p);
	OK(symlink(target, t) == 0 && rename(t, p) == 0, "%s -> %s", rel,
	    target);
}

/*
 * Files kept in memory: whatever would refuse a file refuses it again
 * once it has been served from memory.
 */
static void
test_kept(struct e2e_server *s)
{
	char	 p[1024], q[1024];

	path_of(p, sizeof(p), "files/kept-c.txt");
	test_write(p, "cee file\n");
	expect_soon(s->gemini_port, "/files/kept-c.txt", 20, "cee file");
	expect(s->gemini_port, "/files/kept-c.txt", 20, "cee file");
	/* A second name, from outside the capsule. */
	snprintf(q, sizeof(q), "%s/kept-c-link", top);
	OK(link(p, q) == 0, "a hard link to a kept file");
	expect_soon(s->gemini_port, "/files/kept-c.txt", 51, NULL);
	OK(unlink(q) == 0, "the second name gone");
	expect_soon(s->gemini_port, "/files/kept-c.txt", 20, "cee file");

	/* Replaced by a link into posts/ (a draft's source). */
	path_of(p, sizeof(p), "files/kept-d.txt");
	test_write(p, "dee file\n");
	expect_soon(s->gemini_port, "/files/kept-d.txt", 20, "dee file");
	relink("files/kept-d.txt", "../posts/draft.md");
	expect_soon(s->gemini_port, "/files/kept-d.txt", 51, NULL);

	/* Renamed to a hidden name. */
	path_of(p, sizeof(p), "files/kept-e.txt");
	test_write(p, "eee file\n");
	expect_soon(s->gemini_port, "/files/kept-e.txt", 20, "eee file");
	path_of(q, sizeof(q), "files/.kept-e.txt");
	OK(rename(p, q) == 0, "renamed hidden");
	expect_soon(s->gemini_port, "/files/kept-e.txt", 51, NULL);
	expect(s->gemini_port, "/files/.kept-e.txt", 51, NULL);

	/* A bundle's file replaced by a link (none is followed there). */
	path_of(p, sizeof(p), "posts/2024-01-01-b/kept.txt");
	test_write(p, "kept bundle file\n");
	expect_soon(s->gemini_port, "/posts/b/kept.txt", 20,
	    "kept bundle file");
	relink("posts/2024-01-01-b/kept.txt", "pic.txt");
	expect_soon(s->gemini_port, "/posts/b/kept.txt", 51, NULL);
}

/*
 * A page bundle's files: served beside its post on both protocols, but
 * no hidden file, no directory, not the post's source, and no symbolic
 * link at all, whatever follow_symlinks says.
 */
static void
test_bundle(struct e2e_server *s)
{
	struct buf	 b;
	int		 len;
	char		 req[256];

	expect(s->gemini_port, "/posts/b", 20,
	    "=> /posts/b/pic.txt pic");
	expect(s->gemini_port, "/posts/b/pic.txt", 20, "bundle file");
	expect(s->gemini_port, "/posts/b/sub/deep.txt", 20, "deep file");
	expect(s->gemini_port, "/posts/b/.hidden.txt", 51, NULL);
	expect(s->gemini_port, "/posts/b/%2Ehidden.txt", 51, NULL);
	expect(s->gemini_port, "/posts/b/index.md", 51, NULL);
	expect(s->gemini_port, "/posts/b/sub/", 51, NULL);
	expect(s->gemini_port, "/posts/b/sub", 51, NULL);
	expect(s->gemini_port, "/posts/b/in-link", 51, NULL);
	expect(s->gemini_port, "/posts/b/to-draft", 51, NULL);
	expect(s->gemini_port, "/posts/b/out-rel", 51, NULL);
	expect(s->gemini_port, "/posts/b/../draft", 59, NULL);
	expect(s->gemini_port, "/posts/linked", 51, NULL);
	expect(s->gemini_port, "/posts/2024-01-03-linked/index.md", 51, NULL);
	len = snprintf(req, sizeof(req), "/posts/b/pic.txt\r\n");
	OK(e2e_plain(s->gopher_port, req, (size_t)len, &b) == 0 &&
	    b.data != NULL && strstr(b.data, "bundle file") != NULL,
	    "gopher: the bundle's file");
	buf_free(&b);
	len = snprintf(req, sizeof(req), "/posts/b\r\n");
	OK(e2e_plain(s->gopher_port, req, (size_t)len, &b) == 0 &&
	    b.data != NULL && strstr(b.data, "/0/posts/b/pic.txt") != NULL,
	    "gopher: the post's reference names the file, type 0");
	buf_free(&b);
	len = snprintf(req, sizeof(req), "/posts/b/to-draft\r\n");
	OK(e2e_plain(s->gopher_port, req, (size_t)len, &b) == 0 &&
	    !leaked(&b), "gopher: no link followed");
	buf_free(&b);
}

/* ".." and friends, in every spelling we could think of. */
static void
test_dots(struct e2e_server *s)
{
	static const char *const gem[] = {
		"/files/../../secret.txt", "/files/%2e%2e/%2e%2e/secret.txt",
		"/files/%2E%2E%2F%2E%2E%2Fsecret.txt",
		"/files/..%2f..%2fsecret.txt",
		"/files/.%2e/.%2e/secret.txt", "/files/%2e./%2e./secret.txt",
		"/files/%252e%252e/%252e%252e/secret.txt",
		"/files/%c0%ae%c0%ae/%c0%ae%c0%ae/secret.txt",	/* overlong */
		"/files/%e0%80%ae%e0%80%ae/secret.txt",
		"/files/..%5c..%5csecret.txt", "/files/..\\..\\secret.txt",
		"/files/%e2%80%a5/secret.txt",			/* U+2025 */
		"/./files/../../secret.txt", "//files/../../secret.txt",
		"/files//../../secret.txt", "/files/sub/../../../secret.txt",
		"/files/%00/../../secret.txt", "/files/a.txt/../../secret.txt",
		"//etc/passwd", "/files//etc/passwd", "/files/%2fetc%2fpasswd",
		"/files/etc/passwd", "/files/out-dir/x.txt",
		"/files/out-abs", "/files/out-rel", "/%2e%2e/%2e%2e/etc/passwd",
		"/files/../../../../../../../../etc/passwd",
	};
	static const char *const gph[] = {
		"../secret.txt", "/../secret.txt", "/files/../../secret.txt",
		"files/../../secret.txt", "/files/%2e%2e/%2e%2e/secret.txt",
		"/files/..%2f..%2fsecret.txt", "\\..\\..\\secret.txt",
		"/files/..\\..\\secret.txt", "//etc/passwd",
		"/files//etc/passwd",
		"/files/etc/passwd", "/files/out-abs", "/files/out-rel",
		"/files/out-dir/x.txt",
		"/files/\xc0\xae\xc0\xae/secret.txt",
		"/files/../../../../../../etc/passwd",
	};
	struct buf	 out;
	char		 line[1100];
	size_t		 i;
	int		 len;

	for (i = 0; i < nitems(gem); i++) {
		struct reply r = e2e_gemini_get(s->gemini_port, ctx, "%s",
		    gem[i]);

		OK(r.status / 10 == 5, "%s: status %d, want 5x", gem[i],
		    r.status);
		OK(!leaked(&r.body), "%s: leaked bytes from outside", gem[i]);
		reply_free(&r);
	}
	for (i = 0; i < nitems(gph); i++) {
		len = snprintf(line, sizeof(line), "%s\r\n", gph[i]);
		OK(e2e_plain(s->gopher_port, line, (size_t)len, &out) == 0,
		    "gopher %s: answered", gph[i]);
		OK(!leaked(&out), "gopher %s: leaked bytes from outside",
		    gph[i]);
		OK(out.len > 0 && out.data[0] == '3', "gopher %s: an error "
		    "(%.40s)", gph[i], out.data ? out.data : "");
		buf_free(&out);
	}
}

/* FIFOs, sockets and devices: 51, and never opened. */
static void
test_specials(struct e2e_server *s)
{
	static const char *const rel[] = { "files/fifo", "files/null" };
	char		 p[1024], evbuf[4096];
	struct reply	 r;
	int		 in, wd[2], i;
	ssize_t		 n;

	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	for (i = 0; i < 2; i++) {
		path_of(p, sizeof(p), rel[i]);
		wd[i] = inotify_add_watch(in, p, IN_OPEN);
	}
	expect(s->gemini_port, "/files/fifo", 51, NULL);
	expect(s->gemini_port, "/files/sock", 51, NULL);
	if (have_dev)
		expect(s->gemini_port, "/files/null", 51, NULL);
	else {
		skipped++;
		fprintf(stderr, "SKIPPED: no device test (mknod not "
		    "permitted here)\n");
	}
	e2e_sleep_ms(100);
	n = read(in, evbuf, sizeof(evbuf));
	OK(wd[0] != -1 && n == -1 && errno == EAGAIN,
	    "the FIFO and the device were never opened (inotify: %zd bytes "
	    "of IN_OPEN events)", n);
	close(in);
	/* A directory listing does not offer them either. */
	r = e2e_gemini_get(s->gemini_port, ctx, "/files/");
	OK(r.status == 20 && r.body.data != NULL &&
	    strstr(r.body.data, "a.txt") != NULL &&
	    strstr(r.body.data, "fifo") == NULL &&
	    strstr(r.body.data, "sock") == NULL &&
	    strstr(r.body.data, "=> /files/null") == NULL,
	    "listing leaves out FIFOs, sockets and devices");
	reply_free(&r);
}

/* The file shrinks mid-response: cut short, no close_notify. */
static void
test_shrink(struct e2e_server *s)
{
	static const char req[] = "gemini://localhost/files/shrink.bin\r\n";
	char		 p[1024], chunk[16384];
	size_t		 got = 0;
	SSL		*ssl;
	int		 fd, n, err, rcv = 65536;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	close(fd);
	fd = e2e_connect(s->gemini_port, 5000);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	ssl = SSL_new(ctx);
	SSL_set_fd(ssl, fd);
	OK(SSL_connect(ssl) == 1 && SSL_write(ssl, req, sizeof(req) - 1) > 0,
	    "asked for 64 MiB");
	while (got < (1 << 20) && (n = SSL_read(ssl, chunk,
	    sizeof(chunk))) > 0)
		got += (size_t)n;
	path_of(p, sizeof(p), "files/shrink.bin");
	OK(truncate(p, 0) == 0, "truncated the file mid-response");
	while ((n = SSL_read(ssl, chunk, sizeof(chunk))) > 0)
		got += (size_t)n;
	err = SSL_get_error(ssl, n);
	ERR_clear_error();
	printf("shrink: %zu of %d bytes arrived before the cut\n", got,
	    64 << 20);
	OK(got < (64u << 20), "response cut short (%zu bytes)", got);
	OK(err != SSL_ERROR_ZERO_RETURN, "no close_notify on a cut response"
	    " (SSL error %d)", err);
	SSL_free(ssl);
	close(fd);
	expect(s->gemini_port, "/files/a.txt", 20, "plain text");
}

/* The file is unlinked mid-response: the open fd keeps it whole. */
static void
test_vanish(struct e2e_server *s)
{
	static const char req[] = "gemini://localhost/files/vanish.bin\r\n";
	char		 p[1024], chunk[16384];
	size_t		 got = 0;
	SSL		*ssl;
	int		 fd, n, err;

	fd = e2e_connect(s->gemini_port, 5000);
	ssl = SSL_new(ctx);
	SSL_set_fd(ssl, fd);
	OK(SSL_connect(ssl) == 1 && SSL_write(ssl, req, sizeof(req) - 1) > 0,
	    "asked for 8 MiB");
	n = SSL_read(ssl, chunk, sizeof(chunk));
	got += n > 0 ? (size_t)n : 0;
	path_of(p, sizeof(p), "files/vanish.bin");
	OK(unlink(p) == 0, "unlinked the file mid-response");
	while ((n = SSL_read(ssl, chunk, sizeof(chunk))) > 0)
		got += (size_t)n;
	err = SSL_get_error(ssl, n);
	ERR_clear_error();
	/* "20 application/octet-stream\r\n" + 8 MiB */
	OK(got > (8u << 20) && got < (8u << 20) + 64, "sent whole (%zu)",
	    got);
	INT_EQ(err, SSL_ERROR_ZERO_RETURN, "close_notify after the last byte");
	SSL_free(ssl);
	close(fd);
	expect(s->gemini_port, "/files/vanish.bin", 51, NULL);
}

static const struct harness_test tests[] = {
	NAMED("dots"),
	NAMED("bundle"),
	NAMED("kept"),
	NAMED("specials"),
	NAMED("shrink"),
	NAMED("vanish"),
};

int
main(int argc, char **argv)
{
	struct e2e_server	 s;
	char			 cmd[700];
	int			 found;

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	chmod(top, 0755);
	make_capsule();
	ctx = e2e_client_ctx(0);

	/* follow_symlinks: false (the default). */
	if (e2e_start(&s, capsule, "rate_limit: 0\n") == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	expect(s.gemini_port, "/files/a.txt", 20, "plain text");
	expect(s.gemini_port, "/files/in-link", 20, "plain text");
	expect(s.gemini_port, "/files/in-dir/b.txt", 20, "bee");
	expect(s.gemini_port, "/files/out-abs", 51, NULL);
	expect(s.gemini_port, "/files/out-rel", 51, NULL);
	expect(s.gemini_port, "/files/out-dir/x.txt", 51, NULL);
	expect(s.gemini_port, "/files/etc/passwd", 51, NULL);
	RUN("dots", test_dots(&s));
	RUN("bundle", test_bundle(&s));
	RUN("kept", test_kept(&s));
	RUN("specials", test_specials(&s));
	RUN("shrink", test_shrink(&s));
	RUN("vanish", test_vanish(&s));
	setenv("E2E_KEEP", "1", 1);
	INT_EQ(e2e_stop(&s), 0, "exits 0");
	unsetenv("E2E_KEEP");
	snprintf(cmd, sizeof(cmd), "grep -q 'file shrank while sent' '%s'",
	    s.log);
	found = system(cmd) == 0;
	if (harness_selected("shrink"))		/* what shrink left */
		OK(found, "the cut response is logged");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s.dir);
	(void)!system(cmd);

	/* follow_symlinks: true: links out are followed, FIFOs still not. */
	if (e2e_start(&s, capsule, "follow_symlinks: true\n") == 0) {
		expect(s.gemini_port, "/files/out-abs", 20, "TOP-SECRET");
		expect(s.gemini_port, "/files/out-dir/x.txt", 20,
		    "TOP-SECRET outside");
		expect(s.gemini_port, "/files/in-link", 20, "plain text");
		expect(s.gemini_port, "/files/fifo", 51, NULL);
		expect(s.gemini_port, "/files/../../secret.txt", 59, NULL);
		expect(s.gemini_port, "/posts/b/out-rel", 51, NULL);
		expect(s.gemini_port, "/posts/b/in-link", 51, NULL);
		INT_EQ(e2e_stop(&s), 0, "exits 0");
	} else
		OK(0, "follow_symlinks: true: server did not start");

	/* follow_symlinks: never: not even links that stay inside. */
	if (e2e_start(&s, capsule, "follow_symlinks: never\n") == 0) {
		expect(s.gemini_port, "/files/a.txt", 20, "plain text");
		expect(s.gemini_port, "/files/in-link", 51, NULL);
		expect(s.gemini_port, "/files/in-dir/b.txt", 51, NULL);
		expect(s.gemini_port, "/files/out-abs", 51, NULL);
		INT_EQ(e2e_stop(&s), 0, "exits 0");
	} else
		OK(0, "follow_symlinks: never: server did not start");

	/* Unreadable files need a user that permissions apply to. */
	if (geteuid() == 0) {
		skipped++;
		fprintf(stderr, "SKIPPED: unreadable file: running as root, "
		    "whom mode 000 does not stop (e2e_privs.c tests it as "
		    "nobody)\n");
	} else {
		char p[1024];

		path_of(p, sizeof(p), "files/locked.txt");
		test_write(p, "locked\n");
		chmod(p, 0);
		if (e2e_start(&s, capsule, "") == 0) {
			expect(s.gemini_port, "/files/locked.txt", 51, NULL);
			INT_EQ(e2e_stop(&s), 0, "exits 0");
		}
	}

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	SSL_CTX_free(ctx);
	printf("%d passed, %d failed, %d skipped\n", harness_passed,
	    harness_failed, skipped);
	return harness_failed == 0 ? 0 : 1;
}
