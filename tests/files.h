/*
 * files.h -- the files the unit tests build their capsules from: write
 * one, make a directory, remove a tree.  Any failure ends the test
 * binary (exit 2): a test on a half-made capsule proves nothing.
 */
#ifndef CAPSULED_TEST_FILES_H
#define CAPSULED_TEST_FILES_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

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
