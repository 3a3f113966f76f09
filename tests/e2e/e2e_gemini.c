/*
 * e2e_gemini.c -- the real server over loopback TLS: every request rule
 * of the Gemini specification, the pages of a small capsule, files,
 * escapes from the capsule, close_notify, slow clients, and a clean
 * shutdown.
 */
#include "e2e.h"

static struct e2e_server srv;
static SSL_CTX *ctx;
static char capsule[512];

static void
make_capsule(const char *top)
{
	char	 path[1024], target[1024];
	FILE	*f;
	int	 i;

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md",
	    "---\ntitle: Test Capsule\nsubtitle: For tests\n---\n"
	    "Welcome to the *test* capsule.\n");
	test_put(capsule, "posts/2024-01-02-hello.md",
	    "---\ntitle: Hello World\n"
	    "tags: [intro, Gemini]\nseries: Basics\npart: 1\n---\n"
	    "First post. See [the next one](2024-02-03-second.md).\n"
	    "Also [gone](missing.md), and `[code](not-a-link.md)`.\n");
	test_put(capsule, "posts/2024-02-03-second.md",
	    "---\ntitle: Second Post\n"
	    "date: 2024-02-03\ntags: gemini, tls\nseries: Basics\npart: 2\n"
	    "---\n# Second\n\nSome `code` here.\n");
	test_put(capsule, "posts/2023-05-06-draft.md",
	    "---\ntitle: Secret Draft\n"
	    "draft: true\n---\nnot for readers\n");
	test_put(capsule, "posts/broken.md",
	    "---\ntitle: [unclosed\n---\nbody\n");
	test_put(capsule, "pages/about.md",
	    "---\ntitle: About\n---\nAbout this capsule.\n");
	test_put(capsule, "files/a.txt", "plain text\n");
	test_put(capsule, "files/sub/b.gmi", "# B\n");
	snprintf(path, sizeof(path), "%s/files/img.png", capsule);
	f = fopen(path, "wb");
	for (i = 0; i < 70000; i++)	/* > one 64 KiB chunk, with NULs */
		fputc(i % 251, f);
	fclose(f);
	/* Ways out that must all fail. */
	snprintf(path, sizeof(path), "%s/secret.txt", top);
	test_write(path, "TOP-SECRET\n");
	snprintf(path, sizeof(path), "%s/files/escape", capsule);
	snprintf(target, sizeof(target), "%s/secret.txt", top);
	(void)!symlink(target, path);
	snprintf(path, sizeof(path), "%s/files/escdir", capsule);
	(void)!symlink("/etc", path);
	snprintf(path, sizeof(path), "%s/files/up", capsule);
	(void)!symlink("../../secret.txt", path);
	snprintf(path, sizeof(path), "%s/files/fifo", capsule);
	mkfifo(path, 0644);
}

/* Request URL path on our host; check status and clean close. */
static void
expect(const char *path, int status, const char *needle)
{
	struct reply	 r;

	r = e2e_gemini_get(srv.gemini_port, ctx, "%s", path);
	OK(r.status == status, "%s: status %d, want %d (header \"%s\")",
	    path, r.status, status, r.header);
	OK(r.close_notify, "%s: no close_notify", path);
	if (needle != NULL)
		HAS(r.body.data, needle, path);
	if (status / 10 != 2)
		INT_EQ(r.body.len, 0, "no body after a non-2x header");
	reply_free(&r);
}

static void
expect_raw(const char *what, const char *req, size_t len, int status)
{
	struct reply	 r;

	if (e2e_gemini_raw(srv.gemini_port, req, len, &r, ctx,
	    "localhost") == -1)
		r.status = -2;
	OK(r.status == status, "%s: status %d, want %d (\"%s\")", what,
	    r.status, status, r.header);
	OK(r.close_notify, "%s: no close_notify", what);
	OK(r.status != 20 || strstr(r.body.data ? r.body.data : "",
	    "TOP-SECRET") == NULL, "%s: leaked a file", what);
	reply_free(&r);
}

