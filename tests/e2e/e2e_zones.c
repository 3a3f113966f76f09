/*
 * e2e_zones.c -- certificate zones (docs/operating.md, "Certificate zones")
 * over the real server, with certificates this test makes with
 * OpenSSL's API:
 *
 *  - a generated page in a zone of fingerprints: 60 without a
 *    certificate, 61 for a stranger's, 62 for an expired one and for
 *    one not yet valid, 20 for the listed one;
 *  - a static tree in a zone of a CA file: 20 for a certificate the CA
 *    signed (sent with no chain: the CA file is the only anchor), 61 for
 *    a self-signed one with the same name, 61 for one signed by another
 *    CA;
 *  - a zone with neither: any certificate in its dates;
 *  - matching: "/family" holds "/family" and what is below,
 *    not "/familyx"; "//family//" is inside too; a zone of
 *    another host does not apply;
 *  - a CGI program in a zone runs for the listed certificate only, and
 *    sees it as TLS_CLIENT_HASH and REMOTE_USER;
 *  - Gopher never serves a zone's content: an error line instead;
 *  - one file, two URLs ("root: files" serves files/ at "/" and at
 *    "/files/"): a zone guards the file by either URL, both protocols;
 *  - nothing a zone guards is named anywhere a reader without the
 *    certificate can read: search results, feeds (with full content),
 *    the home page, the archive, tags, series, the gemlog page,
 *    listings, Gopher menus;
 *  - a CA file that is not PEM is refused at start.
 */
#include <pwd.h>

#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "e2e.h"

static char		 capsule[512];
static char		 cafile[512];
static struct e2e_server srv;

struct id {
	EVP_PKEY	*key;
	X509		*x;
	char		 hex[65];
};

static void
ext(X509 *x, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX	 v3;
	X509_EXTENSION	*e;

	X509V3_set_ctx_nodb(&v3);
	X509V3_set_ctx(&v3, issuer, x, NULL, NULL, 0);
	e = X509V3_EXT_conf_nid(NULL, &v3, nid, value);
	X509_add_ext(x, e, -1);
	X509_EXTENSION_free(e);
}

/*
 * A certificate for cn, valid from now+from to now+to seconds, signed
 * by ca (NULL: self-signed); a CA when is_ca.
 */
static void
make_id(struct id *id, const char *cn, long from, long to,
    const struct id *ca, int is_ca)
{
	static long	 serial = 100;
	unsigned char	*der = NULL, md[32];
	unsigned int	 mdlen = 0;
	int		 len, i;

	id->key = EVP_EC_gen("P-256");
	id->x = X509_new();
	X509_set_version(id->x, X509_VERSION_3);
	ASN1_INTEGER_set(X509_get_serialNumber(id->x), serial++);
	X509_gmtime_adj(X509_getm_notBefore(id->x), from);
	X509_gmtime_adj(X509_getm_notAfter(id->x), to);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(id->x), "CN",
	    MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(id->x, X509_get_subject_name(ca != NULL ?
	    ca->x : id->x));
	X509_set_pubkey(id->x, id->key);
	if (is_ca) {
		ext(id->x, id->x, NID_basic_constraints, "critical,CA:TRUE");
		ext(id->x, id->x, NID_key_usage, "critical,keyCertSign");
	}
	X509_sign(id->x, ca != NULL ? ca->key : id->key, EVP_sha256());
	len = i2d_X509(id->x, &der);
	EVP_Digest(der, (size_t)len, md, &mdlen, EVP_sha256(), NULL);
	OPENSSL_free(der);
	for (i = 0; i < 32; i++)
		sprintf(id->hex + i * 2, "%02x", md[i]);
}

static SSL_CTX *
ctx_of(const struct id *id)
{
	SSL_CTX	*ctx = e2e_client_ctx(0);

	SSL_CTX_use_certificate(ctx, id->x);
	SSL_CTX_use_PrivateKey(ctx, id->key);
	return ctx;
}

static void
id_free(struct id *id)
{
	X509_free(id->x);
	EVP_PKEY_free(id->key);
}

/* The status of path over Gemini with ctx. */
static int
status_of(SSL_CTX *ctx, const char *path, char *header, size_t len)
{
	struct reply	 r;
	int		 st;

	r = e2e_gemini_get(srv.gemini_port, ctx, "%s", path);
	st = r.status;
	if (header != NULL)
		snprintf(header, len, "%s", r.header);
	reply_free(&r);
	return st;
}

