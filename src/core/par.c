/*
 * par.c -- items over a few threads (see par.h): each takes the next
 * index from one atomic counter, so a slow item holds up no other.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <uv.h>

#include "core/par.h"

struct par {
	atomic_size_t	 next;
	size_t		 n;
	par_fn		 fn;
	void		*arg;
};

static void
take(void *arg)
{
	struct par	*p = arg;
	size_t		 i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->n)
		p->fn(i, p->arg);
}

void
par_run(size_t n, unsigned nthreads, par_fn fn, void *arg)
{
	struct par	 p;
	uv_thread_t	*t;
	unsigned	 k, started = 0;

	atomic_init(&p.next, 0);
	p.n = n;
	p.fn = fn;
	p.arg = arg;
	if (nthreads > n)
		nthreads = (unsigned)n;
	t = nthreads > 1 ? calloc(nthreads - 1, sizeof(*t)) : NULL;
	for (k = 0; t != NULL && k < nthreads - 1; k++)
		if (uv_thread_create(&t[started], take, &p) == 0)
			started++;
	take(&p);
	for (k = 0; k < started; k++)
		uv_thread_join(&t[k]);
	free(t);
}

unsigned
par_threads(unsigned max)
{
	unsigned	 n = uv_available_parallelism();	/* >= 1 */

	return n < max ? n : max;
}
