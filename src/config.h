/*
 * config.h -- the YAML configuration file, as one struct config.
 *
 * config_load() fills a struct config from a file, starting from the
 * defaults (which run as-is on localhost).  Paths in the file are taken
 * relative to the directory of the file and stored absolute.  Knows
 * libyaml, nothing of the server.  A struct config owns every string in
 * it; config_free() releases them.  After startup it is read-only and
 * shared by all threads.
 */
#ifndef CAPSULED_CONFIG_H
#define CAPSULED_CONFIG_H

#include <stddef.h>

#include "log.h"

struct config {
	char		*path;		/* the file it came from, or NULL */

	/* Where readers find us: written into links and Gopher menus. */
	char		*hostname;	/* public name, default "localhost" */
	char		**bind;		/* addresses to listen on */
	size_t		 nbind;		/* default: 127.0.0.1 and ::1 */
	int		 gemini_port;	/* default 1965 */
	int		 gopher_port;	/* default 7070; 0 turns Gopher off */
	int		 gopher_public_port; /* port written in menus; 0 = gopher_port */

	char		*capsule_dir;	/* absolute; default <confdir>/../capsule */
	char		*cert_dir;	/* absolute; default <confdir>/../certs */

	int		 workers;	/* 0 = auto: one per core */
	unsigned	 request_timeout_ms; /* handshake + request line */
	unsigned	 idle_timeout_ms; /* no progress while answering */
	unsigned	 max_connections; /* per worker share of the total */

	/* Site: fallbacks for what capsule/index.md's front matter omits. */
	char		*lang;		/* default "en" */
	char		*site_title;
	char		*site_subtitle;	/* may be NULL */
	char		*author;	/* may be NULL */
	unsigned	 latest_posts;	/* on the home page; default 10 */
	unsigned	 gopher_width;	/* wrap width of Gopher text; 70 */

	char		*log_file;	/* NULL = stderr */
	enum log_level	 log_level;
	int		 access_log;	/* 1 = one line per request */
};

/* Fill c with the defaults; confdir anchors the default paths. */
void	 config_defaults(struct config *c, const char *confdir);

/*
 * Load path into c (defaults first).  Returns 0, or -1 with err set to
 * "PATH:LINE:COL: what is wrong" (NUL-terminated, truncated to errlen).
 * On failure c holds nothing that needs freeing.
 */
int	 config_load(struct config *c, const char *path, char *err,
	    size_t errlen);
/*
 * The same, from len bytes at data (not NUL-terminated).  name plays
 * path's part: it starts every message, becomes c->path, and its
 * directory anchors relative paths; it need not exist.  config_load()
 * reads the file and calls this; the fuzzer calls it directly.
 */
int	 config_load_buffer(struct config *c, const char *name,
	    const char *data, size_t len, char *err, size_t errlen);
/* Free every string and reset c to all zeros; a zeroed c is fine. */
void	 config_free(struct config *c);

#endif
