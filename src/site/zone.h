/*
 * zone.h -- certificate zones: which one a request falls in, and what
 * Gemini answers a client whose certificate it does not accept.
 *
 * A zone (core/config.h, "cert_zones") is a path prefix of one host or
 * of every host.  The decision needs facts only the connection has (is
 * there a certificate, its dates, does it chain to the zone's CA): they
 * come through struct zone_client, so this file knows neither OpenSSL
 * nor sockets.
 */
#ifndef CAPSULED_ZONE_H
#define CAPSULED_ZONE_H

#include <stddef.h>

struct config;
struct response;

/* What the connection says of the client's certificate, when asked. */
struct zone_client {
	/* SHA-256 hex of the certificate, or NULL when none was sent. */
	const char	*(*hash)(void *ctx);
	/* Its dates against now: 0 valid, -1 not yet valid, 1 expired. */
	int		(*dates)(void *ctx);
	/* 1 when it chains to the CA file of zone i of the configuration. */
	int		(*by_ca)(void *ctx, size_t i);
	void		*ctx;
};

/*
 * The zone of host (its configuration: its zones and name) that guards
 * what a request or a list names (site/access.h: its URL from the top of
 * the host, and for a file its name inside the capsule, or NULL) on site
 * (the view of the capsule it is in: host, or a user capsule of it), or
 * -1.  A zone guards its path and what
 * lies below it, segment by segment ("/family" holds "/family/x", not
 * "/familyx"), runs of '/' in the URL counting as one; and the files
 * its path names in the capsule, by whatever URL they are asked for
 * (with "root", files/ is served at "/" and at "/files/": a zone on
 * either holds the same file by both).  When zones nest, the longest
 * path wins; at equal length one naming the host wins over one for
 * every host.
 */
long		 zone_find(const struct config *host,
		    const struct config *site, const char *url,
		    const char *file);

/*
 * Whether the client may have what zone i guards: 0 (r untouched), or
 * -1 with r's status set: 60 without a certificate, 62 for one outside
 * its dates, 61 for one the zone lists nowhere (neither among its
 * fingerprints nor chaining to its CA).  A zone with neither takes any
 * certificate that is in its dates.
 */
int		 zone_check(const struct config *cfg, size_t i,
		    const struct zone_client *zc, struct response *r);

#endif