static void
test_pages(void)
{
	struct reply	 r;

	expect("/", 20, "Test Capsule");
	r = e2e_gemini_get(srv.gemini_port, ctx, "%s", "");
	INT_EQ(r.status, 20, "empty path is served as / without redirect");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/");
	OK(strncmp(r.header, "20 text/gemini", 14) == 0, "home MIME: %s",
	    r.header);
	HAS(r.header, "lang=", "text/gemini carries lang");
	HAS(r.body.data, "=> /posts/second 2024-02-03 Second Post",
	    "latest posts on home");
	OK(strstr(r.body.data, "Secret Draft") == NULL, "draft not listed");
	reply_free(&r);

	expect("/posts/", 20, "=> /posts/hello 2024-01-02 Hello World");
	expect("/posts", 31, NULL);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts");
	STR_EQ(r.header, "31 /posts/", "directory without slash redirects");
	reply_free(&r);
	expect("/posts/hello", 20, "# Hello World");
	/* A link to another post's .md file is rewritten to its path. */
	expect("/posts/hello", 20, "=> /posts/second");
	expect("/posts/second", 20, "Some `code` here.");
	expect("/posts/draft", 51, NULL);
	expect("/posts/broken", 51, NULL);
	expect("/posts/nope", 51, NULL);
	expect("/about", 20, "About this capsule.");
	expect("/nope", 51, NULL);
	expect("/tags/gemini/", 20, "Second Post");
	expect("/series/basics/", 20, "Hello World");
	expect("/gemlog/", 20, "=> /posts/hello 2024-01-02 Hello World");
	expect("/atom.xml", 20, "<feed xmlns=\"http://www.w3.org/2005/Atom\"");
}

static void
test_files(void)
{
	struct reply	 r;
	int		 i, same = 1;

	expect("/files/a.txt", 20, "plain text");
	r = e2e_gemini_get(srv.gemini_port, ctx, "/files/a.txt");
	STR_EQ(r.header, "20 text/plain; charset=utf-8", "text MIME");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/files/img.png");
	STR_EQ(r.header, "20 image/png", "image MIME");
	INT_EQ(r.body.len, 70000, "binary file length");
	for (i = 0; i < 70000 && (size_t)i < r.body.len; i++)
		if ((unsigned char)r.body.data[i] != i % 251)
			same = 0;
	OK(same, "binary file bytes exact");
	OK(r.close_notify, "close_notify after a streamed file");
	reply_free(&r);
	expect("/files/sub", 31, NULL);
	expect("/files/sub/", 20, "b.gmi");
	expect("/files/sub/b.gmi", 20, "# B");
	expect("/files/nope.txt", 51, NULL);
}

static void
test_escapes(void)
{
	static const char *const paths[] = {
		"/../secret.txt", "/files/../../secret.txt",
		"/%2e%2e/secret.txt", "/files/%2e%2e/%2e%2e/secret.txt",
		"/files/%2E%2E/%2E%2E/secret.txt", "/files/.%2e/.%2e/secret.txt",
		"/files%2f..%2f..%2fsecret.txt", "/files/escape",
		"/files/up", "/files/escdir/passwd", "/files/fifo",
		"/files/./a.txt", "/%00", "/files/a.txt%00",
		"/files/%252e%252e/secret.txt", "/..%2fsecret.txt",
	};
	char	 req[512];
	size_t	 i;
	int	 len;

	for (i = 0; i < nitems(paths); i++) {
		struct reply r;

		len = snprintf(req, sizeof(req), "gemini://localhost:%d%s\r\n",
		    srv.gemini_port, paths[i]);
		if (e2e_gemini_raw(srv.gemini_port, req, (size_t)len, &r, ctx,
		    "localhost") == -1)
			r.status = -2;
		OK(r.status / 10 == 5, "%s: status %d, want 5x", paths[i],
		    r.status);
		OK(r.body.data == NULL ||
		    (strstr(r.body.data, "TOP-SECRET") == NULL &&
		    strstr(r.body.data, "root:") == NULL),
		    "%s: leaked bytes from outside", paths[i]);
		OK(r.close_notify, "%s: no close_notify", paths[i]);
		reply_free(&r);
	}
}

static void
test_requests(void)
{
	char	 req[1200], url[1100];
	int	 len, p = srv.gemini_port;

#define RAW(what, s, st)	expect_raw(what, s, sizeof(s) - 1, st)
	RAW("userinfo", "gemini://user@localhost/\r\n", 59);
	RAW("fragment", "gemini://localhost/#frag\r\n", 59);
	RAW("no scheme", "//localhost/\r\n", 59);
	RAW("path only", "/\r\n", 59);
	RAW("relative", "foo\r\n", 59);
	RAW("empty line", "\r\n", 59);
	RAW("random text", "hello there\r\n", 59);
	RAW("invalid UTF-8", "gemini://localhost/\xdc\r\n", 59);
	RAW("BOM", "\xef\xbb\xbfgemini://localhost/\r\n", 59);
	RAW("http scheme", "http://localhost/\r\n", 53);
	RAW("https scheme", "https://localhost/\r\n", 53);
	RAW("gopher scheme", "gopher://localhost/\r\n", 53);
	RAW("other host", "gemini://example.org/\r\n", 53);
	RAW("bytes after CRLF", "gemini://localhost/\r\nextra junk", 20);
	len = snprintf(req, sizeof(req), "gemini://localhost:%d/\r\n",
	    p == 1 ? 2 : p - 1);
	expect_raw("other port", req, (size_t)len, 53);
	len = snprintf(req, sizeof(req), "GEMINI://LOCALHOST:%d/\r\n", p);
	expect_raw("upper-case scheme and host", req, (size_t)len, 20);

	/* Exactly 1024 bytes of URL is legal; 1025 is not. */
	len = snprintf(url, sizeof(url), "gemini://localhost:%d/", p);
	memset(url + len, 'a', 1024 - (size_t)len);
	url[1024] = '\0';
	len = snprintf(req, sizeof(req), "%s\r\n", url);
	expect_raw("1024-byte URL", req, (size_t)len, 51);
	len = snprintf(req, sizeof(req), "%sa\r\n", url);
	expect_raw("1025-byte URL", req, (size_t)len, 59);
#undef RAW
}

