/*
 * gemini_limits.h -- the sizes the Gemini protocol fixes, for every
 * layer that sizes a buffer or a check by them.
 *
 * They live in the lowest layer, not in proto/gemini.h, because the
 * configuration (core/config.c), beneath the protocol, holds a Gemini
 * value too: a configured redirect target is sent as a META.
 * proto/gemini.h includes this header, and every layer above core
 * takes the names from there.  Constants only.
 */
#ifndef CAPSULED_GEMINI_LIMITS_H
#define CAPSULED_GEMINI_LIMITS_H

#define GEMINI_URL_MAX		1024	/* bytes of URL before the CRLF */
#define GEMINI_REQUEST_MAX	(GEMINI_URL_MAX + 2)	/* with CRLF */
#define GEMINI_META_MAX		1024
/* "NN " + META + CRLF; a buffer of GEMINI_HEADER_MAX + 1 also has room
 * for the NUL gemini_header() writes. */
#define GEMINI_HEADER_MAX	(3 + GEMINI_META_MAX + 2)

#endif
