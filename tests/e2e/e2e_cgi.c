/*
 * e2e_cgi.c -- CGI over the real server (docs/operating.md, "CGI"), with
 * programs this test writes into the capsule's cgi-bin/ (sh scripts):
 *
 *  - the environment a program gets (GATEWAY_INTERFACE, SERVER_*,
 *    SCRIPT_NAME, PATH_INFO, QUERY_STRING, REMOTE_ADDR, GEMINI_URL, TLS_*),
 *    with and without a client certificate (AUTH_TYPE, REMOTE_USER,
 *    TLS_CLIENT_HASH, _SUBJECT, _ISSUER), its working directory, and that
 *    it does not run as root;
 *  - its response sent as written: a 2x with its body, a 30 or 51
 *    without one;
 *  - 42 for a bad header, for no output, past cgi_timeout (the program
 *    and the child it started are killed, also one that called
 *    setsid(), and an orphaned grandchild that did) and past
 *    cgi_max_output;
 *  - 51 for a file that is not executable, a dot-file, one with two hard
 *    links, a missing one and the directory itself; 42 for one the server's user may not run;
 *    Gopher never runs a program;
 *  - cgi_max_programs: four requests at once on two workers with a cap
 *    of one each: some answered 41, the others served;
 *  - a stop while a program runs kills its group and exits 0;
 *  - a server left running as root (--allow-root, no user:) runs no
 *    program: 42, logged as an error.
 *
 * As root, the server is started with `user: nobody` (skipped when there
 * is no such user); otherwise as whoever runs the test.
 */
#include <pwd.h>

#include "e2e.h"

static SSL_CTX		*ctx;
static char		 top[] = "/tmp/capsuled-e2e-cgi.XXXXXX";
static char		 capsule[512];
static char		 spool[512];
static int		 skipped;

static void
skip(const char *why)
{
	skipped++;
	fprintf(stderr, "SKIPPED: %s\n", why);
}

/* capsule/cgi-bin/name: "#!/bin/sh" and body, with mode. */
static void
prog(const char *name, const char *body, mode_t mode)
{
	char	 p[1024];

	snprintf(p, sizeof(p), "%s/cgi-bin/%s", capsule, name);
	test_write(p, "#!/bin/sh\n%s", body);
	chmod(p, mode);
}

