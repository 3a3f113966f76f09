/*
 * config_int.h -- what the configuration's own files share: its table
 * of keys and the state of a load.  Not for other modules.
 *
 * config_keys.c has the table and the parsers of its own keys
 * (config_redirects.c those of "redirects"); config.c loads a file with
 * them (core/config_engine.h), resolves the hosts, and makes the views.
 * Each key's flags say where it may be set and who sees it: a site key
 * may be set in a host item too, which then has it instead of the top
 * level's; a server-wide key only at the top level.  Declares nothing
 * of struct config's layout.
 *
 * Included only by: config.c, config_keys.c, config_redirects.c
 */
#ifndef CAPSULED_CONFIG_INT_H
#define CAPSULED_CONFIG_INT_H

#include <stddef.h>

#include <yaml.h>

#include "core/config_engine.h"
#include "core/surface.h"

struct config;
struct config_host;
struct config_redirect;
struct config_zone;

/* The flags of a key (struct cfe_field's). */
#define CONFIG_SITE	0x01	/* describes a site: may be set in a host
				   item, the top level's is the default */
#define CONFIG_USER	0x02	/* a user capsule's view has its host's
				   value; any other key it has not */
#define CONFIG_RULES	0x04	/* a site key whose entries add up: one
				   list at the top level for every host,
				   an entry of a host item being that
				   host's (config_host_view() copies none) */

/* What "hosts:" says to the server-wide keys a host item holds. */
#define CONFIG_SERVER_WIDE "is server-wide: set it at the top level"

/* Where a host item's keys were, for the checks that come after it. */
struct config_host_marks {
	yaml_mark_t	 name;		/* its hostname's value */
	yaml_mark_t	 root, cgi;	/* when it sets them */
	yaml_mark_t	 port[SURFACE_N]; /* its <surface>_port, when set */
};

/* One load: the engine's state and the configuration's (cfe.owner). */
struct config_loader {
	struct cfe	 e;
	struct config	*c;		/* being filled; owns what is stored */
	struct config_host_marks *hmarks; /* owned; one per host item */
};

/*
 * Every key of the file, in the order the printer writes them: the
 * table of config_keys.c, each surface's port keys after it.  Made
 * once, read-only after; *n gets the count.
 */
const struct cfe_field *config_keys(size_t *n);
/* The index of key in config_keys(); key must be one of them. */
size_t		 config_key_index(const char *key);

/* Bit i of a host's set (struct config_host). */
#define CONFIG_SET(set, i)	((set)[(i) / 8] & (1u << ((i) % 8)))
#define CONFIG_MARK(set, i)	((set)[(i) / 8] |= (unsigned char)(1u << \
				    ((i) % 8)))

/* No control characters, no spaces when url is set (a URL has none). */
int		 config_clean_text(const char *s, int url);
/* By from, an exact rule before the prefix rule of the same text. */
int		 config_redirect_cmp(const void *, const void *);

/* Free a configuration's hosts, zones (v[0..n) and v itself). */
void		 config_hosts_free(struct config_host *v, size_t n);
void		 config_zones_free(struct config_zone *v, size_t n);
void		 config_redirects_free(struct config_redirect *v, size_t n);

/*
 * Cross-key checks of the top level once the file is read (ports, the
 * user capsules and the chroot), pointing at the later of the keys
 * involved; marks and seen as cfe_map() left them.
 */
int		 config_check_top(struct config_loader *,
		    const yaml_mark_t *marks, const unsigned char *seen);

#endif
