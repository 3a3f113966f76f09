/*
 * e2e_sandbox.c -- the sandbox of the real server, seen from outside
 * (app/sandbox.h), with every feature at work in it (tests/lib/rig.h):
 * CGI, FastCGI (fcgiwrap), SCGI, the Gemini proxy to a second capsuled
 * that logs to syslog, search on both protocols, Titan replacing and
 * deleting a page bundle, a live edit, a static tree, a gophermap, a
 * user capsule, Spartan, Nex and Finger, a SIGHUP that adds a host
 * whose certificate is made then, and the log moved away and reopened
 * on SIGUSR1.  Each feature answers as the files say, before and after
 * the reloads, and no system call is refused along the way:
 *
 *  - "strict": without cgi, the filter at its strictest; a refused call
 *    traps and the server logs it (its own log and the backend's
 *    syslog lines must name none);
 *  - "sandbox": with cgi, where a refused call is EPERM from the kernel
 *    and capsuled cannot log it: the kernel's audit records do
 *    (SECCOMP_FILTER_FLAG_LOG), read from /dev/kmsg.  A program that
 *    calls unshare(2) shows the record is there; none may name
 *    capsuled, nor any other program of the run.  Besides:
 *    /proc/PID/status says Seccomp 2, the log says which Landlock ABI
 *    is enforced, a program inherits the filter and cannot read a file
 *    outside the capsule that it reads with `sandbox: off`, nor a key
 *    (the one made on SIGHUP too);
 *  - "reload": without backends or cgi, no socket() after start-up and
 *    SIGHUP reads the configuration and the certificates again.
 *
 * As root the servers run as `user: nobody` (CGI needs a user); skipped
 * without one, and the rig without fcgiwrap.  Under valgrind the
 * sandbox is off (it says so) and every feature runs under memcheck.
 */
#include <limits.h>
#include <pwd.h>
#include <sys/syscall.h>

#include "apps.h"
#include "audit.h"
#include "e2e.h"
#include "rig.h"

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
static struct rig rig;
static int	 rig_made;

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
	    "if cat '%s' >/dev/null 2>&1; then echo outside=read; "
	    "else echo outside=denied; fi\n", outside);
	chmod(p, 0755);
}

/*
 * The listeners accept before the sandbox is entered (they are bound
 * first), so its log line may come a little after e2e_start().
 */
static void
sandbox_said(const struct e2e_server *s)
{
	(void)e2e_log_wait(s->log, " sandbox: ", 5000);
}

/* With sandbox: off, the CGI reads the file: else nothing to show. */
static int
control(void)
{
	static const char off[] = "user: nobody\ncgi: cgi-bin\nrate_limit: 0\n"
	    "sandbox: off\n";
	struct e2e_server s;
	struct reply	 r;
	int		 readable;

	if (e2e_start(&s, capsule, off) == -1) {
		OK(0, "off: the server starts");
		return 0;
	}
	sandbox_said(&s);
	INT_EQ(e2e_proc_status_kb(s.pid, "Seccomp"), 0, "off: no filter");
	OK(e2e_log_count(&s, "sandbox: off (sandbox: off)") == 1,
	    "off: logged");
	r = e2e_gemini_get(s.gemini_port, ctx, "/cgi-bin/probe.cgi");
	STR_EQ(r.header, "20 text/plain", "off: the probe runs");
	readable = strstr(r.body.data, "outside=read") != NULL;
	reply_free(&r);
	e2e_stop(&s);
	return readable;
}

/* ---- every feature --------------------------------------------------- */

/* "MODE: what", for the harness's messages. */
static const char *
what(const char *mode, const char *fmt, ...)
{
	static char	 out[512];
	char		 msg[400];
	va_list		 ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(out, sizeof(out), "%s: %s", mode, msg);
	return out;
}

static void
probe_all(const char *mode, const char *when)
{
	char	 why[512];
	int	 p;

	for (p = 0; p < RIG_NPROBES; p++) {
		if (!rig_probe_on(&rig, p))
			continue;
		INT_EQ(rig_probe(&rig, p, why, sizeof(why)), 1,
		    what(mode, "%s %s: %s", rig_probe_name(p), when, why));
	}
}

