/*
 * preview.h -- `capsuled serve DIR`: the configuration that serves a
 * folder with no configuration file (see preview.c).
 */
#ifndef CAPSULED_PREVIEW_H
#define CAPSULED_PREVIEW_H

#include <stddef.h>

struct config;

enum preview_layout {
	PREVIEW_CAPSULE,	/* index.md, posts/, pages/, series/, files/ */
	PREVIEW_BARE,		/* only posts: *.md, *.gmi at its top */
	PREVIEW_OTHER,		/* neither: a static tree would be here */
};

/* What the folder dir holds, by its names. */
enum preview_layout preview_layout(const char *dir);
/*
 * $XDG_STATE_HOME/capsuled, else ~/.local/state/capsuled (malloc'd), or
 * NULL without a home directory.
 */
char	*preview_state_dir(void);
/* What the folder dir is, in words: "a capsule", "a folder of posts"... */
const char *preview_what(const char *dir);
/*
 * c (not initialised): the defaults, serving dir, the certificate in the
 * state directory (made if missing when certs is set; --check makes
 * nothing).  0, or -1 with err set and c holding nothing to free.
 */
int	 preview_config(struct config *c, const char *dir, int certs,
	    char *err, size_t errlen);
/*
 * serve's --title and --gopher-charset (NULL: not given) into c, read
 * as "title" and "gopher_charset" in a file are.  0, or -1 with err set
 * ("capsuled serve: --title: why").
 */
int	 preview_options(struct config *c, const char *title,
	    const char *charset, char *err, size_t errlen);

#endif
