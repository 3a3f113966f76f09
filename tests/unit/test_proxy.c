/*
 * test_proxy.c -- proxy_parse(), proxy_sniff() and proxy_listed()
 * against HAProxy's PROXY protocol specification: the v1 line and the
 * v2 block in their valid forms (TCP4, TCP6, UNKNOWN, LOCAL, TLVs),
 * every truncation of them, oversized ones, wrong signatures, bad
 * addresses and ports; and which peers may send one.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "proto/proxy.h"

#define BAD	PROXY_BAD

static const unsigned char sig[12] = {
	0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A
};

/* "a.b.c.d:port" or "[v6]:port" of ss, or "local". */
static const char *
show(const struct sockaddr_storage *ss, char *out, size_t len)
{
	const struct sockaddr_in	*sin = (const void *)ss;
	const struct sockaddr_in6	*sin6 = (const void *)ss;
	char				 a[INET6_ADDRSTRLEN];

	if (ss->ss_family == AF_INET) {
		inet_ntop(AF_INET, &sin->sin_addr, a, sizeof(a));
		snprintf(out, len, "%s:%u", a, ntohs(sin->sin_port));
	} else if (ss->ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &sin6->sin6_addr, a, sizeof(a));
		snprintf(out, len, "[%s]:%u", a, ntohs(sin6->sin6_port));
	} else
		snprintf(out, len, "unspec");
	return out;
}

/*
 * in (len bytes, the header then maybe more) must parse to hlen bytes
 * naming src and dst ("unspec" for a local one); every shorter prefix
 * of the header must be PROXY_INCOMPLETE.
 */
static void
valid(const char *what, const void *in, size_t len, ssize_t hlen,
    int version, const char *src, const char *dst)
{
	struct proxy_header	 h;
	const char		*err;
	char			 a[80], b[80];
	ssize_t			 r;
	size_t			 i;
	int			 cut = 0;

	r = proxy_parse(in, len, &h, &err);
	OK(r == hlen, "%s: parsed %zd bytes, want %zd (%s)", what, r, hlen,
	    r == BAD ? err : "");
	if (r != hlen)
		return;
	INT_EQ(h.version, version, what);
	INT_EQ(h.local, strcmp(src, "unspec") == 0, what);
	STR_EQ(show(&h.src, a, sizeof(a)), src, what);
	STR_EQ(show(&h.dst, b, sizeof(b)), dst, what);
	for (i = 0; i < (size_t)hlen; i++)
		if (proxy_parse(in, i, &h, &err) != PROXY_INCOMPLETE)
			cut++;
	INT_EQ(cut, 0, "every truncation is incomplete, not bad");
}

static void
bad(const char *what, const void *in, size_t len)
{
	struct proxy_header	 h;
	const char		*err = NULL;
	ssize_t			 r;

	r = proxy_parse(in, len, &h, &err);
	OK(r == BAD && err != NULL, "%s: got %zd, want refused", what, r);
}

static void
v1(const char *what, const char *line, int ok, const char *src,
    const char *dst)
{
	if (ok)
		valid(what, line, strlen(line), (ssize_t)strlen(line), 1, src,
		    dst);
	else
		bad(what, line, strlen(line));
}