static void
make_capsule(void)
{
	char	 p[1024], body[1024];

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	chmod(top, 0755);		/* nobody must reach the capsule */
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	snprintf(spool, sizeof(spool), "%s/spool", top);
	mkdir(spool, 0777);
	chmod(spool, 01777);		/* where programs may write */
	snprintf(p, sizeof(p), "%s/index.md", capsule);
	test_write(p, "# CGI\n");
	snprintf(p, sizeof(p), "%s/cgi-bin", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/cgi-bin/sub", capsule);
	mkdir(p, 0755);

	prog("env.cgi",
	    "printf '20 text/plain\\r\\n'\n"
	    "for v in GATEWAY_INTERFACE SERVER_PROTOCOL SERVER_NAME"
	    " SERVER_PORT SCRIPT_NAME PATH_INFO QUERY_STRING REMOTE_ADDR"
	    " GEMINI_URL AUTH_TYPE REMOTE_USER TLS_CLIENT_HASH"
	    " TLS_CLIENT_SUBJECT TLS_CLIENT_ISSUER TLS_VERSION TLS_CIPHER; do\n"
	    "\teval \"val=\\${$v-(unset)}\"\n"
	    "\tprintf '%s=%s\\n' \"$v\" \"$val\"\n"
	    "done\n"
	    "printf 'uid=%s\\n' \"$(id -u)\"\n"
	    "printf 'cwd=%s\\n' \"$(pwd)\"\n", 0755);
	prog("sub/deep.cgi",
	    "printf '20 text/gemini\\r\\n# deep %s %s\\n' \"$SCRIPT_NAME\""
	    " \"$PATH_INFO\"\n", 0755);
	prog("bad.cgi", "printf 'hello world\\r\\n'\n", 0755);
	prog("silent.cgi", "exit 0\n", 0755);
	prog("redirect.cgi",
	    "printf '30 /posts/\\r\\nthis body is not sent\\n'\n", 0755);
	prog("gone.cgi", "printf '51 Nothing here\\r\\n'\nexit 3\n", 0755);
	snprintf(body, sizeof(body),
	    "sleep 60 &\necho $! >'%s/child.pid'\nwait\n", spool);
	prog("slow.cgi", body, 0755);
	/* A child in a session of its own: out of the program's group. */
	snprintf(body, sizeof(body),
	    "setsid sleep 60 &\necho $! >'%s/child.pid'\nwait\n", spool);
	prog("setsid.cgi", body, 0755);
	/* The same, its parent gone at once: an orphan, no longer below. */
	snprintf(body, sizeof(body),
	    "sh -c \"setsid sleep 60 & echo \\$! >'%s/child.pid'\"\n"
	    "sleep 60\n", spool);
	prog("orphan.cgi", body, 0755);
	prog("big.cgi",
	    "printf '20 text/plain\\r\\n'\ni=0\n"
	    "while [ $i -lt 1000 ]; do\n"
	    "\techo 0123456789012345678901234567890123456789\n"
	    "\ti=$((i + 1))\ndone\n", 0755);
	prog("hold.cgi", "sleep 1\nprintf '20 text/plain\\r\\nheld\\n'\n",
	    0755);
	prog("plain.txt", "printf '20 text/plain\\r\\nran\\n'\n", 0644);
	prog(".hidden.cgi", "printf '20 text/plain\\r\\nran\\n'\n", 0755);
	/* Executable by its owner only: as root, nobody cannot run it. */
	prog("owner.cgi", "printf '20 text/plain\\r\\nran\\n'\n", 0744);
	/* A second name of a program: not run (files_hardlinks is off). */
	prog("once.cgi", "printf '20 text/plain\\r\\nran\\n'\n", 0755);
	snprintf(p, sizeof(p), "%s/cgi-bin/once.cgi", capsule);
	snprintf(body, sizeof(body), "%s/cgi-bin/twice.cgi", capsule);
	(void)!link(p, body);
}

/* The value of "NAME=" on a line of text, into out ("" when absent). */
static const char *
var(const char *text, const char *name, char *out, size_t len)
{
	const char	*p = text, *e;
	size_t		 n = strlen(name);

	out[0] = '\0';
	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, n) == 0 && p[n] == '=') {
			e = strchr(p + n + 1, '\n');
			snprintf(out, len, "%.*s", (int)(e != NULL ?
			    (size_t)(e - p - n - 1) : strlen(p + n + 1)),
			    p + n + 1);
			break;
		}
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	}
	return out;
}

