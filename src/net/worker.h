/*
 * worker.h -- one worker: its uv_loop, its listeners and the generation
 * it serves from, as the connections on that loop see them.
 *
 * The server (server.h) makes the workers, runs each on its own thread
 * and stops them; conn.c accepts on a worker's listeners and tells the
 * worker when a connection is gone (worker_conn_done()) or has logged a
 * line (worker_logged()).  Every field is used on the worker's own
 * loop thread only, except `pending` and `stopping`, which the main
 * thread sets (server_publish(), server_stop()).
 */
#ifndef CAPSULED_WORKER_H
#define CAPSULED_WORKER_H

#include <stdatomic.h>
#include <uv.h>

#include "core/surface.h"

struct gen;
struct limits;
struct server;

#define WORKER_MAX_LISTEN	128	/* addresses x surfaces' ports */
/* How long an access line may wait in its worker's buffer (log.h). */
#define WORKER_LOG_FLUSH_MS	100

struct listener {
	uv_tcp_t	 tcp;
	enum surface	 surface;
	int		 port;		/* says whose capsule (site/front.h) */
	struct worker	*w;
};

struct worker {
	int		 id;
	uv_loop_t	 loop;
	uv_thread_t	 thread;
	uv_async_t	 wake;		/* stop, or a generation is pending */
	uv_timer_t	 grace;		/* bounds the drain on shutdown */
	uv_timer_t	 logflush;	/* buffered access lines out */
	struct server	*srv;		/* borrowed, outlives the worker */
	struct limits	*limits;	/* borrowed: srv->limits, set before
					   the thread starts; NULL: none */
	struct listener	 listeners[WORKER_MAX_LISTEN];
	size_t		 nlisteners;
	struct gen	*gen;		/* one reference, loop thread only */
	_Atomic(struct gen *) pending;	/* one reference, set by main */
	atomic_int	 stopping;
	unsigned	 nconns;	/* open connections on this loop */
	unsigned	 maxconns;	/* this worker's share of the limit */
	unsigned	 ncgi;		/* CGI programs running (conn.c) */
	int		 closing;	/* listeners closed, draining */
	char		 rbuf[65536];	/* alloc_cb buffer: copied at once */
};

/*
 * Close the worker's own handles (wake, grace, logflush), flushing the
 * access log first: once its connections and listeners are closed too,
 * the loop ends.  Idempotent.
 */
void	 worker_finish(struct worker *);
/* A connection was freed; the last one of a closing worker finishes it. */
void	 worker_conn_done(struct worker *);
/* An access line was logged: see that it is written soon. */
void	 worker_logged(struct worker *);

#endif