/* What the rig's program says of the file at path: "read", "denied". */
static void
program_reads(const char *mode, const char *path, const char *want)
{
	struct reply	 r;
	char		 line[32];

	r = e2e_gemini_get(rig.main.gemini_port, ctx, "/cgi-bin/probe.cgi?%s",
	    path);
	snprintf(line, sizeof(line), "read=%s\n", want);
	HAS(r.body.data, line, what(mode, "a program reads %s: %s", path,
	    want));
	reply_free(&r);
}

static int
bundle_gone(void)
{
	char	 path[300];

	snprintf(path, sizeof(path), "%s/posts/2024/" RIG_BUNDLE, rig.capsule);
	return access(path, F_OK) == -1;
}

/* Titan replaces the bundle's index.md, then deletes the bundle. */
static void
titan_bundle(const char *mode, unsigned limit)
{
	static const char v1[] = "---\ntitle: Trip v1\ndate: 2024-03-02\n"
	    "---\nThe trip, BUNDLE-v1.\n";
	char	 path[300], *got;

	INT_EQ(rig_titan(&rig, RIG_BUNDLE, v1), 30,
	    what(mode, "Titan: the bundle replaced"));
	test_path(path, sizeof(path), rig.capsule, "posts/2024/" RIG_BUNDLE
	    "/index.md");
	got = test_read(path, "");
	STR_EQ(got, v1, what(mode, "Titan: the bundle's index.md written"));
	free(got);
	OK(e2e_gemini_wait(rig.main.gemini_port, ctx, "/posts/" RIG_BUNDLE,
	    20, "BUNDLE-v1", 1, limit) >= 0, "%s",
	    what(mode, "Titan: the new text served"));
	INT_EQ(rig_titan(&rig, RIG_BUNDLE, NULL), 30,
	    what(mode, "Titan: the bundle deleted"));
	OK(bundle_gone(), "%s", what(mode, "Titan: its folder gone"));
	OK(e2e_gemini_wait(rig.main.gemini_port, ctx, "/posts/" RIG_BUNDLE,
	    51, NULL, 1, limit) >= 0, "%s", what(mode, "Titan: then 51"));
}

/* A SIGHUP that adds RIG_HOST2, whose certificate is made then. */
static void
add_host(const char *mode, unsigned limit)
{
	struct reply	 r;
	char		 cn[128], key[400];

	OK(rig_reload(&rig, 1, limit) == 0, "%s",
	    what(mode, "SIGHUP: the configuration with " RIG_HOST2 " read"));
	r = rig_host2_get(&rig);
	INT_EQ(r.status, 20, what(mode, RIG_HOST2 " served: %s", r.header));
	HAS(r.body.data, "SECOND-HOME", what(mode, RIG_HOST2 "'s capsule"));
	reply_free(&r);
	OK(rig_log_count(&rig, "self-signed certificate for " RIG_HOST2) ==
	    1, "%s", what(mode, "its certificate made on SIGHUP"));
	OK(rig_host2_cn(&rig, cn, sizeof(cn)) == 0 &&
	    strcmp(cn, RIG_HOST2) == 0, "%s",
	    what(mode, "and shown to its clients (CN %s)", cn));
	snprintf(key, sizeof(key), "%s/" RIG_HOST2 "/key.pem", rig.certs);
	OK(access(key, F_OK) == 0, "%s", what(mode, "its key in %s", key));
	if (rig.cgi && !harness_valgrind())
		program_reads(mode, key, "denied");
}

/* Both rounds of probes asked the backend: two access lines by syslog. */
static int
two_far(void *arg)
{
	(void)arg;
	return atomic_load(&rig.sys.far) >= 2;
}

/*
 * Every feature, then the operator's moves, then every feature again;
 * the syslog lines of the backend.  The server is stopped after.
 */
