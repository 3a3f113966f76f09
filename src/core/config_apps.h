/*
 * config_apps.h -- the application backends of the configuration:
 * "fastcgi" and "scgi" (a path prefix answered by a running FastCGI or
 * SCGI server) and "proxy" (a prefix or a host answered by another
 * Gemini server).
 *
 * config_keys.c hands each of those keys' values to
 * config_apps_parse(), which reads the entries with the configuration's
 * engine (core/config_engine.h); they live in struct config's apps (one
 * array for the three keys and every host, an entry of a host item
 * carrying its host), and net/app.c and net/gproxy.c answer what
 * config_app_find() routes to them.  Knows libyaml and the shape of an
 * entry, nothing of sockets.
 */
#ifndef CAPSULED_CONFIG_APPS_H
#define CAPSULED_CONFIG_APPS_H

#include <stddef.h>

#include <yaml.h>

#include "core/pathrule.h"

struct cfe;
struct cfe_field;
struct cfe_out;
struct config;

enum config_app_kind {
	CONFIG_APP_FASTCGI,
	CONFIG_APP_SCGI,
	CONFIG_APP_PROXY,
};

struct config_app {
	struct pathrule	 rule;		/* prefix and host, compiled; its
					   match's rest is PATH_INFO */
	enum config_app_kind kind;
	char		*prefix;	/* owned: "/app" or "/" (no trailing
					   slash but for "/") */
	char		*host;		/* owned: only this host's requests;
					   NULL: every host's */
	char		*path;		/* owned: a Unix socket's path, or
					   NULL for TCP */
	char		*addr;		/* owned: TCP: an IP address (or a
					   host name for proxy), else NULL */
	int		 port;		/* TCP */
	char		**params;	/* owned: "NAME=value" added to the
					   environment (fastcgi, scgi) */
	size_t		 nparams;
	char		*sni;		/* owned, proxy: the name the backend
					   is asked for; default addr */
	char		*client_cert;	/* owned, proxy: presented to the */
	char		*client_key;	/* backend, both or NULL */
	char		*fingerprint;	/* owned, proxy: the backend's
					   certificate's SHA-256, lower-case
					   hex; NULL: any certificate */
	unsigned	 max_conns;	/* in flight per worker */
};

/*
 * The value of f ("fastcgi", "scgi" or "proxy"), whose first event is
 * ev: a list of entries, or null for none, appended to *v (*n entries),
 * each read against its key's table by the engine.  While l->mode has
 * a bit of item_mode the entries are a host item's, and "host:" is
 * refused.  Returns 0, or -1 with l's error set; entries appended
 * before the error stay in *v for config_apps_free().
 */
int	 config_apps_parse(struct cfe *l, const struct cfe_field *f,
	    yaml_event_t *ev, unsigned item_mode, struct config_app **v,
	    size_t *n);
/* 1 when a and b route the same prefix for the same host (or all). */
int	 config_apps_same(const struct config_app *a,
	    const struct config_app *b);
/* Is an entry for host (NULL: every host's) printed where o is? */
typedef int	config_apps_here_fn(const struct cfe_out *o,
		    const char *host);
/*
 * The entries of v[0..n) of key's kind that here() wants, as key's
 * value: a block list of mappings, each as the parser reads it back.
 */
void	 config_apps_print(struct cfe_out *o, const char *key,
	    const struct config_app *v, size_t n, config_apps_here_fn *here);
void	 config_apps_free(struct config_app *v, size_t n);

/*
 * Compile the prefix and host of every entry of v[0..n) and index them
 * for config_app_find(), their order untouched: once every entry has
 * its host (config.c, when the hosts' items are resolved).
 */
void	 config_apps_index(struct config_app *v, size_t n);
/*
 * The entry of v[0..n) that answers path (a decoded request path,
 * "/...") on the host named hostname: of those whose host is that or
 * NULL, the one whose prefix holds path (core/pathrule.h: segment by
 * segment, a run of '/' as one), the longest, a host's own at equal
 * length; NULL when none is.  pathrule_match() of its rule gives what
 * lies below the prefix.
 */
const struct config_app *config_app_find(const struct config_app *v,
	    size_t n, const char *hostname, const char *path);
/*
 * 1 when any backend is configured (the server then opens sockets to
 * other servers: a sandbox must allow socket() and connect()).
 * Defined in config.c, which owns struct config.
 */
int	 config_has_backends(const struct config *);

#endif
