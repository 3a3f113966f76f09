/*
 * slug.h -- the names a snapshot makes from the names writers give:
 * slugs, tag keys, and what a post's file name says.
 *
 * archive_slugify() and archive_file_slug() (archive.h) make slugs;
 * these two are for the archive's own files and for what writes posts
 * (content/publish.c), which must name a post as the archive will.
 */
#ifndef CAPSULED_SLUG_H
#define CAPSULED_SLUG_H

#include <stddef.h>

/*
 * The key tags are grouped by ("Small Web", "small-web" and "SMALL_WEB"
 * are one tag); malloc'd.
 */
char		*slug_tag_key(const char *name);
/*
 * The stem a post's slug and date come from: "2024-01-01-x" for
 * "2024-01-01-x.md" (or ".gmi", in any folder of posts/), the folder's
 * name for a bundle's "2024-01-01-x/index.md".
 */
void		 slug_post_stem(const char *name, char *stem, size_t size);

#endif
