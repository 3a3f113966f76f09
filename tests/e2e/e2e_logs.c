/*
 * e2e_logs.c -- the access log and where lines go (docs/logging.md,
 * "Access log"), over the real server:
 *
 *  - log_format common and combined: every access line read back by an
 *    NCSA parser (a POSIX regular expression, as log tools read them):
 *    the host without its port, the time, the Gemini URL or the Gopher
 *    selector as the request, the status mapped to HTTP's, the bytes;
 *    combined's two "-" fields; capsuled's own format read the same way;
 *  - log: syslog: RFC 3164 datagrams on a Unix socket this test listens
 *    on (syslog_socket), with syslog_facility's priority, for the
 *    diagnostics and the access lines; a socket nobody listens on is
 *    refused at start;
 *  - a syslog daemon that stops reading: the test's socket, its queue
 *    filled and never read, as syslog_socket; the server starts, still
 *    answers 50 Gemini and 50 Gopher requests in time (both workers used
 *    to sit in send()), and once the test reads again a line says how
 *    many lines were dropped; stuck again, SIGTERM still ends it;
 *  - as root with user: the log file is given to the user, so SIGUSR1
 *    opens it again after the privilege drop (skipped as non-root);
 *  - access_log: FILE (molly-brown's AccessLog and ErrorLog): access
 *    lines there, in log_format, and none in the log; diagnostics in the
 *    log and none there; moved away, SIGUSR1 opens it anew, under the
 *    sandbox.
 */
#include <poll.h>
#include <pwd.h>
#include <regex.h>
#include <sys/un.h>

#include "apps.h"
#include "e2e.h"

static char		 capsule[512];
static SSL_CTX		*ctx;

/* The lines of text that match re, counted; each checked by check. */
static int
lines_matching(const char *text, const char *re, int nsub,
    void (*check)(const char *line, const regmatch_t *m))
{
	regex_t		 rx;
	regmatch_t	 m[12];
	const char	*p, *e;
	char		 line[2048];
	int		 n = 0;

	if (regcomp(&rx, re, REG_EXTENDED) != 0)
		return -1;
	for (p = text; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		snprintf(line, sizeof(line), "%.*s", (int)(e - p), p);
		if (regexec(&rx, line, (size_t)nsub + 1, m, 0) == 0) {
			n++;
			if (check != NULL)
				check(line, m);
		}
	}
	regfree(&rx);
	return n;
}

/* The NCSA common format; combined adds two quoted fields. */
#define CLF	"^([^ ]+) - - \\[([0-9]{2})/([A-Z][a-z]{2})/([0-9]{4}):" \
		"([0-9]{2}):([0-9]{2}):([0-9]{2}) \\+0000\\] \"([^\"]*)\" " \
		"([0-9]{3}) ([0-9]+)"

static char	 seen[8][600];
static int	 nseen;

/* Keep "HOST|REQUEST|STATUS|BYTES" of each line for the checks. */
static void
keep(const char *line, const regmatch_t *m)
{
	if (nseen >= 8)
		return;
	snprintf(seen[nseen++], sizeof(seen[0]), "%.*s|%.*s|%.*s|%.*s",
	    (int)(m[1].rm_eo - m[1].rm_so), line + m[1].rm_so,
	    (int)(m[8].rm_eo - m[8].rm_so), line + m[8].rm_so,
	    (int)(m[9].rm_eo - m[9].rm_so), line + m[9].rm_so,
	    (int)(m[10].rm_eo - m[10].rm_so), line + m[10].rm_so);
}

static int
kept(const char *prefix)
{
	int	 i;

	for (i = 0; i < nseen; i++)
		if (strncmp(seen[i], prefix, strlen(prefix)) == 0)
			return 1;
	return 0;
}

