/*
 * fsafe.h -- open a file under the capsule with no way out.
 *
 * Every path is resolved by the kernel beneath the capsule directory
 * (openat2 with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS): "..", absolute
 * paths and symlinks that point outside all fail, whatever encoding the
 * request used.  Only regular files and directories are ever opened for
 * reading: the path is first opened with O_PATH, which does not open the
 * object itself, and FIFOs, sockets and devices are refused there, so a
 * device's driver never sees an open(2) from us and a FIFO cannot block.
 * A link may not lead from one directory of the root into another
 * (fsafe_open()).  Knows nothing of requests.
 */
#ifndef CAPSULED_FSAFE_H
#define CAPSULED_FSAFE_H

#include <sys/stat.h>

enum fsafe_kind {
	FSAFE_FILE,
	FSAFE_DIR,
};

/* Which symbolic links are followed (the same order as config.h's). */
enum fsafe_links {
	FSAFE_LINKS_INSIDE,	/* those that resolve beneath the root */
	FSAFE_LINKS_ANY,	/* any, even out of the root */
	FSAFE_LINKS_NONE,	/* none: a link anywhere in the path fails */
};

/*
 * Open rel (no leading '/', no "." or ".." component) beneath the
 * directory root.  When rel is "dir/...", a symbolic link that resolves
 * beneath root must resolve beneath root/dir, and through no name that
 * starts with '.', whatever links says: root/files/x may not lead to
 * root/posts/ or root/.trash/ (out of root, links decides).  On success
 * returns an fd opened O_RDONLY (a regular file or a directory), with
 * *st filled and *kind set.  On failure returns -1 with errno: ENOENT
 * (absent, escapes the root or dir, a link not allowed by links, not a
 * regular file or directory, or swapped while we looked), EACCES
 * (unreadable), or another errno.
 */
int	 fsafe_open(const char *root, const char *rel, enum fsafe_links links,
	    struct stat *st, enum fsafe_kind *kind);

/* Tests set this to take the path openat2-less kernels take. */
extern int	 fsafe_no_openat2;

#endif
