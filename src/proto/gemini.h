/*
 * gemini.h -- the Gemini request line: where it ends, whether we answer
 * it, and the response header line.
 *
 * Pure functions over bytes: no sockets, no TLS, no archive.  conn.c
 * reads bytes until gemini_request_end() says a line is there, checks it
 * with gemini_request_parse(), hands the path to the router (which
 * decides 2x, 31 and 51), and writes the header from gemini_header().
 * See the Gemini protocol specification, on requests and response headers.
 */
#ifndef CAPSULED_GEMINI_H
#define CAPSULED_GEMINI_H

#include <stddef.h>
#include <sys/types.h>

#include "core/gemini_limits.h"	/* GEMINI_URL_MAX, _META_MAX... */
#include "core/url.h"

#define GEMINI_DEFAULT_PORT	1965

#define GEMINI_INCOMPLETE	(-1)
#define GEMINI_TOO_LONG		(-2)

/*
 * Look for the end of a request in buf[0..len).  Returns the length of
 * the request line without CRLF (0..GEMINI_URL_MAX) once a CRLF has
 * arrived, GEMINI_INCOMPLETE when more bytes may still come, or
 * GEMINI_TOO_LONG once GEMINI_REQUEST_MAX bytes have arrived without a
 * CRLF ending within them.  A bare LF (or CR) is not a terminator.
 * Bytes after the first CRLF are not looked at.
 */
ssize_t	 gemini_request_end(const char *buf, size_t len);

/* A name we serve.  port: our public Gemini port (usually 1965). */
struct config;

struct gemini_host {
	const char	*hostname;	/* borrowed */
	int		 port;
	int		 public_port;	/* also ours (gemini_public_port); 0 */
};

struct gemini_request {
	char		 line[GEMINI_URL_MAX + 1];	/* url_parse() edits */
	struct url	 url;			/* points into line */
	size_t		 host;		/* the URL's host: an index into
					   hosts[]; 0 for an IP literal */
	int		 ip;		/* 1: the URL's host is an IP literal
					   that no host is configured as */
};

/*
 * Validate one request line (line[0..len), no CRLF; it need not be
 * NUL-terminated).  Returns 0 with req filled, req->url pointing into
 * req->line: url.path is percent-decoded, starts with '/', is valid
 * UTF-8 and has no dot segments; url.query is still encoded or NULL.
 * Otherwise returns the status to send, 59 (bad request) or 53 (not
 * ours: another scheme, a host not in hosts[0..nhosts), another port),
 * with *meta set to a static, printable ASCII message.
 *
 * Hosts compare case-insensitively, a trailing dot ignored; an IP
 * literal (IPv4 or "[IPv6]") matches a host configured as the same
 * address in any spelling.  Any other IP literal passes here with
 * req->ip set, its port checked against every host's (1965 when nhosts
 * is 0): whether it is ours depends on the connection, which
 * gemini_request_local() answers.  An absent port is accepted for every
 * host.  The schemes "gemini" and "titan" are served: the caller checks
 * req->url.scheme, as a titan line is an upload (titan.h), not a
 * request to route.
 */
int	 gemini_request_parse(const char *line, size_t len,
	    const struct gemini_host *hosts, size_t nhosts,
	    struct gemini_request *req, const char **meta);

/*
 * 1 when req names this server: by a host name, or by an IP literal that
 * is local, the address of our end of the connection (getsockname(2);
 * an IPv4 address and its IPv4-mapped IPv6 form are one).  0 when it
 * names another address: the caller answers 53, "proxy request refused"
 * in the Gemini specification, for titan:// as for gemini://.
 */
struct sockaddr;
int	 gemini_request_local(const struct gemini_request *req,
	    const struct sockaddr *local);

/*
 * Which of hosts[0..nhosts) answers req, given the server name the
 * client sent in TLS (sni; NULL when it sent none): the URL's host,
 * unless sni names another name, which is a 53 (the Gemini specification
 * lets a server refuse a request whose SNI and URL host disagree).  No
 * SNI: the URL decides.  A URL with an IP literal is served by the host
 * sni names, or by hosts[0].  Returns the index, or -1 with *meta set to
 * a static message for a 53.
 */
int	 gemini_request_host(const struct gemini_host *hosts, size_t nhosts,
	    const struct gemini_request *req, const char *sni,
	    const char **meta);

/*
 * Format the header "NN META\r\n" into out[0..outlen) and NUL-terminate
 * it; returns its length without the NUL (0 when outlen < 7: nothing
 * fits).  META is sanitised: invalid UTF-8 bytes become '?', control
 * characters (C0, DEL, C1), U+2028/2029 and U+FEFF become spaces,
 * leading and trailing spaces go, and it is cut (on a character
 * boundary) to GEMINI_META_MAX bytes or to what fits in out.  An empty
 * or NULL meta gets the status's default ("Not found", "text/gemini",
 * ...).  A status that is not a defined code is sent as its class's
 * x0 code (57 -> 50); one outside 10..69 is sent as 40.
 */
size_t	 gemini_header(char *out, size_t outlen, int status,
	    const char *meta);

/*
 * A header as a CGI program wrote it, at the start of p[0..len): "NN",
 * or "NN META" (valid UTF-8 without control characters, at most
 * GEMINI_META_MAX bytes), ended by CRLF within GEMINI_HEADER_MAX bytes;
 * NN of 10..69.  Returns its length with the CRLF and sets *status, or
 * -1 when it is not one.
 */
ssize_t	 gemini_header_parse(const char *p, size_t len, int *status);

#endif