/* Three requests; their lines read back in format fmt. */
static void
one_format(const char *fmt, const char *re)
{
	struct e2e_server	 s;
	struct reply		 r;
	struct buf		 g;
	char			 extra[200], want[300], *text;
	int			 n;

	snprintf(extra, sizeof(extra), "log_format: %s\n", fmt);
	if (e2e_start(&s, capsule, extra) == -1) {
		OK(0, "%s: server did not start", fmt);
		return;
	}
	r = e2e_gemini_get(s.gemini_port, ctx, "/");
	reply_free(&r);
	r = e2e_gemini_get(s.gemini_port, ctx, "/nothing-here");
	reply_free(&r);
	buf_init(&g);
	e2e_gopher_get(s.gopher_port, &g, "/");
	buf_free(&g);
	snprintf(want, sizeof(want), ":%d/\" 200 ", s.gemini_port);
	OK(e2e_log_wait(s.log, "\"/\" 200 ", 5000) &&
	    e2e_log_wait(s.log, "/nothing-here\" 404 ", 5000) &&
	    e2e_log_wait(s.log, want, 5000), "%s: lines written", fmt);
	text = test_read(s.log, "");
	nseen = 0;
	n = lines_matching(text, re, 10, keep);
	INT_EQ(n, 3, "three access lines read by the parser");
	snprintf(want, sizeof(want), "127.0.0.1|gemini://localhost:%d/|200|",
	    s.gemini_port);
	OK(kept(want), "%s: a Gemini URL, 20 as 200, the host without port",
	    fmt);
	snprintf(want, sizeof(want), "127.0.0.1|gemini://localhost:%d/"
	    "nothing-here|404|0", s.gemini_port);
	OK(kept(want), "%s: 51 as 404, no bytes", fmt);
	OK(kept("127.0.0.1|/|200|"), "%s: a Gopher selector", fmt);
	OK(!kept("127.0.0.1|/|200|0"), "%s: the bytes sent", fmt);
	free(text);
	INT_EQ(e2e_stop(&s), 0, "server exits 0");
}

static void
test_common(void)
{
	one_format("common", CLF "$");
}

static void
test_combined(void)
{
	one_format("combined", CLF " \"-\" \"-\"$");
}

static void
test_capsuled(void)
{
	struct e2e_server	 s;
	struct reply		 r;
	char			*text;

	if (e2e_start(&s, capsule, "") == -1) {
		OK(0, "server did not start");
		return;
	}
	r = e2e_gemini_get(s.gemini_port, ctx, "/");
	reply_free(&r);
	OK(e2e_log_wait(s.log, " gemini \"gemini://", 5000), "line written");
	text = test_read(s.log, "");
	INT_EQ(lines_matching(text, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z "
	    "127\\.0\\.0\\.1:[0-9]+ gemini \"gemini://localhost:[0-9]+/\" 20 "
	    "[1-9][0-9]* [0-9]+$", 0, NULL), 1,
	    "capsuled's own format: TIME PEER PROTO \"URL\" 20 BYTES USEC");
	free(text);
	INT_EQ(e2e_stop(&s), 0, "server exits 0");
}

/*
 * Start capsuled with config text yaml in dir (under valgrind too, as
 * e2e_exec_server() runs it); its pid, or -1.
 */
static pid_t
start_raw(const char *dir, const char *yaml)
{
	char	 conf[600];
	pid_t	 pid;

	snprintf(conf, sizeof(conf), "%s/capsuled.yaml", dir);
	test_write(conf, "%s", yaml);
	if ((pid = fork()) == 0) {
		dup2(open("/dev/null", O_RDWR), 1);
		e2e_exec_server(dir, conf, 0);
	}
	return pid;
}

/* Wait (bounded) until port accepts a connection. */
static void
wait_port(int port)
{
	uint64_t	 deadline;
	int		 fd = -1;

	deadline = e2e_now_ms() + 1000 * harness_time_bound(10);
	while (e2e_now_ms() < deadline && (fd = e2e_connect(port, 200)) == -1)
		e2e_sleep_ms(50);
	if (fd != -1)
		close(fd);
}

/*
 * The next datagram on fd into dg (NUL-ended), waited for until
 * deadline (e2e_now_ms()); its length, or -1 when none came.
 */
static ssize_t
next_dgram(int fd, char *dg, size_t size, uint64_t deadline)
{
	struct pollfd	 pfd = { fd, POLLIN, 0 };
	ssize_t		 n;

	while (e2e_now_ms() < deadline) {
		if (poll(&pfd, 1, 200) <= 0 || !(pfd.revents & POLLIN))
			continue;
		if ((n = recv(fd, dg, size - 1, 0)) <= 0)
			return -1;
		dg[n] = '\0';
		return n;
	}
	return -1;
}

