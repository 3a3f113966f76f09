/*
 * server.h -- the server: one uv_loop per worker thread (worker.h),
 * each with its own SO_REUSEPORT listeners, and the generation each
 * worker serves from (generation.h).
 *
 * Threads share only what is read-only after setup or published whole:
 * a generation, handed to each worker with an atomic exchange and
 * picked up on its own loop.  The main thread calls every function
 * here; the workers' loops run the rest.
 */
#ifndef CAPSULED_SERVER_H
#define CAPSULED_SERVER_H

struct config;
struct gen;
struct limits;
struct settings;
struct tls_server;
struct worker;

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
	struct limits		*limits;	/* borrowed; NULL: none; set
						   before server_start() */
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

#endif
