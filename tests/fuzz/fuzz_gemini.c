/*
 * fuzz_gemini.c -- libFuzzer target for the pure Gemini request core.
 *
 * The input is what a client sent: gemini_request_end() finds the line,
 * gemini_request_parse() judges it, gemini_header() formats the answer.
 * The header must always be "DD META\r\n" with a defined-looking status,
 * no other CR or LF, no control characters and UTF-8 META.  The input
 * also goes to gemini_header() as a META of its own, with its first byte
 * as the status.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "proto/gemini.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const struct gemini_host hosts[] = {
	{ "example.org", 1965, 0 },
	{ "localhost", 1966, 0 },
};

static void
check_header(const char *h, size_t n, size_t outlen)
{
	size_t	 i;

	if (outlen < 7) {
		assert(n == 0);
		return;
	}
	assert(n >= 6 && n < outlen && h[n] == '\0');
	assert(h[0] >= '1' && h[0] <= '6' && h[1] >= '0' && h[1] <= '9');
	assert(h[2] == ' ' && h[3] != ' ');
	assert(h[n - 2] == '\r' && h[n - 1] == '\n');
	assert(n - 5 <= GEMINI_META_MAX);
	for (i = 0; i < n - 2; i++)
		assert((unsigned char)h[i] >= 0x20 && h[i] != 0x7F);
	assert(utf8_valid(h, n));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gemini_request	 req;
	const char		*meta = NULL;
	char			 out[GEMINI_HEADER_MAX + 1], *s;
	ssize_t			 n;
	size_t			 hl, outlen;
	int			 status;

	n = gemini_request_end((const char *)data, size);
	assert(n >= GEMINI_TOO_LONG && n <= GEMINI_URL_MAX);
	if (n == GEMINI_INCOMPLETE)
		assert(size < GEMINI_REQUEST_MAX);
	if (n >= 0) {
		assert(data[n] == '\r' && data[n + 1] == '\n');
		status = gemini_request_parse((const char *)data, (size_t)n,
		    hosts, 2, &req, &meta);
		if (status == 0) {
			assert(req.url.path[0] == '/');
			assert(strstr(req.url.path, "/../") == NULL);
			assert(strstr(req.url.path, "/./") == NULL);
			/* gemini.h: a titan line is served too (an upload). */
			assert(strcmp(req.url.scheme, "gemini") == 0 ||
			    strcmp(req.url.scheme, "titan") == 0);
			status = 20;
			meta = "text/gemini";
		} else
			assert(status == 53 || status == 59);
		hl = gemini_header(out, sizeof(out), status, meta);
		check_header(out, hl, sizeof(out));
		assert(memcmp(out, status == 53 ? "53 " : status == 59 ?
		    "59 " : "20 ", 3) == 0);
	}

	/* The raw bytes (up to any NUL) as META, status from byte 0. */
	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	status = size > 0 ? (int)data[0] - 64 : 0;
	outlen = size > 1 ? (size_t)data[1] * 5 % sizeof(out) : sizeof(out);
	hl = gemini_header(out, outlen, status, size > 2 ? s + 2 : s);
	check_header(out, hl, outlen);
	free(s);
	return 0;
}
