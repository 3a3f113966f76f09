/*
 * e2e_hosts.c -- two host names on one Gemini port (config "hosts:").
 *
 * The real server serves "localhost" (the top-level host) from one
 * capsule and "second.test" from another, each with a certificate of
 * its own made at start (the second in the default <certs>/second.test).
 * The two sites differ in root, mount, index, default type, listings
 * and certificate zones.  Checked: the SNI picks the certificate (any
 * case; an unknown name or none gets the first host's); the URL's host
 * picks the capsule; a URL host that differs from the SNI is a 53; a
 * TLS session of one host does not resume on the other (TLS 1.3 and
 * 1.2); an edit in the second capsule shows up live; SIGHUP keeps both;
 * Gopher serves the first host on the top level's port and the second
 * on its own, each with its own settings and zones; --check reports
 * both, counting their posts by front matter (one of them TOML).
 */
#include <openssl/x509v3.h>

#include "net/cert.h"
#include "e2e.h"

#define HOST2	"second.test"

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 top[64], capa[128], capb[128];
static int	 gopher2;		/* the second host's own Gopher port */

static void
make_capsules(void)
{
	char	 path[256];

	snprintf(capa, sizeof(capa), "%s/alpha", top);
	snprintf(capb, sizeof(capb), "%s/beta", top);
	mkdir(capa, 0755);
	mkdir(capb, 0755);
	snprintf(path, sizeof(path), "%s/posts", capa);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/posts", capb);
	mkdir(path, 0755);
	/* No titles in index.md: each host's configured title shows. */
	test_put(capa, "index.md", "Welcome to the first capsule.\n");
	test_put(capa, "posts/2024-01-01-alpha-post.md",
	    "---\ntitle: Alpha Words\n---\nOnly on the first host.\n");
	test_put(capb, "index.md", "Welcome to the second capsule.\n");
	test_put(capb, "posts/2024-02-02-beta-post.md",
	    "---\ntitle: Beta Words\n---\nOnly on the second host.\n");
	/* A static tree each: "site" for the first, "tree" for the second. */
	test_put(capa, "site/docs/index.gmi", "# Alpha docs\n");
	test_put(capa, "site/docs/a.zzz", "alpha data\n");
	test_put(capa, "site/open/x.txt", "x\n");
	test_put(capa, "files/dir/y.txt", "y\n");
	test_put(capb, "tree/home.gmi", "# Beta tree home\n");
	test_put(capb, "tree/docs/home.gmi", "# Beta docs\n");
	test_put(capb, "tree/docs/index.gmi", "# Not the index here\n");
	test_put(capb, "tree/docs/a.zzz", "beta data\n");
	test_put(capb, "tree/open/x.txt", "x\n");
	test_put(capb, "files/dir/y.txt", "y\n");
	/* A zone each: the first host's /club/, the second's /vault/. */
	test_put(capa, "site/club/m.txt", "alpha members\n");
	test_put(capb, "tree/club/m.txt", "beta club, open\n");
	test_put(capb, "tree/vault/v.txt", "beta vault\n");
	test_put(capb, "files/vault/f.txt", "beta vault file\n");
}

/*
 * One request: url over TLS with sni (NULL: none).  With peer, the
 * server's certificate (the caller frees it).  With resume, offer that
 * session; *reused says whether the server took it.  With out, the
 * session to resume later (the caller frees it).
 */
