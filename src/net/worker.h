/*
 * worker.h -- the server: one uv_loop per worker thread, each with its
 * own SO_REUSEPORT listeners, and the generation each worker serves
 * from (generation.h).
 *
 * Threads share only what is read-only after setup or published whole:
 * a generation, handed to each worker with an atomic exchange and
 * picked up on its own loop.
 */
#ifndef CAPSULED_WORKER_H
#define CAPSULED_WORKER_H

#include <stdatomic.h>
#include <uv.h>

#include "core/config.h"
#include "net/generation.h"
#include "site/router.h"

struct archive;
struct config;
struct limits;
struct tls_server;

#define WORKER_MAX_LISTEN	16
/* How long an access line may wait in its worker's buffer (log.h). */
#define WORKER_LOG_FLUSH_MS	100

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
	uv_timer_t	 logflush;	/* buffered access lines out */
	struct server	*srv;		/* borrowed, outlives the worker */
	struct listener	 listeners[WORKER_MAX_LISTEN];
	size_t		 nlisteners;
	struct gen	*gen;		/* one reference, loop thread only */
	_Atomic(struct gen *) pending;	/* one reference, set by main */
	atomic_int	 stopping;
	unsigned	 nconns;	/* open connections on this loop */
	unsigned	 maxconns;	/* this worker's share of the limit */
	int		 closing;	/* listeners closed, draining */
	char		 rbuf[65536];	/* alloc_cb buffer: copied at once */
};

struct server {
	/*
	 * What the listeners were bound with: bind addresses, ports and
	 * workers stay as they are until a restart.  Live values (timeouts,
	 * host name, the TLS context of new connections) come from the
	 * generation: conn's or the worker's gen, not these.
	 */
	struct settings		*boot;		/* one reference */
	const struct config	*cfg;		/* &boot->cfg */
	struct tls_server	*tls;		/* boot->tls; NULL: no Gemini */
	struct worker		*workers;	/* owned */
	int			 nworkers;
	struct limits		*limits;	/* borrowed; NULL: none */
};

/*
 * Bind every listener for every worker (so errors surface before any
 * thread runs), as g's settings say; every worker starts serving g.
 * Returns 0, or -1 with the reason logged.
 */
int	 server_bind(struct server *, struct gen *g);
/* Start the worker threads. */
int	 server_start(struct server *);
/*
 * Hand a new generation to every worker, taking one reference for each;
 * the caller keeps its own.
 */
void	 server_publish(struct server *, struct gen *);
/* Ask every worker to stop accepting and drain; then join them. */
void	 server_stop(struct server *);
void	 server_free(struct server *);

/* Worker side, on the loop thread. */
void	 conn_accept(struct listener *);	/* conn.c: a new client */
void	 conn_close_all(struct worker *);	/* conn.c: end of grace */
void	 worker_conn_done(struct worker *);	/* a connection was freed */
/* An access line was logged: see that it is written soon. */
void	 worker_logged(struct worker *);

#endif
