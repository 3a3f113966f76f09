/*
 * test_arena.c -- the per-thread arena cmark trees are built in: blocks
 * zeroed and aligned, realloc keeping the bytes (in place or moved),
 * chunks bigger than the first, one tree per thread, and every thread
 * its own.  Leaks are valgrind's to find (make valgrind).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/arena.h"
#include "harness.h"

static int
all(const unsigned char *p, size_t n, unsigned char c)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != c)
			return 0;
	return 1;
}

static void
test_blocks(void)
{
	cmark_mem	*m = arena_begin(0);
	unsigned char	*a, *b, *c, *big;

	OK(m != NULL, "the arena is free");
	OK(arena_begin(0) == NULL, "one tree at a time");
	a = m->calloc(3, 7);
	OK(all(a, 21, 0), "calloc zeroes");
	OK(((uintptr_t)a & 15) == 0, "16-byte aligned");
	memset(a, 'a', 21);
	/* The last block grows in place. */
	b = m->realloc(a, 100);
	OK(b == a && all(b, 21, 'a'), "last block grows in place");
	c = m->calloc(1, 10);
	memset(b, 'b', 100);
	/* Not the last any more: moved, bytes kept. */
	a = m->realloc(b, 1000);
	OK(a != b && all(a, 100, 'b'), "an inner block moves, bytes kept");
	OK(m->realloc(a, 50) == a, "shrinking keeps the block");
	OK(((uintptr_t)c & 15) == 0 && all(c, 10, 0), "second block");
	/* Bigger than the first chunk (64 KB). */
	big = m->calloc(1, 300 * 1024);
	OK(big != NULL && all(big, 300 * 1024, 0), "a big block");
	big[300 * 1024 - 1] = 1;
	OK(m->realloc(NULL, 5) != NULL, "realloc(NULL) allocates");
	m->free(a);			/* a no-op; arena_end frees */
	arena_end();
	OK((m = arena_begin(0)) != NULL, "free again after arena_end");
	a = m->calloc(1, 32);
	arena_end();
	/* The chunk is kept: the next tree starts where this one did. */
	m = arena_begin(0);
	OK(m->calloc(1, 32) == a, "the kept chunk serves the next tree");
	arena_end();
	/* A bigger tree: a chunk of its own, contiguous blocks. */
	m = arena_begin(100 * 1024);
	a = m->calloc(1, 1000 * 1024);
	b = m->calloc(1, 16);
	OK(b == a + 1000 * 1024 + 16, "1 MB in the first chunk of a 100 KB "
	    "hint");
	arena_end();
}

static void *
thread_main(void *arg)
{
	cmark_mem	*m = arena_begin(0);
	char		*p;

	(void)arg;
	if (m == NULL)
		return "busy in a new thread";
	p = m->calloc(1, 64);
	strcpy(p, "mine");
	arena_end();
	return NULL;
}

static void
test_threads(void)
{
	pthread_t	 t;
	void		*rv = "not run";
	cmark_mem	*m = arena_begin(0);

	OK(m != NULL, "main thread takes its arena");
	if (pthread_create(&t, NULL, thread_main, NULL) == 0)
		pthread_join(t, &rv);
	OK(rv == NULL, "another thread has its own: %s",
	    rv ? (char *)rv : "ok");
	arena_end();
}

/*
 * Under ASan (make asan, the fuzz targets) a read one byte past a block
 * must still be caught, arena or not: a child reads it and must die.
 * Without ASan there is nothing to catch, and the check only runs the
 * child to its end.
 */
static void
test_overflow_caught(void)
{
	cmark_mem	*m;
	pid_t		 pid;
	int		 status = 0, asan = 0;

#if defined(__SANITIZE_ADDRESS__)
	asan = 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	asan = 1;
#endif
#endif
	if ((pid = fork()) == 0) {
		volatile unsigned char	*p;
		FILE			*null = fopen("/dev/null", "w");

		if (null != NULL)	/* ASan's report is expected */
			dup2(fileno(null), 2);
		m = arena_begin(0);
		p = m->calloc(1, 13);
		(void)p[13];		/* one past the 13 bytes asked */
		arena_end();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (asan)
		OK(!(WIFEXITED(status) && WEXITSTATUS(status) == 0),
		    "ASan catches a read past an arena block");
	else
		OK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "without ASan the read is harmless");
}

static const struct harness_test tests[] = {
	TEST(test_blocks),
	TEST(test_threads),
	TEST(test_overflow_caught),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