static int
fetch(SSL_CTX *cctx, const char *sni, const char *url, struct reply *r,
    X509 **peer, SSL_SESSION *resume, int *reused, SSL_SESSION **out)
{
	SSL	*ssl;
	char	 req[512], chunk[16384];
	int	 fd, n, len;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	buf_init(&r->body);
	if (peer != NULL)
		*peer = NULL;
	if ((fd = e2e_connect(srv.gemini_port, 5000)) == -1)
		return -1;
	ssl = SSL_new(cctx);
	SSL_set_fd(ssl, fd);
	if (sni != NULL)
		SSL_set_tlsext_host_name(ssl, sni);
	if (resume != NULL)
		SSL_set_session(ssl, resume);
	if (SSL_connect(ssl) != 1) {
		ERR_clear_error();
		SSL_free(ssl);
		close(fd);
		return -1;
	}
	if (reused != NULL)
		*reused = SSL_session_reused(ssl);
	if (peer != NULL)
		*peer = SSL_get1_peer_certificate(ssl);
	len = snprintf(req, sizeof(req), "%s\r\n", url);
	if (SSL_write(ssl, req, len) == len)
		while ((n = SSL_read(ssl, chunk, sizeof(chunk))) > 0)
			buf_add(&r->body, chunk, (size_t)n);
	/* Freed without a close_notify, the session is not resumable. */
	SSL_shutdown(ssl);
	ERR_clear_error();
	if (out != NULL)
		*out = SSL_get1_session(ssl);
	SSL_free(ssl);
	close(fd);
	e2e_split_header(r);
	return 0;
}

/* gemini://HOST:PORT/path */
static const char *
url(const char *host, const char *path)
{
	static char	 u[4][256];
	static int	 i;

	i = (i + 1) % 4;
	snprintf(u[i], sizeof(u[i]), "gemini://%s:%d%s", host,
	    srv.gemini_port, path);
	return u[i];
}

/* The certificate a handshake with sni gets names want, and not other. */
static void
cert_for(const char *sni, const char *want, const char *other,
    char fp[CERT_FP_LEN])
{
	struct reply	 r;
	X509		*x = NULL;
	unsigned char	 md[32];
	unsigned int	 mdlen = 0, i;
	char		 cn[256];

	fetch(ctx, sni, url("localhost", "/"), &r, &x, NULL, NULL, NULL);
	reply_free(&r);
	OK(x != NULL, "SNI %s: a certificate", sni ? sni : "(none)");
	fp[0] = '\0';
	if (x == NULL)
		return;
	/* Generated certificates name localhost too, for testing: the CN. */
	if (X509_NAME_get_text_by_NID(X509_get_subject_name(x),
	    NID_commonName, cn, sizeof(cn)) < 0)
		cn[0] = '\0';
	STR_EQ(cn, want, "certificate CN");
	OK(X509_check_host(x, want, 0, 0, NULL) == 1,
	    "SNI %s: the certificate names %s", sni ? sni : "(none)", want);
	OK(strcmp(cn, other) != 0, "SNI %s: not %s's certificate",
	    sni ? sni : "(none)", other);
	if (X509_digest(x, EVP_sha256(), md, &mdlen) == 1)
		for (i = 0; i < mdlen && i < 32; i++)
			snprintf(fp + 3 * i, 4, "%02X%s", md[i],
			    i + 1 < mdlen ? ":" : "");
	X509_free(x);
}

static void
test_certs(void)
{
	char	 fp1[CERT_FP_LEN], fp2[CERT_FP_LEN], fp[CERT_FP_LEN];

	cert_for("localhost", "localhost", HOST2, fp1);
	cert_for(HOST2, HOST2, "localhost", fp2);
	OK(fp1[0] != '\0' && fp2[0] != '\0' && strcmp(fp1, fp2) != 0,
	    "two hosts, two certificates (%s / %s)", fp1, fp2);
	cert_for("SECOND.Test", HOST2, "localhost", fp);
	STR_EQ(fp, fp2, "SNI in another case: the same certificate");
	cert_for("unknown.test", "localhost", HOST2, fp);
	STR_EQ(fp, fp1, "unknown SNI: the first host's certificate");
	cert_for(NULL, "localhost", HOST2, fp);
	STR_EQ(fp, fp1, "no SNI: the first host's certificate");
}

