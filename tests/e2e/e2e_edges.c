/*
 * e2e_edges.c -- the edge cases a hostile review found, over
 * the real server: a request followed at once by close_notify (TLS 1.2
 * and 1.3), redirects to directories whose names need escaping,
 * dot-files under files/, IP literals that are not this server, bytes
 * that are not UTF-8 in the access log and in listings, symbolic links
 * from files/ into the rest of the capsule, and hard links.
 */
#include "core/url.h"
#include "core/utf8.h"
#include "e2e.h"

static struct e2e_server srv;
static SSL_CTX		*ctx;
static char		 top[] = "/tmp/capsuled-e2e-edges.XXXXXX";
static char		 capsule[512];
static int		 skipped;
static int		 have_ipv6;	/* the server listens on ::1 too */

static void
make_capsule(void)
{
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md", "---\ntitle: Edges\n---\nHome.\n");
	test_put(capsule, "posts/2024-01-02-hello.md",
	    "---\ntitle: Hello\n---\nHi.\n");
	test_put(capsule, "files/a.txt", "plain text\n");
	test_put(capsule, "files/a b/in.txt", "in a b\n");
	test_put(capsule, "files/q?x/in.txt", "in q?x\n");
	test_put(capsule, "files/50%/in.txt", "in 50%\n");
	test_put(capsule, "files/caf\xc3\xa9/in.txt", "in cafe\n");
	test_put(capsule, "files/.hidden.txt", "DOT-SECRET hidden\n");
	test_put(capsule, "files/.git/config", "DOT-SECRET git\n");
	test_put(capsule, "files/sub/.backup.txt", "DOT-SECRET backup\n");
	test_put(capsule, "files/sub/.d/x.txt",
	    "DOT-SECRET in a dot-directory\n");
	test_put(capsule, "files/sub/ok.txt", "ok\n");
	test_put(capsule, "files/list/bad\xff.txt", "not UTF-8\n");
	test_put(capsule, "files/list/nel\xc2\x85x.txt", "C1\n");
	test_put(capsule, "files/list/ls\xe2\x80\xa8x.txt", "U+2028\n");
	test_put(capsule, "files/list/tab\tx.txt", "C0\n");
	test_put(capsule, "files/list/ok-\xc3\xa9.txt", "fine\n");
	test_put(capsule, "posts/2023-05-06-draft.md",
	    "---\ntitle: Draft\ndraft: true\n"
	    "---\nDRAFT-SECRET\n");
	test_put(capsule, ".trash/old.md",
	    "---\ntitle: Old\n---\nTRASH-SECRET\n");
	test_put(capsule, "private/key.pem", "KEY-SECRET\n");
	test_put(capsule, "files/.in/x.txt", "DOT-SECRET behind a link\n");
	test_put(capsule, "pages/about.md",
	    "---\ntitle: About\ndraft: true\n---\n"
	    "PAGE-SECRET\n");
	test_put(capsule, "pages/my page.md",
	    "---\ntitle: My Page\n---\nA page.\n");
}

/*
 * Defect 3: the request, then close_notify at once, in one TCP segment
 * (TCP_CORK), so that the server reads both together.  TLS allows the
 * half-close: the request must be answered and logged.
 */