static struct id	 alice, mallory, old, early, ca, member, fake, other_ca,
			 outsider;
static SSL_CTX		*anon, *c_alice, *c_mallory, *c_old, *c_early,
			*c_member, *c_fake, *c_outsider;
static int		 cgi;

static void
test_fingerprints(void)
{
	struct reply	 r;
	char		 header[2048];

	INT_EQ(status_of(anon, "/family", header, sizeof(header)), 60,
	    "no certificate: 60");
	HAS(header, "certificate", "60 says what is missing");
	INT_EQ(status_of(c_mallory, "/family", NULL, 0), 61,
	    "a certificate not listed: 61");
	INT_EQ(status_of(c_old, "/family", header, sizeof(header)), 62,
	    "an expired one (listed): 62");
	HAS(header, "expired", "62 says expired");
	INT_EQ(status_of(c_early, "/family", header, sizeof(header)),
	    62, "one not yet valid (listed): 62");
	HAS(header, "not yet valid", "62 says not yet valid");
	r = e2e_gemini_get(srv.gemini_port, c_alice, "/family");
	INT_EQ(r.status, 20, "the listed certificate: 20");
	HAS(r.body.data ? r.body.data : "", "Private news",
	    "the listed certificate: the page");
	reply_free(&r);
}

static void	 none_guarded(const char *, const char *);

static void
test_ca(void)
{
	struct reply	 r;
	struct buf	 b;

	/*
	 * files/ is watched: its listing and menu are made once and kept
	 * for every reader.  Made for a member first, they still name
	 * nothing the zone guards (test_lists() asks without a
	 * certificate).
	 */
	r = e2e_gemini_get(srv.gemini_port, c_member, "/files/");
	INT_EQ(r.status, 20, "files/ listed for a member");
	none_guarded("files/ listed for a member, kept for all",
	    r.body.data != NULL ? r.body.data : "");
	reply_free(&r);
	buf_init(&b);
	e2e_gopher_get(srv.gopher_port, &b, "/files/");
	buf_addc(&b, '\0');
	none_guarded("Gopher: files/ listed", b.data);
	buf_free(&b);
	r = e2e_gemini_get(srv.gemini_port, c_member, "/files/club/note.txt");
	INT_EQ(r.status, 20, "signed by the zone's CA: 20");
	HAS(r.body.data ? r.body.data : "", "members only",
	    "signed by the zone's CA: the file");
	reply_free(&r);
	INT_EQ(status_of(c_fake, "/files/club/note.txt", NULL, 0), 61,
	    "self-signed with the member's name: 61");
	INT_EQ(status_of(c_outsider, "/files/club/note.txt", NULL, 0), 61,
	    "signed by another CA: 61");
	INT_EQ(status_of(c_alice, "/files/club/", NULL, 0), 61,
	    "the listing too: 61");
	INT_EQ(status_of(anon, "/files/club/note.txt", NULL, 0), 60,
	    "no certificate: 60");
}

static void
test_any(void)
{
	INT_EQ(status_of(c_mallory, "/files/open/hello.txt", NULL, 0), 20,
	    "no list, no CA: any certificate, 20");
	INT_EQ(status_of(anon, "/files/open/hello.txt", NULL, 0), 60,
	    "no list, no CA: still 60 without one");
	INT_EQ(status_of(c_old, "/files/open/hello.txt", NULL, 0), 62,
	    "no list, no CA: an expired one is 62");
}

static void
test_matching(void)
{
	INT_EQ(status_of(anon, "/familyx", NULL, 0), 20,
	    "/familyx is not under /family");
	INT_EQ(status_of(anon, "//family//", NULL, 0), 60,
	    "empty segments do not leave the zone");
	INT_EQ(status_of(anon, "/%66amily", NULL, 0), 60,
	    "percent-encoded: still the zone");
	INT_EQ(status_of(anon, "/", NULL, 0), 20,
	    "another host's zone does not apply here");
}