/* GET url with sni: status, and needle in the body (or not). */
static void
expect(const char *sni, const char *u, int status, const char *has,
    const char *hasnot)
{
	struct reply	 r;

	fetch(ctx, sni, u, &r, NULL, NULL, NULL, NULL);
	INT_EQ(r.status, status, u);
	if (has != NULL)
		OK(r.body.data != NULL && strstr(r.body.data, has) != NULL,
		    "%s (SNI %s) has \"%s\"", u, sni ? sni : "-", has);
	if (hasnot != NULL)
		OK(r.body.data == NULL || strstr(r.body.data, hasnot) == NULL,
		    "%s (SNI %s) lacks \"%s\"", u, sni ? sni : "-", hasnot);
	reply_free(&r);
}

static void
test_pages(void)
{
	char	 u[256];

	expect("localhost", url("localhost", "/"), 20, "Alpha Site",
	    "Beta");
	expect("localhost", url("localhost", "/"), 20, "Alpha Words", NULL);
	/* The second host's pages are at its mount, its tree around it. */
	expect(HOST2, url(HOST2, "/journal/"), 20, "Beta Site", "Alpha");
	expect(HOST2, url(HOST2, "/journal/"), 20, "Beta Words", NULL);
	expect(HOST2, url(HOST2, "/"), 20, "Beta tree home", "Beta Words");
	expect(HOST2, url(HOST2, "/journal/posts/beta-post"), 20,
	    "Only on the second host.", NULL);
	expect(HOST2, url(HOST2, "/posts/beta-post"), 51, NULL, NULL);
	expect(HOST2, url(HOST2, "/journal/posts/alpha-post"), 51, NULL, NULL);
	expect("localhost", url("localhost", "/journal/"), 51, NULL, NULL);
	expect("localhost", url("localhost", "/posts/beta-post"), 51, NULL,
	    NULL);
	/* The feed's links name the host it was asked from. */
	expect(HOST2, url(HOST2, "/journal/atom.xml"), 20, "gemini://" HOST2,
	    "gemini://localhost");
	/* Case and a trailing dot in the URL; no SNI: the URL decides. */
	expect(HOST2, url("Second.TEST.", "/journal/"), 20, "Beta Site", NULL);
	expect(NULL, url(HOST2, "/journal/"), 20, "Beta Site", NULL);
	expect(NULL, url("localhost", "/"), 20, "Alpha Site", NULL);

	/* SNI and URL host disagree: 53, both ways. */
	expect("localhost", url(HOST2, "/"), 53, NULL, "Site");
	expect(HOST2, url("localhost", "/"), 53, NULL, "Site");
	expect("unknown.test", url("localhost", "/"), 53, NULL, NULL);
	/* Not ours at all: 53 as before. */
	expect(NULL, url("unknown.test", "/"), 53, NULL, NULL);
	/* An IP literal: the host the SNI names, else the first. */
	snprintf(u, sizeof(u), "gemini://127.0.0.1:%d/", srv.gemini_port);
	expect(NULL, u, 20, "Alpha Site", NULL);
	expect(HOST2, u, 20, "Beta tree home", NULL);
}

/* The Gopher selector sel on port has want (first, for "3": an error
 * item) and not hasnot. */
static void
gopher_has(int port, const char *sel, const char *want, const char *hasnot,
    const char *what)
{
	struct buf	 b;
	const char	*t;

	OK(e2e_gopher_get(port, &b, "%s", sel) == 0, "%s: answered", what);
	t = b.data != NULL ? b.data : "";
	if (strcmp(want, "3") == 0)
		OK(t[0] == '3', "%s: an error item (got %.40s)", what, t);
	else
		HAS(t, want, what);
	if (hasnot != NULL)
		OK(strstr(t, hasnot) == NULL, "%s: lacks \"%s\"", what,
		    hasnot);
	buf_free(&b);
}

/* The header of u asked with sni has want in it. */
static void
header_has(const char *sni, const char *u, const char *want)
{
	struct reply	 r;

	fetch(ctx, sni, u, &r, NULL, NULL, NULL, NULL);
	HAS(r.header, want, u);
	reply_free(&r);
}

