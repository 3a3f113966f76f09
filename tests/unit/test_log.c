/*
 * test_log.c -- log_format_peer() in its three modes, the access-log
 * line exactly as docs/logging.md describes it, log levels, and
 * log_reopen() after the file was moved away (what SIGUSR1 does), and
 * a thread's buffered access lines (what a worker does).  Lines that
 * cannot be written at once: dropped and counted, never waited for, the
 * count said by the next line that goes out, with a syslog socket
 * that is full and with the writer thread in front of a FIFO nobody
 * reads; log_stop() bounded when the writer is stuck.
 *
 * Writes under a mkdtemp() directory, removed at the end.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "core/buf.h"
#include "files.h"
#include "harness.h"
#include "core/log.h"
#include "core/util.h"

static char	 dir[] = "/tmp/test_log.XXXXXX";

static const char *
peer4(const char *addr, unsigned port, enum log_peer mode, char *out,
    size_t len)
{
	struct sockaddr_in	 sin;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)port);
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		return "(bad test address)";
	return log_format_peer(out, len, (struct sockaddr *)&sin, mode);
}

static const char *
peer6(const char *addr, unsigned port, enum log_peer mode, char *out,
    size_t len)
{
	struct sockaddr_in6	 sin6;

	memset(&sin6, 0, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	sin6.sin6_port = htons((unsigned short)port);
	if (inet_pton(AF_INET6, addr, &sin6.sin6_addr) != 1)
		return "(bad test address)";
	return log_format_peer(out, len, (struct sockaddr *)&sin6, mode);
}

static void
test_peer(void)
{
	struct sockaddr_storage	 ss;
	char			 out[64], tiny[6];

	STR_EQ(peer4("192.0.2.7", 51234, LOG_PEER_FULL, out, sizeof(out)),
	    "192.0.2.7:51234", "v4 full");
	STR_EQ(peer4("192.0.2.7", 51234, LOG_PEER_ANONYMISE, out,
	    sizeof(out)), "192.0.2.0", "v4 anonymised: last octet, no port");
	STR_EQ(peer4("203.0.113.255", 1, LOG_PEER_ANONYMISE, out,
	    sizeof(out)), "203.0.113.0", "v4 .255");
	STR_EQ(peer4("192.0.2.7", 51234, LOG_PEER_NONE, out, sizeof(out)),
	    "-", "v4 none");
	/* IPv4 is formatted by hand: the widest and the zeroes. */
	STR_EQ(peer4("255.255.255.255", 65535, LOG_PEER_FULL, out,
	    sizeof(out)), "255.255.255.255:65535", "v4 widest");
	STR_EQ(peer4("0.0.0.0", 0, LOG_PEER_FULL, out, sizeof(out)),
	    "0.0.0.0:0", "v4 zeroes");
	STR_EQ(peer4("10.100.0.9", 80, LOG_PEER_FULL, out, 2), "1",
	    "v4 into 2 bytes");
	STR_EQ(peer4("10.100.0.9", 80, LOG_PEER_NONE, out, 1), "",
	    "1 byte: empty, terminated");

	STR_EQ(peer6("2001:db8:1234:5678:9abc:def0:1:2", 1965, LOG_PEER_FULL,
	    out, sizeof(out)), "[2001:db8:1234:5678:9abc:def0:1:2]:1965",
	    "v6 full");
	STR_EQ(peer6("2001:db8:1234:5678:9abc:def0:1:2", 1965,
	    LOG_PEER_ANONYMISE, out, sizeof(out)), "2001:db8:1234::",
	    "v6 anonymised: a /48 kept, no port");
	STR_EQ(peer6("2001:db8:12ff:ffff:ffff:ffff:ffff:ffff", 1,
	    LOG_PEER_ANONYMISE, out, sizeof(out)), "2001:db8:12ff::",
	    "v6: exactly 80 bits zeroed");
	STR_EQ(peer6("::1", 7070, LOG_PEER_ANONYMISE, out, sizeof(out)),
	    "::", "v6 loopback");
	STR_EQ(peer6("::1", 7070, LOG_PEER_NONE, out, sizeof(out)), "-",
	    "v6 none");
	STR_EQ(peer6("::ffff:198.51.100.77", 40000, LOG_PEER_ANONYMISE, out,
	    sizeof(out)), "198.51.100.0", "v4-mapped anonymised as IPv4");
	STR_EQ(peer6("::ffff:198.51.100.77", 40000, LOG_PEER_FULL, out,
	    sizeof(out)), "[::ffff:198.51.100.77]:40000", "v4-mapped full");
	/* A long full form fits the 54 bytes conn.c gives it. */
	STR_EQ(peer6("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 65535,
	    LOG_PEER_FULL, out, 54),
	    "[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:65535",
	    "long full peer");

	memset(&ss, 0, sizeof(ss));
	ss.ss_family = AF_UNIX;
	STR_EQ(log_format_peer(out, sizeof(out), (struct sockaddr *)&ss,
	    LOG_PEER_FULL), "-", "other families");
	STR_EQ(log_format_peer(out, sizeof(out), NULL, LOG_PEER_FULL), "-",
	    "NULL");
	STR_EQ(peer4("192.0.2.7", 51234, LOG_PEER_FULL, tiny, sizeof(tiny)),
	    "192.0", "truncated, terminated");
}

