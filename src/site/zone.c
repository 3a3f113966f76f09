/*
 * zone.c -- certificate zones (zone.h): the matching rule and the
 * Gemini answer.
 *
 * A zone's path is a path rule (core/pathrule.h: a prefix segment by
 * segment, or a pattern with '*'), matched on the decoded path, so the router's
 * reading of the same path (empty segments aside, which it answers 51)
 * can never be below a zone that this reading missed; a path that may
 * name a file of a static tree is matched by the file's name in the
 * capsule too, so a second URL of the same file is no way around.  What a
 * certificate is worth comes from the connection (struct zone_client).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/capfile.h"
#include "core/config.h"
#include "core/pathrule.h"
#include "site/response.h"
#include "site/zone.h"

/* A tree's directory, "/" and a zone's path: room for the longest. */
#define ZONE_RULE_MAX	(PATH_MAX + CONFIG_MAX_ZONE_PATH + 2)

/*
 * The rest of path after the literal prefix that is the concatenation
 * of parts[0..n) ("" or from a '/') when path is that prefix or below
 * it, segment by segment; else NULL.  A run of '/' in path is read as
 * one.  Nothing is allocated: this runs for every zone on every
 * request that names a file.
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

/*
 * Does the path rule "/" dir text (a zone's path, maybe a pattern, read
 * in the tree dir) hold "/" file?  core/pathrule.c matches it, as it
 * matches the zone's URL: one grammar for both.  A rule or a file too
 * long for the buffers is held (a zone errs on the side of guarding).
 */
static int
holds(const char *dir, const char *text, const char *file)
{
	struct pathrule	 r;
	char		 rule[ZONE_RULE_MAX], path[ZONE_RULE_MAX];
	int		 n, m;

	n = snprintf(rule, sizeof(rule), "%s%s%s", *dir != '\0' ? "/" : "",
	    dir, text);
	m = snprintf(path, sizeof(path), "/%s", file);
	if (n < 0 || m < 0 || (size_t)n >= sizeof(rule) ||
	    (size_t)m >= sizeof(path))
		return 1;
	pathrule_compile(&r, rule, 0, NULL);
	return pathrule_match(&r, path, NULL);
}

/*
 * Does zone path zp (a URL path rule of the host) name a folder or file
 * of site's capsule that file lies in?  A zone guards what its path names
 * (docs/operating.md, "Certificate zones"): with "root", files/ is served
 * at "<mount>/files/" and the root tree at every other path outside the
 * mount, so "/club/" names <root>/club/ and "/files/club/" names
 * files/club/, whichever URL a request then takes to them.  A user
 * capsule's paths start with its base; a plain one (no layout) is one
 * tree at its "/", and any other has files/ at "/files/".  The literal
 * part of the path says which tree; a pattern's '*' after it matches in
 * that tree as in the URL.
 */
static int
names_file(const struct config *site, const char *zp, const char *file)
{
	const char	*rest, *mount, *parts[2];

	/* A mount is a base too (config.c), but of the pages only. */
	if (site->owned && site->base != NULL &&
	    (zp = rest_under(&site->base, 1, zp)) == NULL)
		return 0;		/* outside this capsule */
	mount = site->mount != NULL && !site->owned ? site->mount : "";
	parts[0] = mount;
	parts[1] = "/files";
	if ((rest = rest_under(parts, 2, zp)) != NULL &&
	    holds(CAPFILE_FILES, rest, file))
		return 1;
	if (site->owned)		/* a plain capsule: the whole tree */
		return holds("", zp, file);
	if (site->root == NULL || (*mount != '\0' &&
	    rest_under(&mount, 1, zp) != NULL))
		return 0;
	return holds(site->root, zp, file);
}

long
zone_find(const struct config *host, const struct config *site,
    const char *url, const char *file)
{
	const struct config_zone	*z;
	struct pathrule			 rule, best_rule;
	char				 text[ZONE_RULE_MAX];
	size_t				 i;
	long				 best = -1;

	for (i = 0; i < host->nzones; i++) {
		z = &host->zones[i];
		if (z->host != NULL && strcmp(z->host, host->hostname) != 0)
			continue;
		/* The zone's path as a rule (pathrule.h): the URL's grammar. */
		if ((size_t)snprintf(text, sizeof(text), "%s", z->path) >=
		    sizeof(text))
			continue;	/* config.c holds paths shorter */
		pathrule_compile(&rule, text, 0, z->host);
		if (!pathrule_match(&rule, url, NULL) && (file == NULL ||
		    !names_file(site, z->path, file)))
			continue;
		/* Nested zones: the one tie rule of every path rule. */
		if (best == -1 || pathrule_wins(&rule, i, &best_rule,
		    (size_t)best)) {
			best = (long)i;
			best_rule = rule;
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
