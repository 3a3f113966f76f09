/*
 * fsafe.c -- open files beneath a root directory, refusing every way out.
 *
 * Linux 5.6+ resolves the whole path in the kernel with openat2(2).
 * Where openat2 is missing (ENOSYS: old kernels, some seccomp sandboxes)
 * we walk the path one component at a time with O_NOFOLLOW, which is
 * stricter: no symlink at all is followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fsafe.h"

static int
open_beneath(int rootfd, const char *rel, int flags)
{
	struct open_how	 how;
	char		 comp[256];
	const char	*p, *slash;
	int		 fd, next;
	size_t		 len;
	long		 rv;

	memset(&how, 0, sizeof(how));
	how.flags = (unsigned long long)flags;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	rv = syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
	if (rv >= 0 || errno != ENOSYS)
		return (int)rv;

	/* Fallback: component by component, never following a symlink. */
	if ((fd = dup(rootfd)) == -1)
		return -1;
	for (p = rel; *p != '\0'; p = slash + 1) {
		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		if (len == 0 || len >= sizeof(comp) ||
		    (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.')) {
			close(fd);
			errno = ENOENT;
			return -1;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		next = openat(fd, comp, (slash ? O_PATH | O_DIRECTORY : flags) |
		    O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (next == -1)
			return -1;
		fd = next;
		if (slash == NULL)
			return fd;
	}
	return fd;
}

int
fsafe_open(const char *root, const char *rel, struct stat *st,
    enum fsafe_kind *kind)
{
	int	 rootfd, fd, saved;

	if (rel[0] == '/' || rel[0] == '\0') {
		errno = ENOENT;
		return -1;
	}
	if ((rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -1;
	/*
	 * O_NONBLOCK: opening a FIFO must not wait for a writer; O_NOCTTY:
	 * a terminal must not become ours.  Both are refused just below.
	 */
	fd = open_beneath(rootfd, rel,
	    O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	saved = errno;
	close(rootfd);
	if (fd == -1) {
		if (saved == EXDEV || saved == ELOOP || saved == ENOTDIR ||
		    saved == ENAMETOOLONG || saved == ENXIO)
			saved = ENOENT;	/* escapes or cannot exist: not found */
		errno = saved;
		return -1;
	}
	if (fstat(fd, st) == -1)
		goto fail;
	if (S_ISREG(st->st_mode))
		*kind = FSAFE_FILE;
	else if (S_ISDIR(st->st_mode))
		*kind = FSAFE_DIR;
	else {
		errno = ENOENT;		/* FIFO, socket, device: never */
		goto fail;
	}
	return fd;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}