static void
test_half_close(int version, const char *name)
{
	SSL_CTX		*c = e2e_client_ctx(version);
	struct buf	 body = BUF_INIT;
	SSL		*ssl;
	char		 req[256], chunk[4096], needle[300];
	int		 fd, len, n, on = 1, off = 0, err = 0;

	SSL_CTX_set_min_proto_version(c, version);
	len = snprintf(req, sizeof(req), "gemini://localhost:%d/files/a.txt?"
	    "half-close-%s\r\n", srv.gemini_port, name);
	fd = e2e_connect(srv.gemini_port, 5000);
	ssl = SSL_new(c);
	SSL_set_fd(ssl, fd);
	SSL_set_tlsext_host_name(ssl, "localhost");
	if (fd == -1 || SSL_connect(ssl) != 1) {
		OK(0, "%s: handshake", name);
		goto done;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_CORK, &on, sizeof(on));
	OK(SSL_write(ssl, req, len) == len, "%s: request written", name);
	OK(SSL_shutdown(ssl) == 0, "%s: close_notify sent", name);
	setsockopt(fd, IPPROTO_TCP, TCP_CORK, &off, sizeof(off));
	while ((n = SSL_read(ssl, chunk, sizeof(chunk))) > 0)
		buf_add(&body, chunk, (size_t)n);
	err = SSL_get_error(ssl, n);
	ERR_clear_error();
	buf_addc(&body, '\0');
	OK(strncmp(body.data, "20 text/plain", 13) == 0 &&
	    strstr(body.data, "plain text\n") != NULL,
	    "%s: request then close_notify is answered: \"%.60s\"", name,
	    body.data);
	OK(err == SSL_ERROR_ZERO_RETURN, "%s: the answer ends with "
	    "close_notify (SSL error %d)", name, err);
	snprintf(needle, sizeof(needle), "/files/a.txt?half-close-%s\" 20 ",
	    name);
	OK(e2e_log_wait(srv.log, needle, 3000), "%s: the request is logged",
	    name);
done:
	buf_free(&body);
	SSL_free(ssl);
	if (fd != -1)
		close(fd);
	SSL_CTX_free(c);
}

/*
 * Defect 4: a directory under files/ asked for without its slash is
 * redirected to a URL that names it (percent-encoded), and following
 * the redirect lists it.  Gopher follows the redirect inside the
 * server, with the raw selector.
 */
static void
test_redirects(void)
{
	static const struct {
		const char	*req, *to, *gopher;
	} t[] = {
		{ "/files/a%20b", "/files/a%20b/", "/files/a b" },
		{ "/files/q%3Fx", "/files/q%3Fx/", "/files/q?x" },
		{ "/files/50%25", "/files/50%25/", "/files/50%" },
		{ "/files/caf%C3%A9", "/files/caf%C3%A9/",
		    "/files/caf\xc3\xa9" },
		{ "/my%20page/", "/my%20page", NULL },
	};
	struct reply	 r;
	struct buf	 out;
	char		 want[300], line[300];
	size_t		 i;
	int		 len;

	for (i = 0; i < nitems(t); i++) {
		r = e2e_gemini_get(srv.gemini_port, ctx, "%s", t[i].req);
		snprintf(want, sizeof(want), "31 %s", t[i].to);
		OK(strcmp(r.header, want) == 0, "%s: \"%s\", want \"%s\"",
		    t[i].req, r.header, want);
		reply_free(&r);
		r = e2e_gemini_get(srv.gemini_port, ctx, "%s", t[i].to);
		OK(r.status == 20 && r.body.data != NULL &&
		    (strstr(r.body.data, "in.txt") != NULL ||
		    strstr(r.body.data, "A page.") != NULL),
		    "%s: the redirect's target answers 20 (%s)", t[i].to,
		    r.header);
		reply_free(&r);
		if (t[i].gopher == NULL)
			continue;
		len = snprintf(line, sizeof(line), "%s\r\n", t[i].gopher);
		OK(e2e_plain(srv.gopher_port, line, (size_t)len, &out) == 0 &&
		    out.data != NULL && strstr(out.data, "in.txt") != NULL,
		    "gopher %s: the directory's menu (%.60s)", t[i].gopher,
		    out.data ? out.data : "");
		buf_free(&out);
	}
}

