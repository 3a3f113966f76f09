/*
 * proxy.c -- the PROXY protocol header, versions 1 and 2 (see proxy.h).
 *
 * Strict, as the specification asks: anything that does not match it
 * exactly is refused ("Any sequence which does not exactly match the
 * protocol must be discarded"), and refused as soon as the bytes show
 * it, not after waiting for more.  Knows sockaddrs; nothing of sockets
 * or of what follows the header.  Nothing is allocated.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proxy.h"

static const unsigned char v2sig[12] = {
	0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A
};

#define V1SIG		"PROXY "
#define V1SIGLEN	6

/* v2 byte 13: version (high nibble) and command. */
#define V2_VERSION	0x2
#define V2_LOCAL	0x0
#define V2_PROXY	0x1
/* v2 byte 14: address family (high nibble) and transport. */
#define V2_AF_UNSPEC	0x0
#define V2_AF_INET	0x1
#define V2_AF_INET6	0x2
#define V2_AF_UNIX	0x3
#define V2_STREAM	0x1
#define V2_DGRAM	0x2

static void
set_addr(struct sockaddr_storage *ss, int family, const void *addr,
    unsigned port)
{
	struct sockaddr_in	*sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET) {
		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, addr, 4);
		sin->sin_port = htons((uint16_t)port);
	} else {
		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, addr, 16);
		sin6->sin6_port = htons((uint16_t)port);
	}
}

/* port = "0" / %x31-39 0*4DIGIT, at most 65535 (no leading zero) */
static int
v1_port(const char *s, size_t len, unsigned *port)
{
	unsigned long	 v = 0;
	size_t		 i;

	if (len == 0 || len > 5 || (s[0] == '0' && len > 1))
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v > 65535)
		return -1;
	*port = (unsigned)v;
	return 0;
}

/*
 * An address of family af, len bytes at s.  inet_pton() wants the
 * canonical forms the specification names: glibc refuses an IPv4 octet
 * with a leading zero, and anything but four octets.
 */
