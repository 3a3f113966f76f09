/*
 * gophermap.h -- a hand-written gophermap, read the way gophernicus and
 * Bucktooth read theirs (docs/operating.md, "Gophermaps and .gph
 * menus"), written out as the lines of a Gopher menu.
 *
 * The reader knows the lines, not the file system: another map named
 * by "=file" and the directory's listing asked for by "*" come from the
 * caller's callbacks (site/static.c, which keeps both inside the tree).
 * Nothing is ever executed.
 */
#ifndef CAPSULED_GOPHERMAP_H
#define CAPSULED_GOPHERMAP_H

#include <stddef.h>

struct buf;

/*
 * What a map may read besides itself, each limit told by an info line
 * where an include is left out: "=file" includes nest this deep, this
 * many in all, and read this many bytes together.
 */
#define GOPHERMAP_DEPTH_MAX	4
#define GOPHERMAP_INCLUDES_MAX	64
#define GOPHERMAP_INCLUDE_READ_MAX	((size_t)1 << 20)
/* "-name" lines a map may hide from its listing; more are dropped. */
#define GOPHERMAP_HIDE_MAX	256

struct gophermap_env {
	const char	*host;		/* the server's public name */
	int		 port;		/* and Gopher port */
	const char	*dir;		/* the map's directory as a selector,
					   ending in '/' ("/", "/~u/x/") */
	size_t		 max;		/* bytes of menu lines: see below */
	/*
	 * The text of the gophermap at selector sel (absolute), malloc'd
	 * with its length in *len, or NULL: not one the tree serves (*len
	 * 0), or larger than max bytes (*len its size), not read.
	 */
	char		*(*include)(void *arg, const char *sel, size_t max,
			    size_t *len);
	/*
	 * The directory's listing as menu lines, without the closing
	 * ".", names in hide[0..nhide) left out.
	 */
	void		 (*listing)(void *arg, char *const *hide,
			    size_t nhide, struct buf *out);
	void		*arg;
};

/*
 * The selector rel[0..len) resolved against dir (a selector ending in
 * '/'), "." and ".." segments removed (never above "/"), appended to
 * out: a map's relative selector, and a geomyidae menu's
 * (site/geomyidae.c).
 */
void	 gophermap_resolve(struct buf *out, const char *dir, const char *rel,
	    size_t len);
/*
 * The menu lines of the map text[0..len) (any bytes: NUL, long lines,
 * CRLF or LF), appended to out, without the closing ".": the caller
 * ends the menu.  Stops once env->max bytes are written (the line or
 * the "*" listing that crosses the bound is written whole): the caller
 * cuts the menu at a bound of its own, and says so there.
 */
void	 gophermap_render(const struct gophermap_env *env, const char *text,
	    size_t len, struct buf *out);

#endif
