/*
 * e2e_contrib.c -- the example configurations of contrib/ that
 * docs/moving.md shows, translated from a gmid.conf and a molly-brown
 * configuration, loaded and served as they are written, and asked each
 * behaviour the peer's configuration had (issue 34, item 11):
 *
 *  - contrib/gmid-capsuled.yaml: `--check` exits 0; "block return 31"
 *    over a file still on disk; a "require client ca" location (60,
 *    then 20 for a certificate the CA file holds); "auto index on" (a
 *    listing) and the second server's "off" (51); "default type"; a
 *    location's "lang"; the combined access log in its file; the
 *    guestbook through a real fcgiwrap (skipped where it is not
 *    installed); the second server's own index, and none of the first
 *    server's redirects;
 *  - contrib/molly-brown-capsuled.yaml: `--check` exits 0; a
 *    PermRedirects regular expression that strips ".gmi", an exact one
 *    over a file on disk, a TempRedirects one (30); a CertificateZones
 *    pattern (the diary's pages ask, its photo does not; the listed
 *    certificate opens them); DirectorySort "Name" with
 *    DirectoryReverse; MimeOverrides with a charset; AccessLog and
 *    ErrorLog as two files, the access lines in the first only.
 *
 * The files are read from contrib/ and changed only where a test must:
 * the port (a free one), every absolute path (moved under a temporary
 * folder this test fills), "bind" (loopback), "user" (left out: the
 * server runs as whoever runs the test, with --allow-root as root) and
 * the zone's fingerprint (this test's own certificate's).
 */
#include <openssl/pem.h>

#include "apps.h"
#include "e2e.h"

static char	 top[] = "/tmp/capsuled-contrib.XXXXXX";
static SSL_CTX	*anon;

/* s with every "from" replaced by "to"; malloc'd. */
static char *
subst(const char *s, const char *from, const char *to)
{
	struct buf	 b;
	const char	*p;

	buf_init(&b);
	while ((p = strstr(s, from)) != NULL) {
		buf_add(&b, s, (size_t)(p - s));
		buf_add(&b, to, strlen(to));
		s = p + strlen(from);
	}
	buf_add(&b, s, strlen(s) + 1);
	return b.data;
}

/* Replace in *s, freeing the old text. */
static void
replace(char **s, const char *from, const char *to)
{
	char	*n = subst(*s, from, to);

	free(*s);
	*s = n;
}

/* No line of text but comments holds needle. */
static int
settings_free_of(const char *text, const char *needle)
{
	const char	*p = text, *nl, *hash;

	while ((p = strstr(p, needle)) != NULL) {
		for (nl = p; nl > text && nl[-1] != '\n'; nl--)
			;
		hash = memchr(nl, '#', (size_t)(p - nl));
		if (hash == NULL)
			return 0;
		p += strlen(needle);
	}
	return 1;
}

/*
 * contrib/name as a test can serve it, written to top/name: the port,
 * the paths, bind and user as the opening comment says, and "fp" (when
 * not NULL) in place of the placeholder fingerprint "fp_was".
 */
