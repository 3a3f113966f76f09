/*
 * nex.h -- the Nex request (the Nex protocol, nightfall.city): a path on
 * one line, the document back, then the server closes.
 *
 *   request = path ( LF / CRLF )
 *
 * No status, no type, no length on the wire: a client picks its viewer
 * from the path (one ending in '/' is a directory of "=> " links).  Pure
 * functions over bytes: no sockets, no router.
 */
#ifndef CAPSULED_NEX_H
#define CAPSULED_NEX_H

#include <stddef.h>
#include <sys/types.h>

#define NEX_LINE_MAX		1024	/* bytes of the path before its end */
#define NEX_REQUEST_MAX		(NEX_LINE_MAX + 2)	/* with CRLF */

#define NEX_INCOMPLETE		(-1)
#define NEX_TOO_LONG		(-2)

/*
 * Where the request in buf[0..len) ends: the length of its line without
 * LF or CRLF, NEX_INCOMPLETE while more may come, NEX_TOO_LONG for a
 * line over NEX_LINE_MAX.
 */
ssize_t	 nex_request_end(const char *buf, size_t len);

struct nex_request {
	char	 line[NEX_LINE_MAX + 2];	/* parsed in place */
	char	*path;		/* percent-decoded, starts with '/', valid
				   UTF-8, no control character, no dot
				   segment; "/" for an empty line */
	char	*query;		/* after a '?', decoded; NULL for none */
};

/*
 * Parse the request line line[0..len) (no terminator) as clients send
 * it: blanks around it ignored, the leading '/' optional ("notes/" is
 * "/notes/"), a "?query" split off, percent escapes decoded once.
 * Returns 0, or -1 with *err a static message: an encoded '/' or NUL, a
 * dot segment, a control character, not UTF-8.
 */
int	 nex_request_parse(const char *line, size_t len,
	    struct nex_request *req, const char **err);

#endif