/* Defect 5: a path segment that starts with '.' is never served. */
static void
test_dotfiles(void)
{
	static const char *const paths[] = {
		"/files/.hidden.txt", "/files/.git/config", "/files/.git/",
		"/files/.git", "/files/sub/.backup.txt", "/files/sub/.d/x.txt",
		"/files/sub/.d/", "/files/%2Ehidden.txt",
	};
	struct reply	 r;
	struct buf	 out;
	char		 line[300];
	size_t		 i;
	int		 len;

	for (i = 0; i < nitems(paths); i++) {
		r = e2e_gemini_get(srv.gemini_port, ctx, "%s", paths[i]);
		OK(r.status == 51, "%s: %d, want 51", paths[i], r.status);
		OK(r.body.data == NULL ||
		    strstr(r.body.data, "DOT-SECRET") == NULL,
		    "%s: nothing of it sent", paths[i]);
		reply_free(&r);
		if (strchr(paths[i], '%') != NULL)
			continue;	/* Gopher selectors are not decoded */
		len = snprintf(line, sizeof(line), "%s\r\n", paths[i]);
		OK(e2e_plain(srv.gopher_port, line, (size_t)len, &out) == 0 &&
		    out.len > 0 && out.data[0] == '3' &&
		    strstr(out.data, "DOT-SECRET") == NULL,
		    "gopher %s: an error (%.60s)", paths[i],
		    out.data ? out.data : "");
		buf_free(&out);
	}
	r = e2e_gemini_get(srv.gemini_port, ctx, "/files/sub/ok.txt");
	OK(r.status == 20, "/files/sub/ok.txt: still served (%d)", r.status);
	reply_free(&r);
}

/* 1 when this machine has an IPv6 loopback to listen on. */
static int
ipv6_loopback(void)
{
	struct sockaddr_in6	 sin6;
	int			 fd, ok;

	if ((fd = socket(AF_INET6, SOCK_STREAM, 0)) == -1)
		return 0;
	memset(&sin6, 0, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	sin6.sin6_addr = in6addr_loopback;
	ok = bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)) == 0;
	close(fd);
	return ok;
}