/* A bare LF is not a terminator: no header, closed at the timeout. */
static void
test_bare_lf(void)
{
	struct reply	 r;
	char		 req[128];
	uint64_t	 t0;
	int		 len;

	len = snprintf(req, sizeof(req), "gemini://localhost:%d/\n",
	    srv.gemini_port);
	t0 = e2e_now_ms();
	e2e_gemini_raw(srv.gemini_port, req, (size_t)len, &r, ctx,
	    "localhost");
	INT_EQ(r.status, -1, "bare LF: no header at all");
	OK(e2e_now_ms() - t0 >= 1500, "bare LF: kept reading until timeout");
	OK(e2e_now_ms() - t0 < 5000, "bare LF: closed by the request timeout");
	reply_free(&r);
}

/* Two clients stuck mid-request do not delay a third. */
static void
test_slow_clients(void)
{
	SSL		*ssl[2];
	int		 fd[2], i;
	struct reply	 r;
	uint64_t	 t0;

	for (i = 0; i < 2; i++) {
		fd[i] = e2e_connect(srv.gemini_port, 5000);
		ssl[i] = SSL_new(ctx);
		SSL_set_fd(ssl[i], fd[i]);
		OK(SSL_connect(ssl[i]) == 1, "slow client %d handshake", i);
		SSL_write(ssl[i], "gemini://local", 14);
	}
	t0 = e2e_now_ms();
	r = e2e_gemini_get(srv.gemini_port, ctx, "/");
	INT_EQ(r.status, 20, "third client served");
	OK(e2e_now_ms() - t0 < 1000, "third client not blocked (%llu ms)",
	    (unsigned long long)(e2e_now_ms() - t0));
	reply_free(&r);
	for (i = 0; i < 2; i++) {
		SSL_free(ssl[i]);
		close(fd[i]);
	}
}

/* Hostile but harmless: the server must survive all of these. */
static void
test_rude_clients(void)
{
	struct buf	 out;
	struct reply	 r;
	SSL		*ssl;
	int		 fd;
	SSL_CTX		*old;

	/* Plain HTTP on the TLS port: nothing that looks like a header. */
	e2e_plain(srv.gemini_port, "GET / HTTP/1.0\r\n\r\n", 18, &out);
	OK(out.len < 2 || !(out.data[0] >= '1' && out.data[0] <= '6' &&
	    out.data[1] >= '0' && out.data[1] <= '9' && out.data[2] == ' '),
	    "plaintext client got no Gemini header");
	buf_free(&out);

	/* TLS 1.1 is refused. */
	old = e2e_client_ctx(TLS1_1_VERSION);
	OK(e2e_gemini_raw(srv.gemini_port, "gemini://localhost/\r\n", 21, &r,
	    old, "localhost") == -1, "TLS 1.1 handshake refused");
	reply_free(&r);
	SSL_CTX_free(old);

	/* Close right after sending the request (no SIGPIPE death). */
	for (int i = 0; i < 20; i++) {
		fd = e2e_connect(srv.gemini_port, 5000);
		ssl = SSL_new(ctx);
		SSL_set_fd(ssl, fd);
		if (SSL_connect(ssl) == 1)
			SSL_write(ssl, "gemini://localhost/files/img.png\r\n",
			    34);
		SSL_free(ssl);
		close(fd);
	}
	/* Connect and vanish mid-handshake. */
	for (int i = 0; i < 20; i++) {
		fd = e2e_connect(srv.gemini_port, 5000);
		(void)!write(fd, "\x16\x03\x01\x00", 4);
		close(fd);
	}
	r = e2e_gemini_get(srv.gemini_port, ctx, "/");
	INT_EQ(r.status, 20, "server still serving after rude clients");
	reply_free(&r);
}

