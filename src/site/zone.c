/*
 * zone.c -- certificate zones (zone.h): the matching rule and the
 * Gemini answer.
 *
 * Matching is plain string work on the decoded path, so the router's
 * reading of the same path (empty segments aside, which it answers 51)
 * can never be below a zone that this reading missed.  What a
 * certificate is worth comes from the connection (struct zone_client).
 */
#include <string.h>

#include "core/config.h"
#include "site/response.h"
#include "site/zone.h"

/*
 * Is path prefix itself or below it?  prefix has no "//" (config.c
 * refuses it); a run of '/' in path is read as one.
 */
static int
under(const char *prefix, const char *path)
{
	for (; *prefix != '\0'; prefix++, path++) {
		if (*path != *prefix)
			return 0;
		if (*path == '/')
			while (path[1] == '/')
				path++;
	}
	return *path == '\0' || *path == '/';
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
		if (!under(z->path, path))
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