/* A TCP connection to [::1]:port, or -1. */
static int
connect6(int port)
{
	struct sockaddr_in6	 sin6;
	struct timeval		 tv = { 5, 0 };
	int			 fd;

	if ((fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	memset(&sin6, 0, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	sin6.sin6_port = htons((uint16_t)port);
	sin6.sin6_addr = in6addr_loopback;
	if (connect(fd, (struct sockaddr *)&sin6, sizeof(sin6)) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The status of the raw request fmt (a format with one %d, the port;
 * where the URL has none, it goes after the CRLF, which is ignored)
 * over TLS without SNI (clients send none for IP literals), connected
 * over IPv4 or, when v6, over ::1.
 */
static int
status_of(int v6, const char *fmt)
{
	char	 req[512], chunk[4096], *sp;
	SSL	*ssl;
	int	 fd, len, n, status = -1;

	len = snprintf(req, sizeof(req), fmt, srv.gemini_port);
	fd = v6 ? connect6(srv.gemini_port) :
	    e2e_connect(srv.gemini_port, 5000);
	if (fd == -1)
		return -2;
	ssl = SSL_new(ctx);
	SSL_set_fd(ssl, fd);
	if (SSL_connect(ssl) == 1 && SSL_write(ssl, req, len) == len &&
	    (n = SSL_read(ssl, chunk, sizeof(chunk) - 1)) >= 2) {
		chunk[n] = '\0';
		if ((sp = strchr(chunk, ' ')) != NULL && sp - chunk == 2)
			status = atoi(chunk);
	}
	ERR_clear_error();
	SSL_free(ssl);
	close(fd);
	return status;
}

/*
 * Defect 6: an IP literal names this server only when it is the address
 * the client connected to (or a configured host name); any other is a
 * request for someone else: 53, Titan included.
 */
static void
test_ip_literals(void)
{
	static const struct {
		int		 v6;
		const char	*req;
		int		 status;
	} t[] = {
		{ 0, "gemini://127.0.0.1:%d/\r\n", 20 },
		{ 0, "gemini://127.0.0.1/\r\n%d", 20 },
		{ 0, "gemini://[::ffff:127.0.0.1]:%d/\r\n", 20 },
		{ 0, "gemini://8.8.8.8/\r\n%d", 53 },
		{ 0, "gemini://8.8.8.8:%d/\r\n", 53 },
		{ 0, "gemini://127.0.0.2:%d/\r\n", 53 },
		{ 0, "gemini://[2001:db8::1]:%d/\r\n", 53 },
		{ 0, "gemini://[2001:db8::1]/\r\n%d", 53 },
		{ 0, "gemini://[::1]:%d/\r\n", 53 },
		{ 0, "gemini://localhost:%d/\r\n", 20 },
		/* A writer is configured, so a local Titan line gets 60. */
		{ 0, "titan://127.0.0.1:%d/posts/x;size=1;mime=text/markdown"
		    "\r\nx", 60 },
		{ 0, "titan://8.8.8.8:%d/posts/x;size=1;mime=text/markdown"
		    "\r\nx", 53 },
		{ 0, "titan://[2001:db8::1]:%d/posts/x;size=1;"
		    "mime=text/markdown\r\nx", 53 },
		{ 1, "gemini://[::1]:%d/\r\n", 20 },
		{ 1, "gemini://[0:0::1]/\r\n%d", 20 },
		{ 1, "gemini://127.0.0.1:%d/\r\n", 53 },
		{ 1, "gemini://[2001:db8::1]:%d/\r\n", 53 },
		{ 1, "gemini://localhost:%d/\r\n", 20 },
	};
	size_t	 i;
	int	 st;

	for (i = 0; i < nitems(t); i++) {
		if (t[i].v6 && !have_ipv6)
			continue;
		st = status_of(t[i].v6, t[i].req);
		OK(st == t[i].status, "over %s: %.*s: %d, want %d",
		    t[i].v6 ? "::1" : "127.0.0.1",
		    (int)strcspn(t[i].req, "\r"), t[i].req, st, t[i].status);
	}
	if (!have_ipv6) {
		skipped++;
		fprintf(stderr, "SKIPPED: no IPv6 loopback: IP literals over "
		    "::1\n");
	}
}

/* 1 when b holds a byte of a C1 control or U+2028/2029. */
static int
has_breaks(const struct buf *b)
{
	return memmem(b->data, b->len, "\xc2\x85", 2) != NULL ||
	    memmem(b->data, b->len, "\xe2\x80\xa8", 3) != NULL;
}

/*
 * Defect 7, listings: a text/gemini; charset=utf-8 listing is UTF-8.  A
 * name that is not (or holds a C0 control) can never be asked for, so
 * it is not listed; C1 controls and U+2028 are shown escaped, and the
 * link (percent-encoded) still works.
 */
static void
test_listing(void)
{
	struct reply	 r;
	struct buf	 out;

	r = e2e_gemini_get(srv.gemini_port, ctx, "/files/list/");
	OK(r.status == 20, "listing: %d", r.status);
	OK(r.body.data != NULL && utf8_valid(r.body.data, r.body.len),
	    "listing: valid UTF-8:\n%s", r.body.data ? r.body.data : "");
	OK(r.body.data != NULL && !has_breaks(&r.body),
	    "listing: no C1 control or U+2028");
	OK(r.body.data != NULL && strstr(r.body.data, "bad") == NULL &&
	    strstr(r.body.data, "tab") == NULL,
	    "listing: names no request can reach are left out");
	HAS(r.body.data, "=> /files/list/nel%C2%85x.txt nel\\xc2\\x85x.txt\n",
	    "C1: escaped, link encoded");
	HAS(r.body.data, "=> /files/list/ls%E2%80%A8x.txt "
	    "ls\\xe2\\x80\\xa8x.txt\n", "U+2028: escaped, link encoded");
	HAS(r.body.data, "=> /files/list/ok-%C3%A9.txt ok-\xc3\xa9.txt\n",
	    "UTF-8 name as it is");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "%s",
	    "/files/list/nel%C2%85x.txt");
	OK(r.status == 20 && r.body.data != NULL &&
	    strcmp(r.body.data, "C1\n") == 0, "the C1 name's link works (%d)",
	    r.status);
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "%s",
	    "/files/list/ls%E2%80%A8x.txt");
	OK(r.status == 20, "the U+2028 name's link works (%d)", r.status);
	reply_free(&r);
	OK(e2e_plain(srv.gopher_port, "/files/list/\r\n", 14, &out) == 0 &&
	    out.data != NULL && utf8_valid(out.data, out.len) &&
	    strstr(out.data, "bad") == NULL &&
	    strstr(out.data, "1nel\\xc2\\x85x.txt") == NULL &&
	    strstr(out.data, "nel\\xc2\\x85x.txt\t") != NULL,
	    "gopher listing: UTF-8, shown escaped:\n%s",
	    out.data ? out.data : "");
	buf_free(&out);
}

static void
link_at(const char *target, const char *rel)
{
	char	 path[1024];

	snprintf(path, sizeof(path), "%s/%s", capsule, rel);
	if (symlink(target, path) == -1)
		perror(path);
}

static int
secret(const struct reply *r)
{
	return r->body.data != NULL && strstr(r->body.data, "SECRET") != NULL;
}

/*
 * Hurt: a symbolic link from files/ into the rest of the capsule (posts/
 * and its drafts, pages/, .trash/, any other directory, a dot-directory
 * of files/) is never followed, whatever follow_symlinks says; one that
 * stays in files/ is.  Gopher goes through the same code.
 */
static void
test_symlinks(void)
{
	static const char *const refused[] = {
		"/files/l-posts/2023-05-06-draft.md", "/files/l-posts/",
		"/files/l-draft.md", "/files/l-trash/old.md", "/files/l-trash/",
		"/files/l-pages/about.md", "/files/l-key",
		"/files/l-private/key.pem", "/files/l-dot",
		"/files/l-dotdir/x.txt",
		"/files/l-abs/2023-05-06-draft.md", "/files/l-index",
	};
	static const char *const modes[] = { "", "follow_symlinks: true\n" };
	static const char *const names[] = { "", "[true] " };
	struct e2e_server	 keep = srv;
	struct reply		 r;
	struct buf		 out;
	char			 abs[700], line[300];
	size_t			 i, m;
	int			 len;

	link_at("../posts", "files/l-posts");
	link_at("../posts/2023-05-06-draft.md", "files/l-draft.md");
	link_at("../.trash", "files/l-trash");
	link_at("../pages", "files/l-pages");
	link_at("../private/key.pem", "files/l-key");
	link_at("../private", "files/l-private");
	link_at(".in/x.txt", "files/l-dot");
	link_at(".in", "files/l-dotdir");
	link_at("../index.md", "files/l-index");
	snprintf(abs, sizeof(abs), "%s/posts", capsule);
	link_at(abs, "files/l-abs");
	link_at("a.txt", "files/l-ok");
	link_at("sub", "files/l-sub");
	link_at("../files/sub/ok.txt", "files/l-around");

	for (m = 0; m < nitems(modes); m++) {
		if (m > 0 && e2e_start(&srv, capsule, modes[m]) == -1) {
			OK(0, "%s: server did not start", modes[m]);
			break;
		}
		for (i = 0; i < nitems(refused); i++) {
			r = e2e_gemini_get(srv.gemini_port, ctx, "%s",
			    refused[i]);
			OK(r.status == 51 && !secret(&r), "%s%s: %d, want 51",
			    names[m], refused[i], r.status);
			reply_free(&r);
			len = snprintf(line, sizeof(line), "%s\r\n",
			    refused[i]);
			OK(e2e_plain(srv.gopher_port, line, (size_t)len,
			    &out) == 0 && out.len > 0 && out.data[0] == '3' &&
			    strstr(out.data, "SECRET") == NULL,
			    "%sgopher %s: an error", names[m], refused[i]);
			buf_free(&out);
		}
		r = e2e_gemini_get(srv.gemini_port, ctx, "/files/l-ok");
		OK(r.status == 20, "%s/files/l-ok: a link within files/ (%d)",
		    names[m], r.status);
		reply_free(&r);
		r = e2e_gemini_get(srv.gemini_port, ctx, "/files/l-sub/ok.txt");
		OK(r.status == 20, "%s/files/l-sub/ok.txt: a directory link "
		    "within files/ (%d)", names[m], r.status);
		reply_free(&r);
		r = e2e_gemini_get(srv.gemini_port, ctx, "/files/l-around");
		OK(r.status == 20, "%s/files/l-around: out and back into "
		    "files/ (%d)", names[m], r.status);
		reply_free(&r);
		if (m > 0)
			INT_EQ(e2e_stop(&srv), 0, "exits 0");
	}
	srv = keep;
}

/* A hard link at capsule/rel to top/name, a file outside the capsule. */
static int
hard_link(const char *name, const char *text, const char *rel)
{
	char	 out[1024], in[1024];

	snprintf(out, sizeof(out), "%s/%s", top, name);
	test_write(out, "%s", text);
	snprintf(in, sizeof(in), "%s/%s", capsule, rel);
	return link(out, in);
}

/*
 * Hurt: a hard link under files/ to a file outside the capsule was
 * served.  A regular file with more than one link is refused (51) unless
 * files_hardlinks: true; one link is served as ever.
 */
static void
test_hardlinks(void)
{
	struct e2e_server	 keep = srv;
	struct reply		 r;
	struct buf		 out;

	if (hard_link("outside.txt", "HARD-SECRET\n", "files/hard.txt") ==
	    -1) {
		skipped++;
		fprintf(stderr, "SKIPPED: hard links: %s\n", strerror(errno));
		return;
	}
	r = e2e_gemini_get(srv.gemini_port, ctx, "/files/hard.txt");
	OK(r.status == 51 && !secret(&r), "/files/hard.txt: %d, want 51",
	    r.status);
	reply_free(&r);
	OK(e2e_plain(srv.gopher_port, "/files/hard.txt\r\n", 17, &out) == 0 &&
	    out.len > 0 && out.data[0] == '3' &&
	    strstr(out.data, "SECRET") == NULL, "gopher /files/hard.txt: an "
	    "error");
	buf_free(&out);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/files/a.txt");
	OK(r.status == 20, "/files/a.txt, one link: still 20 (%d)", r.status);
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/files/");
	OK(r.status == 20 && r.body.data != NULL &&
	    strstr(r.body.data, "hard.txt") == NULL,
	    "the listing leaves it out");
	reply_free(&r);

	if (e2e_start(&srv, capsule, "files_hardlinks: true\n") == -1) {
		OK(0, "files_hardlinks: true: server did not start");
		srv = keep;
		return;
	}
	r = e2e_gemini_get(srv.gemini_port, ctx, "/files/hard.txt");
	OK(r.status == 20 && secret(&r),
	    "files_hardlinks: true: served (%d)", r.status);
	reply_free(&r);
	INT_EQ(e2e_stop(&srv), 0, "exits 0");
	srv = keep;
}

static const struct harness_test tests[] = {
	NAMED("half_close_tls13"),
	NAMED("half_close_tls12"),
	NAMED("redirects"),
	NAMED("dotfiles"),
	NAMED("ip_literals"),
	NAMED("listing"),
	NAMED("symlinks"),
	NAMED("hardlinks"),
};

int
main(int argc, char **argv)
{
	char	 cmd[700], extra[300];

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	chmod(top, 0755);
	make_capsule();
	ctx = e2e_client_ctx(0);
	/* A writer nobody is, so that Titan lines get past "no uploads". */
	have_ipv6 = ipv6_loopback();
	snprintf(extra, sizeof(extra), "rate_limit: 0\n%s"
	    "titan_writers: [\"%064d\"]\n", have_ipv6 ?
	    "bind: [127.0.0.1, \"::1\"]\n" : "", 0);
	if (e2e_start(&srv, capsule, extra) == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	RUN("half_close_tls13", test_half_close(TLS1_3_VERSION, "tls1.3"));
	RUN("half_close_tls12", test_half_close(TLS1_2_VERSION, "tls1.2"));
	RUN("redirects", test_redirects());
	RUN("dotfiles", test_dotfiles());
	RUN("ip_literals", test_ip_literals());
	RUN("listing", test_listing());
	RUN("symlinks", test_symlinks());
	RUN("hardlinks", test_hardlinks());
	INT_EQ(e2e_stop(&srv), 0, "exits 0");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	SSL_CTX_free(ctx);
	printf("%d passed, %d failed, %d skipped\n", harness_passed,
	    harness_failed, skipped);
	return harness_failed == 0 ? 0 : 1;
}
