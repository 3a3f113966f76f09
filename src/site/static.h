/*
 * static.h -- the files of a capsule a request may read: the static
 * trees (files/, the "root" directory, a plain user capsule) and page
 * bundles' files.  Within site/.
 *
 * For router.c, which knows which paths are files.  A file small enough
 * is kept in the site's cache, in a slot of its own (site_file_slot()),
 * read on libuv's pool when the caller can wait (response_render()); a
 * larger one, or one that may not be kept, is left open in the response
 * for conn.c to stream.  A directory without an index file is
 * listing.h's: its gophermap or its listing.
 */
#ifndef CAPSULED_STATIC_H
#define CAPSULED_STATIC_H

#include <stddef.h>

struct archive;
struct config;
struct post;
struct response;
struct route;

/* The static trees of a site. */
enum static_which {
	STATIC_FILES,		/* files/, at "/files/" of the site */
	STATIC_ROOT,		/* the "root" directory, or a plain user
				   capsule (static_plain()), at "/" */
};

/*
 * The name inside the capsule ("files/a.png"; "" for the top of a plain
 * capsule) that the site path path (which starts with the tree's URL)
 * names in tree w of rt's site, malloc'd: what access rules decide on
 * (site/access.h), whatever URL reached it.  NULL when the site has no
 * such tree.
 */
char	*static_ident(const struct route *rt, enum static_which w,
	    const char *path);
/*
 * Answer path in tree w: a file (typed by its extension), a directory's
 * index file (gemtext) or gophermap (Gopher), or its listing (entries
 * no reader may open are left out); a directory without its slash
 * redirects to it; 51 for anything the tree does not serve, or when the
 * site has no such tree.
 */
void	 static_serve(const struct route *rt, enum static_which w,
	    const char *path, struct response *r);
/*
 * The names at the top of the "root" tree that a generated page
 * shadows (the home page, a layout name, a page of pages/; with a
 * mount, only its name), each a warning said through archive_say()
 * (logged once, not by every snapshot); returns how many.  At load,
 * before a is published.
 */
size_t	 static_conflicts(const struct config *c, struct archive *a);
/*
 * Has the archive none of the capsule layout (index.md, posts, pages,
 * series, drafts)?  A user capsule that has none is a static tree, and
 * so is a host's with a "root": its tree alone, no generated page.
 */
int	 static_plain(const struct archive *a);
/*
 * "/posts/<slug>/<name>": the file name of the page bundle p, as
 * archive_bundle_open() allows (the rules of files/, no symbolic link
 * at all); 51 otherwise.
 */
void	 static_bundle_file(const struct route *rt, const struct post *p,
	    const char *name, struct response *r);
/*
 * A file of the capsule outside its own folders that a post or page
 * links to (rel "assets/y.png", which the router found among the
 * snapshot's assets: content/links.h), by the rules of files/, read
 * from the disk at every request; 51 otherwise.
 */
void	 static_asset(const struct route *rt, const char *rel,
	    struct response *r);

#endif
