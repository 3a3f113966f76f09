/*
 * geomyidae.h -- a geomyidae menu (a directory's index.gph, any .gph file
 * of a static tree), read the way geomyidae reads it (docs/operating.md,
 * "Gophermaps and .gph menus"), written out as the lines of a Gopher
 * menu, or as a page of the page model (page.h) for the formats that are
 * no Gopher menu: gemtext links over Gemini and Spartan, Nex's directory.
 *
 * The reader knows the lines, not the file system: a .gph file names
 * no other file it would read, and nothing in it is ever executed.
 */
#ifndef CAPSULED_GEOMYIDAE_H
#define CAPSULED_GEOMYIDAE_H

#include <stddef.h>

#include "site/gophermap.h"

struct buf;
struct page;

/*
 * Where a menu is, and its bound, are a gophermap's (gophermap.h:
 * host, port, dir, max); a .gph file includes nothing and lists
 * nothing, so the rest of struct gophermap_env is not read.
 */

/*
 * The menu lines of the .gph text[0..len) (any bytes: NUL, long lines,
 * CRLF or LF), appended to out, without the closing ".": the caller
 * ends the menu.  Stops once env->max bytes are written, after a whole
 * line: the caller cuts the menu at a bound of its own, and says so.
 */
void	 geomyidae_render(const struct gophermap_env *env, const char *text,
	    size_t len, struct buf *out);
/*
 * The same menu as blocks of p: its text lines as text (an empty one
 * blank), its items of this server as links to their selectors (paths
 * from the server's top: the page is written without a base), of other
 * servers as gopher:// links, "h" items' "URL:" as the URL; about
 * env->max bytes of them at most.
 */
void	 geomyidae_page(const struct gophermap_env *env, const char *text,
	    size_t len, struct page *p);

#endif