/*
 * root, index, default_type and the listings are each host's: the
 * first host's from the top level, the second's from its item.
 */
static void
test_sites(void)
{
	expect("localhost", url("localhost", "/docs/"), 20, "Alpha docs",
	    NULL);
	expect(HOST2, url(HOST2, "/docs/"), 20, "Beta docs", "Not the index");
	header_has("localhost", url("localhost", "/docs/a.zzz"),
	    "20 application/octet-stream");
	header_has(HOST2, url(HOST2, "/docs/a.zzz"), "20 text/plain");
	expect("localhost", url("localhost", "/open/"), 20, "x.txt", NULL);
	expect(HOST2, url(HOST2, "/open/"), 51, NULL, "x.txt");
	expect("localhost", url("localhost", "/files/dir/"), 20, "y.txt",
	    NULL);
	expect(HOST2, url(HOST2, "/files/dir/"), 51, NULL, "y.txt");
	/* Each tree is its own host's only. */
	expect(HOST2, url(HOST2, "/open/x.txt"), 20, "x", NULL);
	expect("localhost", url("localhost", "/docs/home.gmi"), 51, NULL,
	    NULL);
	/* files/ is at the mount's /files/ on the second host. */
	expect(HOST2, url(HOST2, "/journal/files/dir/y.txt"), 20, "y", NULL);
	/* Each host's zones are its own: no certificate, 60. */
	expect("localhost", url("localhost", "/club/m.txt"), 60, NULL,
	    "members");
	expect(HOST2, url(HOST2, "/club/m.txt"), 20, "beta club, open",
	    NULL);
	expect(HOST2, url(HOST2, "/vault/v.txt"), 60, NULL, "vault");
	/* A zone on the second host's files/, at its mount's /files/. */
	expect(HOST2, url(HOST2, "/journal/files/vault/f.txt"), 60, NULL,
	    "vault");
	expect("localhost", url("localhost", "/vault/v.txt"), 51, NULL,
	    NULL);
}

/*
 * A session from one host must not resume on the other, whose
 * certificate the client never saw; on its own host it resumes.
 */
static void
test_resume(int version, const char *what)
{
	SSL_CTX		*c = e2e_client_ctx(version);
	SSL_SESSION	*s2 = NULL, *s1 = NULL, *other = NULL;
	struct reply	 r;
	int		 reused = -1;

	fetch(c, HOST2, url(HOST2, "/"), &r, NULL, NULL, NULL, &s2);
	INT_EQ(r.status, 20, what);
	reply_free(&r);
	OK(s2 != NULL && SSL_SESSION_is_resumable(s2),
	    "%s: a resumable session from %s", what, HOST2);
	if (s2 == NULL)
		goto done;
	fetch(c, HOST2, url(HOST2, "/"), &r, NULL, s2, &reused, NULL);
	INT_EQ(reused, 1, "resumed on its own host");
	INT_EQ(r.status, 20, "resumed: answered");
	reply_free(&r);

	/* The same session offered for the other name (as if it were its). */
	other = SSL_SESSION_dup(s2);
	if (other != NULL)
		SSL_SESSION_set1_hostname(other, "localhost");
	reused = -1;
	fetch(c, "localhost", url("localhost", "/"), &r, NULL,
	    other != NULL ? other : s2, &reused, &s1);
	INT_EQ(reused, 0, "not resumed on another host");
	INT_EQ(r.status, 20, "full handshake on the other host: answered");
	HAS(r.body.data ? r.body.data : "", "Alpha Site", "and its page");
	reply_free(&r);
	/* Nor the other way round. */
	if (s1 != NULL) {
		SSL_SESSION *x = SSL_SESSION_dup(s1);

		if (x != NULL)
			SSL_SESSION_set1_hostname(x, HOST2);
		reused = -1;
		fetch(c, HOST2, url(HOST2, "/"), &r, NULL, x ? x : s1,
		    &reused, NULL);
		INT_EQ(reused, 0, "first host's session not resumed on "
		    "the second");
		reply_free(&r);
		SSL_SESSION_free(x);
	}
done:
	SSL_SESSION_free(s1);
	SSL_SESSION_free(s2);
	SSL_SESSION_free(other);
	SSL_CTX_free(c);
}