static char *
translated(const char *name, int port, const char *fp_was, const char *fp)
{
	const char	*env = getenv("CAPSULED_TOP");
	char		 path[600], line[64], moved[600], *text, *conf;
	char		*start, *end;

	snprintf(path, sizeof(path), "%s/contrib/%s", env != NULL ? env : ".",
	    name);
	if ((text = test_read(path, NULL)) == NULL) {
		OK(0, "%s: %s", path, strerror(errno));
		return NULL;
	}
	snprintf(line, sizeof(line), "gemini_port: %d\n", port);
	replace(&text, "gemini_port: 1965\n", line);
	replace(&text, "bind: [0.0.0.0, \"::\"]\n", "bind: [127.0.0.1]\n");
	/* Paths: " /var/..." and "unix:/run/..." under top. */
	snprintf(moved, sizeof(moved), " %s/var/", top);
	replace(&text, " /var/", moved);
	snprintf(moved, sizeof(moved), " %s/etc/", top);
	replace(&text, " /etc/", moved);
	snprintf(moved, sizeof(moved), "unix:%s/run/", top);
	replace(&text, "unix:/run/", moved);
	snprintf(moved, sizeof(moved), " {SCRIPT_FILENAME: %s/var/", top);
	replace(&text, " {SCRIPT_FILENAME: /var/", moved);
	if (fp != NULL)
		replace(&text, fp_was, fp);
	/* The line "user: ..." goes. */
	if ((start = strstr(text, "\nuser: ")) != NULL &&
	    (end = strchr(start + 1, '\n')) != NULL)
		memmove(start, end, strlen(end) + 1);
	OK(settings_free_of(text, "1965") && settings_free_of(text, " /var/")
	    && settings_free_of(text, " /etc/") && settings_free_of(text,
	    "unix:/run/") && strstr(text, "\nuser:") == NULL, "%s: every "
	    "port, path and user rewritten", name);
	snprintf(path, sizeof(path), "%s/%s", top, name);
	test_write(path, "%s", text);
	free(text);
	conf = xstrdup(path);
	return conf;
}

/* mkdir -p top/rel */
static void
mkdirs(const char *rel)
{
	char	 path[600];

	snprintf(path, sizeof(path), "%s/%s/", top, rel);
	test_mkdirs(path);
}

/* capsuled --check on conf: its exit status. */
static int
check(const char *conf)
{
	const char	*bin = getenv("CAPSULED_BIN");
	char		 cmd[1200];
	int		 st;

	snprintf(cmd, sizeof(cmd), "'%s' -c '%s' --check >%s/check.out 2>&1",
	    bin != NULL ? bin : "build/capsuled", conf, top);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Start the server on conf, listening on port: 0, or -1. */
static int
start(struct e2e_server *s, const char *conf, int port)
{
	uint64_t	 deadline;
	int		 fd, st;

	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "%s/run.XXXXXX", top);
	if (mkdtemp(s->dir) == NULL)
		return -1;
	s->gemini_port = port;
	if ((s->pid = fork()) == -1)
		return -1;
	if (s->pid == 0)
		e2e_exec_server(s->dir, conf, 0);
	deadline = e2e_now_ms() + (harness_valgrind() ? 60000 : 10000);
	while (e2e_now_ms() < deadline) {
		if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
			s->pid = -1;
			return -1;
		}
		if ((fd = e2e_connect(port, 1000)) != -1) {
			close(fd);
			return 0;
		}
		e2e_sleep_ms(20);
	}
	return -1;
}

/* GET gemini://host:port/path with SNI host. */
static struct reply
ask(int port, const char *host, SSL_CTX *ctx, const char *path)
{
	struct reply	 r;
	char		 req[1100];
	int		 n;

	n = snprintf(req, sizeof(req), "gemini://%s:%d%s\r\n", host, port,
	    path);
	if (e2e_gemini_raw(port, req, (size_t)n, &r, ctx, host) == -1)
		r.status = -2;
	return r;
}

/* The header of a reply, which is freed. */
static void
header_is(int port, const char *host, SSL_CTX *ctx, const char *path,
    const char *want, const char *what)
{
	struct reply	 r = ask(port, host, ctx, path);

	STR_EQ(r.header, want, what);
	reply_free(&r);
}

/* --- gmid --- */

#define GMID_CAP	"var/capsuled/example.com"
#define NOTES_CAP	"var/capsuled/notes.example.net"

