/*
 * scan.h -- quick byte scans of Markdown source, without a cmark parse.
 *
 * Loading an archive of thousands of posts must stay cheap, so what it
 * needs to know of each body -- where its links to other posts are, and
 * whether it opens by repeating its own title -- is found by scanning
 * the bytes for the few constructs that matter.  The answers depend on
 * the bytes alone, so the archive keeps them with the file they came
 * from.  Knows Markdown's block and link syntax; nothing of posts,
 * archives or requests.
 */
#ifndef CAPSULED_SCAN_H
#define CAPSULED_SCAN_H

#include <stddef.h>

/* A link destination, where it was written. */
struct scan_link {
	char		*url;		/* owned by the array */
	unsigned	 line, col;	/* in the file, 1-based */
};

/*
 * The link destinations in the body md[0..len), whose first line is
 * line line0 of its file, that may name something of the capsule or
 * the writer's old site: relative links (scan_is_checked_link(): to
 * another post's file, to a file, to an old address), root-relative
 * paths ("/posts/...", "/2015/01/02/x/", "//host/x") and every
 * absolute URL ("scheme://", one of which may be a post's old web
 * URL).  Inline links, reference definitions and the href and src
 * of raw HTML tags, outside code.  A malloc'd array of *np (NULL when
 * none), freed with scan_links_free().
 */
struct scan_link *scan_links(const char *md, size_t len, unsigned line0,
		    size_t *np);
/*
 * For tests: read a byte at a time (1), as the scan did before it
 * stepped over the bytes that cannot start a link, or not (0, the
 * default), so that a test can check the two find the same.
 */
void		 scan_bytewise(int on);
void		 scan_links_free(struct scan_link *, size_t n);
/*
 * May the link destination dest[0..len) name something of the capsule
 * or of the old site: a relative link (not one to this page's own
 * fragment or query), a root-relative path, or an absolute URL (not
 * "mailto:" and the like)?
 */
int		 scan_is_checked_link(const char *dest, size_t len);

/*
 * Bytes to skip at the start of md[0..len) when it opens (after blank
 * lines) with an ATX level-1 heading whose text says title (entities
 * decoded, in any case), so a page whose header already says "# Title"
 * does not repeat it.  0 when
 * it does not.
 */
size_t		 scan_repeated_title(const char *md, size_t len,
		    const char *title);

#endif
