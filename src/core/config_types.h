/*
 * config_types.h -- types and language per path: "mime_types",
 * "default_type" and "path_meta" of the configuration.
 *
 * config_keys.c hands those keys' values to config_types_parse(); what
 * a file is then answered as is decided here, once, for every caller
 * (site/static.c for files and listings, site/page.c and site/router.c
 * for the item types of menus): config_file_type() is the built-in
 * table of core/mime.c with the configured one over it, and
 * config_path_meta() the lang and charset of a path.  Knows libyaml,
 * nothing of requests; struct config holds a struct config_types.
 */
#ifndef CAPSULED_CONFIG_TYPES_H
#define CAPSULED_CONFIG_TYPES_H

#include <stddef.h>

#include <yaml.h>

#include "core/pathrule.h"

struct cfe;
struct cfe_field;
struct cfe_out;

#define CONFIG_MAX_TYPES	1024	/* "mime_types" entries */
#define CONFIG_MAX_PATH_META	1024	/* "path_meta" entries */

/* One entry of "mime_types": files ending in ".ext" are this type. */
struct config_mime {
	char		*ext;		/* owned: lower case, no dot */
	char		*type;		/* owned: "type/subtype", no
					   parameters */
	char		*charset;	/* owned: a text type's charset
					   parameter, or NULL */
};

/* One entry of "path_meta": a prefix's lang and charset parameters. */
struct config_path_meta {
	struct pathrule	 rule;		/* path, compiled */
	char		*path;		/* owned: "/fr", no trailing '/';
					   "" for every path; a path rule
					   (core/pathrule.h) */
	char		*lang;		/* owned (mime_lang_ok()), or NULL */
	char		*charset;	/* owned, or NULL */
};

/* Which parts of a struct config_types its keys set (own). */
#define CONFIG_TYPES_MIME	0x01
#define CONFIG_TYPES_DEFAULT	0x02
#define CONFIG_TYPES_META	0x04

/*
 * What the three keys set; struct config's types.  A host item's has
 * the parts its own keys set, and borrows the others from the top
 * level's (config_types_inherit()).
 */
struct config_types {
	struct config_mime *mime;	/* sorted by ext */
	size_t		 nmime;
	char		*default_type;	/* NULL: MIME_DEFAULT */
	struct config_path_meta *meta;	/* in the file's order */
	size_t		 nmeta;
	unsigned	 own;		/* CONFIG_TYPES_*: the parts set here
					   and owned; the rest borrowed */
};

/*
 * The value of f ("mime_types", "default_type" or "path_meta"), whose
 * first event is ev, into *t (made at the first key; the key's part
 * then owned by it), read with the configuration's engine
 * (core/config_engine.h).  Returns 0, or -1 with l's error set; what
 * was stored before the error stays in *t for config_types_free().
 */
int	 config_types_parse(struct cfe *l, const struct cfe_field *f,
	    yaml_event_t *ev, struct config_types **t);
/* The parts t does not own borrowed from from (NULL: none). */
void	 config_types_inherit(struct config_types *t,
	    const struct config_types *from);
/* key's part of t (NULL: none set) as key's value, as YAML. */
void	 config_types_print(struct cfe_out *o, const char *key,
	    const struct config_types *t);
/* Free t and the parts it owns; NULL is fine. */
void	 config_types_free(struct config_types *t);

/*
 * The MIME type of a file name (static) and, into *gopher when not
 * NULL, its Gopher item type: the "mime_types" entry of its extension,
 * else the built-in one (core/mime.h), else "default_type", else
 * MIME_DEFAULT.  A type that came from the configuration gets the item
 * type mime_gopher_of() derives from it, so both protocols agree.  t
 * may be NULL: the built-in table alone.
 */
const char	*config_file_type(const struct config_types *t,
		    const char *name, char *gopher);
/*
 * config_file_type(), and into *charset the charset its "mime_types"
 * entry gives ("text/plain; charset=iso-8859-1"), static, or NULL.
 */
const char	*config_file_type_charset(const struct config_types *t,
		    const char *name, char *gopher, const char **charset);

/*
 * The lang and charset of path (the path as the client asks for it,
 * "/~name/..." in a user capsule): each from the longest "path_meta"
 * prefix that is path or a parent of it and sets it; NULL when none
 * does.
 */
void		 config_path_meta(const struct config_types *t,
		    const char *path, const char **lang, const char **charset);

#endif
