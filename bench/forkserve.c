/*
 * forkserve.c -- a tiny inetd for the benchmark: one process per
 * connection, with the socket as its standard input and output.
 *
 *   forkserve -p PORT -- /usr/sbin/gophernicus ARGS...
 *
 * Listens on 127.0.0.1:PORT only.  Children are reaped as soon as they
 * exit, so the kernel adds their CPU time to ours (cutime and cstime in
 * /proc/PID/stat): the load generator measures the whole tree through
 * this one pid.  Knows nothing of the program it runs.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void
on_child(int sig)
{
	int	 saved = errno;

	(void)sig;
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	errno = saved;
}

int
main(int argc, char *argv[])
{
	struct sockaddr_in	 sin;
	struct sigaction	 sa;
	int			 ch, lfd, fd, port = 0, on = 1;
	pid_t			 pid;

	while ((ch = getopt(argc, argv, "p:")) != -1) {
		switch (ch) {
		case 'p':
			port = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (port <= 0 || port > 65535 || optind >= argc)
		goto usage;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if ((lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		perror("forkserve: socket");
		return 1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(lfd, 511) == -1) {
		perror("forkserve: bind");
		return 1;
	}
	for (;;) {
		if ((fd = accept4(lfd, NULL, NULL, 0)) == -1) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			perror("forkserve: accept");
			return 1;
		}
		if ((pid = fork()) == -1) {
			perror("forkserve: fork");
			close(fd);
			continue;
		}
		if (pid == 0) {
			signal(SIGPIPE, SIG_DFL);
			sa.sa_handler = SIG_DFL;
			sigaction(SIGCHLD, &sa, NULL);
			if (dup2(fd, 0) == -1 || dup2(fd, 1) == -1)
				_exit(127);
			if (fd > 1)
				close(fd);
			execv(argv[optind], argv + optind);
			_exit(127);
		}
		close(fd);
	}

usage:
	fprintf(stderr, "usage: forkserve -p PORT -- PROGRAM [ARGS...]\n");
	return 2;
}
