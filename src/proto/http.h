/*
 * http.h -- an HTTP/1.1 request head (RFC 9112), as the web view reads
 * it: where it ends, what it asks for, and the answer's header lines.
 *
 *   request-head = *( CRLF ) request-line *( field-line CRLF ) CRLF
 *   request-line = method SP request-target SP HTTP-version CRLF
 *   field-line   = field-name ":" OWS field-value OWS
 *
 * Only what a server of its own files needs is read: the method, the
 * target in origin form (or absolute form naming one of our hosts:
 * RFC 9112 section 3.2.2), the version, and the few fields that change
 * the answer (Host, Connection, If-None-Match, If-Modified-Since, and
 * those that announce a body, which a GET or HEAD does not have here).
 * A bare LF ends a line as CRLF does (RFC 9112 section 2.2 allows it).
 * Pure functions over bytes: no sockets, no router.
 */
#ifndef CAPSULED_HTTP_H
#define CAPSULED_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The bounds of a head: its bytes with the blank line (the connection's
 * request buffer, site/front.h), its fields, and its target.  Over any
 * of them the answer is 431 or 414, and the connection closes.
 */
#define HTTP_HEAD_MAX		4096
#define HTTP_FIELDS_MAX		64
#define HTTP_TARGET_MAX		2048
#define HTTP_HOST_MAX		255
/* The validators of If-None-Match that are kept, comma-separated. */
#define HTTP_ETAGS_MAX		512

#define HTTP_INCOMPLETE		(-1)
#define HTTP_TOO_LONG		(-2)

enum http_method {
	HTTP_GET,
	HTTP_HEAD,
	HTTP_OTHER,		/* a method we do not serve: 405 */
};

struct http_request {
	enum http_method method;
	int		 minor;		/* HTTP/1.<minor>: 0 or 1 */
	char		 target[HTTP_TARGET_MAX + 1]; /* parsed in place */
	char		*path;		/* in target: percent-decoded, starts
					   with '/', valid UTF-8, no dot
					   segment, no control byte */
	char		*query;		/* in target: as sent, or NULL */
	char		 host[HTTP_HOST_MAX + 1];	/* lower case, no port;
					   "" when none was sent (1.0) */
	int		 keep;		/* the client keeps the connection:
					   1.1 without "close", 1.0 with
					   "keep-alive" */
	char		 etags[HTTP_ETAGS_MAX + 1]; /* If-None-Match, or "" */
	int64_t		 since;		/* If-Modified-Since, Unix seconds;
					   -1 for none (or unreadable) */
};

/*
 * Where the head in buf[0..len) ends: its length, the blank line that
 * ends it included (a pipelined request starts right after);
 * HTTP_INCOMPLETE while more is to come; HTTP_TOO_LONG when
 * HTTP_HEAD_MAX bytes hold no end.
 */
ssize_t	 http_request_end(const char *buf, size_t len);

/*
 * Parse the head head[0..len) (as http_request_end() measured it) into
 * req.  Returns 0, or the HTTP status to answer with *err a static
 * reason: 400 (a malformed line or field, no Host or two in 1.1, a
 * body announced, a target that is not a path), 414 (a target over
 * HTTP_TARGET_MAX), 431 (over HTTP_FIELDS_MAX fields), 501 (a
 * transfer coding), 505 (not HTTP/1.0 or 1.1).  A method other than
 * GET and HEAD parses, as HTTP_OTHER, when the rest does.
 */
int	 http_request_parse(const char *head, size_t len,
	    struct http_request *req, const char **err);

/* The reason phrase of status (RFC 9110 section 15), or "Unknown". */
const char *http_reason(int status);

/*
 * t as an IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), into out (at
 * least 30 bytes); its length.
 */
size_t	 http_date(int64_t t, char *out, size_t outlen);
/* An HTTP-date (IMF-fixdate only) to Unix seconds; -1 when it is not. */
int64_t	 http_date_parse(const char *s, size_t len);

/*
 * Does the If-None-Match list etags ("*", or entity-tags separated by
 * commas, weak or strong) hold etag (a quoted entity-tag)?  Weak
 * comparison (RFC 9110 section 13.1.2).
 */
int	 http_etag_match(const char *etags, const char *etag);

#endif