static void
every_feature(const char *mode)
{
	unsigned	 limit = 1000 * harness_time_bound(10);
	char		 moved[320];

	probe_all(mode, "at start");
	titan_bundle(mode, limit);
	test_put(rig.capsule, "posts/2024-02-02-live.md", "---\ntitle: Live"
	    "\n---\nLIVE-EDIT\n");
	OK(e2e_gemini_wait(rig.main.gemini_port, ctx, "/posts/live", 20,
	    "LIVE-EDIT", 1, limit) >= 0, "%s",
	    what(mode, "a live edit served"));
	add_host(mode, limit);
	OK(rig_rotate(&rig, limit) == 0, "%s",
	    what(mode, "SIGUSR1: the moved log made again, written to"));
	snprintf(moved, sizeof(moved), "%s.1", rig.main.log);
	OK(test_count_lines(moved, "SIGUSR1") >= 0, "%s",
	    what(mode, "the moved log kept"));
	probe_all(mode, "after SIGHUP and SIGUSR1");

	OK(harness_poll(limit, two_far, NULL), "%s",
	    what(mode, "syslog: the backend's access lines (%ld)",
	    atomic_load(&rig.sys.far)));
	INT_EQ(atomic_load(&rig.sys.refused), 0,
	    what(mode, "syslog: no system call refused in the backend"));
	INT_EQ(rig_log_count(&rig, "refused with EPERM"), 0,
	    what(mode, "no system call refused in the server (its log)"));
}

/* The sandbox as the logs and /proc say it, for both servers. */
static void
sandbox_on(const char *mode, int *landlock)
{
	sandbox_said(&rig.main);
	INT_EQ(e2e_proc_status_kb(rig.main.pid, "Seccomp"), 2,
	    what(mode, "/proc/PID/status: Seccomp 2 (a filter)"));
	OK(e2e_proc_status_kb(rig.main.pid, "Seccomp_filters") >= 1, "%s",
	    what(mode, "one filter or more"));
	INT_EQ(e2e_proc_status_kb(rig.back.pid, "Seccomp"), 2,
	    what(mode, "the backend: Seccomp 2"));
	OK(rig_log_count(&rig, "seccomp allow-list") == 1, "%s",
	    what(mode, "the log says the filter is on"));
	*landlock = rig_log_count(&rig, "sandbox: Landlock ABI") == 1;
	if (!*landlock)
		harness_skip("no Landlock in this kernel (the log says why)");
}

/* Without cgi: every refused call traps, and the server logs it. */
static void
test_strict(void)
{
	int	 landlock;

	if (rig_start(&rig, 0) == -1) {
		OK(0, "strict: the servers start");
		rig_stop(&rig);
		return;
	}
	sandbox_on("strict", &landlock);
	OK(rig_log_count(&rig, "others EPERM, logged; client sockets") == 1,
	    "strict: refused calls logged by the server");
	every_feature("strict");
	INT_EQ(rig_stop(&rig), 0, "strict: both servers stop cleanly");
}

static const char *
exe_of(pid_t pid, char *out, size_t len)
{
	char	 link[64];
	ssize_t	 n;

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	if ((n = readlink(link, out, len - 1)) < 0)
		n = 0;
	out[n] = '\0';
	return out;
}

/*
 * The kernel's audit records of the run: the program's unshare(2)
 * there (else the kernel keeps no record: nothing to count), and no
 * other, capsuled's least of all.
 */
static void
audit_count(struct audit *au, const char *exe)
{
	struct audit_record rec;
	int		 ours = 0, control = 0, others = 0;

	while (audit_next(au, &rec))
		if (strcmp(rec.exe, exe) == 0) {
			ours++;
			fprintf(stderr, "REFUSED capsuled: %ld (%s), pid %ld, "
			    "code %#lx\n", rec.syscall, rec.comm, rec.pid,
			    rec.code);
		} else if (rec.syscall == SYS_unshare &&
		    strcmp(rec.comm, "unshare") == 0)
			control++;
		else {
			others++;
			fprintf(stderr, "REFUSED program %s (%s): %ld, code "
			    "%#lx\n", rec.exe, rec.comm, rec.syscall,
			    rec.code);
		}
	OK(control >= 1, "sandbox: the kernel records a program's refused "
	    "unshare(2) (%d records)", control);
	INT_EQ(ours, 0, "sandbox: no system call of capsuled refused (the "
	    "kernel's audit records)");
	INT_EQ(others, 0, "sandbox: nor of any program it ran");
	INT_EQ(au->suppressed, 0, "sandbox: no record hidden by the kernel's "
	    "rate limit");
}

