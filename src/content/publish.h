/*
 * publish.h -- writing posts into a capsule for Titan uploads: which
 * file a post lives in, what an upload must hold, and the write itself,
 * which never leaves a partial file.
 *
 * Knows the file system, front matter and the archive's lookups;
 * nothing of the Titan request line (proto/titan.h) or of connections.
 * The upload session (net/titan_upload.c) calls publish_target() and
 * publish_check() on its loop, publish_store() and publish_trash() on
 * libuv's pool: they block on fsync.
 */
#ifndef CAPSULED_PUBLISH_H
#define CAPSULED_PUBLISH_H

#include <stddef.h>

struct archive;

/*
 * The file under posts/ that slug is written to: the one a's post or
 * draft with that slug came from, in any folder and of either format
 * (a dated name is kept; a bundle's is its "<dir>/index.md" or
 * "index.gmi"), else "<slug>.md", or "<slug>.gmi" when gemtext is set.
 * Into name[0..namelen).
 */
void	 publish_target(const struct archive *a, const char *slug,
	    int gemtext, char *name, size_t namelen);

/*
 * Check an upload for posts/<name> at /posts/<slug>: valid UTF-8 with
 * no NUL, front matter that parses, a date (front matter or a dated
 * file name) and a slug that stays the same.  Returns 0 with *draft set
 * from the front matter, or -1 with err (fit for a 59 META) filled.
 */
int	 publish_check(const char *data, size_t len, const char *slug,
	    const char *name, int *draft, char *err, size_t errlen);

/* What publish_store() and publish_trash() return besides 0 and -1. */
#define PUBLISH_NONE	1	/* no file holds the post */
#define PUBLISH_TAKEN	2	/* the file holds another post */

/*
 * Write data[0..len) as <capsule>/posts/<name>, the file of the post
 * slug (name may be in a folder: each part is opened without following
 * a link), atomically: a hidden temporary file in name's folder (never
 * named *.md), written, fsync'd, then renamed over name, then the directory
 * fsync'd.  The old file's mode is kept.  When name exists it must hold
 * slug's post, as the disk says now (its front matter's slug, or its
 * name's when it has none or it does not parse): else PUBLISH_TAKEN,
 * and nothing is written.  The bytes it replaces are kept in
 * .trash/<name>.<UTC time> first (a hard link, or a copy; .trash/ is
 * flat, a '/' of name is a '_' there), so a crash
 * leaves the old post or the new one, whole, and the old one's bytes
 * in .trash/; at worst also a ".titan-*.tmp" file that nothing reads.
 * Returns 0; PUBLISH_TAKEN with err saying whose the file is; or -1
 * with err filled (the temporary file removed).
 */
int	 publish_store(const char *capsule, const char *name, const char *slug,
	    const char *data, size_t len, char *err, size_t errlen);

/*
 * Move <capsule>/posts/<name>, the file of the post slug, to
 * <capsule>/.trash/<name>.<UTC time> (never over another file there):
 * nothing is ever removed.  A bundle's post ("<dir>/index.md") is its
 * whole folder: <dir> is moved, with the files it shows.  Returns 0; PUBLISH_NONE when there is no
 * such file; PUBLISH_TAKEN when it holds another post (left alone);
 * -1 with err filled.
 */
int	 publish_trash(const char *capsule, const char *name, const char *slug,
	    char *err, size_t errlen);

#endif
