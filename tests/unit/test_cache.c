/*
 * test_cache.c -- cache.c: references, publish races, the byte count,
 * least-recently-used eviction, a blob evicted while "being sent", and
 * readers on several threads racing an evicter (run it under ASan:
 * `make asan`; a use after free there is a failure).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cache.h"
#include "harness.h"

#define NSLOTS		16
#define NREADERS	4
#define ROUNDS		20000

static struct slot	 slots[NSLOTS];
static atomic_int	 bad;		/* wrong bytes seen by a reader */
static atomic_int	 stop;

static void
sleep_ms(unsigned ms)
{
	struct timespec	 ts = { 0, (long)ms * 1000000L };

	nanosleep(&ts, NULL);
}

static size_t
cost(size_t len)
{
	return sizeof(struct blob) + len + 1;
}

static void
test_basics(void)
{
	struct blob	*a, *b, *got;
	struct slot	 s;
	size_t		 before = cache_bytes();

	slot_init(&s);
	OK(cache_get(&s) == NULL, "empty slot");
	a = blob_new("hello", 5);
	INT_EQ(atomic_load(&a->refs), 1, "new blob: one ref");
	STR_EQ(a->data, "hello", "data");
	got = cache_put(&s, a);
	OK(got == a, "put: ours");
	INT_EQ(atomic_load(&a->refs), 2, "slot + caller");
	INT_EQ(cache_bytes() - before, cost(5), "counted");
	b = blob_new("other", 5);
	got = cache_put(&s, b);			/* b is freed */
	OK(got == a, "second put: the first");
	INT_EQ(atomic_load(&a->refs), 3, "one more caller");
	blob_unref(got);
	blob_unref(a);
	got = cache_get(&s);
	OK(got == a, "get");
	blob_unref(got);
	INT_EQ(atomic_load(&a->refs), 1, "only the slot");
	slot_clear(&s);				/* frees a */
	INT_EQ(cache_bytes(), before, "uncounted");
	OK(cache_get(&s) == NULL, "cleared");
	slot_clear(&s);				/* twice is fine */
	blob_unref(NULL);
	got = blob_new(NULL, 0);
	OK(got->len == 0 && got->data[0] == '\0', "empty blob");
	blob_unref(got);
}

static void
test_lru(void)
{
	struct slot	 s[4], *v[4];
	struct blob	*b, *held;
	char		 text[64];
	size_t		 base = cache_bytes(), one = cost(20), freed;
	int		 i;

	for (i = 0; i < 4; i++) {
		slot_init(&s[i]);
		v[i] = &s[i];
		snprintf(text, sizeof(text), "blob number %08d", i);
		blob_unref(cache_put(&s[i], blob_new(text, 20)));
		sleep_ms(15);		/* the clock is coarse (jiffies) */
	}
	INT_EQ(cache_bytes() - base, 4 * one, "four counted");
	/* Use 0 again: now 1 is the least recently used. */
	blob_unref(cache_get(&s[0]));
	freed = cache_evict(v, 4, base + 2 * one);
	INT_EQ(freed, 2 * one, "two evicted");
	OK(atomic_load(&s[1].blob) == NULL, "1 (least recent) evicted");
	OK(atomic_load(&s[2].blob) == NULL, "2 evicted");
	OK(atomic_load(&s[0].blob) != NULL, "0 (used again) kept");
	OK(atomic_load(&s[3].blob) != NULL, "3 (newest) kept");
	INT_EQ(cache_evict(v, 4, base + 2 * one), 0, "under target: nothing");

	/* Someone is still sending 3 when it goes. */
	held = cache_get(&s[3]);
	freed = cache_evict(v, 4, base);
	INT_EQ(freed, 2 * one, "the rest evicted");
	OK(atomic_load(&s[3].blob) == NULL, "3 evicted while held");
	STR_EQ(held->data, "blob number 00000003", "held blob still readable");
	INT_EQ(atomic_load(&held->refs), 1, "only the sender holds it");
	blob_unref(held);			/* freed now */
	b = cache_get(&s[1]);
	OK(b == NULL, "an evicted slot is empty; the next request renders");
	blob_unref(cache_put(&s[1], blob_new("again", 5)));
	b = cache_get(&s[1]);
	OK(b != NULL && strcmp(b->data, "again") == 0, "and publishes again");
	blob_unref(b);
	for (i = 0; i < 4; i++)
		slot_clear(&s[i]);
	INT_EQ(cache_bytes(), base, "all uncounted");
}

/* Each slot's blob says which slot it belongs to, and is long. */
static void
fill(struct slot *s, int id)
{
	char	 text[512];

	memset(text, 'a' + id % 26, sizeof(text));
	snprintf(text, 16, "slot %04d ", id);
	text[10] = 'x';
	blob_unref(cache_put(s, blob_new(text, sizeof(text))));
}

static void *
reader(void *arg)
{
	struct blob	*b;
	unsigned	 seed = (unsigned)(size_t)arg;
	char		 want[16];
	int		 i, id;

	for (i = 0; i < ROUNDS; i++) {
		id = (int)(rand_r(&seed) % NSLOTS);
		if ((b = cache_get(&slots[id])) == NULL) {
			fill(&slots[id], id);	/* "render" and publish */
			continue;
		}
		snprintf(want, sizeof(want), "slot %04d ", id);
		if (b->len != 512 || memcmp(b->data, want, 10) != 0 ||
		    b->data[511] != 'a' + id % 26)
			atomic_fetch_add(&bad, 1);
		blob_unref(b);
	}
	return NULL;
}

static void *
evicter(void *arg)
{
	struct slot	*v[NSLOTS];
	int		 i;

	(void)arg;
	for (i = 0; i < NSLOTS; i++)
		v[i] = &slots[i];
	while (!atomic_load(&stop))
		cache_evict(v, NSLOTS, 0);	/* all, again and again */
	return NULL;
}

static void
test_race(void)
{
	pthread_t	 r[NREADERS], e;
	size_t		 base = cache_bytes();
	int		 i;

	for (i = 0; i < NSLOTS; i++)
		slot_init(&slots[i]);
	pthread_create(&e, NULL, evicter, NULL);
	for (i = 0; i < NREADERS; i++)
		pthread_create(&r[i], NULL, reader, (void *)(size_t)(i + 1));
	for (i = 0; i < NREADERS; i++)
		pthread_join(r[i], NULL);
	atomic_store(&stop, 1);
	pthread_join(e, NULL);
	INT_EQ(atomic_load(&bad), 0, "readers saw only whole, right blobs");
	for (i = 0; i < NSLOTS; i++)
		slot_clear(&slots[i]);
	INT_EQ(cache_bytes(), 0 + base, "count back to where it was");
}

static const struct harness_test tests[] = {
	TEST(test_basics),
	TEST(test_lru),
	TEST(test_race),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
