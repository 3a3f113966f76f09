/*
 * fuzz_fastcgi.c -- libFuzzer target for the backends' wire decoders:
 * the input is what a FastCGI or SCGI server (or anyone on its socket)
 * might send.  fastcgi_parse() over the whole input, record after
 * record, must stay inside it and agree with itself on a prefix; each
 * record's content read as name-value pairs must stay inside it; and
 * scgi_netstring_parse() must give a payload inside the input, or need
 * more, or refuse.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "proto/fastcgi.h"
#include "proto/scgi.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
pairs(const uint8_t *p, size_t len)
{
	const uint8_t	*name, *value;
	size_t		 nlen, vlen, off = 0;
	ssize_t		 r;

	while (off < len && (r = fastcgi_pair(p + off, len - off, &name,
	    &nlen, &value, &vlen)) > 0) {
		assert((size_t)r <= len - off);
		assert(name >= p && name + nlen <= p + len);
		assert(value >= name && value + vlen <= p + len);
		off += (size_t)r;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fastcgi_record	 rec, rec2;
	const char		*err = NULL, *d;
	size_t			 off = 0, dlen;
	ssize_t			 r, r2;

	while ((r = fastcgi_parse(data + off, size - off, &rec, &err)) > 0) {
		assert((size_t)r <= size - off);
		assert(rec.content + rec.len <= data + size);
		/* The same record, given exactly its own bytes. */
		r2 = fastcgi_parse(data + off, (size_t)r, &rec2, &err);
		assert(r2 == r && rec2.type == rec.type && rec2.len == rec.len);
		pairs(rec.content, rec.len);
		off += (size_t)r;
	}
	if (r < 0)
		assert(err != NULL);
	err = NULL;
	r = scgi_netstring_parse((const char *)data, size, &d, &dlen, &err);
	if (r > 0) {
		assert((size_t)r <= size);
		assert(d + dlen < (const char *)data + size);
	} else if (r < 0)
		assert(err != NULL);
	return 0;
}