static void
test_env(const struct e2e_server *s)
{
	struct reply	 r;
	SSL_CTX		*cc;
	char		 v[1200], want[1200], hex[65];

	r = e2e_gemini_get(s->gemini_port, ctx, "%s",
	    "/cgi-bin/env.cgi/a/b%20c?x=1&y=%C3%A9");
	STR_EQ(r.header, "20 text/plain", "env: the program's header");
	OK(r.close_notify, "env: ends with close_notify");
	STR_EQ(var(r.body.data, "GATEWAY_INTERFACE", v, sizeof(v)),
	    "CGI/1.1", "GATEWAY_INTERFACE");
	STR_EQ(var(r.body.data, "SERVER_PROTOCOL", v, sizeof(v)), "GEMINI",
	    "SERVER_PROTOCOL");
	STR_EQ(var(r.body.data, "SERVER_NAME", v, sizeof(v)), "localhost",
	    "SERVER_NAME");
	snprintf(want, sizeof(want), "%d", s->gemini_port);
	STR_EQ(var(r.body.data, "SERVER_PORT", v, sizeof(v)), want,
	    "SERVER_PORT");
	STR_EQ(var(r.body.data, "SCRIPT_NAME", v, sizeof(v)),
	    "/cgi-bin/env.cgi", "SCRIPT_NAME");
	STR_EQ(var(r.body.data, "PATH_INFO", v, sizeof(v)), "/a/b c",
	    "PATH_INFO, decoded");
	STR_EQ(var(r.body.data, "QUERY_STRING", v, sizeof(v)),
	    "x=1&y=%C3%A9", "QUERY_STRING, as sent");
	STR_EQ(var(r.body.data, "REMOTE_ADDR", v, sizeof(v)), "127.0.0.1",
	    "REMOTE_ADDR");
	snprintf(want, sizeof(want), "gemini://localhost:%d/cgi-bin/env.cgi/"
	    "a/b%%20c?x=1&y=%%C3%%A9", s->gemini_port);
	STR_EQ(var(r.body.data, "GEMINI_URL", v, sizeof(v)), want,
	    "GEMINI_URL: the request as sent");
	STR_EQ(var(r.body.data, "TLS_VERSION", v, sizeof(v)), "TLSv1.3",
	    "TLS_VERSION");
	OK(strlen(var(r.body.data, "TLS_CIPHER", v, sizeof(v))) > 4 &&
	    strcmp(v, "(unset)") != 0, "TLS_CIPHER: %s", v);
	STR_EQ(var(r.body.data, "AUTH_TYPE", v, sizeof(v)), "(unset)",
	    "no certificate: no AUTH_TYPE");
	STR_EQ(var(r.body.data, "TLS_CLIENT_HASH", v, sizeof(v)), "(unset)",
	    "no certificate: no TLS_CLIENT_HASH");
	OK(strcmp(var(r.body.data, "uid", v, sizeof(v)), "0") != 0 &&
	    v[0] != '\0', "the program does not run as root (uid %s)", v);
	snprintf(want, sizeof(want), "%s/cgi-bin", capsule);
	STR_EQ(var(r.body.data, "cwd", v, sizeof(v)), want,
	    "run in its own directory");
	reply_free(&r);

	cc = e2e_cert_ctx("alice", hex);
	r = e2e_gemini_get(s->gemini_port, cc, "/cgi-bin/env.cgi");
	STR_EQ(var(r.body.data, "AUTH_TYPE", v, sizeof(v)), "CERTIFICATE",
	    "AUTH_TYPE");
	STR_EQ(var(r.body.data, "REMOTE_USER", v, sizeof(v)), "alice",
	    "REMOTE_USER: the certificate's CN");
	snprintf(want, sizeof(want), "SHA256:%s", hex);
	STR_EQ(var(r.body.data, "TLS_CLIENT_HASH", v, sizeof(v)), want,
	    "TLS_CLIENT_HASH");
	STR_EQ(var(r.body.data, "TLS_CLIENT_SUBJECT", v, sizeof(v)),
	    "/CN=alice", "TLS_CLIENT_SUBJECT");
	STR_EQ(var(r.body.data, "TLS_CLIENT_ISSUER", v, sizeof(v)),
	    "/CN=alice", "TLS_CLIENT_ISSUER (self-signed)");
	STR_EQ(var(r.body.data, "PATH_INFO", v, sizeof(v)), "",
	    "no PATH_INFO: empty");
	STR_EQ(var(r.body.data, "QUERY_STRING", v, sizeof(v)), "",
	    "no query: empty");
	reply_free(&r);
	SSL_CTX_free(cc);

	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/sub/deep.cgi/x");
	STR_EQ(r.body.data, "# deep /cgi-bin/sub/deep.cgi /x\n",
	    "a program in a subdirectory");
	reply_free(&r);
}

/*
 * The child slow.cgi left running (its pid in spool/child.pid) is gone
 * within 3 s: no /proc entry, or a zombie waiting for init.  The pid
 * file is removed, for the next run of slow.cgi.
 */