static void
test_cgi(void)
{
	struct reply	 r;
	char		 want[200];

	if (!cgi) {
		harness_skip("no user nobody: CGI is not run as root");
		return;
	}
	INT_EQ(status_of(c_mallory, "/cgi-bin/who.cgi", NULL, 0), 61,
	    "a program in a zone: 61 for a stranger, not run");
	r = e2e_gemini_get(srv.gemini_port, c_alice, "/cgi-bin/who.cgi");
	INT_EQ(r.status, 20, "a program in a zone: run for the listed one");
	snprintf(want, sizeof(want), "hash=SHA256:%s user=alice", alice.hex);
	HAS(r.body.data ? r.body.data : "", want,
	    "the program sees TLS_CLIENT_HASH and REMOTE_USER");
	reply_free(&r);
}

static void
test_gopher(void)
{
	struct buf	 b;

	buf_init(&b);
	e2e_gopher_get(srv.gopher_port, &b, "/family");
	OK(b.data != NULL && b.data[0] == '3',
	    "Gopher: an error line for a zone's page");
	OK(b.data == NULL || strstr(b.data, "Private") == NULL,
	    "Gopher: none of its content");
	buf_free(&b);
	buf_init(&b);
	e2e_gopher_get(srv.gopher_port, &b, "/files/club/note.txt");
	OK(b.data == NULL || strstr(b.data, "members only") == NULL,
	    "Gopher: nor a zone's file");
	buf_free(&b);
	buf_init(&b);
	e2e_gopher_get(srv.gopher_port, &b, "/familyx");
	HAS(b.data ? b.data : "", "Public",
	    "Gopher: what no zone holds is served");
	buf_free(&b);
}

/*
 * "root: files": files/club/ is also "/club/", and files/members/ (the
 * zone "/members/") also "/files/members/".  Each is the zone's own
 * answer by both URLs, over both protocols.
 */
static void
test_two_urls(void)
{
	static const char *const guarded[] = {
		"/club/note.txt", "/club/", "/club", "//club//note.txt",
		"/members/list.txt", "/files/members/list.txt",
		"/files/members/", "/files//members/list.txt",
		"/%66iles/members/list.txt",
	};
	struct buf	 b;
	char		 what[200];
	size_t		 i;

	for (i = 0; i < sizeof(guarded) / sizeof(guarded[0]); i++) {
		snprintf(what, sizeof(what), "root: files: %s, no "
		    "certificate: 60", guarded[i]);
		INT_EQ(status_of(anon, guarded[i], NULL, 0), 60, what);
	}
	INT_EQ(status_of(c_outsider, "/club/note.txt", NULL, 0), 61,
	    "root: files: /club/ takes /files/club/'s CA: 61 for another");
	INT_EQ(status_of(c_member, "/club/note.txt", NULL, 0), 20,
	    "root: files: /club/ for the CA's member: 20");
	INT_EQ(status_of(anon, "/open-air.txt", NULL, 0), 20,
	    "root: files: a file no zone holds is served");
	for (i = 0; i < sizeof(guarded) / sizeof(guarded[0]); i++) {
		if (strchr(guarded[i], '%') != NULL)
			continue;	/* Gopher selectors are not encoded */
		buf_init(&b);
		e2e_gopher_get(srv.gopher_port, &b, guarded[i]);
		snprintf(what, sizeof(what), "Gopher, root: files: %s is "
		    "refused", guarded[i]);
		OK(b.data != NULL && b.data[0] == '3', what);
		OK(b.data == NULL || (strstr(b.data, "members only") ==
		    NULL && strstr(b.data, "the list") == NULL), what);
		buf_free(&b);
	}
}

/* text (a body) names none of the guarded things. */
static void
none_guarded(const char *what, const char *text)
{
	static const char *const words[] = {
		"Secret", "secret-plans", "Private news", "Family", "club/",
		"members/", "note.txt", "list.txt",
	};
	char	 msg[300];
	size_t	 i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		snprintf(msg, sizeof(msg), "%s: \"%s\" not shown", what,
		    words[i]);
		OK(text != NULL && strstr(text, words[i]) == NULL, msg);
	}
}

/*
 * A zone guards what it names everywhere, not only at its URL: no list,
 * feed or search result of either protocol shows it to a reader who
 * could not open it; the zone's own answer for whoever asks.
 */
