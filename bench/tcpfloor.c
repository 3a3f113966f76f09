/*
 * tcpfloor.c -- the least a plain-TCP request can cost on this kernel.
 *
 * A Gopher server reduced to its system calls: one thread, epoll, and
 * for each connection accept4, one read of the selector line, one write
 * of a fixed answer (--size bytes, 4 KB by default) and close.  No
 * parsing, no logging, no limits, no getpeername.  Its CPU time per
 * request, measured by loadgen --pid exactly as capsuled's is, is the
 * floor set by the kernel's loopback TCP (connect, accept, segments,
 * FIN, TIME_WAIT), which no Gopher server can go below.
 *
 * usage: tcpfloor --port N [--size 4096]   (127.0.0.1 only; runs until
 * killed).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "size", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct sockaddr_in	 sin;
	struct epoll_event	 ev, evs[256];
	char			*answer, req[1100];
	long			 port = 0, size = 4096, i;
	int			 ch, one = 1, lfd, ep, n, k, fd;

	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'p': port = strtol(optarg, NULL, 10); break;
		case 's': size = strtol(optarg, NULL, 10); break;
		default: port = 0; break;
		}
	}
	if (port < 1 || port > 65535 || size < 1 || size > 1 << 20) {
		fprintf(stderr, "usage: tcpfloor --port N [--size 4096]\n");
		return 2;
	}
	if ((answer = malloc((size_t)size)) == NULL)
		return 1;
	for (i = 0; i < size; i++)
		answer[i] = i % 64 == 63 ? '\n' : 'a' + (char)(i % 26);
	signal(SIGPIPE, SIG_IGN);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)) == -1 ||
	    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    setsockopt(lfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(lfd, 4096) == -1 || (ep = epoll_create1(0)) == -1) {
		perror("tcpfloor");
		return 1;
	}
	ev.events = EPOLLIN;
	ev.data.fd = lfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
	for (;;) {
		if ((n = epoll_wait(ep, evs, 256, -1)) == -1 && errno != EINTR)
			return 1;
		for (k = 0; k < n; k++) {
			if (evs[k].data.fd == lfd) {
				while ((fd = accept4(lfd, NULL, NULL,
				    SOCK_NONBLOCK)) != -1) {
					ev.events = EPOLLIN;
					ev.data.fd = fd;
					epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
				}
				continue;
			}
			fd = evs[k].data.fd;
			/* One read: a selector fits one segment. */
			if (read(fd, req, sizeof(req)) > 0)
				(void)!write(fd, answer, (size_t)size);
			close(fd);	/* also leaves the epoll set */
		}
	}
}