/* Every link on every page of the sample capsule answers. */
static void
crawl_sample(const char *top)
{
	struct e2e_server	 s2;
	struct e2e_server	 save = srv;
	char			 sample[600];
	char			*queue[2000];
	size_t			 nq = 0, i, bad = 0;

	snprintf(sample, sizeof(sample), "%s/capsule", top);
	if (e2e_start(&s2, sample, "rate_limit: 0\n") == -1) {
		OK(0, "sample capsule server did not start");
		return;
	}
	srv = s2;
	queue[nq++] = strdup("/");
	for (i = 0; i < nq && i < 2000; i++) {
		struct reply	 r;
		char		*line, *save_p = NULL;

		r = e2e_gemini_get(s2.gemini_port, ctx, "%s", queue[i]);
		if (r.status == 10 && strcmp(queue[i], "/search") == 0) {
			reply_free(&r);		/* asking is its answer */
			continue;
		}
		if (r.status != 20) {
			bad++;
			fprintf(stderr, "crawl: %s -> %d %s\n", queue[i],
			    r.status, r.header);
			reply_free(&r);
			continue;
		}
		if (strncmp(r.header, "20 text/gemini", 14) != 0) {
			reply_free(&r);
			continue;
		}
		for (line = strtok_r(r.body.data, "\n", &save_p); line;
		    line = strtok_r(NULL, "\n", &save_p)) {
			char url[1024];
			size_t k;

			if (strncmp(line, "=> /", 4) != 0 ||
			    sscanf(line + 3, "%1023s", url) != 1)
				continue;
			for (k = 0; k < nq; k++)
				if (strcmp(queue[k], url) == 0)
					break;
			if (k == nq && nq < nitems(queue))
				queue[nq++] = strdup(url);
		}
		reply_free(&r);
	}
	OK(nq > 30, "crawl reached %zu pages of the sample capsule", nq);
	INT_EQ(bad, 0, "every crawled link answers 20");
	for (i = 0; i < nq; i++)
		free(queue[i]);
	INT_EQ(e2e_stop(&s2), 0, "sample server exits 0");
	srv = save;
}

static const struct harness_test tests[] = {
	NAMED("pages"),
	NAMED("files"),
	NAMED("escapes"),
	NAMED("requests"),
	NAMED("bare_lf"),
	NAMED("slow_clients"),
	NAMED("rude_clients"),
	NAMED("crawl_sample"),
};

int
main(int argc, char **argv)
{
	char	 top[] = "/tmp/capsuled-e2e-top.XXXXXX";
	char	 cmd[600], logpath[400];
	const char *repo = getenv("CAPSULED_TOP");
	FILE	*f;
	char	 line[2048];
	int	 access_lines = 0;

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	make_capsule(top);
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, "request_timeout: 2\n") == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	snprintf(logpath, sizeof(logpath), "%s", srv.log);
	RUN("pages", test_pages());
	RUN("files", test_files());
	RUN("escapes", test_escapes());
	RUN("requests", test_requests());
	RUN("bare_lf", test_bare_lf());
	RUN("slow_clients", test_slow_clients());
	RUN("rude_clients", test_rude_clients());

	setenv("E2E_KEEP", "1", 1);
	INT_EQ(e2e_stop(&srv), 0, "SIGTERM: clean exit 0");
	unsetenv("E2E_KEEP");
	if ((f = fopen(logpath, "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL)
			if (strstr(line, " gemini \"gemini://") != NULL)
				access_lines++;
		fclose(f);
	}
	if (harness_all())	/* the count is of every check's requests */
		OK(access_lines > 30, "access log has one line per request "
		    "(%d)", access_lines);
	snprintf(cmd, sizeof(cmd), "grep -q 'posts/broken.md:' '%s'", logpath);
	OK(system(cmd) == 0, "broken post logged with file:line");
	snprintf(cmd, sizeof(cmd), "grep -q 'posts/2024-01-02-hello.md:8:13: "
	    "link to missing post missing.md' '%s'", logpath);
	OK(system(cmd) == 0, "link to a missing post logged with file:line:col");
	snprintf(cmd, sizeof(cmd), "grep -q 'not-a-link.md' '%s'", logpath);
	OK(system(cmd) != 0, "a link inside a code span is not checked");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", srv.dir);
	(void)!system(cmd);

	if (repo != NULL)
		RUN("crawl_sample", crawl_sample(repo));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	SSL_CTX_free(ctx);
	return harness_done();
}