static void
test_lists(void)
{
	static const char *const gemini[] = {
		"/", "/posts/", "/gemlog/", "/atom.xml", "/tags/plans/",
		"/tags/plans/atom.xml", "/series/plans/",
		"/series/plans/atom.xml", "/search?plans", "/search?secret",
		"/files/", "/posts/open-plans",
	};
	static const char *const gopher[] = {
		"/", "/posts/", "/gemlog/", "/atom.xml", "/tags/plans/",
		"/series/plans/", "/search\tplans", "/search\tsecret",
		"/files/", "/posts/open-plans", "/posts/open-plans/",
	};
	struct reply	 r;
	struct buf	 b;
	char		 what[200];
	size_t		 i;

	for (i = 0; i < sizeof(gemini) / sizeof(gemini[0]); i++) {
		r = e2e_gemini_get(srv.gemini_port, anon, "%s", gemini[i]);
		snprintf(what, sizeof(what), "gemini %s", gemini[i]);
		INT_EQ(r.status, 20, what);
		none_guarded(what, r.body.data != NULL ? r.body.data : "");
		reply_free(&r);
	}
	r = e2e_gemini_get(srv.gemini_port, anon, "/search?plans");
	HAS(r.body.data ? r.body.data : "", "open-plans",
	    "the search still finds the open post");
	reply_free(&r);
	for (i = 0; i < sizeof(gopher) / sizeof(gopher[0]); i++) {
		buf_init(&b);
		e2e_gopher_get(srv.gopher_port, &b, "%s", gopher[i]);
		snprintf(what, sizeof(what), "gopher %s", gopher[i]);
		buf_addc(&b, '\0');
		none_guarded(what, b.data);
		buf_free(&b);
	}
	INT_EQ(status_of(anon, "/posts/secret-plans", NULL, 0), 60,
	    "the guarded post itself: 60");
	INT_EQ(status_of(anon, "/posts/secret-plans/photo.txt", NULL, 0), 60,
	    "and its bundle's file");
	r = e2e_gemini_get(srv.gemini_port, c_alice, "/posts/secret-plans");
	INT_EQ(r.status, 20, "the guarded post, with the certificate: 20");
	HAS(r.body.data ? r.body.data : "", "Secret body",
	    "the guarded post, with the certificate: its text");
	reply_free(&r);
	buf_init(&b);
	e2e_gopher_get(srv.gopher_port, &b, "/posts/secret-plans");
	OK(b.data != NULL && b.data[0] == '3',
	    "Gopher: the guarded post is an error line");
	buf_free(&b);
}

/* Run after the server stopped: its directory and ports are reused. */
static void
test_bad_ca(const char *top)
{
	char	 extra[800], cmd[1200], path[600], *log;

	test_write(cafile, "not a certificate\n");
	snprintf(extra, sizeof(extra), "cert_zones:\n  - path: /x\n"
	    "    ca: %s\n", cafile);
	e2e_write_config(&srv, srv.gopher_port, capsule, "", extra);
	snprintf(path, sizeof(path), "%s/capsuled.log", srv.dir);
	unlink(path);
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' --allow-root -c "
	    "'%s/capsuled.yaml' >/dev/null 2>&1", srv.dir,
	    getenv("CAPSULED_BIN"), srv.dir);
	OK(system(cmd) != 0, "a CA file that is not PEM: refused at start");
	log = test_read(path, "");
	HAS(log, "cert_zones: ", "the refusal names the setting");
	free(log);
}

static const struct harness_test tests[] = {
	NAMED("fingerprints"),
	NAMED("ca"),
	NAMED("any"),
	NAMED("matching"),
	NAMED("cgi"),
	NAMED("gopher"),
	NAMED("two_urls"),
	NAMED("lists"),
	NAMED("bad_ca"),
};

