/*
 * test_hash.c -- the one string hash (core/hash.h): 64-bit FNV-1a,
 * pinned by the published test vectors, the same whether a key is
 * counted or NUL-terminated, and index.c's table over it.
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
	TEST(test_index),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
