/*
 * scgi.h -- SCGI requests (the protocol molly-brown's applications
 * speak): the CGI environment as one netstring, the body after it.
 *
 * request   = netstring(headers) "," body
 * headers   = "CONTENT_LENGTH" NUL digits NUL "SCGI" NUL "1" NUL
 *             *( name NUL value NUL )
 * netstring = 1*DIGIT ":" bytes ","   (no leading zero but for "0")
 *
 * Wire format only: net/app.c sends the request, and the answer is
 * whatever the server writes before it closes.  Encoders append to a
 * struct buf the caller owns.
 */
#ifndef CAPSULED_SCGI_H
#define CAPSULED_SCGI_H

#include <stddef.h>
#include <sys/types.h>

#include "core/buf.h"

/* The longest netstring scgi_netstring_parse() reads: 1 MiB. */
#define SCGI_NETSTRING_MAX	(1024 * 1024)

/* data[0..len) as a netstring. */
void	 scgi_netstring(struct buf *, const void *data, size_t len);
/*
 * The request header of env (NULL-terminated "NAME=value" strings, a
 * CGI environment; CONTENT_LENGTH and SCGI are put first and not
 * repeated) for a body of bodylen bytes.
 */
void	 scgi_request(struct buf *, char *const *env, size_t bodylen);
/*
 * The netstring at the start of p[0..len): its payload borrowed into
 * *data, *dlen.  Returns the netstring's whole length, 0 when more
 * bytes must come, or -1 with *err (static) set: not a netstring, or
 * longer than SCGI_NETSTRING_MAX.
 */
ssize_t	 scgi_netstring_parse(const char *p, size_t len, const char **data,
	    size_t *dlen, const char **err);

#endif
