/*
 * rig.c -- a capsuled with every feature on at once (rig.h): the tree
 * it serves, the helpers and the second server it talks to, a probe per
 * feature, and the operator's moves (SIGHUP with another host, a log
 * moved and SIGUSR1, Titan on a bundle).
 *
 * Knows the server only from outside (e2e.c starts it, apps.c runs
 * the backends), and what each answer must hold only from the files it
 * wrote itself.  The struct rig owns everything: the tree under /tmp,
 * both servers, fcgiwrap, the SCGI server, the syslog reader thread and
 * the local user, until rig_free().
 */
#include <poll.h>
#include <pwd.h>

#include "apps.h"
#include "rig.h"

static const char *const probe_names[RIG_NPROBES] = {
	"home", "cgi", "fastcgi", "scgi", "proxy", "search", "gopher search",
	"static tree", "listing", "gophermap", "user capsule",
	"user capsule (gopher)", "spartan", "nex", "finger",
};

/* Is there a user nobody to serve as?  As root, the rig needs one. */
static int
as_nobody(void)
{
	return geteuid() == 0 && getpwnam("nobody") != NULL;
}

static void
chown_tree(const char *path, const char *user)
{
	char	 cmd[700];

	snprintf(cmd, sizeof(cmd), "chown -R %s '%s'", user, path);
	if (system(cmd) != 0)
		fprintf(stderr, "rig: %s failed\n", cmd);
}

/* ---- the user capsule ------------------------------------------------ */

static void
drop_user(struct rig *r)
{
	char	 cmd[128];

	if (r->user[0] == '\0')
		return;
	snprintf(cmd, sizeof(cmd), "userdel %s 2>/dev/null", r->user);
	(void)!system(cmd);
	r->user[0] = '\0';
}

/* The rig whose user exit() removes, should the test end early. */
static struct rig	*with_user;

static void
drop_at_exit(void)
{
	if (with_user != NULL)
		drop_user(with_user);
}

/* home/<user>/public_gemini/rel, the user's own, 0644. */
static void
user_put(struct rig *r, const char *rel, const char *text)
{
	char	 home[256], path[512];

	snprintf(home, sizeof(home), "%s/home/%s/public_gemini", r->top,
	    r->user);
	test_put(home, rel, text);
	snprintf(path, sizeof(path), "%s/home/%s", r->top, r->user);
	chown_tree(path, r->user);
}

/*
 * A local user with a capsule under r->top/home, as e2e_userdirs makes
 * them: useradd at a UID no distribution hands out (a few tries: another
 * test may hold /etc/passwd's lock).
 */
static int
make_user(struct rig *r)
{
	char	 cmd[512], name[32];
	int	 tries;

	if (geteuid() != 0) {
		snprintf(r->nouser, sizeof(r->nouser), "no user capsule: "
		    "useradd needs root");
		return -1;
	}
	if (system("command -v useradd >/dev/null 2>&1") != 0) {
		snprintf(r->nouser, sizeof(r->nouser), "no user capsule: no "
		    "useradd");
		return -1;
	}
	snprintf(name, sizeof(name), "crig%d", (int)(getpid() % 100000));
	for (tries = 0; tries < 40; tries++) {
		r->uid = 62000 + (unsigned)((getpid() + tries * 13) % 3000);
		if (getpwuid(r->uid) != NULL)
			continue;
		snprintf(cmd, sizeof(cmd), "useradd -N -M -u %u -d %s/home/%s "
		    "-s /usr/sbin/nologin %s 2>/dev/null", r->uid, r->top,
		    name, name);
		if (system(cmd) == 0) {
			snprintf(r->user, sizeof(r->user), "%s", name);
			if (with_user == NULL)
				atexit(drop_at_exit);
			with_user = r;
			break;
		}
		e2e_sleep_ms(100);
	}
	if (r->user[0] == '\0') {
		snprintf(r->nouser, sizeof(r->nouser), "no user capsule: "
		    "useradd %s failed", name);
		return -1;
	}
	user_put(r, "index.md", "---\ntitle: A user's place\n---\nMine.\n");
	user_put(r, "posts/2024-01-01-hello.md", "---\ntitle: Hello from a "
	    "user\n---\nUSER-HELLO\n");
	return 0;
}

