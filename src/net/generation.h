/*
 * generation.h -- what the server answers from at one moment: the
 * settings (configuration and TLS context, loaded together at start and
 * on SIGHUP) and one site (site/site.h: a content snapshot and its
 * caches) per host.
 *
 * The application layer (src/app/reload.c) builds generations; the
 * network layer serves from them.  The type lives here, with its
 * consumer, so that the network layer needs nothing from the layer
 * above it (docs/design.md, "Layers").  Threads share a generation only
 * whole: it is handed to each worker with an atomic exchange and picked
 * up on the worker's own loop.  A connection holds the generation it was
 * accepted under, and the newest one once its request has arrived, so a
 * reload never changes anything under a request in flight; the last
 * reference frees a generation.
 */
#ifndef CAPSULED_GENERATION_H
#define CAPSULED_GENERATION_H

#include <stdatomic.h>
#include <stddef.h>

#include "core/config.h"
#include "proto/gemini.h"
#include "site/router.h"

struct site;
struct tls_server;

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
	/*
	 * "userdirs": the users who publish (core/userdir.h), found when
	 * the settings are made (start, SIGHUP), sorted by name.  Their
	 * capsules' views follow the hosts' in hosts[nhosts..nsites),
	 * each with base "/~name" (ubase[i], owned) and the owner's UID.
	 * Everything that makes a site per capsule goes to nsites;
	 * whatever is about host names stops at nhosts.
	 */
	struct userdir		*users;		/* owned */
	char			**ubase;	/* owned */
	size_t			 nusers;
	size_t			 nsites;
};

/*
 * What a worker serves with: one settings and a site per host, then one
 * per user capsule.
 */
struct gen {
	atomic_uint		 refs;
	struct settings		*set;		/* one reference */
	struct site		**sites;	/* owned array of set->nsites,
						   one reference each */
	/* The user capsules, for the top-level host's router. */
	struct router_users	 users;
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
 * The last unref frees both.  With "userdirs", the users who publish
 * are looked up here: at start and on each SIGHUP.
 */
struct settings	*settings_new(struct config *cfg, struct tls_server *tls);
void		 settings_ref(struct settings *);
void		 settings_unref(struct settings *);	/* NULL: ignored */
/*
 * A new generation referencing set and sites[0..set->nsites) (a
 * reference to each is taken; the array is copied); one reference.
 */
struct gen	*gen_new(struct settings *set, struct site **sites);
void		 gen_ref(struct gen *);
void		 gen_unref(struct gen *);		/* NULL: ignored */
void		 gen_free(struct gen *);		/* for reapers */

#endif
