/*
 * layout.h -- the URL layout of a capsule: every site path the server
 * answers, built and parsed in one place (docs/operating.md, "URL
 * layout").
 *
 * The same paths serve Gemini and Gopher.  The builders return the path
 * of a thing ("/posts/<slug>", "/tags/<slug>/atom.xml"), malloc'd; the
 * fixed paths are the LAYOUT_PATH_* strings.  layout_parse() is their
 * inverse: a site path to a typed reference, which the router dispatches
 * on (site/router.c), Gopher+ dates items by and Titan checks uploads
 * with.  One table of top-level names drives both the parser and
 * layout_reserved(), so adding a route is one table entry here and one
 * dispatch case in the router.  Knows nothing of the archive: whether a
 * post or a page of that name exists is the caller's question; no
 * percent-encoding either (paths here are decoded, as the router takes
 * them).
 */
#ifndef CAPSULED_LAYOUT_H
#define CAPSULED_LAYOUT_H

#include <stddef.h>

#define LAYOUT_PATH_HOME	"/"
#define LAYOUT_PATH_POSTS	"/posts/"
#define LAYOUT_PATH_SERIES	"/series/"
#define LAYOUT_PATH_TAGS	"/tags/"
#define LAYOUT_PATH_GEMLOG	"/gemlog/"
#define LAYOUT_PATH_FEED	"/atom.xml"	/* the gemlog's feed */
#define LAYOUT_PATH_SEARCH	"/search"
#define LAYOUT_PATH_DRAFTS	"/drafts/"
#define LAYOUT_PATH_FILES	"/files/"
#define LAYOUT_PATH_USERS	"/~/"
#define LAYOUT_PATH_USER	"/~"		/* and a user's name */
#define LAYOUT_PATH_ROBOTS	"/robots.txt"
#define LAYOUT_PATH_CAPS	"/caps.txt"	/* Gopher's, before the router */
#define LAYOUT_PATH_PLAN	"/.plan"	/* what Finger shows */

/* What a site path names. */
enum layout_kind {
	LAYOUT_NONE,		/* no path of the layout: "not found" */
	LAYOUT_HOME,		/* "/" */
	LAYOUT_POSTS,		/* "/posts/" */
	LAYOUT_SERIES_LIST,	/* "/series/" */
	LAYOUT_TAGS,		/* "/tags/" */
	LAYOUT_GEMLOG,		/* "/gemlog/" */
	LAYOUT_FEED,		/* "/atom.xml", "/gemlog/atom.xml" */
	LAYOUT_SEARCH,		/* "/search" */
	LAYOUT_ROBOTS,		/* "/robots.txt" */
	LAYOUT_PLAN,		/* "/.plan": the site's plan, as Finger
				   shows it */
	LAYOUT_DRAFTS,		/* "/drafts/" */
	LAYOUT_DRAFT,		/* "/drafts/<slug>" (name: all the rest) */
	LAYOUT_FILES,		/* "/files/<rest>" (rest "" for "/files/") */
	LAYOUT_POST,		/* "/posts/<slug>" */
	LAYOUT_POST_MENU,	/* "/posts/<slug>/": Gopher's menu of it */
	LAYOUT_BUNDLE_FILE,	/* "/posts/<slug>/<rest>": a bundle's file */
	LAYOUT_SERIES,		/* "/series/<slug>/" */
	LAYOUT_SERIES_FEED,	/* "/series/<slug>/atom.xml" */
	LAYOUT_TAG,		/* "/tags/<slug>/" */
	LAYOUT_TAG_FEED,	/* "/tags/<slug>/atom.xml" */
	LAYOUT_PAGE,		/* "/<name>": a page of pages/ */
	LAYOUT_PAGE_MENU,	/* "/<name>/": Gopher's menu of it */
	LAYOUT_USERS,		/* "/~/": the user capsules */
	LAYOUT_USER,		/* "/~<name><rest>": rest is the user's
				   own site path ("/", "/posts/x"); an
				   empty name ("/~/x") is nobody's */
};

/*
 * A parsed site path.  name and rest point into the parsed path (they
 * live as long as it does); name is not NUL-ended: layout_name().
 */
struct layout_ref {
	enum layout_kind kind;
	const char	*name;		/* slug, page or user name; or NULL */
	size_t		 namelen;
	const char	*rest;		/* LAYOUT_FILES, _BUNDLE_FILE (after
					   the '/'), _USER (with it); or "" */
	/*
	 * The path of a kind that ends in '/' without it ("/posts",
	 * "/series/x", "/files", "/drafts", "/~", "/~name"): the answer
	 * is a redirect to the path with the slash, as relative links
	 * need (when the thing exists; the dispatcher's to check).
	 */
	int		 bare;
};

/* layout_parse() flags. */
#define LAYOUT_USERDIRS	0x1	/* "/~..." is the user capsules', not a
				   page's */

