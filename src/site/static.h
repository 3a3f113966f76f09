/*
 * static.h -- the files of a capsule a request may read: files/ and
 * page bundles' files, and the listings of files/.  Within site/.
 *
 * For router.c, which knows which paths are files.  A file small enough
 * is kept in the site's cache, in a slot of its own (site_file_slot()),
 * read on libuv's pool when the caller can wait (response_render()); a
 * larger one, or one that may not be kept, is left open in the response
 * for conn.c to stream.
 */
#ifndef CAPSULED_STATIC_H
#define CAPSULED_STATIC_H

struct post;
struct response;
struct route;

/*
 * "/files/...": a file (typed by its extension), a directory's
 * index.gmi (Gemini), or a listing; a directory without its slash
 * redirects to it; 51 for anything files/ does not serve.
 */
void	 static_file(const struct route *rt, const char *path,
	    struct response *r);
/*
 * "/posts/<slug>/<name>": the file name of the page bundle p, as
 * archive_bundle_open() allows (the rules of files/, no symbolic link
 * at all); 51 otherwise.
 */
void	 static_bundle_file(const struct route *rt, const struct post *p,
	    const char *name, struct response *r);

#endif