void
rig_user_edit(struct rig *r, int v)
{
	struct passwd	*pw;
	char		 tmp[320], path[320];

	if (r->user[0] == '\0' || (pw = getpwnam(r->user)) == NULL)
		return;
	snprintf(path, sizeof(path), "%s/home/%s/public_gemini/posts/"
	    "2024-01-01-hello.md", r->top, r->user);
	snprintf(tmp, sizeof(tmp), "%s/home/%s/public_gemini/posts/.hello.tmp",
	    r->top, r->user);
	test_write(tmp, "---\ntitle: Hello from a user\n---\nUSER-HELLO, "
	    "version %d.\n", v);
	if (chown(tmp, pw->pw_uid, pw->pw_gid) == -1 || rename(tmp, path) ==
	    -1)
		perror(tmp);
}

/* ---- the backend's syslog -------------------------------------------- */

static void *
syslog_reader(void *arg)
{
	struct rig_syslog	*s = arg;
	struct pollfd		 pfd = { s->fd, POLLIN, 0 };
	char			 dg[4096];
	const char		*p;
	ssize_t			 n;

	while (!atomic_load(&s->stop)) {
		if (poll(&pfd, 1, 200) <= 0)
			continue;
		if ((n = recv(s->fd, dg, sizeof(dg) - 1, MSG_DONTWAIT)) <= 0)
			continue;
		dg[n] = '\0';
		atomic_fetch_add(&s->lines, 1);
		if (strstr(dg, "refused with EPERM") != NULL) {
			atomic_fetch_add(&s->refused, 1);
			fprintf(stderr, "rig: backend: %s\n", dg);
		}
		if ((p = strstr(dg, "warn: log: ")) != NULL)
			atomic_fetch_add(&s->dropped, atol(p + 11));
		if (strstr(dg, "reload: configuration") != NULL)
			atomic_fetch_add(&s->reloads, 1);
		if (strstr(dg, "/far/page.gmi\" 20 ") != NULL)
			atomic_fetch_add(&s->far, 1);
	}
	return NULL;
}

/* ---- the tree -------------------------------------------------------- */

void
rig_bundle_put(struct rig *r, const char *ver)
{
	char	 text[256], path[256];

	snprintf(text, sizeof(text), "---\ntitle: Trip %s\ndate: 2024-03-02\n"
	    "---\nThe trip, BUNDLE-%s.\n", ver, ver);
	test_put(r->capsule, "posts/2024/" RIG_BUNDLE "/index.md", text);
	test_put(r->capsule, "posts/2024/" RIG_BUNDLE "/a.txt", "a file of "
	    "the bundle\n");
	if (as_nobody()) {
		snprintf(path, sizeof(path), "%s/posts/2024", r->capsule);
		chown_tree(path, "nobody");
	}
}

