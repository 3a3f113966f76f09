/*
 * robots.h -- the "robots" setting: read from the configuration, and
 * made into each kind of crawler's robots.txt, and into the web view's
 * X-Robots-Tag.
 *
 * The setting is a text served as it is ("robots: |", the form every
 * configuration had so far), or rules (docs/operating.md, "robots.txt"):
 *
 *   robots   = text / "{" [ "disallow:" paths ] [ "agents:" agents ] "}"
 *   agents   = "{" *( name ":" paths ) "}"
 *   name     = 1*64( ALPHA / "-" / "_" ): a Gemini virtual agent
 *              (indexer, archiver, researcher, webproxy) or a crawler's
 *              own product token (veronica, GPTBot)
 *   paths    = path / "[" *( path ) "]" / null
 *   path     = "/" *( any but controls, space, "#", "*", "$" ): a prefix
 *
 * From rules, robots_txt() writes the groups each crawler reads:
 * Gemini's virtual agents for the small-web surfaces; on Gopher, the
 * indexer's rules for Veronica, the one Gopher indexer; on the web,
 * named crawlers and "*", which also keeps out what "webproxy" does:
 * the web view is this server's own web proxy.  The text form is
 * served as written everywhere, and read (its groups of "User-agent"
 * and "Disallow" lines, literal prefixes) for robots_tag().
 *
 * Knows the configuration's engine and URL encoding; nothing of
 * requests or surfaces (the router picks the kind of crawler).  A
 * struct robots owns every string in it; robots_free() releases them.
 */
#ifndef CAPSULED_ROBOTS_H
#define CAPSULED_ROBOTS_H

#include <stddef.h>

#include <yaml.h>

struct buf;
struct cfe;
struct cfe_field;
struct cfe_out;

#define ROBOTS_PATHS_MAX	100	/* paths of one list */
#define ROBOTS_AGENTS_MAX	32	/* names under "agents" */
#define ROBOTS_NAME_MAX		64	/* bytes of a name */
#define ROBOTS_PATH_MAX		1024	/* bytes of a path */

/* One crawler's (or virtual agent's) paths.  paths first: a list. */
struct robots_agent {
	char		**paths;	/* owned */
	size_t		 npaths;
	char		*name;		/* owned, as written */
};

struct robots {
	char		*text;		/* owned: served as it is; NULL:
					   made from the rules */
	char		**disallow;	/* owned: every crawler's */
	size_t		 ndisallow;
	struct robots_agent *agents;	/* owned, in the file's order */
	size_t		 nagents;
};

/* Which crawlers a robots.txt is for. */
enum robots_for {
	ROBOTS_GEMINI,		/* Gemini's companion specification, the
				   small-web surfaces */
	ROBOTS_GOPHER,		/* Veronica-2 and other Gopher crawlers */
	ROBOTS_WEB,		/* RFC 9309, for the web view */
};

/*
 * The value of f, whose first event is ev: a text (null or empty: no
 * robots.txt) or rules, into *r (what was there freed).  Returns 0, or
 * -1 with l's error set.
 */
int	 robots_parse(struct cfe *l, const struct cfe_field *f,
	    yaml_event_t *ev, struct robots **r);
/* r as key's value, YAML that robots_parse() reads back the same. */
void	 robots_print(struct cfe_out *o, const char *key,
	    const struct robots *r);
/* The text form of s (its rules read from it); NULL for an empty s. */
struct robots	*robots_from_text(const char *s);
void	 robots_free(struct robots *);		/* NULL is fine */

/*
 * robots.txt of r for crawlers who, appended to out: 1, or 0 when
 * there is none (r NULL: answer 51, or 404).
 */
int	 robots_txt(const struct robots *r, enum robots_for who,
	    struct buf *out);
/*
 * The X-Robots-Tag the web view sends with path (as the client asked
 * for it, percent-decoded): "noindex, noarchive" where "disallow" or
 * "webproxy" keep it out, "noindex" where only "indexer" does,
 * "noarchive" where only "archiver" does; NULL for none.  Static.
 */
const char	*robots_tag(const struct robots *r, const char *path);

#endif
