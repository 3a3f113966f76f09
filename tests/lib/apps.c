/*
 * apps.c -- the backends a test runs beside the server (apps.h):
 * fcgiwrap, a small SCGI server, their Unix sockets.  Knows nothing of
 * capsuled but the SCGI netstring it parses (proto/scgi.h).  Each
 * server belongs to the test that started it, which apps_kill()s it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "apps.h"
#include "harness.h"
#include "proto/scgi.h"

int
apps_listen_unix(const char *path, int type)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path))
		return -1;
	memcpy(sun.sun_path, path, strlen(path) + 1);
	unlink(path);
	if ((fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    (type == SOCK_STREAM && listen(fd, 64) == -1)) {
		close(fd);
		return -1;
	}
	chmod(path, 0666);
	return fd;
}

static int
socket_there(void *arg)
{
	struct stat	 st;

	return stat(arg, &st) == 0 && S_ISSOCK(st.st_mode);
}

int
apps_socket_wait(const char *path, unsigned limit_ms)
{
	return harness_poll(limit_ms, socket_there, (void *)path);
}

int
apps_have_fcgiwrap(void)
{
	return system("command -v fcgiwrap >/dev/null 2>&1") == 0;
}

pid_t
apps_fcgiwrap(const char *path, int n)
{
	char	 arg[600], nkids[16];
	pid_t	 pid;

	snprintf(arg, sizeof(arg), "unix:%s", path);
	snprintf(nkids, sizeof(nkids), "%d", n);
	if ((pid = fork()) == 0) {
		int null = open("/dev/null", O_RDWR);

		setpgid(0, 0);		/* its children stop with it */
		umask(0);		/* a socket nobody may connect to */
		dup2(null, 0);
		execlp("fcgiwrap", "fcgiwrap", "-c", nkids, "-s", arg,
		    (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* The value of NAME in an SCGI header block h[0..len), or NULL. */
static const char *
scgi_var(const char *h, size_t len, const char *name)
{
	const char	*p = h, *end = h + len;

	while (p < end) {
		const char *v = p + strlen(p) + 1;

		if (v >= end)
			return NULL;
		if (strcmp(p, name) == 0)
			return v;
		p = v + strlen(v) + 1;
	}
	return NULL;
}

/* One SCGI exchange on fd, in a child of its own. */
static void
scgi_serve(int fd)
{
	char		 req[65536], out[256];
	const char	*h, *err, *pi, *first;
	size_t		 len = 0, hlen, i;
	ssize_t		 n, r = 0;

	while (len < sizeof(req) && (n = read(fd, req + len,
	    sizeof(req) - len)) > 0) {
		len += (size_t)n;
		if ((r = scgi_netstring_parse(req, len, &h, &hlen,
		    &err)) != 0)
			break;
	}
	if (r <= 0)
		_exit(1);
	first = h;
	pi = scgi_var(h, hlen, "PATH_INFO");
	if (pi == NULL)
		pi = "";
	if (strcmp(pi, "/slow") == 0)
		sleep(10);
	if (strcmp(pi, "/crash") == 0)
		_exit(3);		/* closes without a word */
	if (strcmp(pi, "/big") == 0) {
		(void)!write(fd, "20 text/plain\r\n", 15);
		memset(req, 'x', sizeof(req));
		for (i = 0; i < 20; i++)
			(void)!write(fd, req, sizeof(req));
		_exit(0);
	}
	n = snprintf(out, sizeof(out), "20 text/plain\r\nfirst=%s\n"
	    "SCGI=%s\nSCRIPT_NAME=%s\nPATH_INFO=%s\nQUERY_STRING=%s\n",
	    first, scgi_var(h, hlen, "SCGI"),
	    scgi_var(h, hlen, "SCRIPT_NAME"), pi,
	    scgi_var(h, hlen, "QUERY_STRING"));
	(void)!write(fd, out, (size_t)n);
	_exit(0);
}

pid_t
apps_scgi(const char *path)
{
	pid_t	 pid;
	int	 lfd, fd;

	if ((lfd = apps_listen_unix(path, SOCK_STREAM)) == -1)
		return -1;
	if ((pid = fork()) != 0) {
		close(lfd);
		return pid;
	}
	setpgid(0, 0);
	signal(SIGCHLD, SIG_IGN);	/* no zombies */
	for (;;) {
		if ((fd = accept(lfd, NULL, NULL)) == -1)
			continue;
		if (fork() == 0) {
			close(lfd);
			scgi_serve(fd);
		}
		close(fd);
	}
}

void
apps_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