static void
make_tree(struct rig *r)
{
	char	 p[256];

	test_put(r->capsule, "index.md", "---\ntitle: Every feature\n---\n"
	    "The rig's home.\n");
	test_put(r->capsule, "posts/2024-01-05-needle.md", "---\ntitle: A "
	    "needle\n---\nOnly this post says " RIG_WORD ".\n");
	rig_bundle_put(r, "v0");
	/* The static tree at /, and a gophermap in it. */
	test_put(r->capsule, "site/notes/a.gmi", "# Note A\nTREE-A\n");
	test_put(r->capsule, "site/notes/b.gmi", "# Note B\nTREE-B\n");
	test_put(r->capsule, "site/hole/gophermap", "!The hole\n"
	    "Info of the hole\n0Note A\t/notes/a.gmi\n=inc.map\n");
	test_put(r->capsule, "site/hole/inc.map", "HOLE-INC included\n");
	/* A program reads what the query names, or tries unshare(2). */
	test_put(r->capsule, "cgi-bin/probe.cgi", "#!/bin/sh\n"
	    "printf '20 text/plain\\r\\n'\necho CGI-OK\n"
	    "grep '^Seccomp:' /proc/self/status\n"
	    "case \"$QUERY_STRING\" in\n"
	    "unshare) if unshare -U true 2>/dev/null; then echo unshare=ran;"
	    " else echo unshare=refused; fi;;\n"
	    "/*) if cat \"$QUERY_STRING\" >/dev/null 2>&1; then echo "
	    "read=read; else echo read=denied; fi;;\n"
	    "esac\n");
	snprintf(p, sizeof(p), "%s/cgi-bin/probe.cgi", r->capsule);
	chmod(p, 0755);
	if (as_nobody())		/* Titan writes as the server's user */
		chown_tree(r->capsule, "nobody");

	test_put(r->second, "index.md", "---\ntitle: The second host\n---\n"
	    "SECOND-HOME\n");
	test_mkdir(r->second, "site");
	test_put(r->backcap, "index.md", "# The backend\n");
	test_put(r->backcap, "tree/far/page.gmi", "# Far\nFAR-PAGE\n");

	snprintf(p, sizeof(p), "%s/app.sh", r->top);
	test_write(p, "#!/bin/sh\nprintf '20 text/plain\\r\\n'\n"
	    "echo \"FCGI PATH_INFO=$PATH_INFO\"\n");
	chmod(p, 0755);
}

int
rig_make(struct rig *r)
{
	memset(r, 0, sizeof(*r));
	r->fcgiwrap = r->scgi = -1;
	r->main.pid = r->back.pid = -1;
	r->sys.fd = -1;
	snprintf(r->top, sizeof(r->top), "/tmp/capsuled-rig.XXXXXX");
	if (mkdtemp(r->top) == NULL) {
		perror("mkdtemp");
		return -1;
	}
	chmod(r->top, 0755);		/* nobody reaches what is below */
	snprintf(r->capsule, sizeof(r->capsule), "%s/capsule", r->top);
	snprintf(r->second, sizeof(r->second), "%s/second", r->top);
	snprintf(r->backcap, sizeof(r->backcap), "%s/backend", r->top);
	snprintf(r->fsock, sizeof(r->fsock), "%s/fcgi.sock", r->top);
	snprintf(r->ssock, sizeof(r->ssock), "%s/scgi.sock", r->top);
	snprintf(r->lsock, sizeof(r->lsock), "%s/log.sock", r->top);
	snprintf(r->certs, sizeof(r->certs), "/run/capsuled-rig-certs.XXXXXX");
	if (mkdtemp(r->certs) == NULL) {
		snprintf(r->certs, sizeof(r->certs), "%s/certs", r->top);
		mkdir(r->certs, 0755);
	}
	chmod(r->certs, 0755);
	if (as_nobody())	/* where the server's user makes a new key */
		chown_tree(r->certs, "nobody");
	make_tree(r);
	(void)make_user(r);
	r->anon = e2e_client_ctx(0);
	r->writer = e2e_cert_ctx("writer", r->writer_hex);

	r->fcgiwrap = apps_fcgiwrap(r->fsock, 8);
	r->scgi = apps_scgi(r->ssock);
	if (r->fcgiwrap == -1 || !apps_socket_wait(r->fsock, 5000) ||
	    r->scgi == -1) {
		fprintf(stderr, "rig: fcgiwrap or the SCGI server did not "
		    "start\n");
		return -1;
	}
	if ((r->sys.fd = apps_listen_unix(r->lsock, SOCK_DGRAM)) == -1 ||
	    pthread_create(&r->sys.thread, NULL, syslog_reader, &r->sys) !=
	    0) {
		fprintf(stderr, "rig: no syslog socket\n");
		if (r->sys.fd != -1)
			close(r->sys.fd);
		r->sys.fd = -1;
		return -1;
	}
	return 0;
}

/* ---- the servers ----------------------------------------------------- */