/* Poll until u (with sni) has needle; bounded. */
static int
soon(const char *sni, const char *u, const char *needle)
{
	struct reply	 r;
	uint64_t	 t0 = e2e_now_ms();
	int		 ok;

	for (;;) {
		fetch(ctx, sni, u, &r, NULL, NULL, NULL, NULL);
		ok = r.status == 20 && r.body.data != NULL &&
		    strstr(r.body.data, needle) != NULL;
		reply_free(&r);
		if (ok)
			return 1;
		if (e2e_now_ms() - t0 > 5000)
			return 0;
		e2e_sleep_ms(20);
	}
}

static void
test_live(void)
{
	/* In TOML, as a post moved from Hugo would be. */
	test_put(capb, "posts/2024-03-03-beta-new.md",
	    "+++\ntitle = 'Freshly Second'\n+++\nNew on the second host.\n");
	OK(soon(HOST2, url(HOST2, "/journal/"), "Freshly Second"),
	    "a new post in the second capsule shows up live");
	expect(HOST2, url(HOST2, "/journal/posts/beta-new"), 20,
	    "New on the second host.", NULL);
	expect("localhost", url("localhost", "/"), 20, "Alpha Words",
	    "Freshly Second");
	test_put(capa, "posts/2024-04-04-alpha-new.md",
	    "---\ntitle: Freshly First\n---\nNew on the first host.\n");
	OK(soon("localhost", url("localhost", "/"), "Freshly First"),
	    "a new post in the first capsule shows up live");
	expect(HOST2, url(HOST2, "/journal/"), 20, "Freshly Second",
	    "Freshly First");
}

static void
test_sighup(void)
{
	char	 cmd[600];

	kill(srv.pid, SIGHUP);
	snprintf(cmd, sizeof(cmd), "for i in $(seq 100); do "
	    "grep -q 'reload: configuration' '%s' && exit 0; "
	    "sleep 0.05; done; exit 1", srv.log);
	OK(system(cmd) == 0, "SIGHUP: configuration loaded again");
	expect(HOST2, url(HOST2, "/journal/"), 20, "Beta Site", NULL);
	expect("localhost", url("localhost", "/"), 20, "Alpha Site", NULL);
	gopher_has(gopher2, "/journal/", "Beta Site", "Alpha",
	    "SIGHUP: the second host's own Gopher port");
}

/*
 * Gopher names no host: the top level's port is the first host's, and
 * the second answers on its own port, with its own settings and zones.
 */
static void
test_gopher(void)
{
	char	 port[16];

	gopher_has(srv.gopher_port, "", "Alpha Site", "Beta",
	    "the first host on the top level's port");
	gopher_has(srv.gopher_port, "/club/m.txt", "3", "members",
	    "the first host's zone: no content over Gopher");
	gopher_has(srv.gopher_port, "/docs/a.zzz", "alpha data", NULL,
	    "the first host's tree");
	gopher_has(gopher2, "/journal/", "Beta Site", "Alpha",
	    "the second host on its own port");
	gopher_has(gopher2, "/journal/posts/beta-post", "Only on the second "
	    "host.", NULL, "the second host's post");
	gopher_has(gopher2, "/docs/", "Beta docs", NULL,
	    "the second host's index file");
	gopher_has(gopher2, "/open/", "3", "x.txt",
	    "the second host's listings are off");
	gopher_has(gopher2, "/club/m.txt", "beta club, open", NULL,
	    "the first host's zone is not the second's");
	gopher_has(gopher2, "/vault/v.txt", "3", "vault",
	    "the second host's zone: no content over Gopher");
	gopher_has(gopher2, "/journal/files/vault/f.txt", "3", "vault",
	    "the second host's zone on its files/");
	/* Its menus name the second host and its own port. */
	snprintf(port, sizeof(port), "\t" HOST2 "\t%d", gopher2);
	gopher_has(gopher2, "/journal/", port, "\tlocalhost\t",
	    "the second host's links");
}

