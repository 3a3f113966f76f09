/*
 * par.h -- one job of many independent items, spread over a few threads.
 *
 * Start-up work that grows with the number of capsules (a thousand
 * hosts' certificates and capsules) is independent item by item: each
 * thread takes the next item until none is left.  The caller's thread
 * is one of them, so one thread means no thread at all.
 *
 * Knows libuv's threads; nothing of what the items are.
 */
#ifndef CAPSULED_PAR_H
#define CAPSULED_PAR_H

#include <stddef.h>

typedef void	(*par_fn)(size_t i, void *arg);

/*
 * fn(i, arg) for each i in [0, n), on up to nthreads threads (the
 * caller's among them); returns once every call has.  fn must be safe
 * to run on several threads at once.  A thread that cannot be started
 * leaves its share to the others.
 */
void		 par_run(size_t n, unsigned nthreads, par_fn fn, void *arg);
/* Threads worth running: the CPUs this process may use, at most max. */
unsigned	 par_threads(unsigned max);

#endif