static int
matches(const char *s, const char *re)
{
	regex_t	 rx;
	int	 rv;

	if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB | REG_NEWLINE) != 0)
		return 0;
	rv = regexec(&rx, s, 0, NULL, 0) == 0;
	regfree(&rx);
	return rv;
}

static void
test_access_and_reopen(void)
{
	char	*path, *moved, *text;
	char	 req[] = "gemini://h/a \"b\"\\c\x01\r\n";

	path = xasprintf("%s/capsuled.log", dir);
	moved = xasprintf("%s/capsuled.log.1", dir);
	INT_EQ(log_open(path, LOG_LEVEL_INFO), 0, "log_open");
	INT_EQ(log_get_level(), LOG_LEVEL_INFO, "level set by log_open");
	log_access("192.0.2.0", "gemini", req, sizeof(req) - 3, 20, 1234,
	    567);
	log_access("-", "gopher", "/posts/", 7, 51, 0, 89);
	log_debug("not written at info");
	log_info("written at info");
	log_set_level(LOG_LEVEL_WARN);
	log_info("not written at warn");
	log_warnx("a warning");
	log_set_level(LOG_LEVEL_ERROR);
	log_warnx("not written at error");
	log_errorx("an error");
	errno = ENOENT;
	log_error("/srv/capsule");
	log_set_level(LOG_LEVEL_WARN);
	text = test_read(path, "");
	OK(matches(text, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:"
	    "[0-9]{2}Z 192\\.0\\.2\\.0 gemini \"gemini://h/a \\\\x22b\\\\x22"
	    "\\\\x5cc\\\\x01\" 20 1234 567$"), "access line, escaped:\n%s",
	    text);
	OK(matches(text, "Z - gopher \"/posts/\" 51 0 89$"),
	    "peer none, gopher:\n%s", text);
	OK(matches(text, "Z info: written at info$"), "info line:\n%s", text);
	OK(matches(text, "Z warn: a warning$"), "warn line:\n%s", text);
	OK(matches(text, "Z error: an error$"), "error line:\n%s", text);
	OK(matches(text, "Z error: /srv/capsule: No such file or directory$"),
	    "error line with errno:\n%s", text);
	OK(strstr(text, "not written") == NULL, "levels filter:\n%s", text);
	free(text);

	/* logrotate: the file is moved, SIGUSR1 calls log_reopen(). */
	OK(rename(path, moved) == 0, "rename");
	log_access("-", "gopher", "/before", 7, 20, 1, 1);
	INT_EQ(log_reopen(), 0, "log_reopen");
	log_access("-", "gopher", "/after", 6, 20, 1, 1);
	text = test_read(moved, "");
	OK(strstr(text, "/before") != NULL && strstr(text, "/after") == NULL,
	    "old file has only the line before the reopen:\n%s", text);
	free(text);
	text = test_read(path, "");
	OK(strstr(text, "/after") != NULL && strstr(text, "/before") == NULL,
	    "new file has the line after it:\n%s", text);
	free(text);
	log_close();
	INT_EQ(log_reopen(), 0, "reopen of stderr is a no-op");
	unlink(path);
	unlink(moved);
	free(path);
	free(moved);

	INT_EQ(log_level_parse("debug"), LOG_LEVEL_DEBUG, "debug");
	INT_EQ(log_level_parse("Warning"), LOG_LEVEL_WARN, "warning");
	INT_EQ(log_level_parse("ERROR"), LOG_LEVEL_ERROR, "ERROR");
	INT_EQ(log_level_parse("trace"), -1, "unknown level");
}

