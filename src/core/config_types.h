/*
 * config_types.h -- types and language per path: "mime_types",
 * "default_type" and "path_meta" of the configuration.
 *
 * config.c hands those keys' values to config_types_parse(); what a
 * file is then answered as is decided here, once, for every caller
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

#define CONFIG_MAX_TYPES	1024	/* "mime_types" entries */
#define CONFIG_MAX_PATH_META	1024	/* "path_meta" entries */

/* One entry of "mime_types": files ending in ".ext" are this type. */
struct config_mime {
	char		*ext;		/* owned: lower case, no dot */
	char		*type;		/* owned: "type/subtype", no
					   parameters */
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

/* What the three keys set; struct config's types. */
struct config_types {
	struct config_mime *mime;	/* owned; sorted by ext */
	size_t		 nmime;
	char		*default_type;	/* owned; NULL: MIME_DEFAULT */
	struct config_path_meta *meta;	/* owned; in the file's order,
					   indexed (pathrule_index()) */
	size_t		 nmeta;
};

/* What config.c lends the parser: its libyaml parser and input. */
struct config_types_in {
	yaml_parser_t	*parser;
	const char	*data;		/* the whole input, for messages */
	size_t		 len;
};

/*
 * The value of key ("mime_types", "default_type" or "path_meta"), whose
 * first event is ev, into *t (made at the first key; a second time
 * replaces the first).  Returns 0, or -1 with *mark and msg[0..msglen)
 * saying what is wrong ("mime_types: ..."); what was stored before the
 * error stays in *t for config_types_free().
 */
int	 config_types_parse(const struct config_types_in *, const char *key,
	    const yaml_event_t *ev, struct config_types **t, yaml_mark_t *mark,
	    char *msg, size_t msglen);
/* Free t and all it holds; NULL is fine. */
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
 * The lang and charset of path (the path as the client asks for it,
 * "/~name/..." in a user capsule): each from the "path_meta" entry
 * that sets it and whose path holds path (core/pathrule.h: a prefix
 * segment by segment, or a pattern), the longest; NULL when none
 * does.
 */
void		 config_path_meta(const struct config_types *t,
		    const char *path, const char **lang, const char **charset);

#endif