static int
child_gone(void)
{
	char		 p[600], pid[32], path[640], stat[64];
	uint64_t	 deadline;
	ssize_t		 n;
	FILE		*f;
	int		 fd, gone = 0;

	snprintf(p, sizeof(p), "%s/child.pid", spool);
	deadline = e2e_now_ms() + 3000;
	while ((fd = open(p, O_RDONLY)) == -1 && e2e_now_ms() < deadline)
		e2e_sleep_ms(50);
	if (fd == -1)
		return 0;
	n = read(fd, pid, sizeof(pid) - 1);
	close(fd);
	unlink(p);
	pid[n > 0 ? n : 0] = '\0';
	pid[strcspn(pid, "\n")] = '\0';
	if (pid[0] == '\0')
		return 0;
	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	while (!gone && e2e_now_ms() < deadline) {
		if ((f = fopen(path, "r")) == NULL)
			gone = 1;
		else {
			if (fgets(stat, sizeof(stat), f) != NULL &&
			    strstr(stat, ") Z") != NULL)
				gone = 1;
			fclose(f);
		}
		if (!gone)
			e2e_sleep_ms(50);
	}
	return gone;
}

static void
test_answers(const struct e2e_server *s)
{
	struct reply	 r;
	char		*g;
	uint64_t	 t0;

	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/redirect.cgi");
	STR_EQ(r.header, "30 /posts/", "a 30 as written");
	INT_EQ(r.body.len, 0, "30: its body is not sent");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/gone.cgi");
	STR_EQ(r.header, "51 Nothing here", "exit 3 with a good header: sent");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/bad.cgi");
	STR_EQ(r.header, "42 CGI error: bad response header",
	    "not a Gemini header: 42");
	INT_EQ(r.body.len, 0, "42: nothing of the program's");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/silent.cgi");
	STR_EQ(r.header, "42 CGI error: bad response header", "no output: 42");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/big.cgi");
	STR_EQ(r.header, "42 CGI error: too much output",
	    "past cgi_max_output: 42");
	reply_free(&r);

	t0 = e2e_now_ms();
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/slow.cgi");
	STR_EQ(r.header, "42 CGI error: no answer in time",
	    "past cgi_timeout: 42");
	OK(e2e_now_ms() - t0 >= 2500 && e2e_now_ms() - t0 < 8000,
	    "answered at cgi_timeout (3 s): %llu ms",
	    (unsigned long long)(e2e_now_ms() - t0));
	reply_free(&r);
	/* Its child, in its process group, is killed with it. */
	OK(child_gone(), "past cgi_timeout: the program's child was killed");
	/* Nor does a descendant that left the group with setsid(). */
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/setsid.cgi");
	STR_EQ(r.header, "42 CGI error: no answer in time",
	    "setsid child: 42 at cgi_timeout");
	reply_free(&r);
	OK(child_gone(), "past cgi_timeout: a child in a session of its "
	    "own was killed");
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/orphan.cgi");
	STR_EQ(r.header, "42 CGI error: no answer in time",
	    "orphaned setsid grandchild: 42 at cgi_timeout");
	reply_free(&r);
	OK(child_gone(), "past cgi_timeout: an orphaned grandchild in a "
	    "session of its own was killed");

	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/plain.txt");
	STR_EQ(r.header, "51 Not found", "not executable: 51");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/.hidden.cgi");
	STR_EQ(r.header, "51 Not found", "a dot-file: 51");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/owner.cgi");
	if (geteuid() == 0)
		STR_EQ(r.header, "42 CGI error", "not nobody's to run: 42");
	else
		STR_EQ(r.header, "20 text/plain", "its owner runs it");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/twice.cgi");
	STR_EQ(r.header, "51 Not found", "a program with two names: 51");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/missing.cgi");
	STR_EQ(r.header, "51 Not found", "missing: 51");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/");
	STR_EQ(r.header, "51 Not found", "the directory: 51, no listing");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/sub");
	STR_EQ(r.header, "51 Not found", "a subdirectory: 51");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/");
	INT_EQ(r.status, 20, "the rest of the capsule is served");
	reply_free(&r);

	g = NULL;
	{
		struct buf	 out;
		const char	 req[] = "/cgi-bin/env.cgi\r\n";

		if (e2e_plain(s->gopher_port, req, sizeof(req) - 1,
		    &out) == 0) {
			buf_addc(&out, '\0');
			g = buf_release(&out);
		}
	}
	OK(g != NULL && strstr(g, "3Not found\t") != NULL &&
	    strstr(g, "GATEWAY") == NULL, "Gopher runs no program");
	free(g);
}

