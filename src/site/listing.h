/*
 * listing.h -- a static tree's directory as a reader gets it when it
 * is no index file: its gophermap's menu (Gopher), its index.gph menu
 * (geomyidae's, every format), or its listing; and any .gph file's
 * menu.
 * Within site/, for static.c.
 *
 * The answer is made at once, or left to response_render() on libuv's
 * pool when the caller can wait (r->may_defer); kept for every reader
 * while the watcher follows the tree, else made per request.  Each
 * function that answers takes the directory's descriptor dfd, closed
 * once the answer is made.  docs/operating.md, "Static trees" and
 * "Gophermaps and .gph menus", says what an answer may hold and what a
 * reader sees at each bound.
 */
#ifndef CAPSULED_LISTING_H
#define CAPSULED_LISTING_H

#include "core/surface.h"

struct response;
struct route;
struct tree;

/*
 * Answer r with the kept answer of the directory rel of t, its menu
 * (Gopher) or its listing, if the site has one: 1, else 0.  No look at
 * the disk.
 */
int	 listing_kept(const struct route *rt, const struct tree *t,
	    const char *rel, struct response *r);
/*
 * Is a directory's answer in format f a Gopher menu, one a gophermap may
 * make?  Else its index file, a gemtext page, is its answer (Nex reads
 * its links as its own).
 */
int	 listing_gopher_menu(enum format f);
/*
 * When rt's format has gophermaps (Gopher's menus) and the directory
 * dfd (rel, at the site path urlpath, which ends in '/') has one it
 * may read (the rules of files/, 1 MiB at most; a larger one is
 * logged), answer r with its menu and return 1, dfd taken; else 0, and
 * dfd stays the caller's.
 */
int	 listing_map(const struct route *rt, const struct tree *t, int dfd,
	    const char *rel, const char *urlpath, struct response *r);
/*
 * When the directory dfd (rel, at urlpath) has an index.gph it may
 * read (a geomyidae menu, site/geomyidae.h; the rules of files/, 1 MiB
 * at most), answer r with it, a Gopher menu or a page of rt's format,
 * and return 1, dfd taken; else 0.  Over Gopher a gophermap wins
 * (listing_map() first), elsewhere the index file (static.c).
 */
int	 listing_gph(const struct route *rt, const struct tree *t, int dfd,
	    const char *rel, const char *urlpath, struct response *r);
/*
 * Answer r with the .gph file rel of the tree (at path) as the menu
 * it makes, never its bytes; 51 when it may not be read.
 */
void	 listing_gph_file(const struct route *rt, const struct tree *t,
	    const char *rel, const char *path, struct response *r);
/*
 * Answer r with the listing of the directory dfd (rel, at urlpath):
 * a 20 with its page, or 41 when too many listings of trees that are
 * not watched are being made at once.  dfd is taken.
 */
void	 listing_answer(const struct route *rt, const struct tree *t,
	    int dfd, const char *rel, const char *urlpath,
	    struct response *r);

#endif