static void
test_syslog(void)
{
	char		 dir[] = "/tmp/capsuled-e2e-syslog.XXXXXX";
	char		 sock[300], yaml[1200], got[8192], dg[2300];
	struct reply	 r;
	uint64_t	 deadline;
	ssize_t		 n;
	size_t		 len = 0;
	pid_t		 pid;
	int		 fd, gport, status, ok_access = 0, ok_info = 0;

	if (mkdtemp(dir) == NULL) {
		OK(0, "mkdtemp");
		return;
	}
	chmod(dir, 0755);
	snprintf(sock, sizeof(sock), "%s/log.sock", dir);
	if ((fd = apps_listen_unix(sock, SOCK_DGRAM)) == -1) {
		OK(0, "cannot listen on %s", sock);
		return;
	}
	gport = e2e_free_port();
	snprintf(yaml, sizeof(yaml),
	    "hostname: localhost\nbind: [127.0.0.1]\ngemini_port: %d\n"
	    "gopher_port: 0\ncapsule: %s\ncerts: %s/certs\nworkers: 1\n"
	    "log: syslog\nsyslog_socket: %s\nsyslog_facility: local3\n",
	    gport, capsule, dir, sock);
	pid = start_raw(dir, yaml);
	OK(pid > 0, "started");
	wait_port(gport);
	r = e2e_gemini_get(gport, ctx, "/syslog-probe");
	reply_free(&r);
	/* <PRI>: local3 (19) * 8 + info (6) = 158. */
	deadline = e2e_now_ms() + 5000;
	while ((!ok_access || !ok_info) &&
	    (n = next_dgram(fd, dg, sizeof(dg), deadline)) > 0) {
		if (len + (size_t)n + 2 < sizeof(got)) {
			memcpy(got + len, dg, (size_t)n);
			len += (size_t)n;
			got[len++] = '\n';
			got[len] = '\0';
		}
		if (strncmp(dg, "<158>", 5) == 0 && strstr(dg,
		    " capsuled[") != NULL && strstr(dg, "info: serving"))
			ok_info = 1;
		if (strncmp(dg, "<158>", 5) == 0 && strstr(dg,
		    "gemini \"gemini://localhost:") != NULL &&
		    strstr(dg, "/syslog-probe\" 51 ") != NULL)
			ok_access = 1;
	}
	got[len] = '\0';
	OK(ok_info, "a diagnostic as <158>... capsuled[PID]: info: ...:\n%s",
	    got);
	OK(ok_access, "the access line as a datagram, priority local3.info");
	INT_EQ(lines_matching(got, "^<[0-9]+>[A-Z][a-z]{2} [ 0-9][0-9] "
	    "[0-9:]{8} capsuled\\[[0-9]+\\]: ", 0, NULL) > 0, 1,
	    "RFC 3164: <PRI>Mmm dd hh:mm:ss TAG[PID]: ");
	OK(access("syslog", F_OK) == -1, "no file named syslog written");
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, &status, 0);
		OK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "exits 0");
	}
	close(fd);

	/* Nobody listening: refused at start, not a silent file. */
	unlink(sock);
	pid = start_raw(dir, yaml);
	waitpid(pid, &status, 0);
	OK(WIFEXITED(status) && WEXITSTATUS(status) == 2,
	    "syslog unreachable: exit 2 at start");
	snprintf(yaml, sizeof(yaml), "rm -rf '%s'", dir);
	(void)!system(yaml);
}

/*
 * Fill the receive queue of the datagram socket at path from a socket
 * of our own (nonblocking: until it would block).  That socket, to
 * close when done, or -1.
 */
static int
fill_dgram(const char *path)
{
	struct sockaddr_un	 sun;
	int			 fd, n = 0;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path));
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		close(fd);
		return -1;
	}
	while (n < 100000 && send(fd, "filler", 6, 0) == 6)
		n++;
	return fd;
}

/* The time n Gemini and n Gopher requests took, in ms; *bad not 20. */
static long long
ask_both(int gport, int pport, int n, uint64_t limit, int *bad)
{
	struct reply	 r;
	struct buf	 g;
	uint64_t	 t0 = e2e_now_ms();
	int		 i;

	for (i = 0; i < n && e2e_now_ms() - t0 < limit; i++) {
		r = e2e_gemini_get(gport, ctx, "/stuck-%d", i);
		*bad += r.status != 51;
		reply_free(&r);
		buf_init(&g);
		*bad += e2e_gopher_get(pport, &g, "/") != 0 ||
		    strstr(g.data, "\r\n") == NULL;
		buf_free(&g);
	}
	*bad += n - i;
	return (long long)(e2e_now_ms() - t0);
}

