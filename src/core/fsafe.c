/*
 * fsafe.c -- open files beneath a root directory, refusing every way out.
 *
 * Linux 5.6+ resolves the whole path in the kernel with openat2(2).
 * Where openat2 is missing (ENOSYS: old kernels, some seccomp sandboxes)
 * we walk the path one component at a time with O_NOFOLLOW, which is
 * stricter: no symlink at all is followed (unless any link is allowed).
 *
 * A file is opened twice: with O_PATH to see what it is without opening
 * it, then, when it is a regular file or a directory, for reading; the
 * second open must find the same inode, or the path was swapped between
 * the two and we answer "not found".
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/fsafe.h"
#include "core/url.h"
#include "core/util.h"

int	 fsafe_no_openat2;

/* Component by component, never following a symlink (no openat2). */
static int
walk_nofollow(int rootfd, const char *rel, int flags)
{
	char		 comp[256];
	const char	*p, *slash;
	int		 fd, next, last;
	size_t		 len;

	if ((fd = dup(rootfd)) == -1)
		return -1;
	for (p = rel; *p != '\0'; p = slash + 1) {
		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		if (len >= sizeof(comp)) {
			close(fd);
			errno = ENAMETOOLONG;
			return -1;
		}
		if (len == 0)			/* "a//b" */
			continue;
		memcpy(comp, p, len);
		comp[len] = '\0';
		/* "dir/" ends the path: the last component, a directory. */
		last = slash == NULL || slash[1] == '\0';
		next = openat(fd, comp, (last ? flags | (slash ? O_DIRECTORY :
		    0) : O_PATH | O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (next == -1)
			return -1;
		fd = next;
		if (last)
			return fd;
	}
	errno = ENOENT;			/* nothing but slashes */
	close(fd);
	return -1;
}

/*
 * openat2(2) with RESOLVE_BENEATH answers EAGAIN when a rename anywhere
 * on the system raced the resolution of a ".." (the kernel cannot then
 * prove the walk stayed beneath); its manual says to retry.  A few tries
 * are plenty: the race is a window of microseconds.
 */
static long
openat2_retry(int rootfd, const char *rel, struct open_how *how)
{
	long	 rv;
	int	 tries = 0;

	do
		rv = syscall(SYS_openat2, rootfd, rel, how, sizeof(*how));
	while (rv < 0 && errno == EAGAIN && ++tries < 16);
	return rv;
}

/*
 * With linked non-NULL, *linked says whether a symbolic link was
 * followed: the path is first tried without any (the usual case costs
 * nothing more), then, on ELOOP, as links allows.  Without openat2, any
 * link allowed may have been followed.
 */
static int
open_beneath(int rootfd, const char *rel, int flags, enum fsafe_links links,
    int *linked)
{
	struct open_how	 how;
	long		 rv;

	memset(&how, 0, sizeof(how));
	how.flags = (unsigned long long)(flags | O_CLOEXEC);
	how.resolve = RESOLVE_NO_MAGICLINKS;
	if (links != FSAFE_LINKS_ANY)
		how.resolve |= RESOLVE_BENEATH;
	if (links == FSAFE_LINKS_NONE)
		how.resolve |= RESOLVE_NO_SYMLINKS;
	if (linked != NULL)
		*linked = 0;
	if (!fsafe_no_openat2) {
		if (linked != NULL && links != FSAFE_LINKS_NONE) {
			how.resolve |= RESOLVE_NO_SYMLINKS;
			rv = openat2_retry(rootfd, rel, &how);
			if (rv >= 0 || (errno != ELOOP && errno != ENOSYS))
				return (int)rv;
			*linked = errno == ELOOP;
			how.resolve &= ~(unsigned long long)RESOLVE_NO_SYMLINKS;
		}
		rv = openat2_retry(rootfd, rel, &how);
		if (rv >= 0 || errno != ENOSYS)
			return (int)rv;
	}
	if (links == FSAFE_LINKS_ANY) {
		if (linked != NULL)
			*linked = 1;
		return openat(rootfd, rel, flags | O_CLOEXEC);
	}
	return walk_nofollow(rootfd, rel, flags);
}

/*
 * 1 when path (absolute, real) is beneath dir (absolute, real) or is it.
 */
static int
beneath(const char *path, const char *dir)
{
	size_t	 len = strcmp(dir, "/") == 0 ? 0 : strlen(dir);

	return strncmp(path, dir, len) == 0 &&
	    (path[len] == '/' || path[len] == '\0');
}

/*
 * rel ("dir/...") went through a symbolic link to the file st: is where
 * it really is allowed?  Beneath root, only beneath dir (where root/dir
 * really is: "files/" stays in files/, never in posts/ or .trash/) and
 * through no name that starts with '.'; out of root, links (the
 * caller's open) decided.  realpath(3) resolves by name, so it works in
 * a chroot without /proc; the inode check catches a link changed since
 * the open.
 */
static int
link_allowed(const char *root, const char *rel, const struct stat *st)
{
	struct stat	 rst;
	char		*rroot, *fence = NULL, *real = NULL, *p;
	const char	*s;
	size_t		 first;
	int		 ok = 0;

	first = strcspn(rel, "/");
	if (rel[first] == '\0')
		return 1;		/* no directory to keep it in */
	if ((rroot = realpath(root, NULL)) == NULL)
		return 0;
	p = xasprintf("%s/%.*s", rroot, (int)first, rel);
	fence = realpath(p, NULL);
	free(p);
	p = xasprintf("%s/%s", rroot, rel);
	real = realpath(p, NULL);
	free(p);
	if (fence == NULL || real == NULL || stat(real, &rst) == -1 ||
	    rst.st_dev != st->st_dev || rst.st_ino != st->st_ino)
		goto done;
	if (!beneath(real, rroot)) {
		ok = 1;			/* out of root */
		goto done;
	}
	/* files -> / (or ..) must not make all of root the fence. */
	if (!beneath(fence, rroot) || strcmp(fence, rroot) == 0 ||
	    !beneath(real, fence))
		goto done;
	for (s = real + (strcmp(rroot, "/") == 0 ? 0 : strlen(rroot));
	    (s = strchr(s, '/')) != NULL; s++)
		if (s[1] == '.')
			goto done;
	ok = 1;
done:
	free(rroot);
	free(fence);
	free(real);
	return ok;
}

/* Relative, no "." or ".." component: the root stays the root. */
static int
clean_rel(const char *rel)
{
	return rel[0] != '/' && rel[0] != '\0' && !url_has_dot_segment(rel);
}

/*
 * rel, which the kernel would not resolve beneath root (EXDEV: an
 * absolute link, or ".." in one), where it really leads when that is
 * beneath root: that path relative to root, malloc'd, or NULL.  The
 * kernel then opens it beneath root again, and link_allowed() judges
 * rel's link as any other: a name changed since is caught by both.
 */
static char *
inside_rel(const char *root, const char *rel)
{
	char	*rroot, *p, *real, *in = NULL;
	size_t	 len;

	if ((rroot = realpath(root, NULL)) == NULL)
		return NULL;
	p = xasprintf("%s/%s", rroot, rel);
	real = realpath(p, NULL);
	free(p);
	len = strcmp(rroot, "/") == 0 ? 0 : strlen(rroot);
	if (real != NULL && beneath(real, rroot) && real[len] == '/' &&
	    clean_rel(real + len + 1))
		in = xstrdup(real + len + 1);
	free(real);
	free(rroot);
	return in;
}

int
fsafe_open(const char *root, const char *rel, enum fsafe_links links,
    struct stat *st, enum fsafe_kind *kind)
{
	struct stat	 pst;
	char		*inside = NULL;
	int		 rootfd, pfd, fd = -1, saved, linked;

	if (!clean_rel(rel)) {
		errno = ENOENT;
		return -1;
	}
	if ((rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -1;
	/* What is it?  O_PATH opens nothing: no driver, no FIFO wait. */
	pfd = open_beneath(rootfd, rel, O_PATH, links, &linked);
	if (pfd == -1 && errno == EXDEV && links == FSAFE_LINKS_INSIDE) {
		/* An absolute link that stays inside: by where it leads. */
		if ((inside = inside_rel(root, rel)) != NULL) {
			linked = 1;
			pfd = open_beneath(rootfd, inside, O_PATH, links,
			    NULL);
		} else
			errno = EXDEV;	/* it leads out: not found */
	}
	if (pfd == -1)
		goto fail;
	if (fstat(pfd, &pst) == -1) {
		close(pfd);
		goto fail;
	}
	close(pfd);
	if (!S_ISREG(pst.st_mode) && !S_ISDIR(pst.st_mode)) {
		errno = ENOENT;		/* FIFO, socket, device: never */
		goto fail;
	}
	/*
	 * O_NONBLOCK and O_NOCTTY in case it was swapped for a FIFO or a
	 * terminal since: then the inode check below refuses it.
	 */
	if ((fd = open_beneath(rootfd, inside != NULL ? inside : rel,
	    O_RDONLY | O_NONBLOCK | O_NOCTTY, links, NULL)) == -1)
		goto fail;
	if (fstat(fd, st) == -1)
		goto fail;
	if (st->st_dev != pst.st_dev || st->st_ino != pst.st_ino ||
	    (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode)) ||
	    (linked && !link_allowed(root, rel, st))) {
		errno = ENOENT;
		goto fail;
	}
	*kind = S_ISDIR(st->st_mode) ? FSAFE_DIR : FSAFE_FILE;
	close(rootfd);
	free(inside);
	return fd;
fail:
	saved = errno;
	free(inside);
	if (fd != -1)
		close(fd);
	close(rootfd);
	if (saved == EXDEV || saved == ELOOP || saved == ENOTDIR ||
	    saved == ENAMETOOLONG || saved == ENXIO)
		saved = ENOENT;		/* escapes or cannot exist: not found */
	errno = saved;
	return -1;
}
