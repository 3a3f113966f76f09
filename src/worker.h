/*
 * worker.h -- the server: one uv_loop per worker thread, each with its
 * own SO_REUSEPORT listeners, and the snapshot each worker serves from.
 *
 * Threads share only what is read-only after setup (the config, the TLS
 * server context) or published whole (archive snapshots, handed to each
 * worker with an atomic exchange and picked up on its own loop).
 */
#ifndef CAPSULED_WORKER_H
#define CAPSULED_WORKER_H

#include <stdatomic.h>
#include <uv.h>

#include "router.h"

struct archive;
struct config;
struct tls_server;

#define WORKER_MAX_LISTEN	16

struct listener {
	uv_tcp_t	 tcp;
	enum proto	 proto;
	struct worker	*w;
};

struct worker {
	int		 id;
	uv_loop_t	 loop;
	uv_thread_t	 thread;
	uv_async_t	 wake;		/* stop, or a new snapshot is pending */
	uv_timer_t	 grace;		/* bounds the drain on shutdown */
	struct server	*srv;		/* borrowed, outlives the worker */
	struct listener	 listeners[WORKER_MAX_LISTEN];
	size_t		 nlisteners;
	struct archive	*snap;		/* one reference, loop thread only */
	_Atomic(struct archive *) pending; /* one reference, set by main */
	atomic_int	 stopping;
	unsigned	 nconns;	/* open connections on this loop */
	unsigned	 maxconns;	/* this worker's share of the limit */
	int		 closing;	/* listeners closed, draining */
	char		 rbuf[65536];	/* alloc_cb buffer: copied at once */
};

struct server {
	const struct config	*cfg;		/* borrowed */
	struct tls_server	*tls;		/* borrowed; NULL: no Gemini */
	struct worker		*workers;	/* owned */
	int			 nworkers;
};

/*
 * Bind every listener for every worker (so errors surface before any
 * thread runs).  Returns 0, or -1 with the reason logged.
 */
int	 server_bind(struct server *, const struct config *,
	    struct tls_server *, struct archive *);
/* Start the worker threads. */
int	 server_start(struct server *);
/* Hand a new snapshot to every worker; takes one reference per worker. */
void	 server_publish(struct server *, struct archive *);
/* Ask every worker to stop accepting and drain; then join them. */
void	 server_stop(struct server *);
void	 server_free(struct server *);

/* Worker side, on the loop thread. */
void	 conn_accept(struct listener *);	/* conn.c: a new client */
void	 conn_close_all(struct worker *);	/* conn.c: end of grace */
void	 worker_conn_done(struct worker *);	/* a connection was freed */

#endif
