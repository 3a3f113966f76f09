/*
 * dirscan.c -- the folders of a capsule, listed: which names in
 * posts/, series/ and pages/ are files of the archive, in sorted name
 * order (so every run gives the same result), and which folders of
 * posts/ are page bundles.
 *
 * A folder is opened beneath its parent's fd with O_NOFOLLOW (a link
 * to a folder is no folder of the capsule); hidden names and names with
 * control characters are left out, the latter with a warning.  Knows
 * the file system; the files themselves are read by record.c.  The
 * lists are malloc'd, the caller's (util_free_strings()).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/archive_int.h"
#include "core/log.h"
#include "core/util.h"

/* A file name with bytes that would garble a log line. */
static int
bad_name(const char *name)
{
	for (; *name; name++)
		if ((unsigned char)*name < 0x20 || *name == 0x7F)
			return 1;
	return 0;
}

static int
cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/*
 * A page bundle: a folder of posts/ (a directory itself, not a link to
 * one) with an index.md or index.gmi in it, the post; the rest of the
 * folder is the post's files, served from disk (site/static.c).  The
 * name of the index, or NULL when de is no bundle.
 */
static const char *
bundle_index(int pfd, const struct dirent *de)
{
	static const char *const index[] = { "index.md", "index.gmi" };
	struct stat	 st;
	char		 path[NAME_MAX + 16];
	size_t		 i;

	if (de->d_type != DT_DIR && (de->d_type != DT_UNKNOWN ||
	    fstatat(pfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
	    !S_ISDIR(st.st_mode)))
		return NULL;
	for (i = 0; i < nitems(index); i++) {
		snprintf(path, sizeof(path), "%s/%s", de->d_name, index[i]);
		if (fstatat(pfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
			return index[i];
	}
	return NULL;
}

/*
 * The *.md names in dfd/sub, sorted; with posts, *.gmi names and page
 * bundles ("<folder>/index.md", bundle_index()) too.  Hidden files and
 * other names are left out.  Returns the directory's fd (to open the
 * files beneath), or -1 when it is absent (quietly) or unusable (a
 * warning).
 */
int
dirscan_list(struct archive *a, int dfd, const char *sub, int posts,
    char ***namesp, size_t *np)
{
	DIR		*d;
	struct dirent	*de;
	char		**names = NULL, why[160], other[NAME_MAX + 24];
	const char	*bundle;
	size_t		 n = 0, cap = 0;
	int		 fd, fd2;

	*namesp = NULL;
	*np = 0;
	if ((fd = openat(dfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			return -1;
		snprintf(why, sizeof(why), "%s, not loaded",
		    errno == ELOOP ? "symbolic link" : strerror(errno));
		archive_warn(a, sub, 1, 1, why, 0);
		return -1;
	}
	if (record_dir_not_owned(a, fd, sub)) {
		close(fd);
		return -1;
	}
	if ((fd2 = dup(fd)) == -1 || (d = fdopendir(fd2)) == NULL) {
		if (fd2 != -1)
			close(fd2);
		snprintf(why, sizeof(why), "%s, not loaded", strerror(errno));
		archive_warn(a, sub, 1, 1, why, 0);
		close(fd);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		bundle = NULL;
		if (de->d_name[0] == '.' || (!archive_md_name(de->d_name) &&
		    (!posts || (!archive_gmi_name(de->d_name) &&
		    (bundle = bundle_index(fd, de)) == NULL))))
			continue;
		if (bad_name(de->d_name)) {
			log_warnx("%s: a file name with control characters, "
			    "skipped", sub);
			a->nwarnings++;
			a->nskipped++;
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = xreallocarray(names, cap, sizeof(*names));
		}
		names[n++] = bundle ? xasprintf("%s/%s", de->d_name, bundle) :
		    xstrdup(de->d_name);
		/* Both: index.md is the post, index.gmi no file of it. */
		snprintf(other, sizeof(other), "posts/%s/index.gmi",
		    de->d_name);
		if (bundle != NULL && strcmp(bundle, "index.md") == 0 &&
		    faccessat(fd, other + 6, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			archive_warn(a, other, 1, 1, "index.md is this "
			    "bundle's post: index.gmi is neither read nor "
			    "served", 0);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_name);
	*namesp = names;
	*np = n;
	return fd;
}

/*
 * record_get() for a name of dirscan_list("posts"): a bundle's index is
 * read beneath its folder, opened without following a link, so that a
 * folder swapped for a link after the listing leads nowhere.
 */
struct archive_file *
dirscan_post_file(struct archive *a, int pfd, const char *name,
    const char *rel)
{
	struct archive_file	*f;
	const char		*slash = strchr(name, '/');
	char			 dir[NAME_MAX + 1], why[160];
	int			 bfd;

	if (slash == NULL)
		return record_get(a, pfd, name, rel, 0);
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - name), name);
	if ((bfd = openat(pfd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		snprintf(why, sizeof(why), "%s, skipped", strerror(errno));
		archive_warn(a, rel, 1, 1, why, 1);
		return NULL;
	}
	if (record_dir_not_owned(a, bfd, dir)) {
		close(bfd);
		return NULL;
	}
	f = record_get(a, bfd, slash + 1, rel, 0);
	close(bfd);
	return f;
}
