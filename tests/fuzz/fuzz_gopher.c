/*
 * fuzz_gopher.c -- libFuzzer target for the Gopher request parser.
 *
 * The input is what a client sent: gopher_request_end() finds the line
 * and gopher_request_parse() splits it.  On success the path must be
 * safe for the router (starts with '/', UTF-8, no control character, no
 * "." or ".." segment) and every pointer must lie inside the line.
 * A Gopher+ field must be read as what it is: a view only with "+", a
 * block name only with "!" or "$", both inside the line.  The input is
 * also an error message for gopher_error_menu(), whose output must stay
 * one well-formed item plus the ".\r\n" line, and a menu the router
 * might have made, whose Gopher+ forms must keep the Gopher+ framing: a
 * "+-1" line first, a "." line last and nowhere else, CRLF throughout.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/utf8.h"
#include "core/util.h"
#include "proto/gopher.h"
#include "proto/gopherplus.h"
#include "site/gopher_front.h"
#include "site/router.h"

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
	assert(req->view == NULL || (req->form == GOPHERPLUS_DATA &&
	    req->view > line && req->view <= line + len &&
	    strchr(req->view, '\t') == NULL && req->view[0] != '\0'));
	assert(req->block == NULL || ((req->form == GOPHERPLUS_INFO ||
	    req->form == GOPHERPLUS_DIR) && req->block > line &&
	    req->block <= line + len && strchr(req->block, '\t') == NULL &&
	    req->block[0] != '\0'));
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

static long long
size_of(void *ctx, const char *path)
{
	(void)ctx;
	return (long long)strlen(path);
}

/* data as a menu body, in each Gopher+ form. */
static void
plus_forms(const uint8_t *data, size_t size)
{
	static const struct gopherplus_site site = {
		"example.org", 70, "Admin", NULL, size_of, NULL,
	};
	static const enum gopherplus_form forms[] = {
		GOPHERPLUS_DATA, GOPHERPLUS_INFO, GOPHERPLUS_DIR,
	};
	struct response	 r;
	const char	*dot;
	size_t		 i, k;

	for (i = 0; i < nitems(forms); i++) {
		response_init(&r);
		buf_add(&r.owned, data, size);
		response_use_owned(&r);
		r.gopher_type = '1';
		response_status(&r, 20, "text/gemini");
		gopherplus_answer(&site, forms[i], NULL, NULL, "", "/", &r);
		assert(r.bodylen >= 8 && memcmp(r.body, "+-1\r\n", 5) == 0);
		assert(memcmp(r.body + r.bodylen - 3, ".\r\n", 3) == 0);
		dot = r.body + r.bodylen - 3;
		for (k = 0; k + 1 < r.bodylen; k++) {
			if (r.body[k] == '\n')
				assert(k > 0 && r.body[k - 1] == '\r');
			if (r.body[k] == '\r')
				assert(r.body[k + 1] == '\n');
			/* A lone "." line ends the answer, and only there. */
			if (k > 0 && r.body[k - 1] == '\n' && r.body[k] == '.' &&
			    r.body[k + 1] == '\r')
				assert(r.body + k == dot);
		}
		response_free(&r);
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
	plus_forms(data, size);
	return 0;
}
