/*
 * apps.h -- the programs a test runs beside the server (apps.c): Debian's
 * fcgiwrap on a Unix socket, a small SCGI server of its own, and the
 * Unix sockets they and a syslog reader listen on.  Each server is a
 * child in a process group of its own: apps_kill() ends it and its
 * children at once.
 */
#ifndef CAPSULED_TEST_APPS_H
#define CAPSULED_TEST_APPS_H

#include <sys/types.h>

/*
 * A Unix socket of type (SOCK_STREAM: listening; SOCK_DGRAM: bound) at
 * path, anyone may connect to or send to (a server that dropped to
 * nobody); -1 on failure.
 */
int	apps_listen_unix(const char *path, int type);
/* Wait (bounded) until a socket is at path: 1, else 0. */
int	apps_socket_wait(const char *path, unsigned limit_ms);
/*
 * fcgiwrap listening at path with n children; its pid, or -1.  Whether
 * it is installed: apps_have_fcgiwrap().
 */
pid_t	apps_fcgiwrap(const char *path, int n);
int	apps_have_fcgiwrap(void);
/*
 * The SCGI server at path: each connection in a child of its own.  The
 * answer, to PATH_INFO: "/slow" nothing for 10 s, "/crash" a close
 * without a word, "/big" 20 x 64 KiB; any other "20 text/plain" and
 * lines first=, SCGI=, SCRIPT_NAME=, PATH_INFO=, QUERY_STRING= (what
 * the request's netstring held).  Its pid, or -1.
 */
pid_t	apps_scgi(const char *path);
/* SIGKILL to the process group of pid (> 0), then reap pid. */
void	apps_kill(pid_t pid);

#endif