/* The main server's configuration, after e2e.c's lines. */
static char *
main_config(const struct rig *r)
{
	struct buf	 b = BUF_INIT;

	buf_printf(&b, "%scerts: %s\nrate_limit: 0\nwatch_debounce: 100ms\n"
	    "titan_writers: [\"%s\"]\ntitan_max_size: 64K\nroot: site\n"
	    "spartan_port: %d\nnex_port: %d\nfinger_port: %d\n"
	    "cgi_timeout: %d\n%s",
	    as_nobody() ? "user: nobody\n" : "", r->certs, r->writer_hex,
	    r->spartan_port, r->nex_port, r->finger_port,
	    harness_valgrind() ? 30 : 10, r->cgi ? "cgi: cgi-bin\n" : "");
	buf_printf(&b, "fastcgi:\n  - {prefix: /fcgi/, socket: 'unix:%s', "
	    "params: {SCRIPT_FILENAME: '%s/app.sh'}, max_connections: 2}\n"
	    "scgi:\n  - {prefix: /scgi, socket: 'unix:%s', "
	    "max_connections: 4}\n"
	    "proxy:\n  - {prefix: /far, backend: 'localhost:%d'}\n",
	    r->fsock, r->top, r->ssock, r->back.gemini_port);
	if (r->user[0] != '\0')
		buf_printf(&b, "userdirs: public_gemini\nuserdirs_uid_min: %u"
		    "\nuserdirs_uid_max: %u\n", r->uid, r->uid);
	if (r->host2)
		buf_printf(&b, "hosts:\n  - hostname: " RIG_HOST2 "\n"
		    "    capsule: %s\n", r->second);
	if (r->extra != NULL)
		buf_printf(&b, "%s", r->extra);
	buf_addc(&b, '\0');
	return b.data;
}

static char *
back_config(const struct rig *r, int public_port)
{
	struct buf	 b = BUF_INIT;

	buf_printf(&b, "%slog: syslog\nsyslog_socket: %s\n"
	    "syslog_facility: local3\nrate_limit: 0\nroot: tree\n",
	    as_nobody() ? "user: nobody\n" : "", r->lsock);
	if (public_port != 0)
		buf_printf(&b, "gemini_public_port: %d\n", public_port);
	buf_addc(&b, '\0');
	return b.data;
}

/* The configuration file of s, readable by the server's user. */
static void
config_readable(const struct e2e_server *s)
{
	char	 conf[300];

	snprintf(conf, sizeof(conf), "%s/capsuled.yaml", s->dir);
	chmod(conf, 0644);
	chmod(s->dir, 0755);
}

static int
backend_reloaded(void *arg)
{
	struct rig	*r = arg;

	return atomic_load(&r->sys.reloads) > 0;
}

/* e2e_start() with conf (freed here): 0, or -1 and s->pid -1. */
static int
start_one(struct e2e_server *s, const char *capsule, char *conf)
{
	int	 rv = e2e_start(s, capsule, conf);

	free(conf);
	if (rv == -1) {
		fprintf(stderr, "rig: a server for %s did not start\n",
		    capsule);
		s->pid = -1;
	}
	return rv;
}

int
rig_start(struct rig *r, int cgi)
{
	char	*conf;

	r->cgi = cgi;
	r->host2 = 0;
	r->nlogs = 0;
	rig_bundle_put(r, "v0");	/* a run before may have deleted it */
	atomic_store(&r->sys.reloads, 0);
	if (start_one(&r->back, r->backcap, back_config(r, 0)) == -1)
		return -1;
	r->spartan_port = e2e_free_port();
	r->nex_port = e2e_free_port();
	r->finger_port = e2e_free_port();
	if (start_one(&r->main, r->capsule, main_config(r)) == -1)
		return -1;
	/*
	 * The server's user makes the log again after SIGUSR1, in the
	 * folder an operator gives it.
	 */
	config_readable(&r->main);
	if (as_nobody()) {
		struct passwd *pw = getpwnam("nobody");

		if (chown(r->main.dir, pw->pw_uid, pw->pw_gid) == -1)
			perror(r->main.dir);
	}
	/* The backend answers for the port the clients name: the main's. */
	conf = back_config(r, r->main.gemini_port);
	e2e_write_config(&r->back, r->back.gopher_port, r->backcap, "", conf);
	free(conf);
	config_readable(&r->back);
	kill(r->back.pid, SIGHUP);
	if (!harness_poll(1000 * harness_time_bound(10), backend_reloaded,
	    r)) {
		fprintf(stderr, "rig: the backend did not reload\n");
		return -1;
	}
	return 0;
}

