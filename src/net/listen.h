/*
 * listen.h -- listening sockets built by hand, anet-style, because
 * libuv 1.44 has no SO_REUSEPORT flag (UV_TCP_REUSEPORT came in 1.49).
 */
#ifndef CAPSULED_LISTEN_H
#define CAPSULED_LISTEN_H

#include <sys/socket.h>
#include <uv.h>

/*
 * Parse addr ("127.0.0.1", "::1", "0.0.0.0", "::") and port into ss.
 * Returns 0 or a negative UV_E* code.
 */
int	 listen_addr(const char *addr, int port, struct sockaddr_storage *ss);

/*
 * Create a socket with SO_REUSEADDR, SO_REUSEPORT (and IPV6_V6ONLY for
 * IPv6, so "::" and "0.0.0.0" can both be bound), bind it and hand it to
 * the uv_tcp_t h on loop.  Returns 0 or a negative UV_E* code.  On
 * failure after uv_tcp_init (*inited set to 1) the handle must still be
 * closed with uv_close().
 */
int	 listen_open(uv_loop_t *loop, uv_tcp_t *h,
	    const struct sockaddr_storage *ss, int *inited);

/*
 * Is ss free for us?  SO_REUSEPORT lets any process of the same user
 * join a port silently and take a share of its connections, so a second
 * capsuled started on a busy port would split the traffic with the
 * first instead of failing.  A bind without SO_REUSEPORT conflicts with
 * any listener there: returns UV_EADDRINUSE then, 0 when the address is
 * free, or another negative UV_E* code.  Call it before the first
 * listen_open() of an address.
 */
int	 listen_probe(const struct sockaddr_storage *ss);

#endif