/* With cgi: a program in the sandbox, and the kernel's records. */
static void
test_sandbox(int readable)
{
	struct audit	 au;
	struct reply	 r;
	char		 exe[PATH_MAX], key[400];
	int		 landlock, audit;

	audit = audit_open(&au) == 0;
	if (rig_start(&rig, 1) == -1) {
		OK(0, "sandbox: the servers start");
		rig_stop(&rig);
		audit_close(&au);
		return;
	}
	exe_of(rig.main.pid, exe, sizeof(exe));
	sandbox_on("sandbox", &landlock);
	OK(rig_log_count(&rig, "in the kernel's audit log; fork, execve and "
	    "local sockets for CGI") == 1,
	    "sandbox: programs may start; refused calls go to the audit log");

	r = e2e_gemini_get(rig.main.gemini_port, ctx, "/cgi-bin/probe.cgi?"
	    "unshare");
	HAS(r.body.data, "Seccomp:\t2", "sandbox: a program inherits the "
	    "filter");
	HAS(r.body.data, "unshare=refused", "sandbox: unshare(2) refused to "
	    "a program");
	reply_free(&r);
	if (landlock && readable)
		program_reads("sandbox", outside, "denied");
	else if (landlock)
		harness_skip("%s: nobody cannot read it anyway", outside);
	snprintf(key, sizeof(key), "%s/key.pem", rig.certs);
	program_reads("sandbox", key, "denied");

	every_feature("sandbox");
	INT_EQ(rig_stop(&rig), 0, "sandbox: both servers stop cleanly");
	if (audit)
		audit_count(&au, exe);
	else
		harness_skip("the kernel's records of refused calls: %s",
		    au.why);
	audit_close(&au);
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

/* Under valgrind the sandbox is off, says so; every feature, memcheck. */
static void
test_valgrind(void)
{
	if (rig_start(&rig, 1) == -1) {
		OK(0, "valgrind: the servers start");
		rig_stop(&rig);
		return;
	}
	sandbox_said(&rig.main);
	INT_EQ(e2e_proc_status_kb(rig.main.pid, "Seccomp"), 0,
	    "valgrind: no filter");
	OK(rig_log_count(&rig, "sandbox: off under valgrind") == 1,
	    "valgrind: the log says the sandbox is off");
	every_feature("valgrind");
	INT_EQ(rig_stop(&rig), 0, "valgrind: both servers stop cleanly");
}

static const struct harness_test tests[] = {
	NAMED("sandbox"),
	NAMED("strict"),
	NAMED("reload"),
};

/* The rig, or a skip that says why not: 1 when it is there. */
static int
have_rig(void)
{
	if (!apps_have_fcgiwrap()) {
		harness_skip("fcgiwrap is not installed (Debian package "
		    "fcgiwrap): no run with every feature");
		return 0;
	}
	if (!rig_made) {
		rig_made = 1;
		OK(rig_make(&rig) == 0, "the rig is made");
		if (rig.user[0] == '\0')
			harness_skip("%s", rig.nouser);
	}
	return 1;
}

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
	signal(SIGPIPE, SIG_IGN);
	ctx = e2e_client_ctx(0);
	make_capsule();
	if (harness_valgrind())
		RUN("sandbox", if (have_rig()) test_valgrind());
	else {
		RUN("sandbox", readable = control();
		    if (have_rig()) test_sandbox(readable));
		RUN("strict", if (have_rig()) test_strict());
		RUN("reload", test_reload());
	}
	if (rig_made)
		rig_free(&rig);
	SSL_CTX_free(ctx);
	test_rm_tree(top);
	if (outside_dir[0] != '\0')
		test_rm_tree(outside_dir);
	return harness_done();
}
