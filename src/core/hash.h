/*
 * hash.h -- the one string hash of the tree: 64-bit FNV-1a; and a
 * word-at-a-time hash of a whole file's bytes.
 *
 * For in-memory tables only (content/index.c, content/search.c,
 * site/site.c): its values are never written out, so it may change.
 * FNV-1a is a byte at a time with no setup, which suits keys as short
 * as slugs, words and file names.  Knows nothing but bytes.
 */
#ifndef CAPSULED_HASH_H
#define CAPSULED_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HASH_FNV_BASIS	0xcbf29ce484222325ULL
#define HASH_FNV_PRIME	0x100000001b3ULL

/* FNV-1a of s[0..len). */
static inline uint64_t
hash_bytes(const char *s, size_t len)
{
	uint64_t	 h = HASH_FNV_BASIS;
	size_t		 i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * HASH_FNV_PRIME;
	return h;
}

/* FNV-1a of the NUL-terminated s. */
static inline uint64_t
hash_str(const char *s)
{
	uint64_t	 h = HASH_FNV_BASIS;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * HASH_FNV_PRIME;
	return h;
}

/*
 * A hash of a whole file's bytes (a record's src_hash: did the file
 * change?), eight bytes a step: byte-wise FNV-1a costs a multiply a
 * byte, and hashing every file of a thousand capsules at load was an
 * eighth of its instructions.  Each word is multiplied by an odd
 * constant (2^64 / golden ratio) and the product's high half folded
 * down, so that every byte reaches every bit; the tail is FNV-1a's.
 */
#define HASH_WORD_MUL	0x9e3779b97f4a7c15ULL

static inline uint64_t
hash_block(const char *s, size_t len)
{
	uint64_t	 h = HASH_FNV_BASIS ^ len, w;
	size_t		 i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, sizeof(w));
		h = (h ^ w) * HASH_WORD_MUL;
		h ^= h >> 32;
	}
	for (; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * HASH_FNV_PRIME;
	return h;
}

#endif
