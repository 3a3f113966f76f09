/*
 * e2e_sandbox.c -- the sandbox of the real server, seen from outside
 * (app/sandbox.h): /proc/PID/status says Seccomp 2 (filter), the log
 * says which Landlock ABI is enforced, and a CGI program, which runs
 * inside the same sandbox, cannot read a file outside the capsule that
 * it reads with `sandbox: off`.  SIGHUP still reloads the
 * configuration and the certificates; no system call is refused along
 * the way (the log names any that is).
 *
 * As root the server runs as `user: nobody` (CGI needs a user);
 * skipped without one.  Under valgrind the sandbox is off, and the
 * test checks only that the server says so and has no filter.
 */
#include <pwd.h>

#include "e2e.h"

static SSL_CTX	*ctx;
static char	 top[] = "/tmp/capsuled-e2e-sandbox.XXXXXX";
static char	 capsule[512];
/*
 * A file nobody may read, outside the capsule and outside every place
 * the sandbox opens to CGI programs (/tmp among them, where a clone of
 * the repository may well be): made in /run when we may, else the
 * repository's README.
 */
static char	 outside_dir[] = "/run/capsuled-e2e-outside.XXXXXX";
static char	 outside[1024];

static void
make_capsule(void)
{
	char	 p[1024];
	const char *src = getenv("CAPSULED_TOP");

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	chmod(top, 0755);
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	test_put(capsule, "index.md", "# Sandboxed\n");
	test_mkdir(capsule, "cgi-bin");
	if (mkdtemp(outside_dir) != NULL) {
		chmod(outside_dir, 0755);
		test_put(outside_dir, "secret.txt", "not for programs\n");
		snprintf(outside, sizeof(outside), "%s/secret.txt",
		    outside_dir);
	} else {
		outside_dir[0] = '\0';
		snprintf(outside, sizeof(outside), "%s/README.md",
		    src ? src : ".");
	}
	snprintf(p, sizeof(p), "%s/cgi-bin/probe.cgi", capsule);
	test_write(p, "#!/bin/sh\nprintf '20 text/plain\\r\\n'\n"
	    "grep '^Seccomp:' /proc/self/status\n"
	    "if cat '%s' >/dev/null 2>&1; then echo outside=read; "
	    "else echo outside=denied; fi\n", outside);
	chmod(p, 0755);
}

static const char base[] = "user: nobody\ncgi: cgi-bin\nrate_limit: 0\n";

/*
 * The listeners accept before the sandbox is entered (they are bound
 * first), so its log line may come a little after e2e_start().
 */
static void
sandbox_said(const struct e2e_server *s)
{
	(void)e2e_log_wait(s->log, " sandbox: ", 5000);
}

static void
probe(const struct e2e_server *s, struct reply *r)
{
	*r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/probe.cgi");
	buf_addc(&r->body, '\0');
}

/* With sandbox: off, the CGI reads the file: else nothing to show. */
static int
control(void)
{
	struct e2e_server s;
	struct reply	 r;
	char		 extra[256];
	int		 readable;

	snprintf(extra, sizeof(extra), "%ssandbox: off\n", base);
	if (e2e_start(&s, capsule, extra) == -1) {
		OK(0, "off: the server starts");
		return 0;
	}
	sandbox_said(&s);
	INT_EQ(e2e_proc_status_kb(s.pid, "Seccomp"), 0, "off: no filter");
	OK(e2e_log_count(&s, "sandbox: off (sandbox: off)") == 1,
	    "off: logged");
	probe(&s, &r);
	STR_EQ(r.header, "20 text/plain", "off: the probe runs");
	readable = strstr(r.body.data, "outside=read") != NULL;
	reply_free(&r);
	e2e_stop(&s);
	return readable;
}