static void
test_syslog_stuck(void)
{
	char		 dir[] = "/tmp/capsuled-e2e-stuck.XXXXXX";
	char		 sock[300], yaml[1200], dg[2300], *report = NULL;
	struct reply	 r;
	struct buf	 g;
	uint64_t	 deadline;
	long long	 ms;
	unsigned long	 ndropped = 0;
	ssize_t		 n;
	pid_t		 pid;
	int		 fd, filler, gport, pport, status, i, bad = 0;
	int		 refused = 0;

	if (mkdtemp(dir) == NULL) {
		OK(0, "mkdtemp");
		return;
	}
	chmod(dir, 0755);
	snprintf(sock, sizeof(sock), "%s/log.sock", dir);
	if ((fd = apps_listen_unix(sock, SOCK_DGRAM)) == -1 ||
	    (filler = fill_dgram(sock)) == -1) {
		OK(0, "cannot make and fill %s", sock);
		return;
	}
	gport = e2e_free_port();
	pport = e2e_free_port();
	snprintf(yaml, sizeof(yaml),
	    "hostname: localhost\nbind: [127.0.0.1]\ngemini_port: %d\n"
	    "gopher_port: %d\ncapsule: %s\ncerts: %s/certs\n"
	    "log: syslog\nsyslog_socket: %s\nrate_limit: off\n", gport, pport,
	    capsule, dir, sock);
	pid = start_raw(dir, yaml);
	OK(pid > 0, "started");
	wait_port(pport);
	wait_port(gport);

	ms = ask_both(gport, pport, 50, 1000 * harness_time_bound(30), &bad);
	INT_EQ(bad, 0, "50 Gemini and 50 Gopher requests answered while "
	    "syslog reads nothing");
	OK(ms < 1000 * harness_time_bound(20), "and in time: %lld ms", ms);
	/* Enough access lines to fill the writer's queue (64 KB). */
	for (i = 0; i < 700; i++) {
		buf_init(&g);
		bad += e2e_gopher_get(pport, &g, "/fill-%d", i) != 0;
		buf_free(&g);
	}
	INT_EQ(bad, 0, "700 more Gopher requests answered");

	/* Reading again: what waited, then how many were dropped. */
	deadline = e2e_now_ms() + 1000 * harness_time_bound(10);
	while (report == NULL &&
	    (n = next_dgram(fd, dg, sizeof(dg), deadline)) > 0) {
		refused += strstr(dg, "refused with EPERM") != NULL;
		if ((report = strstr(dg, "warn: log: ")) != NULL &&
		    sscanf(report, "warn: log: %lu line", &ndropped) != 1)
			report = NULL;
	}
	OK(report != NULL, "a line says how many lines were dropped");
	OK(ndropped > 0, "some were: %lu", ndropped);
	printf("dropped: %lu (%lld ms for 50 + 50)\n", ndropped, ms);
	OK(report != NULL && strncmp(dg, "<28>", 4) == 0,
	    "as a warning of the daemon facility: %s", dg);
	/* The rest of what was queued: the writer's calls, sandboxed. */
	while (next_dgram(fd, dg, sizeof(dg), e2e_now_ms() + 300) > 0)
		refused += strstr(dg, "refused with EPERM") != NULL;
	INT_EQ(refused, 0, "no system call refused by the sandbox");
	r = e2e_gemini_get(gport, ctx, "/after");
	INT_EQ(r.status, 51, "and the server answers as before");
	reply_free(&r);

	/* Stuck again: SIGTERM still ends it, in the bounded time. */
	close(filler);
	filler = fill_dgram(sock);
	ask_both(gport, pport, 5, 10000, &bad);
	kill(pid, SIGTERM);
	deadline = e2e_now_ms() + 1000 * harness_time_bound(15);
	while (waitpid(pid, &status, WNOHANG) == 0 &&
	    e2e_now_ms() < deadline)
		e2e_sleep_ms(50);
	OK(e2e_now_ms() < deadline && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0, "SIGTERM with syslog stuck: exits 0");
	if (e2e_now_ms() >= deadline) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	close(filler);
	close(fd);
	snprintf(yaml, sizeof(yaml), "rm -rf '%s'", dir);
	(void)!system(yaml);
}