int
rig_stop(struct rig *r)
{
	int	 rv = 0;

	if (r->main.pid > 0 && e2e_stop(&r->main) != 0)
		rv = -1;
	if (r->back.pid > 0 && e2e_stop(&r->back) != 0)
		rv = -1;
	r->main.pid = r->back.pid = -1;
	return rv;
}

void
rig_free(struct rig *r)
{
	char	 cmd[400];

	(void)rig_stop(r);
	if (r->sys.fd != -1) {
		atomic_store(&r->sys.stop, 1);
		pthread_join(r->sys.thread, NULL);
		close(r->sys.fd);
		r->sys.fd = -1;
	}
	apps_kill(r->fcgiwrap);
	apps_kill(r->scgi);
	r->fcgiwrap = r->scgi = -1;
	drop_user(r);
	if (r->anon != NULL)
		SSL_CTX_free(r->anon);
	if (r->writer != NULL)
		SSL_CTX_free(r->writer);
	r->anon = r->writer = NULL;
	if (r->top[0] != '\0' && getenv("E2E_KEEP") == NULL) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", r->top,
		    r->certs);
		(void)!system(cmd);
	}
}

/* ---- probes ---------------------------------------------------------- */

const char *
rig_probe_name(enum rig_probe p)
{
	return p < RIG_NPROBES ? probe_names[p] : "?";
}

int
rig_probe_on(const struct rig *r, enum rig_probe p)
{
	if (p == RIG_CGI)
		return r->cgi;
	if (p == RIG_USER || p == RIG_USER_GOPHER)
		return r->user[0] != '\0';
	return p < RIG_NPROBES;
}

/* A Gemini request for path: 1 when 20 with every needle, else 0. */
static int
gemini_has(struct rig *r, const char *path, const char *const *needles,
    char *why, size_t len)
{
	struct reply	 rep;
	int		 rv = 1;

	rep = e2e_gemini_get(r->main.gemini_port, r->anon, "%s", path);
	if (rep.status < 0) {
		snprintf(why, len, "%s: no answer", path);
		rv = -1;
	} else if (rep.status != 20) {
		snprintf(why, len, "%s: %s", path, rep.header);
		rv = 0;
	}
	for (; rv == 1 && *needles != NULL; needles++)
		if (strstr(rep.body.data, *needles) == NULL) {
			snprintf(why, len, "%s: no \"%s\" in %.200s", path,
			    *needles, rep.body.data);
			rv = 0;
		}
	reply_free(&rep);
	return rv;
}

/*
 * Send req to a plain-TCP surface on port: 1 when the answer has every
 * needle, else 0 (-1: none).
 */
static int
plain_has(int port, const char *req, const char *const *needles,
    char *why, size_t len)
{
	struct buf	 b;
	int		 rv = 1;

	if (e2e_plain(port, req, strlen(req), &b) == -1 || b.len == 0) {
		snprintf(why, len, "%.40s: no answer", req);
		buf_free(&b);
		return -1;
	}
	buf_addc(&b, '\0');
	for (; *needles != NULL; needles++)
		if (strstr(b.data, *needles) == NULL) {
			snprintf(why, len, "%.40s: no \"%s\" in %.200s", req,
			    *needles, b.data);
			rv = 0;
			break;
		}
	buf_free(&b);
	return rv;
}

#define NEEDLES(...)	(const char *const[]){ __VA_ARGS__, NULL }

