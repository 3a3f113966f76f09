/*
 * access.h -- who may read what: every access rule of a host (its
 * certificate zones, site/zone.h, today), decided in one place on what
 * a request names.
 *
 * The router (router.c) resolves each request once into a resource and
 * asks access_admit() before it serves anything, for every surface
 * alike; the lists that name resources (navigation pages, feeds, search
 * results, listings) ask access_public(), so that nothing a rule guards
 * is shown to a reader who could not open it.  A rule guards what a
 * resource is, not only the URL it was asked by: a file of the capsule
 * has one name inside it (its identity) whatever URL reached it.
 * Knows the configuration's rules and the URL layout's trees; nothing of
 * sockets or certificates' bytes (struct zone_client says what the
 * connection knows).
 */
#ifndef CAPSULED_ACCESS_H
#define CAPSULED_ACCESS_H

struct config;
struct response;
struct zone_client;

/* What a request or a list names, as access rules see it. */
struct ident {
	/*
	 * The URL path from the top of the host, percent-decoded: the
	 * base of a user capsule and a mount included ("/~ann/posts/x").
	 */
	const char	*url;
	/*
	 * For a file of the capsule (a static tree's, a page bundle's):
	 * its name inside the capsule ("files/club/a.txt"), whatever URL
	 * reached it; NULL for a generated page.
	 */
	const char	*file;
};

/*
 * The rule of host (the configuration whose rules apply: a host, or
 * the host of a user capsule) that guards id on the site site (the
 * view whose trees id's file is in: host itself, or a user capsule's),
 * or -1 when none does.
 */
long	 access_rule(const struct config *host, const struct config *site,
	    const struct ident *id);

/*
 * May the client read id?  0, r untouched; or -1 with r's status set to
 * the rule's refusal: with client (a surface with certificates), 60, 61
 * or 62 as zone_check() says; without (NULL), 60 and where to go.
 */
int	 access_admit(const struct config *host, const struct config *site,
	    const struct ident *id, const struct zone_client *client,
	    struct response *r);

/* Is id guarded by no rule, so that any list may name it? */
int	 access_public(const struct config *host, const struct config *site,
	    const struct ident *id);

/* Does host have any access rule at all (a list need not ask then)? */
int	 access_any(const struct config *host);

/* A site, and the host whose rules apply to it. */
struct access_view {
	const struct config	*host;
	const struct config	*site;
};

/*
 * An archive's question (content/archive.h, archive_unlisted_fn) about
 * the site path url of a post or a page ("/posts/x": the site's base
 * comes first): is it guarded, so that no list names it?  arg is a
 * struct access_view.
 */
int	 access_unlisted(void *arg, const char *url);

#endif
