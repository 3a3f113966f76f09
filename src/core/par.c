/*
 * par.c -- items over a few threads (see par.h): each takes the next
 * index from one atomic counter, so a slow item holds up no other.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/par.h"

struct par {
	atomic_size_t	 next;
	size_t		 n;
	par_fn		 fn;
	void		*arg;
};

static void *
take(void *arg)
{
	struct par	*p = arg;
	size_t		 i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->n)
		p->fn(i, p->arg);
	return NULL;
}

void
par_run(size_t n, unsigned nthreads, par_fn fn, void *arg)
{
	struct par	 p;
	pthread_t	*t;
	unsigned	 k, started = 0;

	atomic_init(&p.next, 0);
	p.n = n;
	p.fn = fn;
	p.arg = arg;
	if (nthreads > n)
		nthreads = (unsigned)n;
	t = nthreads > 1 ? calloc(nthreads - 1, sizeof(*t)) : NULL;
	for (k = 0; t != NULL && k < nthreads - 1; k++)
		if (pthread_create(&t[started], NULL, take, &p) == 0)
			started++;
	take(&p);
	for (k = 0; k < started; k++)
		pthread_join(t[k], NULL);
	free(t);
}

unsigned
par_threads(unsigned max)
{
	cpu_set_t	 set;
	int		 n = 1;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
	if (n < 1)
		n = 1;
	return (unsigned)n < max ? (unsigned)n : max;
}