int
rig_probe(struct rig *r, enum rig_probe p, char *why, size_t len)
{
	char	 path[128], req[160];

	why[0] = '\0';
	switch (p) {
	case RIG_HOME:
		return gemini_has(r, "/", NEEDLES("The rig's home"), why, len);
	case RIG_CGI:
		return gemini_has(r, "/cgi-bin/probe.cgi", NEEDLES("CGI-OK"),
		    why, len);
	case RIG_FASTCGI:
		return gemini_has(r, "/fcgi/x", NEEDLES("FCGI PATH_INFO=/x"),
		    why, len);
	case RIG_SCGI:
		return gemini_has(r, "/scgi/x", NEEDLES("SCRIPT_NAME=/scgi\n",
		    "PATH_INFO=/x\n"), why, len);
	case RIG_PROXY:
		return gemini_has(r, "/far/page.gmi", NEEDLES("FAR-PAGE"), why,
		    len);
	case RIG_SEARCH:
		return gemini_has(r, "/search?" RIG_WORD, NEEDLES("A needle"),
		    why, len);
	case RIG_SEARCH_GOPHER:
		return plain_has(r->main.gopher_port, "/search\t" RIG_WORD
		    "\r\n", NEEDLES("A needle"), why, len);
	case RIG_TREE:
		return gemini_has(r, "/notes/a.gmi", NEEDLES("TREE-A"), why,
		    len);
	case RIG_LISTING:
		return gemini_has(r, "/notes/", NEEDLES("Note A", "Note B"),
		    why, len);
	case RIG_GOPHERMAP:
		return plain_has(r->main.gopher_port, "/hole/\r\n",
		    NEEDLES("Info of the hole", "HOLE-INC included",
		    "\t/notes/a.gmi\t"), why, len);
	case RIG_USER:
		snprintf(path, sizeof(path), "/~%s/posts/hello", r->user);
		return gemini_has(r, path, NEEDLES("USER-HELLO"), why, len);
	case RIG_USER_GOPHER:
		snprintf(req, sizeof(req), "/~%s/\r\n", r->user);
		return plain_has(r->main.gopher_port, req,
		    NEEDLES("Hello from a user"), why, len);
	case RIG_SPARTAN:
		return plain_has(r->spartan_port, "localhost / 0\r\n",
		    NEEDLES("2 text/gemini", "The rig's home"), why, len);
	case RIG_NEX:
		return plain_has(r->nex_port, "/\n", NEEDLES("The rig's home"),
		    why, len);
	case RIG_FINGER:
		return plain_has(r->finger_port, "\r\n",
		    NEEDLES("Every feature\r\n"), why, len);
	case RIG_NPROBES:
		break;
	}
	snprintf(why, len, "no such probe");
	return 0;
}

/* ---- the operator's moves -------------------------------------------- */

struct reply
rig_host2_get(struct rig *r)
{
	struct reply	 rep;
	char		 req[128];
	int		 n;

	n = snprintf(req, sizeof(req), "gemini://" RIG_HOST2 ":%d/\r\n",
	    r->main.gemini_port);
	if (e2e_gemini_raw(r->main.gemini_port, req, (size_t)n, &rep,
	    r->anon, RIG_HOST2) == -1)
		rep.status = -2;
	if (rep.body.data == NULL)
		buf_add(&rep.body, "", 0);
	return rep;
}

int
rig_host2_cn(struct rig *r, char *cn, size_t len)
{
	X509	*x;
	SSL	*ssl;
	int	 fd, rv = -1;

	cn[0] = '\0';
	if ((fd = e2e_connect(r->main.gemini_port, 5000)) == -1)
		return -1;
	ssl = SSL_new(r->anon);
	SSL_set_fd(ssl, fd);
	SSL_set_tlsext_host_name(ssl, RIG_HOST2);
	if (SSL_connect(ssl) == 1 &&
	    (x = SSL_get1_peer_certificate(ssl)) != NULL) {
		rv = X509_NAME_get_text_by_NID(X509_get_subject_name(x),
		    NID_commonName, cn, (int)len) > 0 ? 0 : -1;
		X509_free(x);
	}
	ERR_clear_error();
	SSL_free(ssl);
	close(fd);
	return rv;
}