static void
gmid_capsule(void)
{
	test_put(top, GMID_CAP "/files/index.gmi", "# Example\n");
	test_put(top, GMID_CAP "/files/old/x.gmi", "# Left behind\n");
	test_put(top, GMID_CAP "/files/docs/a.gmi", "# Alpha\n");
	test_put(top, GMID_CAP "/files/docs/b.txt", "beta\n");
	test_put(top, GMID_CAP "/files/NOTICE", "no extension\n");
	test_put(top, GMID_CAP "/files/fr/bonjour.gmi", "# Bonjour\n");
	test_put(top, GMID_CAP "/files/club/index.gmi", "# Members\n");
	test_put(top, NOTES_CAP "/files/home.gmi", "# Notes home\n");
	test_put(top, NOTES_CAP "/files/drafts/x.gmi", "# A draft\n");
	test_put(top, NOTES_CAP "/files/old/x.gmi", "# Notes' own old\n");
	test_put(top, "var/capsuled/apps/guestbook.sh", "#!/bin/sh\n"
	    "printf '20 text/gemini\\r\\n# Guestbook\\n'\n");
	mkdirs("etc/capsuled/certs");
	mkdirs("var/log/gmid");
	mkdirs("run");
}

static void
test_gmid(SSL_CTX *club)
{
	struct e2e_server	 s;
	struct reply		 r;
	char			*conf, path[600], sock[600], needle[200];
	int			 port = e2e_free_port();
	pid_t			 fw = -1;

	gmid_capsule();
	snprintf(path, sizeof(path), "%s/var/capsuled/apps/guestbook.sh", top);
	chmod(path, 0755);
	if ((conf = translated("gmid-capsuled.yaml", port, NULL, NULL)) ==
	    NULL)
		return;
	INT_EQ(check(conf), 0, "gmid-capsuled.yaml: --check");
	snprintf(sock, sizeof(sock), "%s/run/fcgiwrap.sock", top);
	if (apps_have_fcgiwrap()) {
		fw = apps_fcgiwrap(sock, 2);
		OK(apps_socket_wait(sock, 5000), "fcgiwrap listens");
	}
	if (start(&s, conf, port) == -1) {
		OK(0, "gmid-capsuled.yaml: the server did not start");
		free(conf);
		return;
	}

	/* block return 31 "/new%p" on /old/, over a file. */
	header_is(port, "example.com", anon, "/old/x.gmi",
	    "31 /new/old/x.gmi", "gmid: block return 31 over a file");
	/* require client ca */
	r = ask(port, "example.com", anon, "/club/");
	INT_EQ(r.status, 60, "gmid: require client ca, no certificate");
	reply_free(&r);
	r = ask(port, "example.com", club, "/club/");
	INT_EQ(r.status, 20, "gmid: require client ca, the CA's certificate");
	HAS(r.body.data, "# Members", "gmid: the members' page");
	reply_free(&r);
	/* auto index on: a folder without index.gmi is listed. */
	r = ask(port, "example.com", anon, "/docs/");
	INT_EQ(r.status, 20, "gmid: auto index on");
	HAS(r.body.data, "=> /docs/b.txt", "gmid: the listing's entries");
	reply_free(&r);
	/* default type "text/plain" */
	r = ask(port, "example.com", anon, "/NOTICE");
	OK(strncmp(r.header, "20 text/plain", 13) == 0, "gmid: default type "
	    "text/plain: got \"%s\"", r.header);
	reply_free(&r);
	/* lang "en", and lang "fr" in the location of /fr/ */
	r = ask(port, "example.com", anon, "/");
	HAS(r.header, "lang=en", "gmid: lang en");
	HAS(r.body.data, "# Example", "gmid: the tree's index.gmi at /");
	reply_free(&r);
	r = ask(port, "example.com", anon, "/fr/bonjour.gmi");
	HAS(r.header, "lang=fr", "gmid: location lang fr");
	reply_free(&r);
	/* fastcgi socket ...; fastcgi param SCRIPT_FILENAME ... */
	if (fw > 0) {
		r = ask(port, "example.com", anon, "/guestbook/");
		STR_EQ(r.header, "20 text/gemini", "gmid: fastcgi");
		HAS(r.body.data, "# Guestbook", "gmid: fastcgi's answer");
		reply_free(&r);
	} else
		harness_skip("gmid: fastcgi: fcgiwrap is not installed "
		    "(Debian package fcgiwrap)");
	/* server "notes.example.net": its index, auto index off, and
	 * none of the first server's locations. */
	r = ask(port, "notes.example.net", anon, "/");
	HAS(r.body.data, "# Notes home", "gmid: second server, index");
	reply_free(&r);
	r = ask(port, "notes.example.net", anon, "/drafts/");
	INT_EQ(r.status, 51, "gmid: second server, auto index off");
	reply_free(&r);
	r = ask(port, "notes.example.net", anon, "/old/x.gmi");
	INT_EQ(r.status, 20, "gmid: second server, no block of the first");
	reply_free(&r);
	r = ask(port, "notes.example.net", anon, "/NOTICE");
	INT_EQ(r.status, 51, "gmid: second server, its own root");
	reply_free(&r);
	/* log { access ...; style combined } */
	snprintf(path, sizeof(path), "%s/var/log/gmid/access.log", top);
	snprintf(needle, sizeof(needle),
	    "\"gemini://example.com:%d/old/x.gmi\" 301 ", port);
	OK(e2e_log_wait(path, needle, 5000), "gmid: combined access log "
	    "in its file, with %s", needle);

	INT_EQ(e2e_stop(&s), 0, "gmid-capsuled.yaml: the server exits 0");
	if (fw > 0)
		apps_kill(fw);
	free(conf);
}

