/*
 * fuzz_gopher.c -- libFuzzer target for the Gopher request parser.
 *
 * The input is what a client sent: gopher_request_end() finds the line
 * and gopher_request_parse() splits it.  On success the path must be
 * safe for the router (starts with '/', UTF-8, no control character, no
 * "." or ".." segment) and every pointer must lie inside the line.
 * The input is also an error message for gopher_error_menu(), whose
 * output must stay one well-formed item plus the ".\r\n" line.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/utf8.h"
#include "proto/gopher.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check(const struct gopher_request *req, const char *line, size_t len)
{
	const char	*seg;
	size_t		 n, i;

	assert(req->selector >= line && req->selector <= line + len);
	assert(req->search == NULL ||
	    (req->search > line && req->search <= line + len));
	assert(req->search == NULL || strchr(req->search, '\t') == NULL);
	assert(strchr(req->selector, '\t') == NULL);
	assert(req->url == NULL || req->url == req->selector + 4);
	assert(req->path[0] == '/');
	assert(utf8_valid(req->path, strlen(req->path)));
	for (i = 0; req->path[i] != '\0'; i++)
		assert((unsigned char)req->path[i] >= 0x20 &&
		    req->path[i] != 0x7F);
	for (seg = req->path + 1;; seg += n + 1) {
		n = strcspn(seg, "/");
		assert(!(n == 1 && seg[0] == '.'));
		assert(!(n == 2 && seg[0] == '.' && seg[1] == '.'));
		if (seg[n] == '\0')
			break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gopher_request	 req;
	struct buf		 b = BUF_INIT;
	const char		*err;
	char			*line;
	ssize_t			 n;
	size_t			 i, ntab;

	line = malloc(size + 1);
	memcpy(line, data, size);
	n = gopher_request_end(line, size);
	assert(n >= GOPHER_TOO_LONG && n <= GOPHER_LINE_MAX);
	if (n == GOPHER_INCOMPLETE)
		assert(size < GOPHER_REQUEST_MAX && !memchr(data, '\n', size));
	if (n >= 0) {
		assert(data[n] == '\n' || (data[n] == '\r' &&
		    data[n + 1] == '\n'));
		if (gopher_request_parse(line, (size_t)n, &req, &err) == 0)
			check(&req, line, (size_t)n);
		else
			assert(err != NULL && err[0] != '\0');
	}

	/* The whole input as one line, as a caller might pass it. */
	memcpy(line, data, size);
	if (gopher_request_parse(line, size, &req, &err) == 0)
		check(&req, line, size);

	/* The input as an error message. */
	memcpy(line, data, size);
	line[size] = '\0';
	gopher_error_menu(&b, line);
	assert(b.data[0] == '3' && b.len >= 5);
	assert(strcmp(b.data + b.len - 5, "\r\n.\r\n") == 0);
	assert(strlen(b.data) == b.len);
	for (i = 0, ntab = 0; i < b.len - 5; i++) {
		assert(b.data[i] != '\r' && b.data[i] != '\n');
		ntab += b.data[i] == '\t';
	}
	assert(ntab == 3 && strcspn(b.data, "\t") <= 71);
	assert(utf8_valid(b.data, b.len));
	buf_free(&b);
	free(line);
	return 0;
}