static void
test_reopen_as_user(void)
{
	struct e2e_server	 s;
	struct passwd		*pw;
	struct stat		 st;
	struct buf		 g;
	char			 extra[100];

	if (geteuid() != 0 || (pw = getpwnam("nobody")) == NULL) {
		harness_skip("not root, or no user nobody: the log file given"
		    " to the user");
		return;
	}
	snprintf(extra, sizeof(extra), "user: nobody\n");
	if (e2e_start(&s, capsule, extra) == -1) {
		OK(0, "server as nobody did not start");
		return;
	}
	chmod(s.dir, 0755);		/* the user must reach the file */
	OK(stat(s.log, &st) == 0 && st.st_uid == pw->pw_uid,
	    "the log file is the user's");
	/* copytruncate, then SIGUSR1: the same file, opened as nobody. */
	OK(truncate(s.log, 0) == 0, "log truncated (copytruncate)");
	OK(kill(s.pid, SIGUSR1) == 0, "SIGUSR1 sent");
	buf_init(&g);
	e2e_gopher_get(s.gopher_port, &g, "/after-reopen");
	buf_free(&g);
	OK(e2e_log_wait(s.log, "\"/after-reopen\" 51 ", 5000),
	    "after SIGUSR1 as the user: lines still written");
	OK(e2e_log_count(&s, "log reopen") == 0, "no reopen failure logged");
	INT_EQ(e2e_stop(&s), 0, "server exits 0");
}

/* Does the file path exist (harness_poll())? */
static int
exists(void *path)
{
	struct stat	 st;

	return stat(path, &st) == 0;
}

static void
test_access_file(void)
{
	struct e2e_server	 s;
	struct reply		 r;
	struct buf		 g;
	char			 acc[400], old[420], *text;

	if (e2e_start(&s, capsule, "access_log: access.log\n"
	    "log_format: combined\n") == -1) {
		OK(0, "server did not start");
		return;
	}
	snprintf(acc, sizeof(acc), "%s/access.log", s.dir);
	snprintf(old, sizeof(old), "%s/access.log.1", s.dir);
	r = e2e_gemini_get(s.gemini_port, ctx, "/");
	reply_free(&r);
	buf_init(&g);
	e2e_gopher_get(s.gopher_port, &g, "/gopher-here");
	buf_free(&g);
	OK(e2e_log_wait(acc, "\"/gopher-here\" 404 ", 5000) &&
	    e2e_log_wait(acc, "/\" 200 ", 5000), "access lines in the "
	    "access file");
	text = test_read(acc, "");
	INT_EQ(lines_matching(text, CLF " \"-\" \"-\"$", 10, NULL), 2,
	    "two lines, both in log_format");
	OK(strstr(text, "info:") == NULL && strstr(text, "serving") == NULL,
	    "no diagnostics in the access file");
	free(text);
	OK(e2e_log_wait(s.log, "serving gemini://", 5000),
	    "diagnostics in the log");
	INT_EQ(e2e_log_count(&s, "\"/gopher-here\""), 0,
	    "no access line in the log");
	/* logrotate's move, then SIGUSR1: a new file, the old one kept. */
	OK(rename(acc, old) == 0, "access.log moved away");
	OK(kill(s.pid, SIGUSR1) == 0, "SIGUSR1 sent");
	/* The main loop opens it anew (O_CREAT) when it takes the signal. */
	OK(harness_poll(5000, exists, acc), "access.log made again");
	buf_init(&g);
	e2e_gopher_get(s.gopher_port, &g, "/after-reopen");
	buf_free(&g);
	OK(e2e_log_wait(acc, "\"/after-reopen\" 404 ", 5000),
	    "after SIGUSR1: lines in the new file");
	text = test_read(old, "");
	OK(strstr(text, "after-reopen") == NULL, "none in the moved one");
	free(text);
	INT_EQ(e2e_log_count(&s, "reopen"), 0, "no reopen failure logged");
	INT_EQ(e2e_stop(&s), 0, "server exits 0");
}

static const struct harness_test tests[] = {
	TEST(test_common),
	TEST(test_combined),
	TEST(test_capsuled),
	TEST(test_syslog),
	TEST(test_syslog_stuck),
	TEST(test_reopen_as_user),
	TEST(test_access_file),
};

int
main(int argc, char **argv)
{
	char	 top[] = "/tmp/capsuled-e2e-logs.XXXXXX", cmd[600];

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	chmod(top, 0755);
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md", "---\ntitle: Logs\n---\nHi.\n");
	ctx = e2e_client_ctx(0);
	harness_run();
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
