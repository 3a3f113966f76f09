/*
 * titan.c -- the Titan request line and who may upload (titan.h).
 *
 * Pure functions over the caller's bytes and configuration: no
 * sockets, no files.  What an upload does to the capsule is
 * content/publish.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/config.h"
#include "core/layout.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"
#include "proto/gemini.h"
#include "proto/titan.h"

/* One parameter's value, percent-decoded into out[0..outlen). */
static int
param_value(const char *v, size_t len, char *out, size_t outlen)
{
	if (len >= outlen)
		return -1;
	memcpy(out, v, len);
	out[len] = '\0';
	return url_decode(out);
}

/* "size=" 1*19DIGIT */
static int
param_size(const char *v, size_t len, size_t *size)
{
	size_t	 i, n = 0;

	if (len == 0 || len > 19)
		return -1;
	for (i = 0; i < len; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		if (n > ((size_t)-1 - 9) / 10)
			return -1;
		n = n * 10 + (size_t)(v[i] - '0');
	}
	*size = n;
	return 0;
}

/* path segment bytes up to ";", "?", "#" or the end: where params go. */
static size_t
path_end(const char *line, size_t len, size_t from)
{
	while (from < len && line[from] != ';' && line[from] != '?' &&
	    line[from] != '#')
		from++;
	return from;
}

int
titan_request_parse(const char *line, size_t len,
    const struct gemini_host *hosts, size_t nhosts,
    struct titan_request *req, const char **meta)
{
	struct layout_ref ref;
	char		 stripped[GEMINI_URL_MAX + 1];
	const char	*p, *kv, *eq;
	size_t		 semi, pend, off, kvlen, klen;
	int		 have_size = 0, have_mime = 0, have_token = 0, st;

	memset(req, 0, sizeof(*req));
	if (len > GEMINI_URL_MAX) {
		*meta = "Bad request: URL longer than 1024 bytes";
		return 59;
	}
	if (len < 8 || strncasecmp(line, "titan://", 8) != 0) {
		*meta = "Bad request: not a titan:// URL";
		return 59;
	}
	/* The authority ends at the first "/", "?" or "#". */
	for (off = 8; off < len && line[off] != '/' && line[off] != '?' &&
	    line[off] != '#'; off++)
		;
	semi = path_end(line, len, off);
	if (semi == len || line[semi] != ';') {
		*meta = "Bad request: Titan needs ;size=N after the path";
		return 59;
	}
	/* Parameters run from the first ";" to "?" or "#" or the end. */
	for (pend = semi; pend < len && line[pend] != '?' &&
	    line[pend] != '#'; pend++)
		;
	for (p = line + semi; p < line + pend;) {
		kv = p + 1;
		for (p = kv; p < line + pend && *p != ';'; p++)
			;
		kvlen = (size_t)(p - kv);
		if (kvlen == 0)
			continue;		/* ";;" */
		if ((eq = memchr(kv, '=', kvlen)) == NULL) {
			*meta = "Bad request: a Titan parameter without '='";
			return 59;
		}
		klen = (size_t)(eq - kv);
		eq++;
		if (klen == 4 && strncasecmp(kv, "size", 4) == 0) {
			if (have_size++ || param_size(eq, (size_t)(p - eq),
			    &req->size) == -1) {
				*meta = "Bad request: size must be one number "
				    "of bytes";
				return 59;
			}
		} else if (klen == 4 && strncasecmp(kv, "mime", 4) == 0) {
			if (have_mime++ || param_value(eq, (size_t)(p - eq),
			    req->mime, sizeof(req->mime)) == -1) {
				*meta = "Bad request: bad mime parameter";
				return 59;
			}
		} else if (klen == 5 && strncasecmp(kv, "token", 5) == 0) {
			if (have_token++ || param_value(eq, (size_t)(p - eq),
			    req->token, sizeof(req->token)) == -1) {
				*meta = "Bad request: bad token parameter";
				return 59;
			}
		}
		/* Any other parameter is not Titan's: ignored. */
	}
	if (!have_size) {
		*meta = "Bad request: Titan needs ;size=N after the path";
		return 59;
	}
	req->loglen = semi;
	memcpy(stripped, line, semi);
	memcpy(stripped + semi, line + pend, len - pend);
	if ((st = gemini_request_parse(stripped, semi + len - pend, hosts,
	    nhosts, &req->g, meta)) != 0)
		return st;
	if (strcmp(req->g.url.scheme, "titan") != 0) {
		*meta = "Bad request: not a titan:// URL";
		return 59;
	}
	layout_parse(req->g.url.path, 0, &ref);
	if (ref.kind != LAYOUT_POST || ref.namelen > TITAN_SLUG_MAX) {
		*meta = "Bad request: Titan writes /posts/<slug> only";
		return 59;
	}
	/* The slug as the archive would make it: a-z, 0-9, "-". */
	if (!layout_slug(ref.name, ref.namelen)) {
		*meta = "Bad request: a post slug is lower-case letters, "
		    "digits and '-'";
		return 59;
	}
	memcpy(req->slug, ref.name, ref.namelen);
	req->slug[ref.namelen] = '\0';
	return 0;
}

int
titan_mime_ok(const char *mime)
{
	static const char *const ok[] = {
		"text/markdown", "text/x-markdown", "text/plain",
		"text/gemini",
	};
	size_t	 i;

	if (*mime == '\0')
		return 1;
	for (i = 0; i < nitems(ok); i++)
		if (strcasecmp(mime, ok[i]) == 0)
			return 1;
	return 0;
}

int
titan_writer(const struct config *c, const char *hash)
{
	size_t	 i;

	if (hash == NULL)
		return 0;
	for (i = 0; i < c->ntitan_writers; i++)
		if (strcmp(c->titan_writers[i], hash) == 0)
			return 1;
	return 0;
}