/* --- molly-brown --- */

#define MOLLY_CAP	"var/capsuled/example.org"
#define MOLLY_FP \
	"5c1b0d5a2a2f5f8e3c6a5e0b8b6a8f3c1d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a"

static void
test_molly(void)
{
	struct e2e_server	 s;
	struct reply		 r;
	SSL_CTX			*friend;
	char			*conf, *text, hex[65], path[600];
	const char		*a, *b, *c;
	int			 port = e2e_free_port();

	test_put(top, MOLLY_CAP "/files/index.gmi", "# Example\n");
	test_put(top, MOLLY_CAP "/files/blog/hello.gmi", "# Hello\n");
	test_put(top, MOLLY_CAP "/files/about.gmi", "# About\n");
	test_put(top, MOLLY_CAP "/files/about-me.gmi", "# About me, old\n");
	test_put(top, MOLLY_CAP "/files/journal/this-week.gmi", "# Week\n");
	test_put(top, MOLLY_CAP "/files/diary/monday.gmi", "# Monday\n");
	test_put(top, MOLLY_CAP "/files/diary/photo.jpg", "not a JPEG\n");
	test_put(top, MOLLY_CAP "/files/letters/a.gmi", "# Apple\n");
	test_put(top, MOLLY_CAP "/files/letters/b.gmi", "# Banana\n");
	test_put(top, MOLLY_CAP "/files/letters/c.gmi", "# Cherry\n");
	test_put(top, MOLLY_CAP "/files/notes.txt", "caf\xe9\n");
	test_put(top, MOLLY_CAP "/files/x.zine", "# A zine\n");
	mkdirs("var/lib/molly-brown");
	mkdirs("var/log/molly-brown");

	friend = e2e_cert_ctx("friend", hex);
	if ((conf = translated("molly-brown-capsuled.yaml", port, MOLLY_FP,
	    hex)) == NULL) {
		SSL_CTX_free(friend);
		return;
	}
	INT_EQ(check(conf), 0, "molly-brown-capsuled.yaml: --check");
	if (start(&s, conf, port) == -1) {
		OK(0, "molly-brown-capsuled.yaml: the server did not start");
		SSL_CTX_free(friend);
		free(conf);
		return;
	}

	/* PermRedirects "^/blog/(.*)\.gmi$" = "/posts/$1", a file there. */
	header_is(port, "example.org", anon, "/blog/hello.gmi",
	    "31 /posts/hello", "molly: a regular expression's redirect");
	header_is(port, "example.org", anon, "/about-me.gmi",
	    "31 /about.gmi", "molly: a redirect over a file");
	/* TempRedirects */
	header_is(port, "example.org", anon, "/now.gmi",
	    "30 /journal/this-week.gmi", "molly: a temporary redirect");
	/* CertificateZones "^/diary/.*\.gmi$" */
	r = ask(port, "example.org", anon, "/diary/monday.gmi");
	INT_EQ(r.status, 60, "molly: a zone's page asks a certificate");
	reply_free(&r);
	r = ask(port, "example.org", friend, "/diary/monday.gmi");
	INT_EQ(r.status, 20, "molly: the listed certificate opens it");
	reply_free(&r);
	r = ask(port, "example.org", anon, "/diary/photo.jpg");
	INT_EQ(r.status, 20, "molly: not the photo beside it");
	reply_free(&r);
	/* DirectorySort "Name", DirectoryReverse, DirectoryTitles */
	r = ask(port, "example.org", anon, "/letters/");
	a = r.body.data != NULL ? strstr(r.body.data, "Apple") : NULL;
	b = r.body.data != NULL ? strstr(r.body.data, "Banana") : NULL;
	c = r.body.data != NULL ? strstr(r.body.data, "Cherry") : NULL;
	OK(a != NULL && b != NULL && c != NULL && c < b && b < a,
	    "molly: a listing by name, reversed, by titles:\n%s",
	    r.body.data != NULL ? r.body.data : "(none)");
	reply_free(&r);
	/* MimeOverrides */
	header_is(port, "example.org", anon, "/notes.txt",
	    "20 text/plain; charset=iso-8859-1", "molly: a type's charset");
	r = ask(port, "example.org", anon, "/x.zine");
	OK(strncmp(r.header, "20 text/gemini", 14) == 0, "molly: .zine is "
	    "gemtext: got \"%s\"", r.header);
	reply_free(&r);
	/* AccessLog, ErrorLog */
	snprintf(path, sizeof(path), "%s/var/log/molly-brown/access.log", top);
	OK(e2e_log_wait(path, "/blog/hello.gmi\" 31 ", 5000),
	    "molly: the access line in AccessLog's file");
	snprintf(path, sizeof(path), "%s/var/log/molly-brown/error.log", top);
	text = test_read(path, NULL);
	OK(text != NULL && strstr(text, "certificate") != NULL &&
	    strstr(text, "/blog/hello.gmi") == NULL, "molly: ErrorLog's file "
	    "has the diagnostics and no access line");
	free(text);

	INT_EQ(e2e_stop(&s), 0, "molly-brown-capsuled.yaml: the server "
	    "exits 0");
	SSL_CTX_free(friend);
	free(conf);
}

static const struct harness_test tests[] = {
	NAMED("gmid"),
	NAMED("molly"),
};

int
main(int argc, char **argv)
{
	SSL_CTX	*club;
	FILE	*f;
	char	 path[600], hex[65];

	HARNESS_INIT(argc, argv, tests);
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	anon = e2e_client_ctx(0);
	/* The club's CA file: a self-signed certificate, its own anchor,
	 * which this client presents. */
	club = e2e_cert_ctx("club", hex);
	mkdirs("etc/ssl");
	snprintf(path, sizeof(path), "%s/etc/ssl/club-ca.pem", top);
	if ((f = fopen(path, "w")) != NULL) {
		PEM_write_X509(f, SSL_CTX_get0_certificate(club));
		fclose(f);
	}

	RUN("gmid", test_gmid(club));
	RUN("molly", test_molly());

	SSL_CTX_free(club);
	SSL_CTX_free(anon);
	test_rm_tree(top);
	return harness_done();
}
