/*
 * test_hashset.c -- core/hashset.c: a put says whether the hash was new,
 * has finds what was put and nothing else across growth, 0 is a hash
 * like the others, and the last reference frees.
 */
#include <stdint.h>

#include "core/hashset.h"
#include "harness.h"

static void
test_put_has(void)
{
	struct hashset	*s = hashset_new();
	uint64_t	 i;
	int		 all = 1, none = 1;

	OK(!hashset_has(NULL, 1), "an absent set holds nothing");
	INT_EQ(hashset_put(s, 42), 1, "new");
	INT_EQ(hashset_put(s, 42), 0, "already there");
	INT_EQ(hashset_put(s, 0), 1, "0 is a hash too");
	OK(hashset_has(s, 0), "and is found");
	/* Far past the first table: it grows, nothing is lost. */
	for (i = 1; i <= 10000; i++)
		(void)hashset_put(s, i * 0x9e3779b97f4a7c15ULL);
	for (i = 1; i <= 10000; i++)
		all &= hashset_has(s, i * 0x9e3779b97f4a7c15ULL);
	for (i = 10001; i <= 20000; i++)
		none &= !hashset_has(s, i * 0x9e3779b97f4a7c15ULL);
	OK(all, "every hash put is found after growing");
	OK(none, "no other");
	INT_EQ(hashset_count(s), 10002, "counted once each");
	hashset_ref(s);
	hashset_unref(s);
	OK(hashset_has(s, 42), "one reference left: still there");
	hashset_unref(s);
	hashset_unref(NULL);
}

static const struct harness_test tests[] = {
	TEST(test_put_has),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
