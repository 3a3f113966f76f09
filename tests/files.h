/*
 * files.h -- the files the unit tests build their capsules from: write
 * one, make a directory, remove a tree.  Any failure ends the test
 * binary (exit 2): a test on a half-made capsule proves nothing.
 */
#ifndef CAPSULED_TEST_FILES_H
#define CAPSULED_TEST_FILES_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * Does this kernel have openat2(2)?  Kernels before 5.6, and valgrind
 * 3.19, do not: core/fsafe.c then walks paths itself and follows no
 * symbolic link at all, and tests of links expect that.
 */
static inline int
have_openat2(void)
{
	struct open_how	 how;
	long		 fd;

	memset(&how, 0, sizeof(how));
	how.flags = O_PATH | O_CLOEXEC;
	fd = syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof(how));
	if (fd >= 0)
		close((int)fd);
	return fd >= 0 || errno != ENOSYS;
}

/* dir/rel, or exit 2 when it does not fit. */
static inline void
test_path(char *path, size_t size, const char *dir, const char *rel)
{
	if ((size_t)snprintf(path, size, "%s/%s", dir, rel) >= size) {
		fprintf(stderr, "%s/%s: path too long\n", dir, rel);
		exit(2);
	}
}

/* Write text to dir/rel (created or truncated: the same inode). */
static inline void
test_put(const char *dir, const char *rel, const char *text)
{
	char	 path[PATH_MAX];
	FILE	*f;

	test_path(path, sizeof(path), dir, rel);
	if ((f = fopen(path, "w")) == NULL) {
		perror(path);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
}

/* Make dir/rel; one that exists is fine. */
static inline void
test_mkdir(const char *dir, const char *rel)
{
	char	 path[PATH_MAX];

	test_path(path, sizeof(path), dir, rel);
	if (mkdir(path, 0755) == -1 && errno != EEXIST) {
		perror(path);
		exit(2);
	}
}

static inline void
test_rm_tree(const char *dir)
{
	char	 cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

#endif