static void
test_check(void)
{
	const char	*bin = getenv("CAPSULED_BIN");
	struct buf	 b = BUF_INIT;
	char		 cmd[600], chunk[4096];
	FILE		*p;
	size_t		 n;
	int		 rv;

	snprintf(cmd, sizeof(cmd), "'%s' --check -c '%s/capsuled.yaml' "
	    "2>/dev/null", bin ? bin : "build/capsuled", srv.dir);
	if ((p = popen(cmd, "r")) == NULL) {
		OK(0, "popen --check");
		return;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		buf_add(&b, chunk, n);
	rv = pclose(p);
	OK(WIFEXITED(rv) && WEXITSTATUS(rv) == 0, "--check exits 0");
	HAS(b.data ? b.data : "", "host:     localhost", "--check: host 1");
	HAS(b.data ? b.data : "", "host:     " HOST2, "--check: host 2");
	HAS(b.data ? b.data : "", capb, "--check: the second capsule");
	HAS(b.data ? b.data : "", "site:     Beta Site",
	    "--check: the second site");
	HAS(b.data ? b.data : "", "front matter: 2 YAML, 0 TOML, 0 header "
	    "lines, 0 none", "--check: the first capsule's posts by front "
	    "matter");
	HAS(b.data ? b.data : "", "front matter: 1 YAML, 1 TOML, 0 header "
	    "lines, 0 none", "--check: the second capsule's, one in TOML");
	buf_free(&b);
}

static const struct harness_test tests[] = {
	NAMED("certs"),
	NAMED("pages"),
	NAMED("sites"),
	NAMED("resume_tls13"),
	NAMED("resume_tls12"),
	NAMED("live"),
	NAMED("sighup"),
	NAMED("gopher"),
	NAMED("check"),
};

int
main(int argc, char **argv)
{
	char	 extra[1024], cmd[128];

	HARNESS_INIT(argc, argv, tests);

	snprintf(top, sizeof(top), "/tmp/capsuled-hosts.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_capsules();
	ctx = e2e_client_ctx(0);
	gopher2 = e2e_free_port();
	snprintf(extra, sizeof(extra),
	    "title: Alpha Site\n"
	    "watch_debounce: 50ms\n"
	    "rate_limit: off\n"
	    "cert_zones: [{path: /club, host: localhost}]\n"
	    "hosts:\n"
	    "  - hostname: " HOST2 "\n"
	    "    capsule: %s\n"
	    "    title: Beta Site\n"
	    "    root: tree\n"
	    "    mount: /journal\n"
	    "    index: home.gmi\n"
	    "    default_type: text/plain\n"
	    "    root_listings: false\n"
	    "    listings: false\n"
	    "    gopher_port: %d\n"
	    "    cert_zones: [{path: /vault}, {path: /journal/files/vault}]\n"
	    /* The top level's, after the item: every host's default. */
	    "root: site\n", capb, gopher2);
	if (e2e_start(&srv, capa, extra) == -1) {
		OK(0, "server start");
	} else {
		RUN("certs", test_certs());
		RUN("pages", test_pages());
		RUN("sites", test_sites());
		RUN("resume_tls13", test_resume(0, "TLS 1.3"));
		RUN("resume_tls12", test_resume(TLS1_2_VERSION, "TLS 1.2"));
		RUN("live", test_live());
		RUN("sighup", test_sighup());
		RUN("gopher", test_gopher());
		RUN("check", test_check());
		INT_EQ(e2e_stop(&srv), 0, "clean exit");
	}
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