/* Four at once, two workers, one program each: some wait their turn. */
static void
test_cap(const struct e2e_server *s)
{
	pid_t	 kids[4];
	int	 i, st, ok20 = 0, busy = 0, other = 0;

	for (i = 0; i < 4; i++) {
		if ((kids[i] = fork()) == 0) {
			struct reply r = e2e_gemini_get(s->gemini_port, ctx,
			    "/cgi-bin/hold.cgi");

			_exit(r.status == 20 && strcmp(r.body.data,
			    "held\n") == 0 ? 0 : r.status == 41 ? 1 : 2);
		}
	}
	for (i = 0; i < 4; i++) {
		if (kids[i] == -1 || waitpid(kids[i], &st, 0) == -1 ||
		    !WIFEXITED(st)) {
			other++;
			continue;
		}
		switch (WEXITSTATUS(st)) {
		case 0: ok20++; break;
		case 1: busy++; break;
		default: other++; break;
		}
	}
	OK(ok20 >= 1 && ok20 <= 2, "cap: 1 or 2 served at once (%d)", ok20);
	OK(busy >= 2, "cap: the others answered 41 (%d)", busy);
	INT_EQ(other, 0, "cap: no other answer");
	OK(e2e_log_wait(s->log, "cgi_max_programs", 0), "cap: logged");
}

static const struct harness_test tests[] = {
	NAMED("env"),
	NAMED("answers"),
	NAMED("cap"),
};

int
main(int argc, char **argv)
{
	struct e2e_server	 s;
	struct reply		 r;
	char			 extra[512], cmd[600];
	uint64_t		 t0;
	pid_t			 kid;
	int			 root = geteuid() == 0;

	HARNESS_INIT(argc, argv, tests);

	make_capsule();
	ctx = e2e_client_ctx(0);

	if (root && getpwnam("nobody") == NULL) {
		skip("no user nobody: CGI is not run as root");
		goto out;
	}
	snprintf(extra, sizeof(extra), "%scgi: cgi-bin\ncgi_timeout: 3\n"
	    "cgi_max_output: 8K\ncgi_max_programs: 1\n",
	    root ? "user: nobody\n" : "");
	if (e2e_start(&s, capsule, extra) == -1) {
		OK(0, "server did not start");
		goto out;
	}
	RUN("env", test_env(&s));
	RUN("answers", test_answers(&s));
	RUN("cap", test_cap(&s));
	/* Stopped while a program runs: it is killed, the server exits. */
	if ((kid = fork()) == 0) {
		r = e2e_gemini_get(s.gemini_port, ctx, "/cgi-bin/slow.cgi");
		_exit(0);
	}
	e2e_sleep_ms(500);
	t0 = e2e_now_ms();
	INT_EQ(e2e_stop(&s), 0, "exits 0 with a program running");
	OK(e2e_now_ms() - t0 < 8000, "stopped in %llu ms",
	    (unsigned long long)(e2e_now_ms() - t0));
	OK(child_gone(), "stop: the running program's group was killed");
	if (kid > 0)
		waitpid(kid, NULL, 0);

	/* Left root (--allow-root, no user:): no program runs. */
	if (root) {
		if (e2e_start(&s, capsule, "cgi: cgi-bin\n") == 0) {
			r = e2e_gemini_get(s.gemini_port, ctx,
			    "/cgi-bin/env.cgi");
			STR_EQ(r.header, "42 CGI error", "as root: 42");
			INT_EQ(r.body.len, 0, "as root: nothing ran");
			reply_free(&r);
			OK(e2e_log_wait(s.log, " error: cgi: /cgi-bin/env.cgi"
			    " not run: programs are never run as root", 0),
			    "as root: logged as an error");
			INT_EQ(e2e_stop(&s), 0, "root server exits 0");
		} else
			OK(0, "root server did not start");
	} else
		skip("not root: the refusal to run programs as root");
out:
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	printf("%d passed, %d failed, %d skipped\n", harness_passed,
	    harness_failed, skipped);
	return harness_failed > 0;
}
