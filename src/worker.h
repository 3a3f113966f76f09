/*
 * worker.h -- the server: one uv_loop per worker thread, each with its
 * own SO_REUSEPORT listeners, and the snapshot each worker serves from.
 *
 * Threads share only what is read-only after setup or published whole:
 * a generation (struct gen: the settings -- configuration and TLS
 * contexts -- plus one archive snapshot per host), handed to each worker with an
 * atomic exchange and picked up on its own loop.  A connection holds
 * the generation it was accepted under, and the newest one once its
 * request has arrived, so a reload never changes anything under a
 * request in flight; the last reference frees a generation.
 */
#ifndef CAPSULED_WORKER_H
#define CAPSULED_WORKER_H

#include <stdatomic.h>
#include <uv.h>

#include "config.h"
#include "gemini.h"
#include "router.h"

struct archive;
struct config;
struct limits;
struct tls_server;

#define WORKER_MAX_LISTEN	16
/* How long an access line may wait in its worker's buffer (log.h). */
#define WORKER_LOG_FLUSH_MS	100

/*
 * Configuration and TLS context as loaded together (at start, and on
 * SIGHUP); shared by the generations made from them.
 */
struct settings {
	atomic_uint		 refs;
	struct config		 cfg;		/* owned */
	struct tls_server	*tls;		/* owned; NULL: no Gemini */
	/*
	 * Each host as config_host_view() shows it ([0]: the top-level
	 * one, also Gopher's), and its name and port for the request
	 * parser.  The arrays are owned, every string in them is cfg's.
	 */
	struct config		*hosts;
	struct gemini_host	*ghosts;
	size_t			 nhosts;
};

/* What a worker serves with: one settings and a snapshot per host. */
struct gen {
	atomic_uint		 refs;
	struct settings		*set;		/* one reference */
	struct archive		**a;		/* owned array of set->nhosts,
						   one reference each */
	/*
	 * Who frees it after the last unref (a snapshot of 10,000 posts
	 * takes milliseconds to free: not a job for a worker between two
	 * requests); NULL: gen_free() there and then.
	 */
	void			(*reap)(struct gen *, void *);
	void			*reap_arg;
	struct gen		*next;		/* for whoever reaps */
};

/*
 * Take over *cfg (zeroed here) and tls; one reference, the caller's.
 * The last unref frees both.
 */
struct settings	*settings_new(struct config *cfg, struct tls_server *tls);
void		 settings_ref(struct settings *);
void		 settings_unref(struct settings *);	/* NULL: ignored */
/*
 * A new generation referencing set and a[0..set->nhosts) (a reference
 * to each is taken; the array is copied); one reference.
 */
struct gen	*gen_new(struct settings *set, struct archive **a);
void		 gen_ref(struct gen *);
void		 gen_unref(struct gen *);		/* NULL: ignored */
void		 gen_free(struct gen *);		/* for reapers */

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
