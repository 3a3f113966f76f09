/*
 * listen.c -- listening sockets with SO_REUSEPORT, one set per worker
 * loop, so the kernel spreads new connections across the workers.
 *
 * The fd is closed on every error path until uv_tcp_open() takes it;
 * after that it belongs to the handle.
 *
 * TCP_NODELAY is set here, on the listener: Linux copies it to every
 * socket accept(2) returns, which saves a setsockopt(2) per connection.
 * (A response goes out in one write, then close; a small last segment
 * must not wait for an ACK.)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <unistd.h>

#include "net/listen.h"

int
listen_addr(const char *addr, int port, struct sockaddr_storage *ss)
{
	struct sockaddr_in	*sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		return 0;
	}
	if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		return 0;
	}
	return UV_EINVAL;
}

int
listen_probe(const struct sockaddr_storage *ss)
{
	socklen_t	 salen;
	int		 fd, on = 1, rv = 0;

	salen = ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
	    sizeof(struct sockaddr_in);
	if ((fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return uv_translate_sys_error(errno);
	/* SO_REUSEADDR: a port in TIME_WAIT after a restart is free. */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) == -1 ||
	    (ss->ss_family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6,
	    IPV6_V6ONLY, &on, sizeof(on)) == -1) ||
	    bind(fd, (const struct sockaddr *)ss, salen) == -1)
		rv = uv_translate_sys_error(errno);
	close(fd);
	return rv;
}

int
listen_open(uv_loop_t *loop, uv_tcp_t *h, const struct sockaddr_storage *ss,
    int *inited)
{
	socklen_t	 salen;
	int		 fd, on = 1, rv;

	*inited = 0;
	salen = ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
	    sizeof(struct sockaddr_in);
	if ((fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC |
	    SOCK_NONBLOCK, 0)) == -1)
		return uv_translate_sys_error(errno);
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) == -1 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) == -1 ||
	    (ss->ss_family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6,
	    IPV6_V6ONLY, &on, sizeof(on)) == -1) ||
	    bind(fd, (const struct sockaddr *)ss, salen) == -1) {
		rv = uv_translate_sys_error(errno);
		close(fd);
		return rv;
	}
	if ((rv = uv_tcp_init(loop, h)) < 0) {
		close(fd);
		return rv;
	}
	*inited = 1;
	if ((rv = uv_tcp_open(h, fd)) < 0) {
		close(fd);		/* libuv did not take it */
		return rv;
	}
	return 0;
}