static void
test_on(int readable)
{
	struct e2e_server s;
	struct reply	 r;
	int		 landlock;

	if (e2e_start(&s, capsule, base) == -1) {
		OK(0, "the server starts");
		return;
	}
	sandbox_said(&s);
	INT_EQ(e2e_proc_status_kb(s.pid, "Seccomp"), 2,
	    "/proc/PID/status: Seccomp 2 (a filter)");
	OK(e2e_proc_status_kb(s.pid, "Seccomp_filters") >= 1,
	    "one filter or more");
	OK(e2e_log_count(&s, "seccomp allow-list") == 1,
	    "the log says the filter is on");
	landlock = e2e_log_count(&s, "sandbox: Landlock ABI") == 1;
	if (!landlock)
		harness_skip("no Landlock in this kernel (the log says why)");
	OK(e2e_log_count(&s, "fork, execve and local sockets for CGI") == 1,
	    "cgi: the filter lets programs start");

	probe(&s, &r);
	STR_EQ(r.header, "20 text/plain", "the probe runs in the sandbox");
	HAS(r.body.data, "Seccomp:\t2", "the CGI program inherits the filter");
	if (landlock && readable)
		HAS(r.body.data, "outside=denied",
		    "Landlock: a file outside the capsule is not readable");
	else if (landlock)
		harness_skip("%s: nobody cannot read it anyway", outside);
	reply_free(&r);

	INT_EQ(e2e_stop(&s), 0, "a clean stop in the sandbox");
}

/*
 * Without cgi refused calls are logged: SIGHUP (the configuration,
 * the certificates, the content, as nobody) refuses none.
 */
static void
test_reload(void)
{
	static const char plain[] = "user: nobody\nrate_limit: 0\n";
	struct e2e_server s;
	char		 extra[512], conf[300];

	if (e2e_start(&s, capsule, plain) == -1) {
		OK(0, "the server starts");
		return;
	}
	sandbox_said(&s);
	INT_EQ(e2e_proc_status_kb(s.pid, "Seccomp"), 2, "no cgi: Seccomp 2");
	OK(e2e_log_count(&s, "no new sockets") == 1,
	    "no backend, no syslog: no socket() after start-up");
	/* SIGHUP: the configuration and the certificates again. */
	snprintf(extra, sizeof(extra), "%sredirects:\n  /old: /\n", plain);
	e2e_write_config(&s, s.gopher_port, capsule, "", extra);
	snprintf(conf, sizeof(conf), "%s/capsuled.yaml", s.dir);
	chmod(conf, 0644);		/* the server reads it as nobody */
	chmod(s.dir, 0755);
	kill(s.pid, SIGHUP);
	OK(e2e_gemini_wait(s.gemini_port, ctx, "/old", 31, NULL, 1,
	    harness_time_bound(10) * 1000) >= 0,
	    "SIGHUP: the new configuration is read in the sandbox");
	OK(e2e_log_count(&s, "certificate CN=localhost") >= 2,
	    "SIGHUP: the certificates are read again");
	INT_EQ(e2e_log_count(&s, "refused with EPERM"), 0,
	    "no system call refused");
	INT_EQ(e2e_stop(&s), 0, "a clean stop in the sandbox");
}

/* Under valgrind the sandbox is off, and says so. */
static void
test_valgrind(void)
{
	struct e2e_server s;

	if (e2e_start(&s, capsule, "rate_limit: 0\n") == -1) {
		OK(0, "the server starts under valgrind");
		return;
	}
	sandbox_said(&s);
	INT_EQ(e2e_proc_status_kb(s.pid, "Seccomp"), 0, "valgrind: no filter");
	OK(e2e_log_count(&s, "sandbox: off under valgrind") == 1,
	    "valgrind: the log says the sandbox is off");
	INT_EQ(e2e_stop(&s), 0, "a clean stop under valgrind");
}

static const struct harness_test tests[] = {
	NAMED("sandbox"),
	NAMED("reload"),
};

int
main(int argc, char **argv)
{
	int	 readable;

	HARNESS_INIT(argc, argv, tests);
	harness_run();
	if (getuid() == 0 && getpwnam("nobody") == NULL) {
		harness_skip("no user nobody to run CGI as");
		return harness_done();
	}
	ctx = e2e_client_ctx(0);
	make_capsule();
	if (harness_valgrind()) {
		RUN("sandbox", test_valgrind());
		SSL_CTX_free(ctx);
		test_rm_tree(top);
		if (outside_dir[0] != '\0')
			test_rm_tree(outside_dir);
		return harness_done();
	}
	RUN("sandbox", readable = control(); test_on(readable));
	RUN("reload", test_reload());
	SSL_CTX_free(ctx);
	test_rm_tree(top);
	if (outside_dir[0] != '\0')
		test_rm_tree(outside_dir);
	return harness_done();
}