static void
test_v1(void)
{
	struct proxy_header	 h;
	const char		*err;
	char			 buf[256];
	size_t			 n;

	v1("TCP4", "PROXY TCP4 192.0.2.1 198.51.100.2 56324 443\r\n", 1,
	    "192.0.2.1:56324", "198.51.100.2:443");
	v1("TCP6", "PROXY TCP6 2001:db8::1 2001:DB8::2 1 65535\r\n", 1,
	    "[2001:db8::1]:1", "[2001:db8::2]:65535");
	v1("ports 0", "PROXY TCP4 0.0.0.0 255.255.255.255 0 0\r\n", 1,
	    "0.0.0.0:0", "255.255.255.255:0");
	v1("UNKNOWN", "PROXY UNKNOWN\r\n", 1, "unspec", "unspec");
	v1("UNKNOWN with addresses", "PROXY UNKNOWN 1.2.3.4 5.6.7.8 1 2\r\n",
	    1, "unspec", "unspec");
	/* The longest line the specification allows: 107 bytes. */
	snprintf(buf, sizeof(buf), "PROXY UNKNOWN %s %s 65535 65535\r\n",
	    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
	    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
	INT_EQ(strlen(buf), PROXY_V1_MAX, "the worst case is 107 bytes");
	v1("107 bytes", buf, 1, "unspec", "unspec");
	snprintf(buf, sizeof(buf), "PROXY UNKNOWN %s %s 65535 655355\r\n",
	    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
	    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
	v1("108 bytes", buf, 0, NULL, NULL);
	/* No CRLF in 107 printable bytes: refused without waiting more. */
	memset(buf, 'a', sizeof(buf));
	memcpy(buf, "PROXY ", 6);
	bad("no CRLF in 107 bytes", buf, PROXY_V1_MAX);
	INT_EQ(proxy_parse(buf, PROXY_V1_MAX - 1, &h, &err),
	    PROXY_INCOMPLETE, "106 bytes without CRLF: still waiting");

	/* What follows the header is not looked at. */
	n = strlen("PROXY TCP4 10.0.0.1 10.0.0.2 1000 1965\r\n");
	snprintf(buf, sizeof(buf), "%s\x16\x03\x01garbage",
	    "PROXY TCP4 10.0.0.1 10.0.0.2 1000 1965\r\n");
	valid("then TLS bytes", buf, strlen(buf), (ssize_t)n, 1,
	    "10.0.0.1:1000", "10.0.0.2:1965");

	/* Wrong signature, caught as soon as it shows. */
	v1("lower case", "proxy TCP4 1.2.3.4 5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("no space", "PROXYTCP4 1.2.3.4 5.6.7.8 1 2\r\n", 0, 0, 0);
	bad("PROXZ, 5 bytes", "PROXZ", 5);
	bad("P then garbage", "Px", 2);
	v1("an HTTP request", "GET / HTTP/1.0\r\n", 0, 0, 0);
	bad("a TLS ClientHello", "\x16\x03\x01\x02\x00\x01", 6);
	v1("a Gopher selector", "/posts/\r\n", 0, 0, 0);

	/* Line ends. */
	v1("LF only", "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\n", 0, 0, 0);
	v1("CR only", "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\rX", 0, 0, 0);
	v1("CR CR LF", "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\r\n", 0, 0, 0);
	bad("NUL in the line", "PROXY TCP4 1.2.3.4\0 5.6.7.8 1 2\r\n", 33);
	v1("tab", "PROXY TCP4\t1.2.3.4 5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("8-bit byte", "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\xff\r\n", 0, 0, 0);

	/* Protocols and fields. */
	v1("empty", "PROXY \r\n", 0, 0, 0);
	v1("TCP5", "PROXY TCP5 1.2.3.4 5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("tcp4", "PROXY tcp4 1.2.3.4 5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("UDP4", "PROXY UDP4 1.2.3.4 5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("UNKNOWNX", "PROXY UNKNOWNX\r\n", 0, 0, 0);
	v1("TCP4 alone", "PROXY TCP4\r\n", 0, 0, 0);
	v1("three fields", "PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n", 0, 0, 0);
	v1("five fields", "PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n", 0, 0, 0);
	v1("two spaces", "PROXY TCP4 1.2.3.4  5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("trailing space", "PROXY TCP4 1.2.3.4 5.6.7.8 1 2 \r\n", 0, 0,
	    0);
	v1("two spaces after PROXY", "PROXY  TCP4 1.2.3.4 5.6.7.8 1 2\r\n",
	    0, 0, 0);

	/* Addresses. */
	v1("octet 256", "PROXY TCP4 256.2.3.4 5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("leading zero", "PROXY TCP4 1.2.3.04 5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("three octets", "PROXY TCP4 1.2.3 5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("five octets", "PROXY TCP4 1.2.3.4.5 5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("a name", "PROXY TCP4 localhost 5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("IPv6 as TCP4", "PROXY TCP4 ::1 5.6.7.8 1 2\r\n", 0, 0, 0);
	v1("IPv4 as TCP6", "PROXY TCP6 1.2.3.4 ::1 1 2\r\n", 0, 0, 0);
	v1("bad IPv6", "PROXY TCP6 2001:db8:::1 ::1 1 2\r\n", 0, 0, 0);
	v1("IPv6 too long", "PROXY TCP6 1:2:3:4:5:6:7:8:9 ::1 1 2\r\n", 0,
	    0, 0);
	v1("bracketed IPv6", "PROXY TCP6 [::1] ::1 1 2\r\n", 0, 0, 0);

	/* Ports. */
	v1("port 65536", "PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n", 0, 0, 0);
	v1("port 99999", "PROXY TCP4 1.2.3.4 5.6.7.8 1 99999\r\n", 0, 0, 0);
	v1("port 0443", "PROXY TCP4 1.2.3.4 5.6.7.8 0443 2\r\n", 0, 0, 0);
	v1("port 00", "PROXY TCP4 1.2.3.4 5.6.7.8 00 2\r\n", 0, 0, 0);
	v1("port -1", "PROXY TCP4 1.2.3.4 5.6.7.8 -1 2\r\n", 0, 0, 0);
	v1("port +1", "PROXY TCP4 1.2.3.4 5.6.7.8 +1 2\r\n", 0, 0, 0);
	v1("port 1x", "PROXY TCP4 1.2.3.4 5.6.7.8 1x 2\r\n", 0, 0, 0);
	v1("port 123456", "PROXY TCP4 1.2.3.4 5.6.7.8 1 123456\r\n", 0, 0,
	    0);
}

/*
 * A v2 header: ver_cmd, fam, a length of blen, then blen bytes of body
 * (none when body is NULL: a head that announces more).
 */
static size_t
v2(unsigned char *out, unsigned ver_cmd, unsigned fam, const void *body,
    size_t blen)
{
	memcpy(out, sig, sizeof(sig));
	out[12] = (unsigned char)ver_cmd;
	out[13] = (unsigned char)fam;
	out[14] = (unsigned char)(blen >> 8);
	out[15] = (unsigned char)blen;
	if (body != NULL)
		memcpy(out + 16, body, blen);
	return 16 + blen;
}

static void
test_v2(void)
{
	static const unsigned char in4[12] = {
		192, 0, 2, 1, 198, 51, 100, 2, 0xdc, 0x04, 0x01, 0xbb
	};
	unsigned char	 in6[36], body[1100], h[1200];
	size_t		 n;

	n = v2(h, 0x21, 0x11, in4, sizeof(in4));
	valid("TCP4", h, n, 28, 2, "192.0.2.1:56324", "198.51.100.2:443");
	/* What follows is not looked at. */
	memcpy(h + n, "/\r\n", 3);
	valid("TCP4, then a selector", h, n + 3, 28, 2, "192.0.2.1:56324",
	    "198.51.100.2:443");

	memset(in6, 0, sizeof(in6));
	inet_pton(AF_INET6, "2001:db8::7", in6);
	inet_pton(AF_INET6, "::1", in6 + 16);
	in6[32] = 0xff;
	in6[33] = 0xff;
	in6[34] = 0x07;
	in6[35] = 0xad;
	n = v2(h, 0x21, 0x21, in6, sizeof(in6));
	valid("TCP6", h, n, 52, 2, "[2001:db8::7]:65535", "[::1]:1965");

	/* LOCAL: the connection's own peer, whatever the block says. */
	n = v2(h, 0x20, 0x00, NULL, 0);
	valid("LOCAL", h, n, 16, 2, "unspec", "unspec");
	n = v2(h, 0x20, 0x11, in4, sizeof(in4));
	valid("LOCAL with an address block, skipped", h, n, 28, 2, "unspec",
	    "unspec");
	/* Valid families we do not relay: the real peer, block skipped. */
	n = v2(h, 0x21, 0x00, NULL, 0);
	valid("PROXY AF_UNSPEC", h, n, 16, 2, "unspec", "unspec");
	memset(body, 0, 216);
	n = v2(h, 0x21, 0x31, body, 216);
	valid("PROXY UNIX stream", h, n, 232, 2, "unspec", "unspec");
	n = v2(h, 0x21, 0x12, in4, sizeof(in4));
	valid("PROXY UDP4", h, n, 28, 2, "unspec", "unspec");

	/* TLVs after the addresses: walked, then skipped. */
	memcpy(body, in4, sizeof(in4));
	memcpy(body + 12, "\x04\x00\x03\0\0\0" "\x01\x00\x06gemini", 15);
	n = v2(h, 0x21, 0x11, body, 12 + 15);
	valid("TCP4 with NOOP and ALPN TLVs", h, n, 16 + 27, 2,
	    "192.0.2.1:56324", "198.51.100.2:443");
	memcpy(body + 12, "\x01\x00\x07gemini", 9);
	n = v2(h, 0x21, 0x11, body, 12 + 9);
	bad("a TLV longer than the block", h, n);
	memcpy(body + 12, "\x01\x00", 2);
	n = v2(h, 0x21, 0x11, body, 12 + 2);
	bad("two stray bytes after the addresses", h, n);
	/* The biggest we take, and one byte more (refused at once). */
	memset(body + 12, 0, sizeof(body) - 12);
	body[12] = 0x04;
	body[13] = (PROXY_V2_MAX_LEN - 15) >> 8;
	body[14] = (PROXY_V2_MAX_LEN - 15) & 0xff;
	n = v2(h, 0x21, 0x11, body, PROXY_V2_MAX_LEN);
	valid("PROXY_V2_MAX_LEN bytes of block", h, n, PROXY_MAX, 2,
	    "192.0.2.1:56324", "198.51.100.2:443");
	v2(h, 0x21, 0x11, NULL, PROXY_V2_MAX_LEN + 1);
	bad("one byte over PROXY_MAX, head only", h, 16);
	v2(h, 0x21, 0x11, NULL, 0xffff);
	bad("a 64 KiB block, head only", h, 16);

	/* Version, command, family, transport. */
	n = v2(h, 0x11, 0x11, in4, sizeof(in4));
	bad("version 1 in a v2 block", h, 13);
	n = v2(h, 0x31, 0x11, in4, sizeof(in4));
	bad("version 3", h, n);
	n = v2(h, 0x22, 0x11, in4, sizeof(in4));
	bad("command 2", h, 13);
	n = v2(h, 0x2f, 0x11, in4, sizeof(in4));
	bad("command 15", h, n);
	n = v2(h, 0x21, 0x41, in4, sizeof(in4));
	bad("family 4", h, 14);
	n = v2(h, 0x21, 0x13, in4, sizeof(in4));
	bad("transport 3", h, n);
	n = v2(h, 0x21, 0x11, in4, 8);
	bad("TCP4 with an 8-byte block", h, n);
	n = v2(h, 0x21, 0x21, in6, 35);
	bad("TCP6 with a 35-byte block", h, n);
	n = v2(h, 0x21, 0x21, in4, sizeof(in4));
	bad("TCP6 with a TCP4 block", h, n);

	/* The signature, wrong in each of its bytes in turn. */
	for (n = 0; n < sizeof(sig); n++) {
		char	 what[64];

		v2(h, 0x21, 0x11, in4, sizeof(in4));
		h[n] ^= 0x40;
		snprintf(what, sizeof(what), "signature byte %zu", n);
		bad(what, h, n + 1);
	}
}

static void
test_sniff(void)
{
	unsigned char	 h[64];

	OK(proxy_sniff("PROXY TCP4", 10), "v1 signature");
	OK(proxy_sniff("PROXY ", 6), "v1 signature alone");
	OK(!proxy_sniff("PROXY", 5), "five bytes are not enough");
	OK(!proxy_sniff("PROXYZ", 6), "PROXYZ");
	v2(h, 0x21, 0x11, NULL, 0);
	OK(proxy_sniff(h, 12), "v2 signature");
	OK(!proxy_sniff(h, 11), "eleven bytes of it are not enough");
	OK(!proxy_sniff("\r\n", 2), "an empty Gopher selector");
	OK(!proxy_sniff("\x16\x03\x01\x00\x10\x01", 6), "a ClientHello");
	OK(!proxy_sniff("/PROXY \r\n", 9), "a selector with PROXY inside");
}

static void
sa4(struct sockaddr_storage *ss, const char *a)
{
	struct sockaddr_in	*sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	inet_pton(AF_INET, a, &sin->sin_addr);
}

static void
sa6(struct sockaddr_storage *ss, const char *a)
{
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	sin6->sin6_family = AF_INET6;
	inet_pton(AF_INET6, a, &sin6->sin6_addr);
}

static void
test_listed(void)
{
	char			*list[] = {
		"127.0.0.1", "::1", "10.0.0.0/8", "192.0.2.128/25",
		"2001:db8:1::/48", "not an address", "::ffff:172.16.0.0/108",
	};
	char			*none[] = { "0.0.0.0/0" };
	struct sockaddr_storage	 ss;
	unsigned char		 addr[16];
	unsigned		 bits;
	int			 fam;
	size_t			 n = sizeof(list) / sizeof(list[0]);

	sa4(&ss, "127.0.0.1");
	OK(proxy_listed(list, n, (struct sockaddr *)&ss), "127.0.0.1");
	sa4(&ss, "127.0.0.2");
	OK(!proxy_listed(list, n, (struct sockaddr *)&ss), "127.0.0.2");
	sa4(&ss, "10.200.3.4");
	OK(proxy_listed(list, n, (struct sockaddr *)&ss), "10/8");
	sa4(&ss, "11.0.0.1");
	OK(!proxy_listed(list, n, (struct sockaddr *)&ss), "11.0.0.1");
	sa4(&ss, "192.0.2.200");
	OK(proxy_listed(list, n, (struct sockaddr *)&ss), "/25, in");
	sa4(&ss, "192.0.2.127");
	OK(!proxy_listed(list, n, (struct sockaddr *)&ss), "/25, out");
	sa4(&ss, "172.16.9.9");
	OK(proxy_listed(list, n, (struct sockaddr *)&ss),
	    "a mapped /108 entry is 172.16/12");
	sa6(&ss, "::1");
	OK(proxy_listed(list, n, (struct sockaddr *)&ss), "::1");
	sa6(&ss, "::2");
	OK(!proxy_listed(list, n, (struct sockaddr *)&ss), "::2");
	sa6(&ss, "2001:db8:1:ffff::9");
	OK(proxy_listed(list, n, (struct sockaddr *)&ss), "/48, in");
	sa6(&ss, "2001:db8:2::9");
	OK(!proxy_listed(list, n, (struct sockaddr *)&ss), "/48, out");
	sa6(&ss, "::ffff:127.0.0.1");
	OK(proxy_listed(list, n, (struct sockaddr *)&ss),
	    "an IPv4-mapped peer is its IPv4 address");
	sa6(&ss, "::ffff:127.0.0.2");
	OK(!proxy_listed(list, n, (struct sockaddr *)&ss), "mapped, out");
	sa6(&ss, "::");
	OK(!proxy_listed(none, 1, (struct sockaddr *)&ss),
	    "0.0.0.0/0 does not list IPv6");
	sa4(&ss, "203.0.113.1");
	OK(proxy_listed(none, 1, (struct sockaddr *)&ss), "0.0.0.0/0");
	OK(!proxy_listed(list, 0, (struct sockaddr *)&ss), "empty list");
	ss.ss_family = AF_UNSPEC;
	OK(!proxy_listed(none, 1, (struct sockaddr *)&ss), "no address");

	OK(proxy_prefix("10.0.0.0/8", &fam, addr, &bits) == 0 &&
	    fam == AF_INET && bits == 8, "10.0.0.0/8");
	OK(proxy_prefix("::1", &fam, addr, &bits) == 0 && fam == AF_INET6 &&
	    bits == 128, "::1");
	OK(proxy_prefix("::ffff:1.2.3.4", &fam, addr, &bits) == 0 &&
	    fam == AF_INET && bits == 32 && addr[0] == 1 && addr[3] == 4,
	    "a mapped address is IPv4");
	OK(proxy_prefix("10.0.0.0/0", &fam, addr, &bits) == 0 && bits == 0,
	    "/0");
	OK(proxy_prefix("10.0.0.0/33", &fam, addr, &bits) == -1, "/33");
	OK(proxy_prefix("::/129", &fam, addr, &bits) == -1, "/129");
	OK(proxy_prefix("10.0.0.0/08", &fam, addr, &bits) == -1, "/08");
	OK(proxy_prefix("10.0.0.0/", &fam, addr, &bits) == -1, "/");
	OK(proxy_prefix("/8", &fam, addr, &bits) == -1, "no address");
	OK(proxy_prefix("10.0.0.0/8/8", &fam, addr, &bits) == -1, "/8/8");
	OK(proxy_prefix("10.0.0.0/-1", &fam, addr, &bits) == -1, "/-1");
	OK(proxy_prefix("localhost", &fam, addr, &bits) == -1, "a name");
	OK(proxy_prefix("", &fam, addr, &bits) == -1, "empty");
}

static const struct harness_test tests[] = {
	TEST(test_v1),
	TEST(test_v2),
	TEST(test_sniff),
	TEST(test_listed),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
