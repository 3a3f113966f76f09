/*
 * front.c -- what every front end asks alike (front.h): whose capsule
 * a request that reached one of our listeners is for.
 *
 * A surface listens on the top level's <name>_port, which every host
 * shares unless it sets its own, and on each port a host sets (config
 * "hosts"; core/config_keys.c refuses a port two surfaces would share,
 * or two hosts on a surface whose requests name no host).
 */
#include <string.h>

#include "core/config.h"
#include "proto/gemini.h"
#include "site/front.h"

int
front_host_at(const struct front_gen *g, enum surface s, int port)
{
	size_t	 i;

	/* Host 0 first: the hosts that share its port are not asked. */
	for (i = 0; i < g->nhosts; i++)
		if (g->hosts[i].port[s] == port)
			return (int)i;
	return -1;
}

int
front_serves(const struct front_gen *g, enum surface s, int port, int h)
{
	return h >= 0 && (size_t)h < g->nhosts && g->hosts[h].port[s] == port;
}

int
front_host(const struct front_gen *g, enum surface s, int port,
    const char *name)
{
	size_t	 i, len = strlen(name);

	if (len > 0 && name[len - 1] == '.')
		len--;			/* a fully qualified spelling */
	for (i = 0; i < g->nhosts; i++)
		if (strlen(g->ghosts[i].hostname) == len &&
		    strncmp(g->ghosts[i].hostname, name, len) == 0)
			return front_serves(g, s, port, (int)i) ? (int)i : -1;
	if (name[0] == '[' || strchr(name, ':') != NULL ||
	    strspn(name, "0123456789.") == len)
		return front_host_at(g, s, port);
	return -1;
}
