/*
 * fuzz_nex.c -- libFuzzer target for the Nex request parser.
 *
 * The input is what a client sent: nex_request_end() finds the line and
 * nex_request_parse() reads it.  On success the path is safe for the
 * router (starts with '/', UTF-8, no control character, no "." or ".."
 * segment) and the query, if any, is UTF-8 without controls.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "proto/nex.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nex_request	 req;
	const char		*err, *seg;
	ssize_t			 end;
	size_t			 n, i;

	end = nex_request_end((const char *)data, size);
	assert(end == NEX_INCOMPLETE || end == NEX_TOO_LONG ||
	    (end >= 0 && (size_t)end < size && end <= NEX_LINE_MAX));
	if (end < 0)
		return 0;
	if (nex_request_parse((const char *)data, (size_t)end, &req,
	    &err) == -1) {
		assert(err != NULL && *err != '\0');
		return 0;
	}
	assert(req.path[0] == '/');
	assert(utf8_valid(req.path, strlen(req.path)));
	for (i = 0; req.path[i] != '\0'; i++)
		assert((unsigned char)req.path[i] >= 0x20 &&
		    req.path[i] != 0x7f);
	for (seg = req.path + 1;; seg += n + 1) {
		n = strcspn(seg, "/");
		assert(!(n == 1 && seg[0] == '.'));
		assert(!(n == 2 && seg[0] == '.' && seg[1] == '.'));
		if (seg[n] == '\0')
			break;
	}
	if (req.query != NULL) {
		assert(utf8_valid(req.query, strlen(req.query)));
		for (i = 0; req.query[i] != '\0'; i++)
			assert((unsigned char)req.query[i] >= 0x20);
	}
	return 0;
}
