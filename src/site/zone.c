/*
 * zone.c -- certificate zones (zone.h): the matching rule and the
 * Gemini answer.
 *
 * Matching is plain string work on the decoded path, so the router's
 * reading of the same path (empty segments aside, which it answers 51)
 * can never be below a zone that this reading missed; a path that may
 * name a file of a static tree is matched by the file's name in the
 * capsule too, so a second URL of the same file is no way around.  What a
 * certificate is worth comes from the connection (struct zone_client).
 */
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/util.h"
#include "site/response.h"
#include "site/zone.h"

/*
 * The rest of path after prefix when path is prefix itself or below it
 * ("" or from a '/'), else NULL.  prefix has no "//" (config.c refuses
 * it); a run of '/' in path is read as one.
 */
static const char *
rest_under(const char *prefix, const char *path)
{
	for (; *prefix != '\0'; prefix++, path++) {
		if (*path != *prefix)
			return NULL;
		if (*path == '/')
			while (path[1] == '/')
				path++;
	}
	return *path == '\0' || *path == '/' ? path : NULL;
}

static int
under(const char *prefix, const char *path)
{
	return rest_under(prefix, path) != NULL;
}

/*
 * The files a URL path may be served from, named inside the capsule:
 * one file can have two URLs ("root: files" serves files/ at "/" and
 * still at "/files/"), and a zone guards the file whichever URL reached
 * it.  Up to two names, malloc'd into ids; the count.  The router
 * (site/router.c) serves files/ at "<mount>/files/", and the root tree
 * at every other path (with a mount, every path outside it) that the
 * generated pages leave unanswered; both are named, since which one
 * answers is decided later, by what is on disk.  A user capsule's view
 * has neither root nor mount of its own: its one tree has one URL.
 */
static size_t
file_ids(const struct config *cfg, const char *path, char *ids[2])
{
	const char	*files = cfg->mount != NULL ? cfg->mount : "";
	const char	*rest;
	char		*prefix;
	size_t		 n = 0;

	if (cfg->owned)
		return 0;
	prefix = xasprintf("%s/files", files);
	if ((rest = rest_under(prefix, path)) != NULL)
		ids[n++] = xasprintf("files%s", rest);
	free(prefix);
	if (cfg->root != NULL && (cfg->mount == NULL ||
	    !under(cfg->mount, path)))
		ids[n++] = xasprintf("%s%s", cfg->root, path);
	return n;
}

/* Does zone z guard path, by its URL or by a file the URL may name? */
static int
guards(const struct config *cfg, const struct config_zone *z,
    const char *path)
{
	char	*zids[2], *pids[2];
	size_t	 nz, np, i, k;
	int	 hit;

	if (under(z->path, path))
		return 1;
	if ((np = file_ids(cfg, path, pids)) == 0)
		return 0;
	nz = file_ids(cfg, z->path, zids);
	for (hit = 0, i = 0; i < nz; i++)
		for (k = 0; k < np; k++)
			hit |= under(zids[i], pids[k]);
	for (i = 0; i < nz; i++)
		free(zids[i]);
	for (k = 0; k < np; k++)
		free(pids[k]);
	return hit;
}

long
zone_find(const struct config *cfg, const char *hostname, const char *path)
{
	const struct config_zone	*z;
	size_t				 i, len, best_len = 0;
	long				 best = -1;
	int				 best_host = 0;

	for (i = 0; i < cfg->nzones; i++) {
		z = &cfg->zones[i];
		if (z->host != NULL && strcmp(z->host, hostname) != 0)
			continue;
		if (!guards(cfg, z, path))
			continue;
		len = strlen(z->path);
		if (best == -1 || len > best_len || (len == best_len &&
		    z->host != NULL && !best_host)) {
			best = (long)i;
			best_len = len;
			best_host = z->host != NULL;
		}
	}
	return best;
}

int
zone_check(const struct config *cfg, size_t i, const struct zone_client *zc,
    struct response *r)
{
	const struct config_zone	*z = &cfg->zones[i];
	const char			*hash;
	size_t				 k;
	int				 dates;

	if ((hash = zc->hash(zc->ctx)) == NULL) {
		response_status(r, 60, "A client certificate is required here");
		return -1;
	}
	if ((dates = zc->dates(zc->ctx)) != 0) {
		response_status(r, 62, "%s", dates > 0 ?
		    "Certificate expired" : "Certificate not yet valid");
		return -1;
	}
	if (z->nfingerprints == 0 && z->ca == NULL)
		return 0;
	for (k = 0; k < z->nfingerprints; k++)
		if (strcmp(z->fingerprints[k], hash) == 0)
			return 0;
	if (z->ca != NULL && zc->by_ca(zc->ctx, i))
		return 0;
	response_status(r, 61, "This certificate is not allowed here");
	return -1;
}
