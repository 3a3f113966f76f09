/*
 * fuzz_http.c -- libFuzzer target for the web view's request head.
 *
 * The input is what a client sent: http_request_end() finds where the
 * head ends (inside the input and HTTP_HEAD_MAX, or not yet) and
 * http_request_parse() reads it.  On success the path is safe for the
 * router (one leading '/', UTF-8, no control character, no "." or ".."
 * segment), the host is lower case without a space, and the query lies
 * in the target; on failure the status is one the front end answers
 * and the reason is set.  The input is also an If-None-Match list and an
 * HTTP-date, which must be read without a fault.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "proto/http.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check(const struct http_request *req)
{
	const char	*seg, *h;
	size_t		 n, i;

	if (req->method == HTTP_OTHER)
		return;
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
	for (h = req->host; *h != '\0'; h++)
		assert(*h != ' ' && !(*h >= 'A' && *h <= 'Z'));
	assert(req->query == NULL || (req->query > req->target &&
	    req->query <= req->target + HTTP_TARGET_MAX));
	assert(req->minor == 0 || req->minor == 1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct http_request req;
	const char	*err = NULL;
	char		*in;
	ssize_t		 end;
	int		 status;

	in = malloc(size + 1);
	memcpy(in, data, size);
	in[size] = '\0';
	end = http_request_end(in, size);
	assert(end == HTTP_INCOMPLETE || end == HTTP_TOO_LONG ||
	    (end > 0 && (size_t)end <= size && end <= HTTP_HEAD_MAX));
	if (end > 0) {
		status = http_request_parse(in, (size_t)end, &req, &err);
		if (status == 0)
			check(&req);
		else
			assert((status == 400 || status == 414 ||
			    status == 431 || status == 501 || status == 505) &&
			    err != NULL && *err != '\0');
	}
	(void)http_etag_match(in, "\"abc\"");
	(void)http_date_parse(in, size);
	free(in);
	return 0;
}
