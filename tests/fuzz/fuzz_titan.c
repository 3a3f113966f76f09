/*
 * fuzz_titan.c -- libFuzzer target for the Titan upload request line
 * and the upload check (titan.c, publish.c): what a Titan client sends.
 *
 * The input is a request line, then (after its first CRLF, if any) the
 * body.  titan_request_parse() must either fill a request whose slug is
 * a slug (lower-case letters, digits and single '-'), whose MIME type
 * and token are NUL-terminated inside their arrays, and whose loglen
 * lies inside the line; or return 53 or 59 with a message.  Whatever
 * the body holds, publish_check() must accept it or say why.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "content/publish.h"
#include "proto/titan.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const struct gemini_host hosts[] = {
	{ "localhost", 1965, 0 },
};

static void
check_slug(const char *s)
{
	size_t	 i, len = strlen(s);

	assert(len >= 1 && len <= TITAN_SLUG_MAX);
	for (i = 0; i < len; i++)
		assert((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct titan_request	 req;
	const char		*meta = NULL, *crlf;
	char			*line, why[256];
	size_t			 len, bodylen;
	int			 st, draft = -1;

	crlf = memmem(data, size, "\r\n", 2);
	len = crlf != NULL ? (size_t)(crlf - (const char *)data) : size;
	if (len > 1024)
		len = 1024;		/* conn.c never passes more */
	line = malloc(len + 1);
	memcpy(line, data, len);
	line[len] = '\0';

	memset(&req, 0xA5, sizeof(req));
	st = titan_request_parse(line, len, hosts, 1, &req, &meta);
	if (st == 0) {
		check_slug(req.slug);
		assert(memchr(req.mime, '\0', sizeof(req.mime)) != NULL);
		assert(memchr(req.token, '\0', sizeof(req.token)) != NULL);
		assert(req.loglen <= len);
		(void)titan_mime_ok(req.mime);
	} else {
		assert(st == 53 || st == 59);
		assert(meta != NULL && meta[0] != '\0');
	}

	/* The rest as an upload of posts/x.md at /posts/x. */
	if (crlf != NULL) {
		bodylen = size - len - 2;
		why[0] = '\0';
		if (publish_check((const char *)data + len + 2, bodylen, "x",
		    "x.md", &draft, why, sizeof(why)) == 0)
			assert(draft == 0 || draft == 1);
		else
			assert(why[0] != '\0' &&
			    memchr(why, '\0', sizeof(why)) != NULL);
	}
	free(line);
	return 0;
}
