/*
 * fuzz_url.c -- libFuzzer target for url.c.
 *
 * url_parse() on a NUL-terminated copy of the input; on success the
 * parts must lie inside the copy and the path must be safe to hand to
 * the router: it starts with '/', is UTF-8, has no control character
 * and no "." or ".." segment.  What url_encode_path() makes of that path
 * must parse back to the same path.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/url.h"
#include "core/utf8.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
inside(const char *p, const char *s, size_t len)
{
	return p >= s && p + strlen(p) <= s + len;
}

static void
check_path(const char *path)
{
	const char	*seg;
	size_t		 len, i;

	assert(path[0] == '/');
	assert(utf8_valid(path, strlen(path)));
	for (i = 0; path[i] != '\0'; i++)
		assert((unsigned char)path[i] >= 0x20 && path[i] != 0x7F);
	for (seg = path + 1;; seg += len + 1) {
		len = strcspn(seg, "/");
		assert(!(len == 1 && seg[0] == '.'));
		assert(!(len == 2 && seg[0] == '.' && seg[1] == '.'));
		if (seg[len] == '\0')
			break;
	}
	assert(strstr(path, "/../") == NULL && strstr(path, "/./") == NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct url	 u, v;
	struct buf	 b = BUF_INIT;
	const char	*err = NULL;
	char		*s, *path;
	size_t		 len, i;

	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	len = strlen(s);
	(void)utf8_valid(s, len);

	if (url_parse(s, &u, &err) == -1) {
		assert(err != NULL && strncmp(err, "Bad request: ", 13) == 0);
		goto decode;
	}
	assert(inside(u.scheme, s, len) && inside(u.host, s, len));
	assert(inside(u.path, s, len));
	assert(u.query == NULL || inside(u.query, s, len));
	assert(u.scheme[0] != '\0' && u.host[0] != '\0');
	for (i = 0; u.scheme[i] != '\0'; i++)
		assert(!(u.scheme[i] >= 'A' && u.scheme[i] <= 'Z'));
	for (i = 0; u.host[i] != '\0'; i++)
		assert(!(u.host[i] >= 'A' && u.host[i] <= 'Z'));
	assert(u.port == -1 || (u.port >= 1 && u.port <= 65535));
	check_path(u.path);

	/* Round trip through the link encoder. */
	path = strdup(u.path);
	buf_addstr(&b, "gemini://h");
	url_encode_path(path, &b);
	assert(url_parse(b.data, &v, &err) == 0);
	assert(strcmp(v.path, path) == 0);
	free(path);
	buf_free(&b);

decode:
	memcpy(s, data, size);
	s[size] = '\0';
	if (url_decode(s) == 0)
		assert(strlen(s) <= len);
	free(s);
	return 0;
}
