/*
 * generation.c -- reference counting of settings and generations
 * (generation.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/userdir.h"
#include "core/util.h"
#include "net/generation.h"
#include "net/tlsconn.h"
#include "site/site.h"

struct settings *
settings_new(struct config *cfg, struct tls_server *tls)
{
	struct settings	*set;
	size_t		 i;

	set = xcalloc(1, sizeof(*set));
	atomic_init(&set->refs, 1);
	set->cfg = *cfg;
	memset(cfg, 0, sizeof(*cfg));
	set->tls = tls;
	set->nhosts = config_nhosts(&set->cfg);
	if (set->cfg.userdirs != NULL) {
		set->nusers = userdir_find(set->cfg.userdirs,
		    set->cfg.userdirs_uid_min, set->cfg.userdirs_uid_max,
		    &set->users);
		log_info("userdirs: %zu user(s) publish ~/%s", set->nusers,
		    set->cfg.userdirs);
	}
	set->nsites = set->nhosts + set->nusers;
	set->hosts = xreallocarray(NULL, set->nsites, sizeof(*set->hosts));
	set->ghosts = xreallocarray(NULL, set->nhosts, sizeof(*set->ghosts));
	for (i = 0; i < set->nhosts; i++) {
		config_host_view(&set->cfg, i, &set->hosts[i]);
		set->ghosts[i].hostname = set->hosts[i].hostname;
		set->ghosts[i].port = set->hosts[i].port[SURFACE_GEMINI];
		/* A host behind another forward may have its own. */
		set->ghosts[i].public_port =
		    set->hosts[i].public_port[SURFACE_GEMINI];
	}
	set->ubase = xcalloc(set->nusers + 1, sizeof(*set->ubase));
	for (i = 0; i < set->nusers; i++) {
		set->ubase[i] = layout_path(LAYOUT_USER, set->users[i].name,
		    NULL);
		/*
		 * User capsules are the top-level host's (docs/operating.md,
		 * "User capsules").
		 */
		config_user_view(&set->hosts[0], set->users[i].dir,
		    set->users[i].uid, set->users[i].name, set->ubase[i],
		    &set->hosts[set->nhosts + i]);
	}
	return set;
}

void
settings_ref(struct settings *set)
{
	atomic_fetch_add(&set->refs, 1);
}

void
settings_unref(struct settings *set)
{
	size_t	 i;

	if (set == NULL || atomic_fetch_sub(&set->refs, 1) != 1)
		return;
	tls_server_free(set->tls);
	for (i = 0; i < set->nusers; i++)
		free(set->ubase[i]);
	free(set->ubase);
	userdir_free(set->users, set->nusers);
	free(set->hosts);
	free(set->ghosts);
	config_free(&set->cfg);
	free(set);
}

struct gen *
gen_new(struct settings *set, struct site **sites)
{
	struct gen	*g;
	size_t		 i;

	g = xcalloc(1, sizeof(*g));
	atomic_init(&g->refs, 1);
	settings_ref(set);
	g->set = set;
	g->sites = xreallocarray(NULL, set->nsites, sizeof(*g->sites));
	for (i = 0; i < set->nsites; i++) {
		site_ref(sites[i]);
		g->sites[i] = sites[i];
	}
	g->users.n = set->nusers;
	g->users.cfgs = set->hosts + set->nhosts;
	g->users.sites = g->sites + set->nhosts;
	return g;
}

void
gen_ref(struct gen *g)
{
	atomic_fetch_add(&g->refs, 1);
}

void
gen_free(struct gen *g)
{
	size_t	 i;

	for (i = 0; i < g->set->nsites; i++)
		site_unref(g->sites[i]);
	free(g->sites);
	settings_unref(g->set);
	free(g);
}

void
gen_unref(struct gen *g)
{
	if (g == NULL || atomic_fetch_sub(&g->refs, 1) != 1)
		return;
	if (g->reap != NULL)
		g->reap(g, g->reap_arg);
	else
		gen_free(g);
}
