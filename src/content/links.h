/*
 * links.h -- find links to Markdown files that name no post.
 *
 * A writer who renames or deletes a post leaves links to its old file
 * behind; they are reported at load time, as "posts/a.md:12:5: link to
 * missing post b.md", so they can be fixed before a reader finds them.
 * Knows the archive and Markdown link syntax (inline links and reference
 * definitions, outside code); nothing of rendering or requests.
 */
#ifndef CAPSULED_LINKS_H
#define CAPSULED_LINKS_H

#include <stddef.h>

struct archive;

/* A link to a Markdown file, where it was written. */
struct links_ref {
	char		*url;		/* owned by the array */
	unsigned	 line, col;	/* in the file, 1-based */
};

/*
 * Log one warning per broken link in every post and page of a, and add
 * them to a->nwarnings.  Returns the number found.
 */
unsigned	 links_check(struct archive *a);

/*
 * The links to .md files and the absolute URLs (kept for link_aliases)
 * in the body md[0..len), whose first line is
 * line line0 of its file: a malloc'd array of *np (NULL when none).
 * Depends on the bytes alone, so it can be kept with them.
 */
struct links_ref *links_scan(const char *md, size_t len, unsigned line0,
		    size_t *np);
void		 links_free(struct links_ref *, size_t n);
/*
 * Log a warning for each of refs (found in the file path) that names no
 * post, page or series of a; returns how many.
 */
unsigned	 links_report(const struct archive *a, const char *path,
		    const struct links_ref *refs, size_t n);

#endif
