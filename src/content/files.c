/*
 * files.c -- what of files/ and of a page bundle's folder the server
 * opens: the one rule, which the router (site/static.c) and the link
 * check (content/links.c) go through, so that a link is never resolved
 * to what the server would refuse.
 *
 * A page bundle's folder is its post's; a single-file post's folder
 * serves the files beside it the same way, but for posts' sources and
 * other bundles' folders (not_beside()), and so does its asset folder
 * (core/capfile.h), looked in first.  Hidden names are refused first;
 * fsafe_open() (core/fsafe.h) then walks the path beneath the capsule,
 * symbolic links as the caller says; the open file is refused last for
 * a second hard link, and in a user capsule for not being its owner's
 * alone (files_refused(), which also says what a bundle's shortcodes
 * are shown: content/record.c).  Knows the file system and the
 * snapshot's copy of those rules; the caller owns the fd.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/archive_int.h"
#include "core/capfile.h"
#include "core/fsafe.h"
#include "core/userdir.h"
#include "core/util.h"

int
archive_hidden_name(const char *path)
{
	return path[0] == '.' || strstr(path, "/.") != NULL;
}

/*
 * A second name for a file may be one from anywhere on the file system
 * (a hard link cannot be told from the original), and in a user capsule
 * it must be its owner's alone (core/userdir.h).
 */
int
files_refused(const struct stat *st, bool hardlinks, int owned,
    uid_t owner)
{
	if (st->st_nlink > 1 && !hardlinks)
		return EMLINK;
	if (owned && !userdir_owned(st, owner))
		return EPERM;
	return 0;
}

/* fd, or -1 with errno why and fd closed when why is not 0. */
static int
refused_or(int fd, int why)
{
	if (why == 0)
		return fd;
	close(fd);
	errno = why;
	return -1;
}

int
archive_files_open(const struct archive *a, const char *rel, int links,
    bool hardlinks, struct stat *st, enum fsafe_kind *kind)
{
	int	 fd;

	if (archive_hidden_name(rel)) {
		errno = ENOENT;
		return -1;
	}
	if ((fd = fsafe_open(a->dir, rel, (enum fsafe_links)links, st,
	    kind)) == -1)
		return -1;
	/* A directory has a link per subdirectory; only its owner counts. */
	return refused_or(fd, files_refused(st, *kind == FSAFE_FILE ?
	    hardlinks : true, a->owned, a->owner));
}

/*
 * A name beside a single-file post that is no file of its own: a post's
 * source (".md", ".gmi", an ".html" with front matter: another post, a
 * draft, a section's page), a source a generator rendered a post from
 * (".Rmd"), a name in a drafts folder, or a name in a folder that is a
 * bundle (another post's, maybe a draft's).
 * rel is the name's path in the capsule, dirlen the post's folder's
 * length in it.
 */
static int
not_beside(const struct archive *a, const char *rel, size_t dirlen)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	const char	*slash;
	char		*dir, idx[CAPFILE_INDEX_MAX];
	const char	*name;
	enum capfile_kind k;
	int		 fd, found = 0;

	/*
	 * A source (an HTML file only with front matter: without, it is
	 * a page served beside the posts), or a renderer's source.
	 */
	name = (name = strrchr(rel, '/')) != NULL ? name + 1 : rel;
	k = capfile_entry(CAPFILE_POSTS_DIR, name, false, NULL);
	if (k == CAPFILE_POST && capfile_needs_fence(name)) {
		if ((fd = fsafe_open(a->dir, rel, FSAFE_LINKS_NONE, &st,
		    &kind)) == -1)
			return 1;
		found = kind != FSAFE_FILE || capfile_fenced_fd(fd);
		close(fd);
		if (found)
			return 1;
	} else if (k != CAPFILE_RESOURCE)
		return 1;
	/* A drafts folder's files are its drafts'. */
	if (capfile_in_drafts(rel + dirlen + 1))
		return 1;
	for (slash = strchr(rel + dirlen + 1, '/'); slash != NULL && !found;
	    slash = strchr(slash + 1, '/')) {
		dir = xstrndup(rel, (size_t)(slash - rel));
		if ((fd = fsafe_open(a->dir, dir, FSAFE_LINKS_NONE, &st,
		    &kind)) != -1) {
			found = kind == FSAFE_DIR && capfile_bundle(fd, ".",
			    idx, sizeof(idx), NULL) != NULL;
			close(fd);
		}
		free(dir);
	}
	return found;
}

/*
 * Is name in the asset folder of the single-file post p, whose folder
 * is dirlen bytes of p->path (capfile_asset_dir(): Hexo's "x/" beside
 * "x.md", Typora's "x.assets/")?  Then its name in the capsule,
 * malloc'd; else NULL.  Looked at as archive_bundle_open() opens it.
 */
static char *
in_asset_dir(const struct archive *a, const struct post *p,
    const char *name, size_t dirlen)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	char		 dir[NAME_MAX + 1], *rel;
	size_t		 n;
	int		 fd;

	for (n = 0; capfile_asset_dir(n, p->path + dirlen + 1, dir,
	    sizeof(dir)); n++) {
		rel = xasprintf("%.*s/%s/%s", (int)dirlen, p->path, dir, name);
		fd = archive_hidden_name(rel) || not_beside(a, rel, dirlen) ?
		    -1 : fsafe_open(a->dir, rel, FSAFE_LINKS_NONE, &st, &kind);
		if (fd != -1) {
			close(fd);
			if (kind == FSAFE_FILE)
				return rel;
		}
		free(rel);
	}
	return NULL;
}

char *
archive_bundle_rel(const struct archive *a, const struct post *p,
    const char *name)
{
	const char	*slash = strrchr(p->path, '/');
	size_t		 dirlen = (size_t)(slash - p->path);
	char		*rel;

	if (!p->bundle && *name != '\0' &&
	    (rel = in_asset_dir(a, p, name, dirlen)) != NULL)
		return rel;
	return xasprintf("%.*s/%s", (int)dirlen, p->path, name);
}

int
archive_bundle_open(const struct archive *a, const struct post *p,
    const char *name, bool hardlinks, struct stat *st)
{
	enum fsafe_kind	 kind;
	const char	*slash;
	char		*rel;
	int		 fd;

	/*
	 * No index is a file of the bundle: neither the one that is its
	 * post, nor another beside it (content/dirscan.c); nor is the
	 * source a generator rendered it from ("index.Rmd").
	 */
	if ((slash = strrchr(p->path, '/')) == NULL || *name == '\0' ||
	    (p->bundle && strchr(name, '/') == NULL &&
	    capfile_entry(CAPFILE_BUNDLE_DIR, name, false, NULL) !=
	    CAPFILE_RESOURCE)) {
		errno = ENOENT;
		return -1;
	}
	/* A single-file post's asset folder first, then beside it. */
	rel = archive_bundle_rel(a, p, name);
	fd = archive_hidden_name(rel) || (!p->bundle && not_beside(a, rel,
	    (size_t)(slash - p->path))) ? -1 : fsafe_open(a->dir, rel,
	    FSAFE_LINKS_NONE, st, &kind);
	free(rel);
	if (fd == -1) {
		errno = ENOENT;
		return -1;
	}
	return refused_or(fd, kind != FSAFE_FILE ? ENOENT :
	    files_refused(st, hardlinks, a->owned, a->owner));
}
