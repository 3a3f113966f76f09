/*
 * test_par.c -- items over threads (core/par.c): each index exactly
 * once, on more than one thread when asked, none when there are none.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/par.h"
#include "harness.h"

#define N	1000

static atomic_int	 seen[N];
static pthread_t	 who[N];

static void
count(size_t i, void *arg)
{
	atomic_int	*calls = arg;

	atomic_fetch_add(&seen[i], 1);
	atomic_fetch_add(calls, 1);
	who[i] = pthread_self();
	usleep(100);		/* long enough for the others to take some */
}

static const struct harness_test tests[] = {
	NAMED("par"),
};

int
main(int argc, char **argv)
{
	atomic_int	 calls;
	int		 i, once = 0, threads = 1;

	HARNESS_INIT(argc, argv, tests);

	atomic_init(&calls, 0);
	par_run(N, 4, count, &calls);
	INT_EQ(atomic_load(&calls), N, "one call per item");
	for (i = 0; i < N; i++)
		once += atomic_load(&seen[i]) == 1;
	INT_EQ(once, N, "each item exactly once");
	for (i = 1; i < N; i++)
		if (!pthread_equal(who[i], who[0]))
			threads = 2;
	INT_EQ(threads, 2, "more than one thread took items");

	atomic_store(&calls, 0);
	par_run(0, 4, count, &calls);
	INT_EQ(atomic_load(&calls), 0, "no items: no call");
	par_run(3, 1, count, &calls);
	INT_EQ(atomic_load(&calls), 3, "one thread: the caller's, all items");
	for (i = 0; i < 3; i++)
		OK(pthread_equal(who[i], pthread_self()), "item %d on the "
		    "caller's thread", i);
	OK(par_threads(4) >= 1 && par_threads(4) <= 4, "par_threads(4): %u",
	    par_threads(4));
	INT_EQ(par_threads(1), 1, "par_threads(1)");
	return harness_done();
}
