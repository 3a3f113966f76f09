/*
 * fastcgi.c -- FastCGI records encoded and decoded (fastcgi.h).
 *
 * record = version type requestId(2) contentLength(2) paddingLength
 *          reserved content padding, version = %x01
 * pair   = nameLength valueLength name value, a length one byte when
 *          below 128, else four with the top bit set
 */
#include <string.h>

#include "proto/fastcgi.h"

#define FASTCGI_VERSION		1
#define FASTCGI_RESPONDER	1
#define FASTCGI_KEEP_CONN	1

void
fastcgi_record(struct buf *b, enum fastcgi_type type, uint16_t id,
    const void *data, size_t len)
{
	static const uint8_t	 zeros[8];
	uint8_t			 h[FASTCGI_HEADER_LEN];
	size_t			 pad = (8 - len % 8) % 8;

	h[0] = FASTCGI_VERSION;
	h[1] = (uint8_t)type;
	h[2] = (uint8_t)(id >> 8);
	h[3] = (uint8_t)id;
	h[4] = (uint8_t)(len >> 8);
	h[5] = (uint8_t)len;
	h[6] = (uint8_t)pad;
	h[7] = 0;
	buf_add(b, h, sizeof(h));
	if (len > 0)
		buf_add(b, data, len);
	buf_add(b, zeros, pad);
}

void
fastcgi_begin(struct buf *b, uint16_t id, int keep)
{
	uint8_t	 body[8] = { 0, FASTCGI_RESPONDER, 0 };

	body[2] = keep ? FASTCGI_KEEP_CONN : 0;
	fastcgi_record(b, FASTCGI_BEGIN_REQUEST, id, body, sizeof(body));
}

static void
add_length(struct buf *b, size_t n)
{
	uint8_t	 l[4];

	if (n < 128) {
		buf_addc(b, (int)n);
		return;
	}
	l[0] = (uint8_t)(0x80 | (n >> 24));
	l[1] = (uint8_t)(n >> 16);
	l[2] = (uint8_t)(n >> 8);
	l[3] = (uint8_t)n;
	buf_add(b, l, sizeof(l));
}

void
fastcgi_params(struct buf *b, uint16_t id, char *const *env)
{
	struct buf	 pairs = BUF_INIT;
	const char	*eq, *value;
	size_t		 i, nlen, off, n;

	for (i = 0; env[i] != NULL; i++) {
		eq = strchr(env[i], '=');
		nlen = eq != NULL ? (size_t)(eq - env[i]) : strlen(env[i]);
		value = eq != NULL ? eq + 1 : "";
		add_length(&pairs, nlen);
		add_length(&pairs, strlen(value));
		buf_add(&pairs, env[i], nlen);
		buf_addstr(&pairs, value);
	}
	/* A pair may span records: the stream is what counts. */
	for (off = 0; off < pairs.len; off += n) {
		n = pairs.len - off;
		if (n > FASTCGI_MAX_CONTENT)
			n = FASTCGI_MAX_CONTENT - FASTCGI_MAX_CONTENT % 8;
		fastcgi_record(b, FASTCGI_PARAMS, id, pairs.data + off, n);
	}
	fastcgi_record(b, FASTCGI_PARAMS, id, NULL, 0);
	buf_free(&pairs);
}

ssize_t
fastcgi_parse(const uint8_t *p, size_t len, struct fastcgi_record *rec,
    const char **err)
{
	size_t	 clen, plen;

	if (len < FASTCGI_HEADER_LEN)
		return 0;
	if (p[0] != FASTCGI_VERSION) {
		*err = "not a FastCGI version 1 record";
		return -1;
	}
	clen = (size_t)p[4] << 8 | p[5];
	plen = p[6];
	if (len < FASTCGI_HEADER_LEN + clen + plen)
		return 0;
	memset(rec, 0, sizeof(*rec));
	rec->type = (enum fastcgi_type)p[1];
	rec->id = (uint16_t)(p[2] << 8 | p[3]);
	rec->content = p + FASTCGI_HEADER_LEN;
	rec->len = clen;
	if (rec->type == FASTCGI_END_REQUEST) {
		if (clen != 8) {
			*err = "an END_REQUEST record not 8 bytes long";
			return -1;
		}
		rec->app_status = (uint32_t)rec->content[0] << 24 |
		    (uint32_t)rec->content[1] << 16 |
		    (uint32_t)rec->content[2] << 8 | rec->content[3];
		rec->protocol_status = rec->content[4];
	}
	return (ssize_t)(FASTCGI_HEADER_LEN + clen + plen);
}

/* One length of a pair into *n: its size in bytes, or 0 when cut short. */
static size_t
read_length(const uint8_t *p, size_t len, size_t *n)
{
	if (len < 1)
		return 0;
	if ((p[0] & 0x80) == 0) {
		*n = p[0];
		return 1;
	}
	if (len < 4)
		return 0;
	*n = (size_t)(p[0] & 0x7f) << 24 | (size_t)p[1] << 16 |
	    (size_t)p[2] << 8 | p[3];
	return 4;
}

ssize_t
fastcgi_pair(const uint8_t *p, size_t len, const uint8_t **name,
    size_t *nlen, const uint8_t **value, size_t *vlen)
{
	size_t	 a, b;

	if ((a = read_length(p, len, nlen)) == 0 ||
	    (b = read_length(p + a, len - a, vlen)) == 0)
		return -1;
	/* Each length is below 2^31: the sum cannot wrap a size_t. */
	if (*nlen > len - a - b || *vlen > len - a - b - *nlen)
		return -1;
	*name = p + a + b;
	*value = *name + *nlen;
	return (ssize_t)(a + b + *nlen + *vlen);
}
