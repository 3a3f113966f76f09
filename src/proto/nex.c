/*
 * nex.c -- the Nex request (nex.h).
 */
#include <string.h>

#include "core/url.h"
#include "core/utf8.h"
#include "proto/nex.h"

ssize_t
nex_request_end(const char *buf, size_t len)
{
	const char	*nl;
	size_t		 n;

	if ((nl = memchr(buf, '\n', len > NEX_REQUEST_MAX ? NEX_REQUEST_MAX :
	    len)) == NULL)
		return len >= NEX_REQUEST_MAX ? NEX_TOO_LONG : NEX_INCOMPLETE;
	n = (size_t)(nl - buf);
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	return n > NEX_LINE_MAX ? NEX_TOO_LONG : (ssize_t)n;
}

/* Decode s in place and check it: 0, or -1 with *err set. */
static int
decode(char *s, const char **err)
{
	const char	*p;

	for (p = s; (p = strchr(p, '%')) != NULL; p++)
		if (strncmp(p + 1, "2f", 2) == 0 || strncmp(p + 1, "2F", 2) == 0) {
			*err = "an encoded '/'";
			return -1;
		}
	if (url_decode(s) == -1) {
		*err = "a bad percent escape";
		return -1;
	}
	if (!utf8_valid(s, strlen(s))) {
		*err = "not UTF-8";
		return -1;
	}
	for (p = s; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			*err = "a control character";
			return -1;
		}
	return 0;
}

int
nex_request_parse(const char *line, size_t len, struct nex_request *req,
    const char **err)
{
	char	*s, *e, *q;

	memset(req, 0, sizeof(req->line));
	req->path = req->query = NULL;
	*err = "not a path";
	if (len > NEX_LINE_MAX)
		return -1;
	/* Room for a '/' in front of a path written without one. */
	memcpy(req->line + 1, line, len);
	req->line[len + 1] = '\0';
	if (memchr(req->line + 1, '\0', len) != NULL) {
		*err = "a NUL byte";
		return -1;
	}
	s = req->line + 1 + strspn(req->line + 1, " \t");
	for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\t'); e--)
		;
	*e = '\0';
	if ((q = strchr(s, '?')) != NULL) {
		*q++ = '\0';
		if (decode(q, err) == -1)
			return -1;
		req->query = q;
	}
	if (*s != '/')
		*--s = '/';
	if (decode(s, err) == -1)
		return -1;
	if (url_has_dot_segment(s)) {
		*err = "a . or .. segment";
		return -1;
	}
	req->path = s;
	return 0;
}
