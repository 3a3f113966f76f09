/*
 * dirscan.c -- the folders of a capsule, listed: which names in
 * posts/, series/ and pages/ are files of the archive, in sorted name
 * order (so every run gives the same result), and which folders of
 * posts/ are page bundles.
 *
 * posts/ is read whole, every folder beneath it (sections, year and
 * date folders, bundles at any depth).  A folder is opened beneath its
 * parent's fd with O_NOFOLLOW (a link to a folder is no folder of the
 * capsule); hidden names and names with
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

/* Folders below posts/ that are read: a date tree is three deep. */
#define DIRSCAN_MAX_DEPTH	8

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
 * name of the index, or NULL when de is no bundle; *both says whether
 * the folder holds the two (index.md is then the post, and index.gmi
 * neither read nor served: content/files.c).
 */
static const char *
bundle_index(int pfd, const struct dirent *de, int *both)
{
	static const char *const index[] = { "index.md", "index.gmi" };
	struct stat	 st;
	char		 path[NAME_MAX + 16];
	const char	*found = NULL;
	size_t		 i;

	*both = 0;
	if (de->d_type != DT_DIR && (de->d_type != DT_UNKNOWN ||
	    fstatat(pfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
	    !S_ISDIR(st.st_mode)))
		return NULL;
	for (i = 0; i < nitems(index); i++) {
		snprintf(path, sizeof(path), "%s/%s", de->d_name, index[i]);
		if (fstatat(pfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			if (found != NULL)
				*both = 1;
			else
				found = index[i];
		}
	}
	return found;
}

/* A growing list of names. */
struct names {
	char		**v;
	size_t		 n, cap;
};

static void
names_add(struct names *l, char *name)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = name;
}

/*
 * What de (beneath pfd) is, as readdir(3) says or, when it does not,
 * lstat(2): DT_DIR (a folder itself, not a link to one), DT_LNK, or
 * something else.
 */
static int
entry_type(int pfd, const struct dirent *de)
{
	struct stat	 st;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type;
	if (fstatat(pfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1)
		return DT_UNKNOWN;
	return S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK :
	    DT_UNKNOWN;
}

/*
 * One folder of posts/, open at fd, prefix its path beneath posts/
 * ("" for posts/ itself, else "inside-rust/"): its *.md and *.gmi
 * names, its bundles (bundle_index()), and what its other folders hold,
 * depth being how far below posts/ it is.  A section's page
 * (_index.md, as Zola and Hugo keep one in each section) is no post;
 * a link to a folder is not followed.  Both are named at info level,
 * as is a folder deeper than DIRSCAN_MAX_DEPTH, so that --check says
 * what it did not take and why.  Closes fd.
 */
static void
walk_posts(struct archive *a, int fd, const char *prefix, int depth,
    struct names *l)
{
	DIR		*d;
	struct dirent	*de;
	const char	*bundle;
	char		*sub, *other;
	int		 cfd, type, both;

	if ((d = fdopendir(fd)) == NULL) {
		log_warnx("posts/%s: %s, not loaded", prefix, strerror(errno));
		a->nwarnings++;
		close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (bad_name(de->d_name)) {
			log_warnx("posts/%s: a file name with control "
			    "characters, skipped", prefix);
			a->nwarnings++;
			a->nskipped++;
			continue;
		}
		if (strcmp(de->d_name, "_index.md") == 0 ||
		    strcmp(de->d_name, "_index.gmi") == 0) {
			log_info("posts/%s%s: a section's page, not a post",
			    prefix, de->d_name);
			continue;
		}
		if (archive_md_name(de->d_name) ||
		    archive_gmi_name(de->d_name)) {
			names_add(l, xasprintf("%s%s", prefix, de->d_name));
			continue;
		}
		if ((bundle = bundle_index(dirfd(d), de, &both)) != NULL) {
			names_add(l, xasprintf("%s%s/%s", prefix, de->d_name,
			    bundle));
			if (both) {
				other = xasprintf("posts/%s%s/index.gmi",
				    prefix, de->d_name);
				archive_warn(a, other, 1, 1, "index.md is this "
				    "bundle's post: index.gmi is neither read "
				    "nor served", 0);
				free(other);
			}
			continue;
		}
		if ((type = entry_type(dirfd(d), de)) == DT_LNK) {
			log_info("posts/%s%s: a symbolic link, not followed",
			    prefix, de->d_name);
			continue;
		}
		if (type != DT_DIR)
			continue;	/* a file beside posts: served */
		sub = xasprintf("%s%s/", prefix, de->d_name);
		if (depth >= DIRSCAN_MAX_DEPTH) {
			log_warnx("posts/%s: more than %d folders deep, not "
			    "loaded", sub, DIRSCAN_MAX_DEPTH);
			a->nwarnings++;
		} else if ((cfd = openat(dirfd(d), de->d_name, O_RDONLY |
		    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
			log_warnx("posts/%s: %s, not loaded", sub,
			    strerror(errno));
			a->nwarnings++;
		} else if (record_dir_not_owned(a, cfd, sub))
			close(cfd);
		else
			walk_posts(a, cfd, sub, depth + 1, l);
		free(sub);
	}
	closedir(d);
}

/*
 * The *.md names in dfd/sub, sorted; with posts, *.gmi names and page
 * bundles ("<folder>/index.md", bundle_index()) too, in every folder
 * beneath (walk_posts(): "2019/x.md", "2020/01/02/x/index.gmi").
 * Hidden files and other names are left out.  Returns the directory's
 * fd (to open the files beneath), or -1 when it is absent (quietly) or
 * unusable (a warning).
 */
int
dirscan_list(struct archive *a, int dfd, const char *sub, int posts,
    char ***namesp, size_t *np)
{
	DIR		*d;
	struct dirent	*de;
	struct names	 l = { NULL, 0, 0 };
	char		 why[160];
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
	if ((fd2 = dup(fd)) == -1 || (!posts &&
	    (d = fdopendir(fd2)) == NULL)) {
		if (fd2 != -1)
			close(fd2);
		snprintf(why, sizeof(why), "%s, not loaded", strerror(errno));
		archive_warn(a, sub, 1, 1, why, 0);
		close(fd);
		return -1;
	}
	if (posts)
		walk_posts(a, fd2, "", 0, &l);
	else {
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.' ||
			    !archive_md_name(de->d_name))
				continue;
			if (bad_name(de->d_name)) {
				log_warnx("%s: a file name with control "
				    "characters, skipped", sub);
				a->nwarnings++;
				a->nskipped++;
				continue;
			}
			names_add(&l, xstrdup(de->d_name));
		}
		closedir(d);
	}
	if (l.n > 1)
		qsort(l.v, l.n, sizeof(*l.v), cmp_name);
	*namesp = l.v;
	*np = l.n;
	return fd;
}

/*
 * record_get() for a name of dirscan_list("posts"): a name in a folder
 * ("2019/x.md", a bundle's "x/index.md") is read beneath its folders,
 * each opened without following a link, so that a folder swapped for a
 * link after the listing leads nowhere.
 */
struct archive_file *
dirscan_post_file(struct archive *a, int pfd, const char *name,
    const char *rel)
{
	struct archive_file	*f;
	const char		*p = name, *slash;
	char			 dir[NAME_MAX + 1], why[160];
	int			 fd = pfd, bfd;

	while ((slash = strchr(p, '/')) != NULL) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - p), p);
		bfd = openat(fd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (fd != pfd)
			close(fd);
		if (bfd == -1) {
			snprintf(why, sizeof(why), "%s, skipped",
			    strerror(errno));
			archive_warn(a, rel, 1, 1, why, 1);
			return NULL;
		}
		if (record_dir_not_owned(a, bfd, dir)) {
			close(bfd);
			return NULL;
		}
		fd = bfd;
		p = slash + 1;
	}
	f = record_get(a, fd, p, rel, 0);
	if (fd != pfd)
		close(fd);
	return f;
}
