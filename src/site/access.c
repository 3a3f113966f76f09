/*
 * access.c -- who may read what (access.h): the one place every
 * request and every list asks.
 *
 * Certificate zones (zone.h) are the one rule there is; a rule to come
 * (an address list, a robots rule for a surface) is one more step in
 * access_rule() and access_admit().
 */
#include <stddef.h>
#include <stdlib.h>

#include "core/config.h"
#include "core/util.h"
#include "site/access.h"
#include "site/response.h"
#include "site/zone.h"

long
access_rule(const struct config *host, const struct config *site,
    const struct ident *id)
{
	if (!access_any(host))
		return -1;
	return zone_find(host, site, id->url, id->file);
}

int
access_admit(const struct config *host, const struct config *site,
    const struct ident *id, const struct zone_client *client,
    struct response *r)
{
	long	 z;

	if ((z = access_rule(host, site, id)) == -1)
		return 0;
	/* A surface without client certificates says where to go. */
	if (client == NULL) {
		response_status(r, 60, "This area needs a client certificate: "
		    "visit it over Gemini");
		return -1;
	}
	return zone_check(host, (size_t)z, client, r);
}

int
access_public(const struct config *host, const struct config *site,
    const struct ident *id)
{
	return access_rule(host, site, id) == -1;
}

int
access_any(const struct config *host)
{
	return host->nzones > 0;
}

int
access_unlisted(void *arg, const char *url)
{
	const struct access_view *v = arg;
	struct ident		 id;
	char			*full;
	int			 guarded;

	if (!access_any(v->host))
		return 0;
	full = xasprintf("%s%s", v->site->base != NULL ? v->site->base : "",
	    url);
	id.url = full;
	id.file = NULL;
	guarded = access_rule(v->host, v->site, &id) != -1;
	free(full);
	return guarded;
}