/*
 * The reference path names.  path is decoded and starts with '/' (any
 * other is LAYOUT_NONE).  The rules, as the router has them:
 *   - a section ("/posts/", "/series/", "/tags/", "/gemlog/",
 *     "/drafts/", "/files/") without its slash is bare;
 *   - "/posts/<slug>" is the post, "/posts/<slug>/" its menu, anything
 *     longer a bundle file (rest: after the slug's '/', may hold more
 *     '/', even "" in "/posts/x//" is rest "/");
 *   - "/series/<slug>" is bare, "/series/<slug>/atom.xml" the feed,
 *     other longer paths are LAYOUT_NONE (tags the same);
 *   - an empty slug ("/posts//x", "/tags//") is LAYOUT_NONE;
 *   - "/<name>" and "/<name>/" are a page and its menu unless name is
 *     one of the reserved names, "/<name>/<more>" is LAYOUT_NONE;
 *   - "//x" is LAYOUT_NONE (it is no site path: site_path());
 *   - with LAYOUT_USERDIRS, "/~" is bare, "/~/" the users, "/~name" a
 *     bare user, "/~name/<rest>" the user's path "/<rest>", and "/~/x"
 *     a user without a name; without it "/~name" is a page like any
 *     other.
 * Percent signs and dots are bytes like any other: the URL parsers
 * decode and refuse dot segments before a path comes here.
 */
void	 layout_parse(const char *path, int flags, struct layout_ref *ref);

/*
 * ref's name, NUL-ended, into buf[0..size); 0, or -1 (buf "") when it
 * has none or it does not fit.
 */
int	 layout_name(const struct layout_ref *ref, char *buf, size_t size);

/*
 * Is name (a page's, a CGI directory's: one segment) a top-level name
 * of the server's own, so that "/<name>" could never reach it?
 * Compared without regard to case: on a file system that ignores case,
 * "Files/" is files/.  Besides the paths layout_parse() knows, "caps.txt"
 * (Gopher's, answered before the router) and "index" (content/links.c
 * reads an "index" segment as its folder's index page) are among them.
 */
int	 layout_reserved(const char *name);

/*
 * Is s[0..len) a slug as content/archive.c's archive_slugify() writes
 * them: slug = 1*(a-z / 0-9) *("-" 1*(a-z / 0-9))?  (What Titan may
 * write at "/posts/<slug>".)
 */
int	 layout_slug(const char *s, size_t len);

/* url is a path of this site ("/x"), not "//host/x" or a URL. */
int	 layout_site_path(const char *url);

/*
 * An address of the writer's old site, as the archive indexes and looks
 * up old addresses by it: s[0..len) (decoded; a scheme and host, a
 * query and a fragment are dropped) as its segments joined by '/', no
 * empty or "." segment, a last segment that is an index page
 * ("index.html", "index.md", layout_index_page()) dropped, and a page
 * ending (".html", ".php", ".md", layout_page_ext()) dropped from the
 * last: "/blog/2021/01/x/index.html" and "blog/2021/01/x.html" are both
 * "blog/2021/01/x".  Malloc'd; NULL when nothing is left.
 */
char	*layout_old_key(const char *s, size_t len);
/* The length of seg's page ending (".html", ".htm", ".php", ...), or 0. */
size_t	 layout_page_ext(const char *seg);
/* Is seg an index page that stands for its folder ("index.html")? */
int	 layout_index_page(const char *seg);

/* The longest dir layout_under() takes: a directory name's, NAME_MAX. */
#define LAYOUT_DIR_MAX	255

/*
 * path is /<dir> or beneath it ("/cgi-bin", "/cgi-bin/x"), dir being a
 * segment without slashes, as a prefix path rule holds it
 * (core/pathrule.h: whole segments, a run of '/' as one); 0 for a NULL
 * dir or one longer than LAYOUT_DIR_MAX.
 */
int	 layout_under(const char *dir, const char *path);

/*
 * The path of a kind, malloc'd, that layout_parse() reads back as that
 * kind, name and rest: layout_path(LAYOUT_POST, slug, NULL) is
 * "/posts/<slug>", (LAYOUT_BUNDLE_FILE, slug, "a.png")
 * "/posts/<slug>/a.png", (LAYOUT_FILES, NULL, "x/y") "/files/x/y",
 * (LAYOUT_USER, name, "/") "/~<name>/", (LAYOUT_SERIES_FEED, slug,
 * NULL) "/series/<slug>/atom.xml"; NULL name or rest is "".  Names are
 * written as they are (the parser's inverse, not an encoder): a URL
 * needs url_encode_path() on top.  LAYOUT_NONE gives "".
 */
char	*layout_path(enum layout_kind kind, const char *name,
	    const char *rest);

#endif
