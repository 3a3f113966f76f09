/*
 * publish.c -- posts written into the capsule for Titan uploads
 * (publish.h): which file a post lives in, what an upload must hold,
 * and the atomic write and the move to .trash/.
 *
 * Writes go through a hidden temporary file in the same directory,
 * fsync, rename and a directory fsync, so a reader (the archive, the
 * watcher, a crash) sees the old post or the new one, whole.  Two
 * uploads of one post race only at the rename: the last one wins, and
 * each is whole.  Deleting moves the file into .trash/, a directory of
 * the capsule that nothing serves, lists or loads.
 *
 * Knows the file system, front matter and the archive's lookups; knows
 * nothing of Titan's request line or of connections.  Every function
 * works on the caller's memory; nothing is kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/frontmatter.h"
#include "content/publish.h"
#include "core/date.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"

void
publish_target(const struct archive *a, const char *slug, char *name,
    size_t namelen)
{
	const struct post	*p = NULL;
	const char		*base;

	if (a != NULL && (p = archive_post(a, slug)) == NULL)
		p = archive_draft(a, slug);
	if (p != NULL && strncmp(p->path, "posts/", 6) == 0) {
		base = p->path + 6;
		if (strchr(base, '/') == NULL && strlen(base) < namelen) {
			snprintf(name, namelen, "%s", base);
			return;
		}
	}
	snprintf(name, namelen, "%s.md", slug);
}

int
publish_check(const char *data, size_t len, const char *slug,
    const char *name, int *draft, char *err, size_t errlen)
{
	struct meta	 m;
	struct fm_error	 fe;
	struct date	 d;
	char		*s, *stem;
	size_t		 stemlen;
	int		 rv = -1;

	*draft = 0;
	if (memchr(data, '\0', len) != NULL) {
		snprintf(err, errlen, "the upload holds a NUL byte");
		return -1;
	}
	if (!utf8_valid(data, len)) {
		snprintf(err, errlen, "the upload is not valid UTF-8");
		return -1;
	}
	if (frontmatter_parse(data, len, &m, &fe) == -1) {
		snprintf(err, errlen, "front matter, line %u column %u: %s",
		    fe.line, fe.col, fe.msg);
		return -1;
	}
	/*
	 * The archive would serve it, ignoring the value; the writer
	 * uploading now can fix it now.
	 */
	if (m.nignored > 0) {
		snprintf(err, errlen, "front matter, line %u column %u: %s",
		    m.ignored.line, m.ignored.col, m.ignored.msg);
		meta_free(&m);
		return -1;
	}
	stemlen = strlen(name) > 3 ? strlen(name) - 3 : 0;
	stem = xstrndup(name, stemlen);
	if (!m.has_date && !m.draft && date_from_filename(stem, &d) == -1) {
		snprintf(err, errlen, "no date: the front matter needs "
		    "\"date: YYYY-MM-DD\"");
		goto out;
	}
	if (m.slug != NULL) {
		s = archive_slugify(m.slug);
		if (strcmp(s, slug) != 0) {
			snprintf(err, errlen, "the front matter's slug \"%.60s\""
			    " is not %.100s", m.slug, slug);
			free(s);
			goto out;
		}
		free(s);
	} else {
		/* The slug comes from the file name: it must still fit. */
		s = archive_slugify(date_from_filename(stem, &d) == 0 ?
		    stem + 11 : stem);
		if (strcmp(s, slug) != 0) {
			snprintf(err, errlen, "posts/%.80s takes its slug from "
			    "its front matter: keep \"slug: %.80s\"", name,
			    slug);
			free(s);
			goto out;
		}
		free(s);
	}
	*draft = m.draft;
	rv = 0;
out:
	free(stem);
	meta_free(&m);
	return rv;
}

static void
set_err(char *err, size_t errlen, const char *what, const char *name)
{
	snprintf(err, errlen, "%s %.100s: %s", what, name, strerror(errno));
}

