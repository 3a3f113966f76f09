/*
 * fuzz_spartan.c -- libFuzzer target for the Spartan request parser.
 *
 * The input is what a client sent: spartan_request_end() finds where the
 * request ends (its line and the data block it announces) and
 * spartan_request_parse() splits it.  On success the host has no space,
 * the path is safe for the router (one leading '/', UTF-8, no control
 * character, no "." or ".." segment) and the data block lies inside the
 * input, no longer than SPARTAN_DATA_MAX.  The input is also a META for
 * spartan_status_line(), whose output must stay one ASCII line.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "proto/spartan.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check(const struct spartan_request *req, const char *in, size_t len)
{
	const char	*seg;
	size_t		 n, i;

	assert(req->host[0] != '\0' && strchr(req->host, ' ') == NULL);
	assert(req->path[0] == '/' && req->path[1] != '/');
	assert(utf8_valid(req->path, strlen(req->path)));
	for (i = 0; req->path[i] != '\0'; i++)
		assert((unsigned char)req->path[i] >= 0x20 &&
		    req->path[i] != 0x7f);
	for (seg = req->path + 1;; seg += n + 1) {
		n = strcspn(seg, "/");
		assert(!(n == 1 && seg[0] == '.'));
		assert(!(n == 2 && seg[0] == '.' && seg[1] == '.'));
		if (seg[n] == '\0')
			break;
	}
	assert(req->datalen <= SPARTAN_DATA_MAX);
	assert(req->data >= in && req->data + req->datalen <= in + len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spartan_request	 req;
	const char		*err;
	char			*in, *meta, out[SPARTAN_META_MAX + 8];
	ssize_t			 end;
	size_t			 n, i;

	in = malloc(size + 1);
	memcpy(in, data, size);
	in[size] = '\0';
	end = spartan_request_end(in, size);
	assert(end == SPARTAN_INCOMPLETE || end == SPARTAN_TOO_LONG ||
	    (end >= 0 && (size_t)end < size));
	if (end >= 0) {
		if (spartan_request_parse(in, (size_t)end, &req, &err) == 0)
			check(&req, in, size);
		else
			assert(err != NULL && *err != '\0');
	}
	meta = malloc(size + 1);
	memcpy(meta, data, size);
	meta[size] = '\0';
	n = spartan_status_line(out, sizeof(out), (int)(size % 7), meta);
	assert(n >= 5 && out[n - 2] == '\r' && out[n - 1] == '\n');
	assert(out[0] >= '2' && out[0] <= '5' && out[1] == ' ');
	for (i = 0; i + 2 < n; i++)
		assert((unsigned char)out[i] >= 0x20 &&
		    (unsigned char)out[i] < 0x7f);
	free(meta);
	free(in);
	return 0;
}
