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
#include <string.h>

#include "core/config.h"
#include "site/response.h"
#include "site/zone.h"

/*
 * The rest of path after the prefix that is the concatenation of
 * parts[0..n) ("" or from a '/') when path is that prefix or below it,
 * segment by segment; else NULL.  The parts have no "//" (config.c
 * refuses it in a zone's path, and the trees' names have none); a run
 * of '/' in path is read as one.  Nothing is allocated: this runs for
 * every zone on every request.
 */
static const char *
rest_under(const char *const *parts, size_t n, const char *path)
{
	const char	*p;
	size_t		 i;

	for (i = 0; i < n; i++)
		for (p = parts[i]; *p != '\0'; p++, path++) {
			if (*path != *p)
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
	return rest_under(&prefix, 1, path) != NULL;
}

/*
 * Does zone path zp (a URL path of the host) name a folder or file of
 * site's capsule that file lies in?  A zone guards what its path names
 * (README.md, "Certificate zones"): with "root", files/ is served at
 * "<mount>/files/" and the root tree at every other path outside the
 * mount, so "/club/" names <root>/club/ and "/files/club/" names
 * files/club/, whichever URL a request then takes to them.  A user
 * capsule's paths start with its base; a plain one (no layout) is one
 * tree at its "/", and any other has files/ at "/files/".
 */
static int
names_file(const struct config *site, const char *zp, const char *file)
{
	const char	*rest, *mount, *parts[3];

	/* A mount is a base too (config.c), but of the pages only. */
	if (site->owned && site->base != NULL &&
	    (zp = rest_under(&site->base, 1, zp)) == NULL)
		return 0;		/* outside this capsule */
	mount = site->mount != NULL && !site->owned ? site->mount : "";
	parts[0] = mount;
	parts[1] = "/files";
	if ((rest = rest_under(parts, 2, zp)) != NULL) {
		parts[0] = "files";
		parts[1] = rest;
		if (rest_under(parts, 2, file) != NULL)
			return 1;
	}
	if (site->owned) {		/* a plain capsule: the whole tree */
		if (*zp == '\0')
			return 1;
		return under(zp + 1, file);
	}
	if (site->root == NULL || (*mount != '\0' && under(mount, zp)))
		return 0;
	parts[0] = site->root;
	parts[1] = zp;
	return rest_under(parts, 2, file) != NULL;
}

long
zone_find(const struct config *host, const struct config *site,
    const char *url, const char *file)
{
	const struct config_zone	*z;
	size_t				 i, len, best_len = 0;
	long				 best = -1;
	int				 best_host = 0;

	for (i = 0; i < host->nzones; i++) {
		z = &host->zones[i];
		if (z->host != NULL && strcmp(z->host, host->hostname) != 0)
			continue;
		if (!under(z->path, url) && (file == NULL ||
		    !names_file(site, z->path, file)))
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
