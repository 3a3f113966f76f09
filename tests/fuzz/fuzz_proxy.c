/*
 * fuzz_proxy.c -- libFuzzer target for the PROXY protocol header parser.
 *
 * The input is what a load balancer (or anyone) sent first.  Whatever
 * proxy_parse() says must hold together: a header is at most PROXY_MAX
 * bytes and no longer than the input, parses to the same length from
 * exactly its own bytes and with more bytes after it, names an IPv4 or
 * IPv6 client unless it is local, and is incomplete when cut short;
 * "incomplete" stays short of PROXY_MAX; a refusal has a message and
 * stays a refusal whatever follows.  The input as a string is also an
 * entry of config "proxy_protocol" for proxy_prefix() and
 * proxy_listed().
 */
#include <arpa/inet.h>
#include <assert.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proxy.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_prefix(const uint8_t *data, size_t size)
{
	struct sockaddr_in	 sin;
	unsigned char		 addr[16];
	unsigned		 bits;
	char			*s, *list[1];
	int			 fam;

	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	if (proxy_prefix(s, &fam, addr, &bits) == 0) {
		assert(fam == AF_INET || fam == AF_INET6);
		assert(bits <= (fam == AF_INET ? 32u : 128u));
		if (fam == AF_INET) {
			/* The entry's own address is on its list. */
			memset(&sin, 0, sizeof(sin));
			sin.sin_family = AF_INET;
			memcpy(&sin.sin_addr, addr, 4);
			list[0] = s;
			assert(proxy_listed(list, 1, (struct sockaddr *)&sin));
		}
	}
	free(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proxy_header	 h, h2;
	const char		*err = NULL, *err2 = NULL;
	uint8_t			*more;
	ssize_t			 r, r2;

	r = proxy_parse(data, size, &h, &err);
	assert(r == PROXY_BAD || r == PROXY_INCOMPLETE ||
	    (r > 0 && (size_t)r <= size && r <= PROXY_MAX));
	more = malloc(size + 1);
	memcpy(more, data, size);
	more[size] = 'X';
	r2 = proxy_parse(more, size + 1, &h2, &err2);
	if (r == PROXY_BAD) {
		assert(err != NULL);
		assert(r2 == PROXY_BAD);
	} else if (r == PROXY_INCOMPLETE) {
		assert(size < PROXY_MAX);
		assert(r2 != PROXY_INCOMPLETE || size + 1 < PROXY_MAX);
	} else {
		assert(h.version == 1 || h.version == 2);
		if (h.local)
			assert(h.src.ss_family == AF_UNSPEC);
		else
			assert((h.src.ss_family == AF_INET ||
			    h.src.ss_family == AF_INET6) &&
			    h.dst.ss_family == h.src.ss_family);
		/* Its own bytes, and those with more after them. */
		assert(proxy_parse(data, (size_t)r, &h2, &err2) == r);
		assert(memcmp(&h, &h2, sizeof(h)) == 0);
		assert(r2 == r);
		assert(proxy_parse(data, (size_t)r - 1, &h2, &err2) ==
		    PROXY_INCOMPLETE);
	}
	free(more);
	(void)proxy_sniff(data, size);
	check_prefix(data, size);
	return 0;
}