int
main(int argc, char **argv)
{
	char		 top[] = "/tmp/capsuled-e2e-zones.XXXXXX";
	char		 extra[2048], cmd[700], p[600];
	FILE		*f;
	int		 root = geteuid() == 0;

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	chmod(top, 0755);		/* nobody must reach the capsule */
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md", "---\ntitle: Zones\n---\nHi.\n");
	test_put(capsule, "pages/family.md",
	    "---\ntitle: Family\n---\nPrivate news.\n");
	test_put(capsule, "pages/familyx.md",
	    "---\ntitle: Not family\n---\nPublic.\n");
	test_put(capsule, "files/club/note.txt", "members only\n");
	test_put(capsule, "files/open/hello.txt", "any certificate\n");
	test_put(capsule, "files/members/list.txt", "the list\n");
	test_put(capsule, "posts/secret-plans/index.md", "---\ntitle: Secret "
	    "plans\ndate: 2024-01-02\ntags: [plans]\nseries: Plans\n"
	    "summary: Secret summary\n---\nSecret body text about plans.\n");
	test_put(capsule, "posts/secret-plans/photo.txt", "Secret photo\n");
	test_put(capsule, "posts/2024-01-01-open-plans.md", "---\ntitle: Open "
	    "plans\ntags: [plans]\nseries: Plans\n---\nOpen text about "
	    "plans.\n");
	test_put(capsule, "files/open-air.txt", "anyone\n");
	snprintf(p, sizeof(p), "%s/cgi-bin", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/cgi-bin/who.cgi", capsule);
	test_write(p, "#!/bin/sh\nprintf '20 text/plain\\r\\n"
	    "hash=%%s user=%%s\\n' \"$TLS_CLIENT_HASH\" \"$REMOTE_USER\"\n");
	chmod(p, 0755);

	make_id(&alice, "alice", -60, 3600, NULL, 0);
	make_id(&mallory, "mallory", -60, 3600, NULL, 0);
	make_id(&old, "alice-old", -7200, -3600, NULL, 0);
	make_id(&early, "alice-early", 3600, 7200, NULL, 0);
	make_id(&ca, "Members CA", -60, 3600, NULL, 1);
	make_id(&member, "member", -60, 3600, &ca, 0);
	make_id(&fake, "member", -60, 3600, NULL, 0);
	make_id(&other_ca, "Other CA", -60, 3600, NULL, 1);
	make_id(&outsider, "outsider", -60, 3600, &other_ca, 0);
	snprintf(cafile, sizeof(cafile), "%s/members-ca.pem", top);
	if ((f = fopen(cafile, "w")) == NULL)
		return 1;
	PEM_write_X509(f, ca.x);
	fclose(f);
	anon = e2e_client_ctx(0);
	c_alice = ctx_of(&alice);
	c_mallory = ctx_of(&mallory);
	c_old = ctx_of(&old);
	c_early = ctx_of(&early);
	c_member = ctx_of(&member);
	c_fake = ctx_of(&fake);
	c_outsider = ctx_of(&outsider);

	cgi = !root || getpwnam("nobody") != NULL;
	snprintf(extra, sizeof(extra),
	    "%s"
	    "root: files\n"
	    "atom_full_content: true\n"
	    "cert_zones:\n"
	    "  - path: /family\n"
	    "    require: certificate\n"
	    "    fingerprints: [\"%s\", \"%s\", \"%s\"]\n"
	    "  - path: /files/club/\n"
	    "    ca: %s\n"
	    "  - path: /files/open\n"
	    "  - path: /members/\n"
	    "  - path: /posts/secret-plans\n"
	    "    fingerprints: [\"%s\"]\n"
	    "  - path: /cgi-bin\n"
	    "    fingerprints: [\"%s\"]\n"
	    "  - path: /\n"
	    "    host: elsewhere.example\n",
	    cgi ? (root ? "cgi: cgi-bin\nuser: nobody\n" : "cgi: cgi-bin\n") :
	    "", alice.hex, old.hex, early.hex, cafile, alice.hex, alice.hex);
	if (e2e_start(&srv, capsule, extra) == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	RUN("fingerprints", test_fingerprints());
	RUN("ca", test_ca());
	RUN("any", test_any());
	RUN("matching", test_matching());
	RUN("cgi", test_cgi());
	RUN("gopher", test_gopher());
	RUN("two_urls", test_two_urls());
	RUN("lists", test_lists());
	INT_EQ(e2e_stop(&srv), 0, "server exits 0");
	RUN("bad_ca", test_bad_ca(top));

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", srv.dir, top);
	(void)!system(cmd);
	SSL_CTX_free(anon);
	SSL_CTX_free(c_alice);
	SSL_CTX_free(c_mallory);
	SSL_CTX_free(c_old);
	SSL_CTX_free(c_early);
	SSL_CTX_free(c_member);
	SSL_CTX_free(c_fake);
	SSL_CTX_free(c_outsider);
	id_free(&alice);
	id_free(&mallory);
	id_free(&old);
	id_free(&early);
	id_free(&ca);
	id_free(&member);
	id_free(&fake);
	id_free(&other_ca);
	id_free(&outsider);
	return harness_done();
}
