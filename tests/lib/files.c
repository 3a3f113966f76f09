/*
 * files.c -- writing, reading and removing the files of a test's
 * capsule (files.h).  util_read_file() of the library reads them back,
 * so a test reads a file the way the server does.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/util.h"
#include "files.h"

/*
 * Does this kernel have openat2(2)?  Kernels before 5.6, and valgrind
 * 3.19, do not: core/fsafe.c then walks paths itself and follows no
 * symbolic link at all, and tests of links expect that.
 */
int
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
void
test_path(char *path, size_t size, const char *dir, const char *rel)
{
	if ((size_t)snprintf(path, size, "%s/%s", dir, rel) >= size) {
		fprintf(stderr, "%s/%s: path too long\n", dir, rel);
		exit(2);
	}
}

/* Make every directory above path's last component (mkdir -p). */
void
test_mkdirs(const char *path)
{
	char	 dir[PATH_MAX], *slash;

	if (strlen(path) >= sizeof(dir)) {
		fprintf(stderr, "%s: path too long\n", path);
		exit(2);
	}
	strcpy(dir, path);
	for (slash = strchr(dir + 1, '/'); slash != NULL;
	    slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(dir, 0755) == -1 && errno != EEXIST) {
			perror(dir);
			exit(2);
		}
		*slash = '/';
	}
}

/*
 * Write len bytes of text to path with mode (created, or truncated: the
 * same inode), making its parents first.
 */
void
test_write_mode(const char *path, mode_t mode, const char *text, size_t len)
{
	int	 fd;

	test_mkdirs(path);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    mode)) == -1 || write(fd, text, len) != (ssize_t)len) {
		perror(path);
		exit(2);
	}
	close(fd);
}

/* Write the formatted text to path (making its parents). */
void
test_write(const char *path, const char *fmt, ...)
{
	va_list	 ap;
	char	*text;
	int	 len;

	va_start(ap, fmt);
	len = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (len < 0) {
		perror("vasprintf");
		exit(2);
	}
	test_write_mode(path, 0644, text, (size_t)len);
	free(text);
}

/* Write text to dir/rel (making its parents). */
void
test_put(const char *dir, const char *rel, const char *text)
{
	char	 path[PATH_MAX];

	test_path(path, sizeof(path), dir, rel);
	test_write_mode(path, 0644, text, strlen(text));
}

/* Make dir/rel; one that exists is fine. */
void
test_mkdir(const char *dir, const char *rel)
{
	char	 path[PATH_MAX];

	test_path(path, sizeof(path), dir, rel);
	if (mkdir(path, 0755) == -1 && errno != EEXIST) {
		perror(path);
		exit(2);
	}
}

/*
 * The whole of path, NUL-terminated (free it).  When it cannot be read:
 * a copy of missing, or NULL when missing is NULL (a test of a file's
 * absence asks for NULL, one that reads a log not yet written for "").
 */
char *
test_read(const char *path, const char *missing)
{
	size_t	 len;
	char	*text;

	if ((text = util_read_file(path, SIZE_MAX, &len)) == NULL &&
	    missing != NULL)
		text = xstrdup(missing);
	return text;
}

void
test_rm_tree(const char *dir)
{
	char	 cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

int
test_count_lines(const char *path, const char *needle)
{
	FILE	*f;
	char	 line[4096];
	int	 n = 0;

	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

char *
test_corpus_dir(void)
{
	const char	*env = getenv("CAPSULED_CORPUS");
	const char	*top = getenv("CAPSULED_TOP");
	char		 path[4096], probe[4200];
	static const char *const up[] = { "..", "../.." };
	size_t		 i;
	DIR		*d;

	if (env != NULL && *env != '\0')
		return xstrdup(env);
	if (top == NULL)
		top = ".";
	for (i = 0; i < nitems(up); i++) {
		snprintf(path, sizeof(path), "%s/%s/shared/corpus/18f", top,
		    up[i]);
		snprintf(probe, sizeof(probe), "%s/posts", path);
		if ((d = opendir(probe)) != NULL) {
			closedir(d);
			return realpath(path, NULL);
		}
	}
	return NULL;
}