/* The lines of text that contain needle. */
static int
count(const char *text, const char *needle)
{
	int	 n = 0;

	while ((text = strstr(text, needle)) != NULL) {
		n++;
		text += strlen(needle);
	}
	return n;
}

/*
 * A worker buffers: nothing is written until log_flush(), a diagnostic
 * line of the same thread, or a full buffer; lines come out whole and
 * in order.
 */
static void
test_access_buffered(void)
{
	char	*path, *text, *p;
	char	 req[64];
	int	 i, whole = 1;

	path = xasprintf("%s/buffered.log", dir);
	INT_EQ(log_open(path, LOG_LEVEL_INFO), 0, "log_open");
	log_access_buffer(1);
	log_access("-", "gopher", "/one", 4, 20, 1, 1);
	log_access("-", "gopher", "/two", 4, 20, 1, 1);
	OK(log_access_pending() > 0, "lines held");
	text = test_read(path, "");
	OK(strstr(text, "/one") == NULL, "not written yet:\n%s", text);
	free(text);
	log_info("a diagnostic");
	INT_EQ((int)log_access_pending(), 0, "a diagnostic line flushes");
	text = test_read(path, "");
	OK(matches(text, "\"/one\" 20 1 1\n.*\"/two\" 20 1 1\n.*info: a "
	    "diagnostic$"), "access lines before the diagnostic:\n%s", text);
	free(text);

	/* More than the buffer holds: written as it fills, whole lines. */
	for (i = 0; i < 200; i++) {
		snprintf(req, sizeof(req), "/many/%03d", i);
		log_access("-", "gopher", req, strlen(req), 20, 1, 1);
		if (log_access_pending() > LOG_ACCESS_BUF)
			whole = 0;
	}
	OK(whole, "never more than LOG_ACCESS_BUF held");
	text = test_read(path, "");
	OK(count(text, "/many/") > 0 && count(text, "/many/") < 200,
	    "a full buffer was written, the rest is held (%d)",
	    count(text, "/many/"));
	free(text);
	log_flush();
	INT_EQ((int)log_access_pending(), 0, "log_flush empties");
	text = test_read(path, "");
	INT_EQ(count(text, "/many/"), 200, "every line, once");
	for (p = text; (p = strstr(p, "/many/")) != NULL; p++)
		if (!matches(p, "^/many/[0-9]{3}\" 20 1 1\n"))
			whole = 0;
	OK(whole, "no line cut");
	OK(strstr(text, "/many/000") < strstr(text, "/many/199"), "in order");
	free(text);

	log_access("-", "gopher", "/last", 5, 20, 1, 1);
	log_access_buffer(0);
	text = test_read(path, "");
	OK(strstr(text, "/last") != NULL, "buffering off writes what is held");
	free(text);
	log_access("-", "gopher", "/direct", 7, 20, 1, 1);
	text = test_read(path, "");
	OK(strstr(text, "/direct") != NULL, "then each line at once");
	free(text);
	log_close();
	unlink(path);
	free(path);
}

/* A datagram socket bound at path; with fill, a second one that filled
 * its queue (until a send would block) into *filler. */
static int
dgram_at(const char *path, int *filler)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path));
	unlink(path);
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		return -1;
	if ((*filler = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0)) ==
	    -1 || connect(*filler, (struct sockaddr *)&sun, sizeof(sun)) ==
	    -1)
		return -1;
	while (send(*filler, "filler", 6, 0) == 6)
		;
	return fd;
}

/*
 * Before log_start(), a syslog socket that would block: each line is
 * dropped at once and counted; the first line that goes out again is
 * followed by one that says how many did not.
 */