/* The capsule's directory (creating it when asked), opened beneath. */
static int
open_dir(int cfd, const char *name, mode_t mode, int create)
{
	if (create && mkdirat(cfd, name, mode) == -1 && errno != EEXIST)
		return -1;
	return openat(cfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
}

static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t	 n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Check that name is a plain file name (posts/<name>) and open the
 * capsule directory; the fd, or -1 with err set.
 */
static int
open_capsule(const char *capsule, const char *name, char *err, size_t errlen)
{
	int	 cfd;

	if (strchr(name, '/') != NULL || name[0] == '.' || name[0] == '\0') {
		snprintf(err, errlen, "bad file name");
		return -1;
	}
	if ((cfd = open(capsule, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		set_err(err, errlen, "open", capsule);
	return cfd;
}

int
publish_store(const char *capsule, const char *name, const char *data,
    size_t len, char *err, size_t errlen)
{
	static atomic_uint	 seq;
	struct timespec		 ts;
	struct stat		 st;
	char			 tmp[96];
	int			 cfd, pfd = -1, fd = -1, tries, rv = -1, e;

	if ((cfd = open_capsule(capsule, name, err, errlen)) == -1)
		return -1;
	if ((pfd = open_dir(cfd, "posts", 0755, 1)) == -1) {
		set_err(err, errlen, "open", "posts/");
		goto out;
	}
	for (tries = 0; tries < 100; tries++) {
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(tmp, sizeof(tmp), ".titan-%ld-%u-%ld.tmp",
		    (long)getpid(), atomic_fetch_add(&seq, 1),
		    (long)ts.tv_nsec);
		if ((fd = openat(pfd, tmp, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0644)) != -1 || errno != EEXIST)
			break;
	}
	if (fd == -1) {
		set_err(err, errlen, "create a temporary file in", "posts/");
		goto out;
	}
	/* An edited post keeps its permissions. */
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode))
		(void)fchmod(fd, st.st_mode & 07777);
	if (write_all(fd, data, len) == -1 || fsync(fd) == -1) {
		set_err(err, errlen, "write", tmp);
		goto unlink;
	}
	e = close(fd);
	fd = -1;
	if (e == -1) {
		set_err(err, errlen, "write", tmp);
		goto unlink;
	}
	if (renameat(pfd, tmp, pfd, name) == -1) {
		set_err(err, errlen, "rename to", name);
		goto unlink;
	}
	/* The rename itself survives a crash once the directory is synced. */
	if (fsync(pfd) == -1) {
		set_err(err, errlen, "fsync", "posts/");
		goto out;
	}
	rv = 0;
	goto out;
unlink:
	e = errno;
	if (fd != -1)
		close(fd);
	fd = -1;
	unlinkat(pfd, tmp, 0);
	errno = e;
out:
	if (fd != -1)
		close(fd);
	if (pfd != -1)
		close(pfd);
	close(cfd);
	return rv;
}

int
publish_trash(const char *capsule, const char *name, char *err,
    size_t errlen)
{
	struct stat	 st;
	struct tm	 tm;
	time_t		 now = time(NULL);
	char		 stamp[32], dest[400];
	int		 cfd, pfd = -1, tfd = -1, i, rv = -1, r;

	if ((cfd = open_capsule(capsule, name, err, errlen)) == -1)
		return -1;
	if ((pfd = open_dir(cfd, "posts", 0755, 0)) == -1 ||
	    fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == -1) {
		if (errno == ENOENT)
			rv = 1;
		else
			set_err(err, errlen, "stat", name);
		goto out;
	}
	if ((tfd = open_dir(cfd, ".trash", 0700, 1)) == -1) {
		set_err(err, errlen, "open", ".trash/");
		goto out;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	for (i = 0; i < 1000; i++) {
		if (i == 0)
			snprintf(dest, sizeof(dest), "%s.%s", name, stamp);
		else
			snprintf(dest, sizeof(dest), "%s.%s-%d", name, stamp, i);
		/* Never over another file: no-replace, or link+unlink. */
		r = renameat2(pfd, name, tfd, dest, RENAME_NOREPLACE);
		if (r == -1 && (errno == EINVAL || errno == ENOSYS)) {
			if ((r = linkat(pfd, name, tfd, dest, 0)) == 0 &&
			    unlinkat(pfd, name, 0) == -1) {
				set_err(err, errlen, "remove", name);
				goto out;
			}
		}
		if (r == 0 || errno != EEXIST)
			break;
	}
	if (r == -1) {
		if (errno == ENOENT)
			rv = 1;		/* another delete got there first */
		else
			set_err(err, errlen, "move to .trash/", name);
		goto out;
	}
	if (fsync(tfd) == -1 || fsync(pfd) == -1) {
		set_err(err, errlen, "fsync", ".trash/");
		goto out;
	}
	rv = 0;
out:
	if (tfd != -1)
		close(tfd);
	if (pfd != -1)
		close(pfd);
	close(cfd);
	return rv;
}
