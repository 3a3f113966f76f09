/*
 * url.h -- a Gemini request URL, parsed and checked in place
 * (gmid iri.c shape).
 *
 * url_parse() splits an absolute URI into its parts, rejects what the
 * Gemini specification says to reject, and percent-decodes the path.
 * The struct url points into the caller's buffer, which url_parse()
 * modifies; no allocation.  Also the one home of the URL helpers other modules
 * share: the two percent-encoders (a site path, a link as written),
 * url_has_scheme() and url_hexval().  Knows nothing of the archive or
 * of sockets.
 */
#ifndef CAPSULED_URL_H
#define CAPSULED_URL_H

#include <stddef.h>

struct buf;

struct url {
	char	*scheme;	/* lower-cased */
	char	*host;		/* lower-cased; "[::1]" keeps its brackets */
	int	 port;		/* -1 when absent */
	char	*path;		/* percent-decoded, always starts with '/' */
	char	*query;		/* still percent-encoded; NULL when absent */
};

/*
 * Parse the NUL-terminated s (no CRLF) in place.  Returns 0, or -1 with
 * *errstr set to a static message suitable for a "59" meta line.
 * Rejected: empty, non-UTF-8, a BOM, no scheme, relative references,
 * userinfo, a fragment, a bad or encoded-NUL percent escape, dot
 * segments in any encoding, an encoded '/' in the path.
 */
int	 url_parse(char *s, struct url *u, const char **errstr);

/* Decode %XX in place; -1 on a bad escape or %00. */
int	 url_decode(char *s);

/* Percent-encode for a link: keeps unreserved and "/", encodes the rest. */
void	 url_encode_path(const char *s, struct buf *out);

/*
 * A link destination as written (a Markdown link, maybe already
 * encoded) made one safe token: controls, space, non-ASCII, the
 * printable bytes RFC 3986 never allows ("<>\"{}|\\^`") and a '%' that
 * starts no escape are percent-encoded; escapes and reserved characters
 * are kept.  out is NUL-terminated even when url is empty.
 */
void	 url_encode_link(const char *url, struct buf *out);

/* 1 when s starts with a scheme and its ':' (RFC 3986 3.1), else 0. */
int	 url_has_scheme(const char *s);
/*
 * Is s a URL a browser runs or reads from the reader's own machine
 * rather than opens: javascript:, vbscript:, file:, or data: but for an
 * image (the schemes cmark's safe mode refuses), in any case?  Never
 * written into an href or src of the web view.
 */
int	 url_dangerous(const char *s);

/* The value of hex digit c, or -1. */
int	 url_hexval(int c);

/*
 * 1 when the path (decoded) has a "." or ".." segment, which no request
 * may carry (they would climb or alias).  A leading '/' is skipped, so
 * a request path and a path relative to a root (fsafe.c) are both
 * read by this one rule.
 */
int	 url_has_dot_segment(const char *path);

#endif
