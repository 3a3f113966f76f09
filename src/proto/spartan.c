/*
 * spartan.c -- the Spartan request and status line (spartan.h).
 */
#include <stdio.h>
#include <string.h>

#include "core/url.h"
#include "core/utf8.h"
#include "proto/spartan.h"

/* The content-length field of a whole line, or -1 when it is none. */
static long
length_field(const char *line, size_t len)
{
	const char	*p = line + len;
	long		 n = 0;
	size_t		 digits = 0;

	while (p > line && p[-1] >= '0' && p[-1] <= '9') {
		p--;
		digits++;
	}
	if (digits == 0 || digits > 9 || p == line || p[-1] != ' ')
		return -1;
	for (; p < line + len; p++)
		n = n * 10 + (*p - '0');
	return n;
}

ssize_t
spartan_request_end(const char *buf, size_t len)
{
	const char	*nl;
	size_t		 linelen, eol;
	long		 n;

	if ((nl = memchr(buf, '\n', len > SPARTAN_LINE_MAX + 2 ?
	    SPARTAN_LINE_MAX + 2 : len)) == NULL)
		return len > SPARTAN_LINE_MAX + 1 ? SPARTAN_TOO_LONG :
		    SPARTAN_INCOMPLETE;
	linelen = (size_t)(nl - buf);
	eol = 1;
	if (linelen > 0 && buf[linelen - 1] == '\r') {
		linelen--;
		eol = 2;
	}
	if (linelen > SPARTAN_LINE_MAX)
		return SPARTAN_TOO_LONG;
	/* A length we will refuse ends the request at its line. */
	if ((n = length_field(buf, linelen)) < 0 || n > SPARTAN_DATA_MAX)
		return (ssize_t)linelen;
	if (len < linelen + eol + (size_t)n)
		return SPARTAN_INCOMPLETE;
	return (ssize_t)linelen;
}

int
spartan_request_parse(const char *line, size_t len,
    struct spartan_request *req, const char **err)
{
	char	*sp1, *sp2, *p;
	long	 n;
	size_t	 i;

	memset(req, 0, sizeof(*req));
	*err = "Bad request";
	if (len > SPARTAN_LINE_MAX)
		return -1;
	for (i = 0; i < len; i++)
		if ((unsigned char)line[i] < 0x20 ||
		    (unsigned char)line[i] >= 0x7f) {
			*err = "Bad request: not a line of ASCII";
			return -1;
		}
	memcpy(req->line, line, len);
	req->line[len] = '\0';
	if ((sp1 = strchr(req->line, ' ')) == NULL ||
	    (sp2 = strchr(sp1 + 1, ' ')) == NULL ||
	    strchr(sp2 + 1, ' ') != NULL || sp1 == req->line ||
	    sp2 == sp1 + 1 || sp2[1] == '\0') {
		*err = "Bad request: expected host, path and length";
		return -1;
	}
	*sp1 = *sp2 = '\0';
	if ((n = length_field(line, len)) < 0) {
		*err = "Bad request: the length is not a number";
		return -1;
	}
	if (n > SPARTAN_DATA_MAX) {
		*err = "Request too large: at most 1024 bytes of data";
		return -1;
	}
	req->host = req->line;
	for (p = req->host; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	req->path = sp1 + 1;
	if (req->path[0] != '/' || req->path[1] == '/') {
		*err = "Bad request: the path must start with one '/'";
		return -1;
	}
	/* Encoded slashes, NULs and dots would name what the path hides. */
	for (p = req->path; (p = strchr(p, '%')) != NULL; p++)
		if (strncmp(p + 1, "2f", 2) == 0 ||
		    strncmp(p + 1, "2F", 2) == 0) {
			*err = "Bad request: an encoded '/' in the path";
			return -1;
		}
	if (url_decode(req->path) == -1 ||
	    !utf8_valid(req->path, strlen(req->path)) ||
	    url_has_dot_segment(req->path)) {
		*err = "Bad request: not a path";
		return -1;
	}
	for (p = req->path; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			*err = "Bad request: not a path";
			return -1;
		}
	req->datalen = (size_t)n;
	req->data = line + len + (line[len] == '\r' ? 2 : 1);
	return 0;
}

size_t
spartan_status_line(char *out, size_t outlen, int d, const char *meta)
{
	size_t	 i, o = 0, max;

	if (outlen < 8)
		return 0;
	if (meta == NULL || *meta == '\0')
		meta = d == 2 ? "text/gemini" : d == 3 ? "/" : "Error";
	out[o++] = (char)('0' + (d >= 2 && d <= 5 ? d : 5));
	out[o++] = ' ';
	max = outlen - 3;		/* CRLF and NUL */
	if (max > 2 + SPARTAN_META_MAX)
		max = 2 + SPARTAN_META_MAX;
	for (i = 0; meta[i] != '\0' && o < max; i++)
		out[o++] = (unsigned char)meta[i] < 0x20 ||
		    (unsigned char)meta[i] >= 0x7f ? '?' : meta[i];
	out[o++] = '\r';
	out[o++] = '\n';
	out[o] = '\0';
	return o;
}
