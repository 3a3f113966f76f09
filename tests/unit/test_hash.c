/*
 * test_hash.c -- the one string hash (core/hash.h): 64-bit FNV-1a,
 * pinned by the published test vectors, the same whether a key is
 * counted or NUL-terminated; the file hash; and index.c's table over
 * it.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "content/index.h"
#include "core/hash.h"
#include "harness.h"

static void
test_vectors(void)
{
	/* FNV-1a 64-bit: "", "a", "foobar" (the FNV reference vectors). */
	OK(hash_str("") == 0xcbf29ce484222325ULL, "empty: the basis");
	OK(hash_str("a") == 0xaf63dc4c8601ec8cULL, "\"a\"");
	OK(hash_str("foobar") == 0x85944171f73967e8ULL, "\"foobar\"");
	OK(hash_bytes("foobar", 6) == hash_str("foobar"),
	    "counted and NUL-terminated agree");
	OK(hash_bytes("foobarbaz", 3) == hash_str("foo"),
	    "only the bytes counted");
	/* High bytes are unsigned: no sign extension of char. */
	OK(hash_str("\xff") == hash_bytes("\xff", 1), "a byte over 0x7f");
	OK(hash_str("\xff") != hash_str("\x7f"), "0xff is not 0x7f");
}

/*
 * The file hash: the same bytes the same value, wherever they are in
 * memory; one changed bit, one byte more or a swap of two words, not.
 */
static void
test_block(void)
{
	char		 a[100], b[101];
	uint64_t	 h;
	size_t		 i, len, same = 0;

	for (i = 0; i < sizeof(a); i++)
		a[i] = (char)('a' + i % 26);
	memcpy(b + 1, a, sizeof(a));
	OK(hash_block(a, sizeof(a)) == hash_block(b + 1, sizeof(a)),
	    "the same bytes, unaligned: the same hash");
	h = hash_block(a, sizeof(a));
	for (i = 0; i < sizeof(a) * 8; i++) {
		a[i / 8] ^= (char)(1 << (i % 8));
		same += hash_block(a, sizeof(a)) == h;
		a[i / 8] ^= (char)(1 << (i % 8));
	}
	INT_EQ((long long)same, 0, "every one-bit change changes it");
	for (len = 0; len < 17; len++)
		OK(hash_block(a, len) != hash_block(a, len + 1),
		    "one byte more changes it");
	memcpy(b, a + 8, 8);
	memcpy(b + 8, a, 8);
	OK(hash_block(a, 16) != hash_block(b, 16), "two words swapped");
	OK(hash_block("", 0) != hash_block("\0", 1), "an empty file is not "
	    "a NUL");
}

static void
test_index(void)
{
	struct index	 x;
	static char	 keys[64][8];
	int		 vals[64];
	size_t		 i, found = 0;

	index_init(&x, 64);
	OK(x.cap >= 128 && (x.cap & (x.cap - 1)) == 0,
	    "room for twice the keys, a power of two");
	for (i = 0; i < 64; i++) {
		snprintf(keys[i], sizeof(keys[i]), "k%zu", i);
		vals[i] = (int)i;
		OK(index_put(&x, keys[i], &vals[i]) == &vals[i], "put");
	}
	OK(index_put(&x, "k3", &vals[9]) == &vals[3],
	    "a second put keeps the first value");
	for (i = 0; i < 64; i++)
		found += index_get(&x, keys[i]) == &vals[i];
	INT_EQ((int)found, 64, "every key found");
	OK(index_get(&x, "k64") == NULL, "absent");
	OK(index_get(&x, NULL) == NULL, "NULL key");
	index_free(&x);
	OK(index_get(&x, "k1") == NULL && x.cap == 0, "empty once freed");
}

static const struct harness_test tests[] = {
	TEST(test_vectors),
	TEST(test_block),
	TEST(test_index),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
