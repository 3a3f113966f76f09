/*
 * test_util.c -- util.c's whole-file reads and xstrdup_null().
 *
 * util_read_fd() must retry a read(2) that a signal cut short: a timer
 * fires SIGALRM (no SA_RESTART) at the reader while it waits on a pipe
 * that a second thread fills later.
 */
#include <sys/stat.h>
#include <sys/time.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "harness.h"

static char	 dir[] = "/tmp/test_util.XXXXXX";

static volatile sig_atomic_t	 nalarms;

static void
on_alarm(int sig)
{
	nalarms++;
}

static char *
write_tmp(const char *name, const char *data, size_t len)
{
	char	*path = xasprintf("%s/%s", dir, name);
	FILE	*f = fopen(path, "w");

	if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		OK(0, "cannot write %s", path);
	return path;
}

static void
test_read_file(void)
{
	char	*path, *p, big[10000];
	size_t	 len = 99;

	path = write_tmp("a", "hello\0world", 11);
	p = util_read_file(path, SIZE_MAX, &len);
	OK(p != NULL && len == 11 && memcmp(p, "hello\0world", 12) == 0,
	    "whole file, NUL inside, NUL after");
	free(p);
	p = util_read_file(path, 11, &len);
	OK(p != NULL && len == 11, "exactly max bytes");
	free(p);
	errno = 0;
	OK(util_read_file(path, 10, &len) == NULL && errno == EFBIG,
	    "one byte past max: EFBIG");
	free(path);

	memset(big, 'x', sizeof(big));
	path = write_tmp("big", big, sizeof(big));
	p = util_read_file(path, SIZE_MAX, &len);
	OK(p != NULL && len == sizeof(big) && p[len] == '\0', "10,000 bytes");
	free(p);
	errno = 0;
	OK(util_read_file(path, 8191, &len) == NULL && errno == EFBIG,
	    "10,000 bytes, max 8191: EFBIG");
	free(path);

	path = write_tmp("empty", "", 0);
	p = util_read_file(path, 0, &len);
	OK(p != NULL && len == 0 && p[0] == '\0', "empty file, max 0");
	free(p);
	free(path);

	errno = 0;
	OK(util_read_file(dir, SIZE_MAX, &len) == NULL && errno == EISDIR,
	    "a directory: EISDIR");
	path = xasprintf("%s/absent", dir);
	errno = 0;
	OK(util_read_file(path, SIZE_MAX, &len) == NULL && errno == ENOENT,
	    "absent: ENOENT");
	free(path);
}

static void *
slow_writer(void *arg)
{
	int		*fd = arg;
	sigset_t	 set;
	struct timespec	 ts = { 0, 20 * 1000 * 1000 };
	int		 i;

	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);	/* the reader gets them */
	for (i = 0; i < 10; i++) {
		nanosleep(&ts, NULL);
		if (write(*fd, "ab", 2) != 2)
			break;
	}
	close(*fd);
	return NULL;
}

static void
test_read_fd_eintr(void)
{
	struct sigaction	 sa;
	struct itimerval	 it;
	pthread_t		 t;
	char			*p;
	size_t			 len = 0;
	int			 fds[2];

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: read() fails EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	if (pipe(fds) == -1) {
		OK(0, "pipe");
		return;
	}
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 5000;
	it.it_value.tv_usec = 5000;
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_create(&t, NULL, slow_writer, &fds[1]);
	p = util_read_fd(fds[0], SIZE_MAX, &len);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_join(t, NULL);
	close(fds[0]);
	OK(nalarms > 0, "signals arrived while reading (%d)", (int)nalarms);
	OK(p != NULL && len == 20 &&
	    strcmp(p, "abababababababababab") == 0,
	    "all bytes despite EINTR (%zu)", len);
	free(p);
}

static void
test_dup_null(void)
{
	char	*s;

	OK(xstrdup_null(NULL) == NULL, "NULL stays NULL");
	s = xstrdup_null("abc");
	STR_EQ(s, "abc", "a copy");
	free(s);
}

/* A wrapper the way page.c's block builders call xvasprintf(). */
static char *
fmt_twice(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static char *
fmt_twice(const char *fmt, ...)
{
	va_list	 ap;
	char	*a, *b, *s;

	va_start(ap, fmt);
	a = xvasprintf(fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	b = xvasprintf(fmt, ap);
	va_end(ap);
	s = xasprintf("%s|%s", a, b);
	free(a);
	free(b);
	return s;
}

static void
test_vasprintf(void)
{
	char	 big[5000], *s;

	s = fmt_twice("%s %d %.1f", "posts", 12, 2.5);
	STR_EQ(s, "posts 12 2.5|posts 12 2.5", "xvasprintf twice");
	free(s);
	s = fmt_twice("%s", "");
	STR_EQ(s, "|", "empty result");
	free(s);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	s = xasprintf("<%s>", big);
	INT_EQ(strlen(s), sizeof(big) + 1, "longer than any stack buffer");
	OK(s[0] == '<' && s[sizeof(big)] == '>', "both ends");
	free(s);
}

/* Leaks would show under make asan and make valgrind. */
static void
test_free_strings(void)
{
	char	**v;

	util_free_strings(NULL, 0);
	v = xreallocarray(NULL, 3, sizeof(*v));
	v[0] = xstrdup("a");
	v[1] = xstrdup("");
	v[2] = xasprintf("%d", 3);
	util_free_strings(v, 3);
	OK(1, "util_free_strings");
}

static const struct harness_test tests[] = {
	NAMED("read_file"),
	NAMED("read_fd_eintr"),
	NAMED("dup_null"),
	NAMED("vasprintf"),
	NAMED("free_strings"),
};

int
main(int argc, char **argv)
{
	char	*cmd;

	HARNESS_INIT(argc, argv, tests);

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	RUN("read_file", test_read_file());
	RUN("read_fd_eintr", test_read_fd_eintr());
	RUN("dup_null", test_dup_null());
	RUN("vasprintf", test_vasprintf());
	RUN("free_strings", test_free_strings());
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		OK(0, "cleanup");
	free(cmd);
	return harness_done();
}
