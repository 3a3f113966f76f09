/*
 * fsafe.h -- open a file under the capsule with no way out.
 *
 * Every path is resolved by the kernel beneath the capsule directory
 * (openat2 with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS): "..", absolute
 * paths and symlinks that point outside all fail, whatever encoding the
 * request used.  Only regular files and directories are ever returned;
 * FIFOs, sockets and devices are refused without being opened for I/O
 * (O_PATH first, so a FIFO cannot block us).  Knows nothing of requests.
 */
#ifndef CAPSULED_FSAFE_H
#define CAPSULED_FSAFE_H

#include <sys/stat.h>

enum fsafe_kind {
	FSAFE_FILE,
	FSAFE_DIR,
};

/*
 * Open rel (no leading '/') beneath the directory root.  On success
 * returns an fd opened O_RDONLY (a file) or O_DIRECTORY (a directory),
 * with *st filled and *kind set.  On failure returns -1 with errno:
 * ENOENT (absent, escapes the root, not a regular file or directory),
 * EACCES (unreadable), or another errno.
 */
int	 fsafe_open(const char *root, const char *rel, struct stat *st,
	    enum fsafe_kind *kind);

#endif
