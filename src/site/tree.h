/*
 * tree.h -- a static tree of a site: a directory of the capsule served
 * at a URL path by the rules of files/, the names in it, and how a
 * request opens them.  Within site/: for static.c, which serves a
 * tree's files, and listing.c, its directories.
 *
 * Knows the archive's rules for opening a file (archive_files_open(),
 * core/fsafe.h) and the site's configuration; nothing of answers or
 * protocols.  A struct tree borrows its strings from the configuration;
 * the names these functions return are malloc'd, the caller's.
 */
#ifndef CAPSULED_TREE_H
#define CAPSULED_TREE_H

#include <sys/stat.h>

#include "core/fsafe.h"

struct route;

struct tree {
	const char	*dir;		/* capsule-relative: "files", the
					   root, or "" (a plain capsule) */
	const char	*url;		/* where: "/files/" or "/" */
	const char	*base;		/* what the site's paths start with
					   ("/~name"), or NULL */
	int		 listings;	/* directories without an index */
	int		 watched;	/* the watcher follows it: what is
					   read of it may be kept */
};

/* Is rel a gophermap's name: a directory's menu, never a file? */
int	 tree_is_gophermap(const char *rel);
/*
 * Is rel a geomyidae menu's name ("index.gph", "x.gph"): a menu
 * (site/geomyidae.h) at its own path, and index.gph its directory's,
 * never a file?
 */
int	 tree_is_gph(const char *rel);
/*
 * The capsule-relative name of path (which starts with t->url), for
 * archive_files_open().  "" is the tree of a plain capsule.
 */
char	*tree_rel(const struct tree *t, const char *path);
/* name in the directory rel ("", "files", "site/x/"). */
char	*tree_join(const char *rel, const char *name);
/*
 * Open rel (capsule-relative, in the tree t) as files/ allows
 * (archive_files_open(), which the link check asks too; in a user
 * capsule, the owner's files only): the descriptor, st and kind
 * filled, or -1 for "not found".  A gophermap or a .gph file is a
 * menu, never a file.  "" is a plain capsule's own directory.
 */
int	 tree_open(const struct route *rt, const struct tree *t,
	    const char *rel, struct stat *st, enum fsafe_kind *kind);
/*
 * Why archive_files_open() or archive_bundle_open() said no to path,
 * in the log when the operator may want to know (errno says).
 */
void	 tree_refused(const struct route *rt, const char *path);
/*
 * May what is read of the tree t (NULL: a page bundle's folder) be
 * kept, and trusted without a look at the disk for as long as the site
 * lives?  Only while the watcher follows it: a change there then asks
 * for a new site, whose cache starts empty.  With "watch: false" every
 * request reads the disk as it is; nor with "follow_symlinks: any",
 * whose links may lead out of the capsule, where nothing is watched.
 */
int	 tree_watched(const struct route *rt, const struct tree *t);
/*
 * The lang and charset "path_meta" gives the request's path, as the
 * client asks for it (t's base, or the site's for a bundle's file,
 * before the path within it); NULL for those it does not give.
 */
void	 tree_path_meta(const struct route *rt, const struct tree *t,
	    const char **lang, const char **charset);

#endif
