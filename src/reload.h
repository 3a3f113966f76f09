/*
 * reload.h -- the next generation, built off the loops and published.
 *
 * A change in the content (watch.c) or a SIGHUP (which also reads the
 * configuration and the certificates again) asks for a build.  One
 * build runs at a time, on a loader thread of its own (never on a
 * worker's or the main loop's thread, nor on libuv's pool, which
 * streams files for the workers): a request while one runs makes
 * exactly one more after it.  One thread also keeps every snapshot in
 * one malloc arena, so memory settles instead of spreading over four.
 * A build reuses every unchanged file of the snapshot being served
 * (archive_reload()), then the main loop publishes the result to the
 * workers, which swap it in between requests.
 *
 * A configuration that does not load is refused, its file:line:col
 * error logged, and the running one keeps serving (the content is still
 * reloaded).  Bind addresses, ports, workers, user and chroot cannot
 * change under open listeners: a change to them is logged as needing a
 * restart, and the running values are kept in the new configuration.
 *
 * Knows libuv (a thread, an async handle), the configuration, TLS
 * contexts, the archive and the server.  A struct reload owns one
 * reference to the current settings and snapshot, the watch and the
 * loader thread.  Its functions are for the main loop's thread only.
 */
#ifndef CAPSULED_RELOAD_H
#define CAPSULED_RELOAD_H

#include <stdint.h>
#include <uv.h>

struct archive;
struct server;
struct settings;
struct watch;

struct reload {
	uv_loop_t	*loop;
	struct server	*srv;		/* borrowed, outlives this */
	struct settings	*set;		/* current; one reference */
	struct archive	*a;		/* current; one reference */
	struct watch	*watch;		/* or NULL (config "watch: false") */
	int		 busy;		/* a build is running */
	int		 again;		/* and another was asked for */
	int		 want_config;	/* the next build reads the config */
	int		 stopping;
	unsigned long	 nbuilds;	/* finished */

	/* The loader thread and its hand-over, under mtx. */
	uv_thread_t	 thread;
	uv_mutex_t	 mtx;
	uv_cond_t	 cond;
	uv_async_t	 done;		/* loader -> main loop: built */
	int		 job;		/* a build is asked for */
	int		 finished;	/* and is done */
	int		 quit;
	struct gen	*graves;	/* generations for the loader to free */

	/* The build in flight: the loader writes, then the loop reads. */
	int		 job_config;
	struct settings	*newset;
	struct archive	*newa;
	uint64_t	 build_ns;
	char		 err[1024];
};

/*
 * Serve set and a (a reference to each is taken) and start watching,
 * as set's configuration says.  The generations it publishes are freed
 * on the loader thread, so reload_free() comes after server_free().
 */
void	 reload_init(struct reload *, uv_loop_t *, struct server *,
	    struct settings *set, struct archive *a);
/*
 * Have the loader free g too: the first generation, made before r.
 * Before the workers start.
 */
void	 reload_adopt(struct reload *, struct gen *g);
/* Ask for a build; config: read the configuration and certificates. */
void	 reload_request(struct reload *, int config);
/*
 * No more builds: one in flight is waited for (a fraction of a second)
 * and dropped, the loader thread joined, the handles closed.
 */
void	 reload_stop(struct reload *);
/* After the loop has run out: drop the references. */
void	 reload_free(struct reload *);

#endif
