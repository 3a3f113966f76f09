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
 * A change in one capsule costs one capsule: each capsule directory
 * served has an entry (struct capsule: its watch and a dirty mark), the
 * watch marks its own, and a content build loads only the marked
 * capsules (each reusing every unchanged file of the snapshot it
 * replaces: archive_reload()), checks their links and makes each a new
 * site (site/site.h); every other host keeps its site, caches and all.
 * A SIGHUP builds every host (each still reusing the unchanged files of
 * the snapshot that host and capsule are served from).  Then the main
 * loop publishes the result to the workers, which swap it in between
 * requests.  A capsule that cannot be read keeps its old site; a host
 * new in the configuration whose capsule cannot be read refuses that
 * configuration.
 *
 * The marks are kept by capsule directory, not by host: hosts may share
 * a directory (each is built again), and capsules that are not hosts
 * can be entries too.
 *
 * A configuration that does not load is refused, its file:line:col
 * error logged, and the running one keeps serving (the content is still
 * reloaded).  Bind addresses, ports, workers, user and chroot cannot
 * change under open listeners: a change to them is logged as needing a
 * restart, and the running values are kept in the new configuration.
 *
 * Knows libuv (a thread, an async handle), the configuration, TLS
 * contexts, the archive, sites and the server.  A struct reload owns
 * one reference to the current settings and to each host's site, the
 * capsule entries and their watches, the loader thread and a timer
 * that has a fleet's ticket key file read again when it changes
 * (ticket_refresh()).  Its functions are for the main loop's thread
 * only, but for the loading ones, which start-up and --check use too.
 */
#ifndef CAPSULED_RELOAD_H
#define CAPSULED_RELOAD_H

#include <stdint.h>
#include <uv.h>

struct announcer;
struct config;
struct server;
struct settings;
struct site;
struct watch;
struct reload;

/*
 * A capsule directory served, its watch, and whether it changed since
 * its site was built.  The main loop writes dirty; the loader reads
 * dir, w, hosts and building during a build, which the main loop
 * changes only while none runs.
 */
struct capsule {
	struct reload	*r;
	char		*dir;		/* owned, as the configuration says */
	struct watch	*w;		/* NULL: not watched */
	size_t		*hosts;		/* owned: the hosts and user
					   capsules (r->set's indices)
					   served from dir */
	size_t		 nhosts;
	int		 dirty;		/* changed; in r->dirty */
	int		 building;	/* in the build in flight (jobcaps) */
};

struct reload {
	uv_loop_t	*loop;
	struct server	*srv;		/* borrowed, outlives this */
	struct settings	*set;		/* current; one reference */
	struct site	**sites;	/* current: owned array of
					   set->nsites, one reference each */
	struct capsule	**caps;		/* owned: one per capsule dir */
	size_t		 ncaps;
	struct capsule	**dirty;	/* owned array: the marked ones */
	size_t		 ndirty, capdirty;
	int		 busy;		/* a build is running */
	int		 again;		/* and another was asked for */
	int		 want_config;	/* the next build reads the config */
	int		 stopping;
	unsigned long	 nbuilds;	/* finished */
	unsigned long	 nsites_built;	/* sites those made */
	uv_timer_t	 tickets;	/* looks for a new ticket key file */
	struct announcer *announce;	/* owned: tells aggregators of the
					   posts a build made live */

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
	struct capsule	**jobcaps;	/* the capsules to build (unless
					   job_config: all); owned array */
	size_t		 njob, capjob;
	struct settings	*newset;
	struct site	**newsites;	/* owned array, a reference each */
	size_t		 nnewsites;	/* (newset or set)->nsites */
	uint64_t	 build_ns;
	char		 err[1024];
};

/*
 * Serve set and sites[0..set->nsites) (a reference to each is taken)
 * and start watching, as set's configuration says.  The generations it
 * publishes are freed on the loader thread, so reload_free() comes
 * after server_free().
 */
void	 reload_init(struct reload *, uv_loop_t *, struct server *,
	    struct settings *set, struct site **sites);
/*
 * Have the loader free g too: the first generation, made before r.
 * Before the workers start.
 */
void	 reload_adopt(struct reload *, struct gen *g);
/*
 * The TLS contexts for every host of c: its certificate directory's
 * pair, made there when absent.  NULL with err filled on failure.
 */
struct tls_server *reload_certs(const struct config *c, char *err,
	    size_t errlen);
/*
 * Host h's site: its capsule loaded (sharing every unchanged file with
 * prev's snapshot; prev may be NULL: archive_reload()), then its links
 * checked (links_check(): logged, and counted in the warnings).  NULL
 * when the capsule cannot be read (logged).  Any thread.
 */
struct site	*reload_site(const struct config *h, const struct site *prev);
/*
 * A site for each of set's hosts (reload_site()), each sharing the
 * files of the site old serves the same host and capsule with (old is
 * oldset's array; NULL at start-up, when each host's figures are logged
 * as it loads).  A capsule that cannot be read keeps old's site; NULL,
 * with err filled (the reason is logged already), when there is none.
 * An owned array of set->nsites, a reference each.  Any thread.
 */
struct site	**reload_sites(const struct settings *set,
	    const struct settings *oldset, struct site *const *old,
	    char *err, size_t errlen);
void		 reload_sites_free(struct site **sites, size_t n);
/*
 * Ask for a build; config: read the configuration and certificates
 * (and every capsule), else every capsule's content.
 */
void	 reload_request(struct reload *, int config);
/* Ask for a build of the capsule in dir (and only of it). */
void	 reload_changed(struct reload *, const char *dir);
/*
 * No more builds: one in flight is waited for (a fraction of a second)
 * and dropped, the loader thread joined, the handles closed.
 */
void	 reload_stop(struct reload *);
/* After the loop has run out: drop the references. */
void	 reload_free(struct reload *);

#endif
