/*
 * fastcgi.h -- FastCGI records (the FastCGI 1.0 specification, as gmid
 * and fcgiwrap speak it): what a web-style responder is sent and what
 * it answers, encoded into and decoded from bytes.
 *
 * Wire format only: no sockets, no configuration.  net/app.c sends one
 * request (BEGIN_REQUEST, PARAMS, an empty STDIN) per connection at a
 * time and reads STDOUT until END_REQUEST.  Encoders append to a
 * struct buf the caller owns; the decoder lends out pointers into the
 * bytes it was given.
 */
#ifndef CAPSULED_FASTCGI_H
#define CAPSULED_FASTCGI_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/buf.h"

#define FASTCGI_HEADER_LEN	8
#define FASTCGI_MAX_CONTENT	65535

/* Record types (specification 8). */
enum fastcgi_type {
	FASTCGI_BEGIN_REQUEST = 1,
	FASTCGI_ABORT_REQUEST = 2,
	FASTCGI_END_REQUEST = 3,
	FASTCGI_PARAMS = 4,
	FASTCGI_STDIN = 5,
	FASTCGI_STDOUT = 6,
	FASTCGI_STDERR = 7,
	FASTCGI_DATA = 8,
	FASTCGI_GET_VALUES = 9,
	FASTCGI_GET_VALUES_RESULT = 10,
	FASTCGI_UNKNOWN_TYPE = 11,
};

/* END_REQUEST's protocolStatus. */
#define FASTCGI_REQUEST_COMPLETE	0
#define FASTCGI_CANT_MPX_CONN		1
#define FASTCGI_OVERLOADED		2
#define FASTCGI_UNKNOWN_ROLE		3

/* One record, decoded: content borrowed from the input. */
struct fastcgi_record {
	enum fastcgi_type type;
	uint16_t	 id;		/* requestId */
	const uint8_t	*content;
	size_t		 len;		/* contentLength */
	/* END_REQUEST only: */
	uint32_t	 app_status;
	int		 protocol_status;
};

/*
 * The BEGIN_REQUEST of request id in the responder role, with
 * FCGI_KEEP_CONN when keep (the server then leaves the connection open
 * for the next request).
 */
void	 fastcgi_begin(struct buf *, uint16_t id, int keep);
/*
 * The PARAMS stream of env (NULL-terminated "NAME=value" strings, as a
 * CGI environment; an entry without "=" has an empty value), split into
 * records of at most FASTCGI_MAX_CONTENT bytes, then the empty record
 * that ends the stream.
 */
void	 fastcgi_params(struct buf *, uint16_t id, char *const *env);
/*
 * One record of type and id carrying data[0..len), len at most
 * FASTCGI_MAX_CONTENT, padded to a multiple of 8; len 0 ends a stream.
 */
void	 fastcgi_record(struct buf *, enum fastcgi_type, uint16_t id,
	    const void *data, size_t len);

/*
 * Decode the record at the start of p[0..len).  Returns its length
 * with padding (the next record follows), 0 when more bytes must come,
 * or -1 with *err (static) set: a version other than 1, or an
 * END_REQUEST that is not 8 bytes long.
 */
ssize_t	 fastcgi_parse(const uint8_t *p, size_t len,
	    struct fastcgi_record *rec, const char **err);

/*
 * Decode one name-value pair at the start of p[0..len) (specification
 * 3.4): *name and *value borrowed, with their lengths.  Returns the
 * pair's length, or -1 when it is cut short or its lengths overflow.
 */
ssize_t	 fastcgi_pair(const uint8_t *p, size_t len, const uint8_t **name,
	    size_t *nlen, const uint8_t **value, size_t *vlen);

#endif
