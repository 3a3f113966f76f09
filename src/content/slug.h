/*
 * slug.h -- the names a snapshot makes from the names writers give:
 * slugs, tag keys, and what a post's file name says.
 *
 * Part of the archive's interface (content/archive.h includes it), and
 * what writes posts (content/publish.c) names a post by, as the archive
 * will.  Knows UTF-8 and dates in file names; nothing of files on disk.
 */
#ifndef CAPSULED_SLUG_H
#define CAPSULED_SLUG_H

#include <stddef.h>

/* Tag display name -> URL slug (docs/writing.md, "Tags"); malloc'd. */
char		*archive_slugify(const char *name);
/*
 * The slug of a post in posts/<name> whose front matter says fmslug
 * (NULL when it says none): fmslug's when it makes one, else, with a
 * title (the front matter's, when its syntax makes slugs of titles:
 * Pelican's header lines, meta.slug_from_title), the slug Pelican makes
 * of it, else the file name's without its date prefix and ".md".
 * Malloc'd; "" when none makes one (the archive then uses the post's
 * date).  *used, when not NULL, says whether fmslug made the slug.
 */
char		*archive_file_slug(const char *fmslug, const char *title,
		    const char *name, int *used);
/*
 * Is name a Markdown file ("x.md"), a gemtext one ("x.gmi")?  Posts
 * may be either; pages, series and index.md are Markdown
 * (core/capfile.h says it).
 */
int		 archive_md_name(const char *name);
int		 archive_gmi_name(const char *name);

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
/*
 * How far the name b is from the title a (a series named in a post, a
 * series file's title): 0 when the slug of one holds the other's
 * ("Sharpening" in "Sharpening, From Scratch"), else one more than the
 * edits between the slugs (Levenshtein, the first 200 bytes of each).
 */
size_t		 slug_nearness(const char *a, const char *b);

#endif
