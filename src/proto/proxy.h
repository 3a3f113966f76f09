/*
 * proxy.h -- the PROXY protocol header that a TCP load balancer (HAProxy
 * "send-proxy" and "send-proxy-v2", nginx's stream module) puts in front
 * of the bytes it relays, to say who the client really is.
 *
 * Version 1 is one text line, version 2 a binary block; both are read
 * as HAProxy's specification (doc/proxy-protocol.txt in its sources)
 * says.  Pure functions over bytes: no sockets, no configuration.
 * conn.c reads the header before anything else of a connection from an
 * address that config "proxy_protocol" lists (proxy_listed() decides),
 * hands what arrived so far to proxy_parse(), and uses the address it
 * gives for the logs and the per-address limits; from any other address
 * a connection that opens with a header (proxy_sniff()) is refused.
 */
#ifndef CAPSULED_PROXY_H
#define CAPSULED_PROXY_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

#define PROXY_V1_MAX	107	/* a v1 line with its CRLF (spec 2.1) */
#define PROXY_V2_HEAD	16	/* signature, version, family, length */
/* Bytes after the v2 head we accept: addresses and TLVs. */
#define PROXY_V2_MAX_LEN 1024
/* The longest header proxy_parse() accepts; a buffer of this is enough. */
#define PROXY_MAX	(PROXY_V2_HEAD + PROXY_V2_MAX_LEN)

#define PROXY_INCOMPLETE	0
#define PROXY_BAD		(-1)

struct proxy_header {
	int		 version;	/* 1 or 2 */
	/*
	 * 1: the header names no client (v2 LOCAL, a health check; v1
	 * UNKNOWN; v2 AF_UNSPEC, AF_UNIX or a datagram family): the
	 * connection's own peer is the client.  src and dst are then
	 * AF_UNSPEC.
	 */
	int		 local;
	struct sockaddr_storage src;	/* the client: AF_INET, AF_INET6 */
	struct sockaddr_storage dst;	/* the address it connected to */
};

/*
 * Parse the header at the start of buf[0..len).  Returns its length in
 * bytes (the request or TLS data follows), PROXY_INCOMPLETE when buf is
 * a header's valid beginning and more bytes must come, or PROXY_BAD
 * with *errstr set to a static message: not a header, a malformed one,
 * or one longer than PROXY_MAX.  Nothing after the header is looked at.
 */
ssize_t	 proxy_parse(const void *buf, size_t len, struct proxy_header *h,
	    const char **errstr);

/*
 * 1 when buf[0..len) opens with a whole PROXY signature ("PROXY " or
 * the 12-byte v2 one), else 0.  A Gopher request or a TLS ClientHello
 * never does.
 */
int	 proxy_sniff(const void *buf, size_t len);

/*
 * 1 when sa is one of list[0..n): each an IPv4 or IPv6 address, or one
 * with a prefix length ("10.0.0.0/8", "fd00::/8").  An IPv4-mapped IPv6
 * address counts as IPv4.  0 otherwise, also for an entry that does
 * not parse (config.c checked them).
 */
int	 proxy_listed(char *const *list, size_t n, const struct sockaddr *sa);

/*
 * Parse "ADDRESS" or "ADDRESS/BITS" into family (AF_INET or AF_INET6),
 * addr (4 or 16 bytes) and bits (32 or 128 without a prefix).  Returns
 * 0, or -1 when s is neither.  A mapped IPv6 entry is made IPv4 here.
 */
int	 proxy_prefix(const char *s, int *family, unsigned char addr[16],
	    unsigned *bits);

#endif