struct log_count {
	struct rig	*r;
	const char	*needle;
	int		 want;
};

static int
count_reached(void *arg)
{
	struct log_count *c = arg;

	return rig_log_count(c->r, c->needle) >= c->want;
}

int
rig_reload(struct rig *r, int host2, unsigned limit_ms)
{
	struct log_count c = { r, "reload: configuration", 0 };
	char		*conf, cmd[400];

	c.want = rig_log_count(r, c.needle) + 1;
	if (host2 && !r->host2) {
		/* Made again by the server, as the server's user. */
		snprintf(cmd, sizeof(cmd), "rm -rf '%s/" RIG_HOST2 "'",
		    r->certs);
		(void)!system(cmd);
	}
	r->host2 = host2;
	conf = main_config(r);
	e2e_write_config(&r->main, r->main.gopher_port, r->capsule, "", conf);
	free(conf);
	config_readable(&r->main);
	kill(r->main.pid, SIGHUP);
	return harness_poll(limit_ms, count_reached, &c) ? 0 : -1;
}

int
rig_titan(struct rig *r, const char *slug, const char *body)
{
	struct buf	 req = BUF_INIT;
	struct reply	 rep;
	int		 status;

	buf_printf(&req, "titan://localhost:%d/posts/%s;size=%zu%s\r\n%s",
	    r->main.gemini_port, slug, body != NULL ? strlen(body) : 0,
	    body != NULL ? ";mime=text/markdown" : "",
	    body != NULL ? body : "");
	status = e2e_gemini_raw(r->main.gemini_port, req.data, req.len, &rep,
	    r->writer, "localhost") == -1 ? -1 : rep.status;
	reply_free(&rep);
	buf_free(&req);
	return status;
}

int
rig_rotate(struct rig *r, unsigned limit_ms)
{
	struct buf	 b;
	char		 to[320], sel[64];
	uint64_t	 end = e2e_now_ms() + limit_ms;

	snprintf(to, sizeof(to), "%s.%d", r->main.log, r->nlogs + 1);
	if (rename(r->main.log, to) == -1) {
		perror(r->main.log);
		return -1;
	}
	r->nlogs++;
	kill(r->main.pid, SIGUSR1);
	/* A request after the reopen: its access line in the new file. */
	snprintf(sel, sizeof(sel), "/after-reopen-%d", r->nlogs);
	while (e2e_now_ms() < end) {
		if (access(r->main.log, F_OK) == 0) {
			(void)e2e_gopher_get(r->main.gopher_port, &b, "%s",
			    sel);
			buf_free(&b);
			return e2e_log_wait(r->main.log, sel, (unsigned)(end -
			    e2e_now_ms()) + 1) ? 0 : -1;
		}
		e2e_sleep_ms(20);
	}
	return -1;
}

/*
 * Each main log, the moved ones first: fn(path, arg) summed, once the
 * current one has settled (e2e_log_count() waits for that).
 */
static long
each_log(struct rig *r, long (*fn)(const char *, void *), void *arg)
{
	char	 path[320];
	long	 n = 0;
	int	 i;

	(void)e2e_log_count(&r->main, "");
	for (i = 1; i <= r->nlogs; i++) {
		snprintf(path, sizeof(path), "%s.%d", r->main.log, i);
		n += fn(path, arg);
	}
	return n + fn(r->main.log, arg);
}

static long
count_in(const char *path, void *needle)
{
	int	 n = test_count_lines(path, needle);

	return n > 0 ? n : 0;
}

int
rig_log_count(struct rig *r, const char *needle)
{
	return (int)each_log(r, count_in, (void *)needle);
}

static long
dropped_in(const char *path, void *arg)
{
	char	 line[4096];
	const char *p;
	FILE	*f;
	long	 n = 0;

	(void)arg;
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if ((p = strstr(line, "warn: log: ")) != NULL &&
		    strstr(p, " dropped") != NULL)
			n += atol(p + 11);
	fclose(f);
	return n;
}

long
rig_log_dropped(struct rig *r)
{
	return each_log(r, dropped_in, NULL);
}