static void
test_dropped_syslog(void)
{
	char		*path, dg[2300];
	uint64_t	 t0;
	ssize_t		 n;
	int		 fd, filler = -1, i;

	path = xasprintf("%s/syslog.sock", dir);
	if ((fd = dgram_at(path, &filler)) == -1) {
		OK(0, "a full datagram socket at %s", path);
		return;
	}
	INT_EQ(log_open_syslog(path, LOG_DAEMON, LOG_LEVEL_INFO), 0,
	    "log_open_syslog");
	INT_EQ(log_dropped(), 0, "none dropped yet");
	t0 = harness_now_ms();
	for (i = 0; i < 5; i++)
		log_info("lost %d", i);
	OK(harness_now_ms() - t0 < 2000, "five lines: no wait for room");
	INT_EQ(log_dropped(), 5, "five lines dropped, counted");
	while (recv(fd, dg, sizeof(dg), 0) > 0)
		;			/* the daemon reads again */
	log_info("through");
	n = recv(fd, dg, sizeof(dg) - 1, 0);
	dg[n > 0 ? n : 0] = '\0';
	HAS(dg, "info: through", "the line that went out");
	n = recv(fd, dg, sizeof(dg) - 1, 0);
	dg[n > 0 ? n : 0] = '\0';
	HAS(dg, "warn: log: 5 lines dropped", "then how many did not");
	OK(strncmp(dg, "<28>", 4) == 0, "a warning, daemon: %s", dg);
	INT_EQ(log_dropped(), 0, "the count said, and reset");
	log_close();
	close(filler);
	close(fd);
	unlink(path);
	free(path);
}

/*
 * The writer thread in front of a FIFO nobody reads: 20,000 lines are
 * logged without waiting, those beyond what the pipe and the queue hold
 * dropped; once read, the lines come whole and in order, and the line
 * about the dropped ones says how many: together, every line.
 */
static void
test_writer_dropped(void)
{
	const int	 nlines = 20000;
	char		*path, chunk[8192], *line, *nl;
	struct buf	 got = BUF_INIT;
	struct pollfd	 pfd;
	uint64_t	 t0;
	unsigned long long reported = 0, dropped;
	ssize_t		 n;
	int		 rd, i, k, last = -1, seen = 0, whole = 1, ordered = 1;

	path = xasprintf("%s/fifo", dir);
	if (mkfifo(path, 0600) == -1 ||
	    (rd = open(path, O_RDONLY | O_NONBLOCK)) == -1) {
		OK(0, "a FIFO at %s", path);
		return;
	}
	INT_EQ(log_open(path, LOG_LEVEL_INFO), 0, "log_open on the FIFO");
	INT_EQ(log_start(), 0, "log_start");
	t0 = harness_now_ms();
	for (i = 0; i < nlines; i++)
		log_info("line %d", i);
	OK(harness_now_ms() - t0 < 5000, "20,000 lines without waiting for "
	    "the reader (%llu ms)", (unsigned long long)(harness_now_ms() -
	    t0));
	OK(log_dropped() > 0, "some dropped: %llu", log_dropped());
	pfd.fd = rd;
	pfd.events = POLLIN;
	t0 = harness_now_ms();
	while (reported == 0 && harness_now_ms() - t0 < 10000 &&
	    poll(&pfd, 1, 200) >= 0) {
		while ((n = read(rd, chunk, sizeof(chunk))) > 0)
			buf_add(&got, chunk, (size_t)n);
		if (got.data != NULL && strstr(got.data, "warn: log: "))
			reported = 1;
	}
	/* The rest of the queue, after the report. */
	while (poll(&pfd, 1, 500) > 0 && (n = read(rd, chunk,
	    sizeof(chunk))) > 0)
		buf_add(&got, chunk, (size_t)n);
	buf_add(&got, "", 0);
	/* A writer slower than this loop drops, and says so, more than once. */
	reported = 0;
	for (line = got.data; line != NULL && *line != '\0'; line = nl + 1) {
		if ((nl = strchr(line, '\n')) == NULL) {
			whole = 0;
			break;
		}
		if (sscanf(line, "%*s info: line %d", &k) == 1) {
			ordered &= k > last;
			last = k;
			seen++;
		} else if (sscanf(line, "%*s warn: log: %llu lines dropped",
		    &dropped) == 1)
			reported += dropped;
		else
			whole = 0;
	}
	OK(whole, "whole lines only");
	OK(ordered, "in the order they were logged");
	OK(reported > 0, "a line says how many were dropped");
	OK((long long)reported + seen == nlines, "written and dropped: "
	    "every line, once (%d + %llu)", seen, reported);
	t0 = harness_now_ms();
	log_close();
	OK(harness_now_ms() - t0 < 3000, "log_close: the writer ends");
	close(rd);
	unlink(path);
	buf_free(&got);
	free(path);
}

