/*
 * spartan.h -- the Spartan request (the Spartan protocol specification,
 * 2021-03-24): where it ends, what it asks for, and the status line.
 *
 *   request      = host SP path-absolute SP content-length CRLF
 *                  [data-block]
 *   status-line  = ("2" SP mimetype / "3" SP path-absolute /
 *                   "4" SP errormsg / "5" SP errormsg) CRLF
 *
 * Plain TCP, one request, one answer.  A query is sent as the data block
 * (the client decodes the URL's "?query" into it), never in the path.
 * Pure functions over bytes: no sockets, no router.
 */
#ifndef CAPSULED_SPARTAN_H
#define CAPSULED_SPARTAN_H

#include <stddef.h>
#include <sys/types.h>

#define SPARTAN_LINE_MAX	2048	/* bytes of the line before its end */
#define SPARTAN_DATA_MAX	1024	/* bytes of data block we accept */
/* A request line, its CRLF and the largest data block we accept. */
#define SPARTAN_REQUEST_MAX	(SPARTAN_LINE_MAX + 2 + SPARTAN_DATA_MAX)
/* A status line: one digit, SP, META up to this, CRLF. */
#define SPARTAN_META_MAX	1024

#define SPARTAN_INCOMPLETE	(-1)
#define SPARTAN_TOO_LONG	(-2)

/*
 * Where the request in buf[0..len) ends: the length of its line without
 * the line's end (LF or CRLF: a bare LF is taken, as the reference
 * server takes it) once the line and the data block it announces have
 * arrived; SPARTAN_INCOMPLETE while more is to come; SPARTAN_TOO_LONG
 * for a line over SPARTAN_LINE_MAX.  A line whose length field is not a
 * number, or announces more than SPARTAN_DATA_MAX, ends at its line:
 * spartan_request_parse() refuses it without waiting for the data.
 */
ssize_t	 spartan_request_end(const char *buf, size_t len);

struct spartan_request {
	char	 line[SPARTAN_LINE_MAX + 1];	/* parsed in place */
	char	*host;		/* in line: lower-cased, brackets kept */
	char	*path;		/* in line: percent-decoded, starts with
				   '/', valid UTF-8, no dot segment */
	const char *data;	/* the data block, in the caller's buffer */
	size_t	 datalen;
};

/*
 * Parse the request whose line is line[0..len) (no terminator), its data
 * block right after the line's end in the same buffer (as
 * spartan_request_end() found it).  Returns 0 with req filled, or -1
 * with *err a static message for a "4" line: not three fields split by
 * single spaces, a non-ASCII or control byte, a length that is not a
 * number or is over SPARTAN_DATA_MAX, a path not starting with one '/',
 * with an encoded '/' or NUL, a dot segment in any spelling, or not
 * UTF-8 once decoded.
 */
int	 spartan_request_parse(const char *line, size_t len,
	    struct spartan_request *req, const char **err);

/*
 * The status line "D META" CRLF for status d (2, 3, 4 or 5) into
 * out[0..outlen), NUL-terminated; its length.  META is made ASCII and
 * one line (other bytes become '?'), cut at SPARTAN_META_MAX or what
 * fits, and never empty (a 4 or 5 says "Error").
 */
size_t	 spartan_status_line(char *out, size_t outlen, int d,
	    const char *meta);

#endif
