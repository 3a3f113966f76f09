/*
 * links.h -- links between the files of a capsule: where a link to
 * another Markdown file (or to a post's old web URL) points, and which
 * links name no post.
 *
 * A writer who renames or deletes a post leaves links to its old file
 * behind; they are reported after each load, as "posts/a.md:12:5: link
 * to missing post b.md", so they can be fixed before a reader finds
 * them.  Knows the archive and URL path syntax; nothing of rendering or
 * requests.
 */
#ifndef CAPSULED_LINKS_H
#define CAPSULED_LINKS_H

#include <stddef.h>

struct archive;
struct scan_link;

/*
 * Rewrite a link found in the file at from_path ("posts/a.md") if it
 * names another post's Markdown file ("b.md", "../posts/b.md",
 * "/posts/2024-01-01-b.md"), a page, a series file or index.md, a file
 * the server serves, or is an old web URL of a post (see
 * links_is_alias()): returns the malloc'd path it is served at
 * ("/posts/<slug>"), decoded but for a '%', '#' or '?' of a file's name
 * ("/posts/x/a%23b.png"), or NULL when the link is to be left as
 * written.
 */
char		*links_resolve(const struct archive *, const char *from_path,
		    const char *url);
/*
 * Does the site path ("/posts/x", decoded) name a page the archive
 * generates (home, a post, series, tag or page that is there, a list,
 * a feed, files/), as the router reads it?  Not a static tree's path,
 * nor a user capsule's: with "mount", those are written without it.
 */
int		 links_generated(const struct archive *, const char *path);
/*
 * Is rel ("assets/y.png", decoded) a file outside the capsule's own
 * folders that a post or page links to (a->assets), and so served at
 * "/<rel>"?
 */
int		 links_asset(const struct archive *, const char *rel);
/*
 * Is url an old web URL of a post: under one of the config's
 * link_aliases, then a path with a last segment?  links_resolve()
 * turns it into the post's path when that segment names a post.
 */
int		 links_is_alias(const struct archive *, const char *url);

/* Warnings logged for one file, at most; then "... and N more". */
#define LINKS_WARN_MAX	20

/*
 * Log a warning for each of refs (found in the file path) that names no
 * post, page or series of a (the first LINKS_WARN_MAX, then how many
 * more); returns how many.
 */
unsigned	 links_report(const struct archive *a, const char *path,
		    const struct scan_link *refs, size_t n);
/*
 * links_report() for the links of every post and page of a (found when
 * it was loaded), in the archive's order: posts newest first, then
 * pages.  Adds them to a->nwarnings, before a is served; returns how
 * many.  Each line is said through archive_say(): logged once, again
 * when its file's bytes change, not by every snapshot that reads the
 * same file (a touch, another file's save).
 */
unsigned	 links_check(struct archive *a);

#endif