/* Stuck for good (nobody ever reads): log_stop() gives up in time. */
static void
test_writer_stuck(void)
{
	char	*path;
	pid_t	 pid;
	int	 rd, i, st = -1;

	if (harness_valgrind()) {
		/* It would count the thread left in write() as a leak. */
		harness_skip("under valgrind: a writer left stuck at exit");
		return;
	}
	path = xasprintf("%s/fifo-stuck", dir);
	if (mkfifo(path, 0600) == -1) {
		OK(0, "a FIFO at %s", path);
		return;
	}
	if ((pid = fork()) == 0) {
		uint64_t	 t0;

		if ((rd = open(path, O_RDONLY | O_NONBLOCK)) == -1 ||
		    log_open(path, LOG_LEVEL_INFO) == -1 || log_start() == -1)
			_exit(2);
		for (i = 0; i < 20000; i++)
			log_info("line %d", i);
		t0 = harness_now_ms();
		if (log_stop() != -1)
			_exit(3);	/* it cannot have written all that */
		log_close();
		_exit(harness_now_ms() - t0 < 4000 ? 0 : 4);
	}
	for (i = 0; i < 200 && waitpid(pid, &st, WNOHANG) == 0; i++)
		harness_sleep_ms(50);
	if (i == 200) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	OK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "log_stop() returned in "
	    "time, leaving the stuck writer (status %d)", st);
	unlink(path);
	free(path);
}

/*
 * Bytes that are not valid printable UTF-8 never reach the log as they
 * are: invalid sequences, C1 controls and U+2028 become \xHH per byte,
 * valid text stays, in access and diagnostic lines.
 */
static void
test_not_utf8(void)
{
	static const char req[] = "gemini://h/\xff\xfe-\xc2\x85-\xc3\xa9-"
	    "\xe2\x82\xac-\xed\xa0\x80-\xc0\xae-\xe2\x80\xa8-\xf0\x9f\x98\x80-"
	    "\x9b-\xe2\x82";
	const unsigned char	*p;
	char			*path, *text;
	int			 high = 0;

	path = xasprintf("%s/utf8.log", dir);
	INT_EQ(log_open(path, LOG_LEVEL_INFO), 0, "log_open");
	log_access("-", "gopher", req, sizeof(req) - 1, 51, 0, 1);
	log_info("diagnostic \"%s\"", "a\xff\xc2\x9b\xc3\xa9\x01");
	text = test_read(path, "");
	HAS(text, "\"gemini://h/\\xff\\xfe-\\xc2\\x85-\xc3\xa9-\xe2\x82\xac-"
	    "\\xed\\xa0\\x80-\\xc0\\xae-\\xe2\\x80\\xa8-\xf0\x9f\x98\x80-"
	    "\\x9b-\\xe2\\x82\" 51 0 1\n", "access line escaped");
	HAS(text, "info: diagnostic \"a\\xff\\xc2\\x9b\xc3\xa9\\x01\"\n",
	    "diagnostic line escaped");
	/* What is left above 0x7F: é, € and the emoji, twice and once. */
	for (p = (const unsigned char *)text; *p != '\0'; p++)
		high += *p >= 0x80;
	INT_EQ(high, 2 + 3 + 4 + 2, "bytes above 0x7F: valid text only");
	free(text);
	log_close();
	unlink(path);
	free(path);
}

/* log_format common and combined: the Gemini status as HTTP's (log.h). */
static void
test_status_http(void)
{
	static const int pairs[][2] = {
		{ 10, 200 }, { 11, 200 }, { 20, 200 }, { 30, 302 },
		{ 31, 301 }, { 40, 503 }, { 41, 503 }, { 42, 502 },
		{ 43, 502 }, { 44, 429 }, { 50, 500 }, { 51, 404 },
		{ 52, 410 }, { 53, 421 }, { 59, 400 }, { 60, 401 },
		{ 61, 403 }, { 62, 403 }, { 99, 500 }, { -1, 400 },
	};
	size_t	 i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		INT_EQ(log_status_http(pairs[i][0]), pairs[i][1],
		    "Gemini status as HTTP's");
}

static const struct harness_test tests[] = {
	TEST(test_status_http),
	TEST(test_peer),
	TEST(test_access_and_reopen),
	TEST(test_access_buffered),
	TEST(test_not_utf8),
	TEST(test_dropped_syslog),
	TEST(test_writer_dropped),
	TEST(test_writer_stuck),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	harness_run();
	if (rmdir(dir) == -1)
		perror(dir);
	return harness_done();
}
