/*
 * scgi.c -- SCGI request headers as netstrings (scgi.h).
 */
#include <stdio.h>
#include <string.h>

#include "proto/scgi.h"

void
scgi_netstring(struct buf *b, const void *data, size_t len)
{
	buf_printf(b, "%zu:", len);
	buf_add(b, data, len);
	buf_addc(b, ',');
}

static void
add_pair(struct buf *h, const char *name, size_t nlen, const char *value)
{
	buf_add(h, name, nlen);
	buf_addc(h, '\0');
	buf_add(h, value, strlen(value) + 1);
}

void
scgi_request(struct buf *b, char *const *env, size_t bodylen)
{
	struct buf	 h = BUF_INIT;
	const char	*eq;
	char		 n[32];
	size_t		 i, nlen;

	snprintf(n, sizeof(n), "%zu", bodylen);
	add_pair(&h, "CONTENT_LENGTH", 14, n);
	add_pair(&h, "SCGI", 4, "1");
	for (i = 0; env[i] != NULL; i++) {
		eq = strchr(env[i], '=');
		nlen = eq != NULL ? (size_t)(eq - env[i]) : strlen(env[i]);
		if ((nlen == 14 && strncmp(env[i], "CONTENT_LENGTH", 14) == 0) ||
		    (nlen == 4 && strncmp(env[i], "SCGI", 4) == 0))
			continue;
		add_pair(&h, env[i], nlen, eq != NULL ? eq + 1 : "");
	}
	scgi_netstring(b, h.data, h.len);
	buf_free(&h);
}

ssize_t
scgi_netstring_parse(const char *p, size_t len, const char **data,
    size_t *dlen, const char **err)
{
	size_t	 i, n = 0;

	for (i = 0; i < len && p[i] >= '0' && p[i] <= '9'; i++) {
		if (i > 0 && p[0] == '0') {
			*err = "a netstring length with a leading zero";
			return -1;
		}
		n = n * 10 + (size_t)(p[i] - '0');
		if (n > SCGI_NETSTRING_MAX) {
			*err = "a netstring longer than 1 MiB";
			return -1;
		}
	}
	if (i == len)
		return 0;
	if (i == 0 || p[i] != ':') {
		*err = "not a netstring";
		return -1;
	}
	if (len - i - 1 < n + 1)
		return 0;
	if (p[i + 1 + n] != ',') {
		*err = "a netstring not ended by ','";
		return -1;
	}
	*data = p + i + 1;
	*dlen = n;
	return (ssize_t)(i + 2 + n);
}