static int
v1_addr(const char *s, size_t len, int af, unsigned char out[16])
{
	char	 tmp[INET6_ADDRSTRLEN];

	if (len == 0 || len >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	return inet_pton(af, tmp, out) == 1 ? 0 : -1;
}

/*
 * line = "PROXY" SP ( "UNKNOWN" [ SP *anything ] /
 *        ( "TCP4" / "TCP6" ) SP src SP dst SP sport SP dport ) CRLF
 * line is len bytes, the CRLF excluded.
 */
static int
v1_line(const char *line, size_t len, struct proxy_header *h,
    const char **errstr)
{
	const char	*f[4], *p, *end = line + len;
	size_t		 flen[4];
	unsigned char	 a[16], b[16];
	unsigned	 sport, dport;
	int		 af, i;

	p = line + V1SIGLEN;
	if ((size_t)(end - p) >= 7 && memcmp(p, "UNKNOWN", 7) == 0 &&
	    (p + 7 == end || p[7] == ' ')) {
		/* "the receiver must ignore anything presented before the
		 * CRLF": the connection's own addresses stand. */
		h->local = 1;
		return 0;
	}
	if ((size_t)(end - p) < 5 || (memcmp(p, "TCP4 ", 5) != 0 &&
	    memcmp(p, "TCP6 ", 5) != 0)) {
		*errstr = "v1: protocol is not TCP4, TCP6 or UNKNOWN";
		return -1;
	}
	af = p[3] == '4' ? AF_INET : AF_INET6;
	p += 5;
	/* Exactly four fields, each ended by one space (the last by the
	 * end of the line). */
	for (i = 0; i < 4; i++) {
		f[i] = p;
		while (p < end && *p != ' ')
			p++;
		flen[i] = (size_t)(p - f[i]);
		if (flen[i] == 0 || (i < 3 && p == end) ||
		    (i == 3 && p != end)) {
			*errstr = "v1: not four fields separated by single "
			    "spaces";
			return -1;
		}
		p++;
	}
	if (v1_addr(f[0], flen[0], af, a) == -1 ||
	    v1_addr(f[1], flen[1], af, b) == -1) {
		*errstr = af == AF_INET ? "v1: bad TCP4 address" :
		    "v1: bad TCP6 address";
		return -1;
	}
	if (v1_port(f[2], flen[2], &sport) == -1 ||
	    v1_port(f[3], flen[3], &dport) == -1) {
		*errstr = "v1: bad port";
		return -1;
	}
	set_addr(&h->src, af, a, sport);
	set_addr(&h->dst, af, b, dport);
	return 0;
}

static ssize_t
parse_v1(const char *p, size_t len, struct proxy_header *h,
    const char **errstr)
{
	size_t	 i, n = len < PROXY_V1_MAX ? len : PROXY_V1_MAX;

	h->version = 1;
	if (memcmp(p, V1SIG, len < V1SIGLEN ? len : V1SIGLEN) != 0) {
		*errstr = "not a PROXY header";
		return PROXY_BAD;
	}
	/*
	 * Printable US-ASCII up to the CRLF, which must end the first 107
	 * bytes; a lone CR or LF ends nothing.  The signature has neither,
	 * so a CR found is past it.
	 */
	for (i = 0; i < n; i++) {
		if (p[i] != '\r' && (unsigned char)p[i] >= 0x20 &&
		    (unsigned char)p[i] <= 0x7e)
			continue;
		if (p[i] != '\r' || i + 1 == PROXY_V1_MAX) {
			*errstr = p[i] == '\r' ?
			    "v1: no CRLF within 107 bytes" :
			    "v1: a control byte in the line";
			return PROXY_BAD;
		}
		if (i + 1 == len)
			return PROXY_INCOMPLETE;
		if (p[i + 1] != '\n') {
			*errstr = "v1: a CR without LF";
			return PROXY_BAD;
		}
		if (v1_line(p, i, h, errstr) == -1)
			return PROXY_BAD;
		return (ssize_t)(i + 2);
	}
	if (n < PROXY_V1_MAX)
		return PROXY_INCOMPLETE;
	*errstr = "v1: no CRLF within 107 bytes";
	return PROXY_BAD;
}

/* The TLVs after the addresses: type(1) length(2) value, to the end. */
static int
v2_tlvs(const unsigned char *p, size_t len)
{
	size_t	 n;

	while (len > 0) {
		if (len < 3)
			return -1;
		n = (size_t)p[1] << 8 | p[2];
		if (n > len - 3)
			return -1;
		p += 3 + n;
		len -= 3 + n;
	}
	return 0;
}

static ssize_t
parse_v2(const unsigned char *p, size_t len, struct proxy_header *h,
    const char **errstr)
{
	const unsigned char	*a;
	size_t			 blen, alen;
	unsigned		 cmd, fam, tr;

	h->version = 2;
	if (memcmp(p, v2sig, len < sizeof(v2sig) ? len : sizeof(v2sig)) !=
	    0) {
		*errstr = "not a PROXY header";
		return PROXY_BAD;
	}
	if (len > 12 && (p[12] >> 4 != V2_VERSION || ((p[12] & 0xF) !=
	    V2_LOCAL && (p[12] & 0xF) != V2_PROXY))) {
		*errstr = "v2: unknown version or command";
		return PROXY_BAD;
	}
	if (len > 13 && (p[13] >> 4 > V2_AF_UNIX || (p[13] & 0xF) >
	    V2_DGRAM)) {
		*errstr = "v2: unknown address family or transport";
		return PROXY_BAD;
	}
	if (len < PROXY_V2_HEAD)
		return PROXY_INCOMPLETE;
	blen = (size_t)p[14] << 8 | p[15];
	if (blen > PROXY_V2_MAX_LEN) {
		*errstr = "v2: header longer than we accept";
		return PROXY_BAD;
	}
	if (len < PROXY_V2_HEAD + blen)
		return PROXY_INCOMPLETE;
	cmd = p[12] & 0xF;
	fam = p[13] >> 4;
	tr = p[13] & 0xF;
	a = p + PROXY_V2_HEAD;
	/*
	 * LOCAL: "the receiver must ... use the real connection endpoints
	 * and discard the protocol block including the family".  Other
	 * valid families we do not relay (UNSPEC, UNIX, datagrams) fall
	 * back to the same, as the specification allows.
	 */
	if (cmd == V2_LOCAL || tr != V2_STREAM || (fam != V2_AF_INET &&
	    fam != V2_AF_INET6)) {
		h->local = 1;
		return (ssize_t)(PROXY_V2_HEAD + blen);
	}
	alen = fam == V2_AF_INET ? 2 * 4 + 2 * 2 : 2 * 16 + 2 * 2;
	if (blen < alen) {
		*errstr = "v2: address block too short";
		return PROXY_BAD;
	}
	if (v2_tlvs(a + alen, blen - alen) == -1) {
		*errstr = "v2: malformed TLV";
		return PROXY_BAD;
	}
	if (fam == V2_AF_INET) {
		set_addr(&h->src, AF_INET, a, (unsigned)a[8] << 8 | a[9]);
		set_addr(&h->dst, AF_INET, a + 4, (unsigned)a[10] << 8 | a[11]);
	} else {
		set_addr(&h->src, AF_INET6, a, (unsigned)a[32] << 8 | a[33]);
		set_addr(&h->dst, AF_INET6, a + 16,
		    (unsigned)a[34] << 8 | a[35]);
	}
	return (ssize_t)(PROXY_V2_HEAD + blen);
}

ssize_t
proxy_parse(const void *buf, size_t len, struct proxy_header *h,
    const char **errstr)
{
	const unsigned char	*p = buf;

	memset(h, 0, sizeof(*h));
	h->src.ss_family = AF_UNSPEC;
	h->dst.ss_family = AF_UNSPEC;
	*errstr = NULL;
	if (len == 0)
		return PROXY_INCOMPLETE;
	if (p[0] == V1SIG[0])
		return parse_v1(buf, len, h, errstr);
	if (p[0] == v2sig[0])
		return parse_v2(p, len, h, errstr);
	*errstr = "not a PROXY header";
	return PROXY_BAD;
}

int
proxy_sniff(const void *buf, size_t len)
{
	return (len >= V1SIGLEN && memcmp(buf, V1SIG, V1SIGLEN) == 0) ||
	    (len >= sizeof(v2sig) && memcmp(buf, v2sig, sizeof(v2sig)) == 0);
}

/* 1 when a is an IPv4-mapped IPv6 address (::ffff:a.b.c.d). */
static int
mapped(const unsigned char a[16])
{
	static const unsigned char pre[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	return memcmp(a, pre, sizeof(pre)) == 0;
}

int
proxy_prefix(const char *s, int *family, unsigned char addr[16],
    unsigned *bits)
{
	char		 tmp[INET6_ADDRSTRLEN];
	const char	*slash = strchr(s, '/'), *d;
	size_t		 len = slash != NULL ? (size_t)(slash - s) : strlen(s);
	unsigned	 max, v = 0;

	if (len == 0 || len >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	memset(addr, 0, 16);
	if (inet_pton(AF_INET, tmp, addr) == 1) {
		*family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, tmp, addr) == 1) {
		*family = AF_INET6;
		max = 128;
	} else
		return -1;
	if (slash != NULL) {
		/* bits = 1*3DIGIT, no leading zero, at most max */
		d = slash + 1;
		if (*d == '\0' || strlen(d) > 3 ||
		    (d[0] == '0' && d[1] != '\0'))
			return -1;
		for (; *d != '\0'; d++) {
			if (*d < '0' || *d > '9')
				return -1;
			v = v * 10 + (unsigned)(*d - '0');
		}
		if (v > max)
			return -1;
	} else
		v = max;
	if (*family == AF_INET6 && mapped(addr) && v >= 96) {
		memmove(addr, addr + 12, 4);
		memset(addr + 4, 0, 12);
		*family = AF_INET;
		v -= 96;
	}
	*bits = v;
	return 0;
}

/* The first bits of a and b agree. */
static int
same_prefix(const unsigned char *a, const unsigned char *b, unsigned bits)
{
	unsigned	 full = bits / 8, rest = bits % 8;
	unsigned char	 mask;

	if (memcmp(a, b, full) != 0)
		return 0;
	if (rest == 0)
		return 1;
	mask = (unsigned char)(0xff << (8 - rest));
	return (a[full] & mask) == (b[full] & mask);
}

int
proxy_listed(char *const *list, size_t n, const struct sockaddr *sa)
{
	const struct sockaddr_in	*sin = (const struct sockaddr_in *)sa;
	const struct sockaddr_in6	*sin6 = (const struct sockaddr_in6 *)sa;
	unsigned char			 peer[16], addr[16];
	unsigned			 bits;
	size_t				 i;
	int				 af, fam;

	if (sa->sa_family == AF_INET) {
		af = AF_INET;
		memcpy(peer, &sin->sin_addr, 4);
	} else if (sa->sa_family == AF_INET6) {
		af = AF_INET6;
		memcpy(peer, &sin6->sin6_addr, 16);
		if (mapped(peer)) {
			memmove(peer, peer + 12, 4);
			af = AF_INET;
		}
	} else
		return 0;
	for (i = 0; i < n; i++)
		if (proxy_prefix(list[i], &fam, addr, &bits) == 0 &&
		    fam == af && same_prefix(peer, addr, bits))
			return 1;
	return 0;
}
