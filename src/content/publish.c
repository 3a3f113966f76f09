/*
 * publish.c -- posts written into the capsule for Titan uploads
 * (publish.h): which file a post lives in, what an upload must hold,
 * and the atomic write and the move to .trash/.
 *
 * Writes go through a hidden temporary file in the same directory,
 * fsync, rename and a directory fsync, so a reader (the archive, the
 * watcher, a crash) sees the old post or the new one, whole.  Two
 * uploads of one post race only at the rename: the last one wins, and
 * each is whole.  Nothing is lost: a file is replaced or deleted only
 * when the disk says it holds the post being written (a snapshot may
 * be older than the file), and its bytes are kept in .trash/, a
 * directory of the capsule that nothing serves, lists or loads.
 *
 * Knows the file system, front matter and the archive's lookups; knows
 * nothing of Titan's request line or of connections.  Every function
 * works on the caller's memory; nothing is kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
#include "content/slug.h"
#include "core/capfile.h"
#include "core/date.h"
#include "core/log.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"

void
publish_target(const struct archive *a, const char *slug, int gemtext,
    char *name, size_t namelen)
{
	const struct post	*p = NULL;

	if (a != NULL && (p = archive_post(a, slug)) == NULL)
		p = archive_draft(a, slug);
	/* Any file of posts/: "x.gmi", "2019/x.md", "2024/trip/index.md". */
	if (p != NULL && strncmp(p->path, CAPFILE_POSTS "/",
	    sizeof(CAPFILE_POSTS)) == 0 &&
	    strlen(p->path + sizeof(CAPFILE_POSTS)) < namelen) {
		snprintf(name, namelen, "%s", p->path + sizeof(CAPFILE_POSTS));
		return;
	}
	snprintf(name, namelen, "%s.%s", slug, gemtext ? "gmi" : "md");
}

int
publish_check(const char *data, size_t len, const char *slug,
    const char *name, int *draft, char *err, size_t errlen)
{
	struct meta	 m;
	struct fm_error	 fe;
	struct date	 d;
	char		*s, stem[NAME_MAX + 1];
	size_t		 dirlen;
	int		 rv = -1, used, day;

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
	/* The stem and date as the archive takes them (archive.c). */
	slug_post_stem(name, stem, sizeof(stem));
	dirlen = strrchr(name, '/') != NULL ?
	    (size_t)(strrchr(name, '/') - name) : 0;
	if (!m.has_date && !m.draft && date_from_filename(stem, &d) == 0 &&
	    (dirlen == 0 || date_from_path(name, dirlen, 1, &d, &day) == -1)) {
		snprintf(err, errlen, "no date: the front matter needs "
		    "\"date: YYYY-MM-DD\"");
		goto out;
	}
	s = archive_file_slug(m.slug, m.slug_from_title ? m.title : NULL,
	    stem, &used);
	if (strcmp(s, slug) != 0) {
		if (used)
			snprintf(err, errlen, "the front matter's slug "
			    "\"%.60s\" is not %.100s", m.slug, slug);
		else
			snprintf(err, errlen, "posts/%.80s takes its slug from "
			    "its front matter: keep \"slug: %.80s\"", name,
			    slug);
		free(s);
		goto out;
	}
	free(s);
	*draft = m.draft;
	rv = 0;
out:
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
 * Check that name is a file beneath posts/ a post may live in ("x.md",
 * "2019/x.gmi", "2024/trip/index.md": no empty, hidden or ".." part)
 * and open the capsule directory; the fd, or -1 with err set.
 */
static int
open_capsule(const char *capsule, const char *name, char *err, size_t errlen)
{
	const char	*p;
	int		 cfd;

	for (p = name;; p = strchr(p, '/') + 1) {
		if (*p == '.' || *p == '/' || *p == '\0') {
			snprintf(err, errlen, "bad file name");
			return -1;
		}
		if (strchr(p, '/') == NULL)
			break;
	}
	if ((cfd = open(capsule, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		set_err(err, errlen, "open", capsule);
	return cfd;
}

/*
 * The folder of posts/<name>, opened beneath cfd one part at a time
 * without following a link (posts/ itself created when create is set),
 * with *base the name's last part; -1 with errno set.
 */
static int
open_parent(int cfd, const char *name, int create, const char **base)
{
	char		 part[NAME_MAX + 1];
	const char	*p = name, *slash;
	int		 fd, nfd;

	fd = open_dir(cfd, CAPFILE_POSTS, 0755, create);
	while (fd != -1 && (slash = strchr(p, '/')) != NULL) {
		if ((size_t)(slash - p) > NAME_MAX) {
			close(fd);
			errno = ENAMETOOLONG;
			return -1;
		}
		snprintf(part, sizeof(part), "%.*s", (int)(slash - p), p);
		nfd = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		close(fd);
		fd = nfd;
		p = slash + 1;
	}
	*base = p;
	return fd;
}

/*
 * The name posts/<name>'s bytes are kept under in .trash/, which is
 * flat: "2024/trip/index.md" is "2024_trip_index.md" (malloc'd).
 */
static char *
trash_name(const char *name)
{
	char	*t = xstrdup(name), *p;

	for (p = t; (p = strchr(p, '/')) != NULL; p++)
		*p = '_';
	return t;
}

/*
 * Who holds posts/<rel> (base, beneath pfd) now: PUBLISH_NONE when no file has the name,
 * 0 when it is slug's post (or a file whose front matter does not
 * parse, which the archive skips: the name is its only slug),
 * PUBLISH_TAKEN when it is another post's or no regular file, with err
 * saying so; -1 with err filled.  Read from the disk, not a snapshot,
 * which may be older than the file.
 */
static int
owner(int pfd, const char *base, const char *rel, const char *slug,
    char *err, size_t errlen)
{
	struct meta	 m;
	struct fm_error	 fe;
	struct stat	 st;
	char		*data, *s, stem[NAME_MAX + 1];
	size_t		 len;
	int		 fd, rv = 0;

	if ((fd = openat(pfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			return PUBLISH_NONE;
		if (errno == ELOOP) {
			snprintf(err, errlen, "posts/%.100s is a symbolic link",
			    rel);
			return PUBLISH_TAKEN;
		}
		set_err(err, errlen, "open", rel);
		return -1;
	}
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "posts/%.100s is not a regular file",
		    rel);
		return PUBLISH_TAKEN;
	}
	data = util_read_fd(fd, (size_t)-1 - 1, &len);
	close(fd);
	if (data == NULL) {
		set_err(err, errlen, "read", rel);
		return -1;
	}
	if (frontmatter_parse(data, len, &m, &fe) == 0) {
		slug_post_stem(rel, stem, sizeof(stem));
		s = archive_file_slug(m.slug, m.slug_from_title ? m.title :
		    NULL, stem, NULL);
		if (strcmp(s, slug) != 0) {
			snprintf(err, errlen, "posts/%.100s holds another post "
			    "(slug \"%.100s\"): choose another slug, or rename "
			    "that file", rel, s);
			rv = PUBLISH_TAKEN;
		}
		free(s);
		meta_free(&m);
	}
	free(data);
	return rv;
}

/*
 * Keep the bytes of name (beneath pfd) in .trash/ as
 * <tname>.<UTC time>[-N]
 * (never over another file there), opening .trash/ into *tfd when it
 * is -1.  how: KEEP_LINK adds a name to the file, which stays in posts/
 * (a copy where the file system has no hard links for us);
 * KEEP_MOVE moves it.  Returns 0 with *kept the inode kept; 1 when
 * posts/<name> is gone; -1 with err filled.
 */
#define KEEP_LINK	0
#define KEEP_MOVE	1

static int
keep(int cfd, int pfd, int *tfd, const char *name, const char *tname,
    int how, struct stat *kept, char *err, size_t errlen)
{
	struct tm	 tm;
	time_t		 now = time(NULL);
	char		 stamp[32], dest[400], *data = NULL;
	size_t		 len;
	int		 i, r = -1, fd;

	if (*tfd == -1 && (*tfd = open_dir(cfd, ".trash", 0700, 1)) == -1) {
		set_err(err, errlen, "open", ".trash/");
		return -1;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	for (i = 0; i < 1000; i++) {
		if (i == 0)
			snprintf(dest, sizeof(dest), "%s.%s", tname, stamp);
		else
			snprintf(dest, sizeof(dest), "%s.%s-%d", tname, stamp,
			    i);
		if (how == KEEP_MOVE) {
			/* Never over another file: no-replace, or link+unlink. */
			r = renameat2(pfd, name, *tfd, dest, RENAME_NOREPLACE);
			if (r == -1 && (errno == EINVAL || errno == ENOSYS) &&
			    (r = linkat(pfd, name, *tfd, dest, 0)) == 0 &&
			    unlinkat(pfd, name, 0) == -1) {
				set_err(err, errlen, "remove", name);
				return -1;
			}
		} else if ((r = linkat(pfd, name, *tfd, dest, 0)) == -1 &&
		    errno != EEXIST && errno != ENOENT) {
			/* No hard link (protected_hardlinks, EXDEV...): copy. */
			if ((fd = openat(pfd, name, O_RDONLY | O_NOFOLLOW |
			    O_CLOEXEC)) == -1)
				break;
			data = fstat(fd, kept) == 0 ?
			    util_read_fd(fd, (size_t)-1 - 1, &len) : NULL;
			close(fd);
			if (data == NULL)
				break;
			if ((fd = openat(*tfd, dest, O_WRONLY | O_CREAT |
			    O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)) == -1) {
				free(data);
				data = NULL;
				if (errno == EEXIST)
					continue;
				break;
			}
			r = write_all(fd, data, len) == -1 || fsync(fd) == -1 ?
			    -1 : 0;
			if (close(fd) == -1)
				r = -1;
			free(data);
			if (r == -1) {
				unlinkat(*tfd, dest, 0);
				break;
			}
			return 0;
		}
		if (r == 0 || errno != EEXIST)
			break;
	}
	if (r == -1) {
		if (errno == ENOENT)
			return 1;
		set_err(err, errlen, "keep in .trash/", name);
		return -1;
	}
	if (fstatat(*tfd, dest, kept, AT_SYMLINK_NOFOLLOW) == -1) {
		set_err(err, errlen, "stat .trash/", dest);
		return -1;
	}
	return 0;
}

/* The capsule's, posts/ and .trash/ descriptors closed (-1: not open). */
static void
close_dirs(int cfd, int pfd, int tfd)
{
	if (tfd != -1)
		close(tfd);
	if (pfd != -1)
		close(pfd);
	close(cfd);
}

int
publish_store(const char *capsule, const char *name, const char *slug,
    const char *data, size_t len, char *err, size_t errlen)
{
	static atomic_uint	 seq;
	struct timespec		 ts;
	struct stat		 st, kept;
	char			 tmp[96], *tname = NULL;
	const char		*base;
	int			 cfd, pfd = -1, tfd = -1, fd = -1, tries, rv = -1;
	int			 e, r;

	if ((cfd = open_capsule(capsule, name, err, errlen)) == -1)
		return -1;
	/* A new post is written in posts/ itself, made when missing. */
	if ((pfd = open_parent(cfd, name, strchr(name, '/') == NULL,
	    &base)) == -1) {
		set_err(err, errlen, "open the folder of", name);
		goto out;
	}
	tname = trash_name(name);
	/* Refuse early, before anything is written. */
	if ((r = owner(pfd, base, name, slug, err, errlen)) == -1 ||
	    r == PUBLISH_TAKEN) {
		rv = r;
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
	if (fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
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
	/*
	 * The old post's bytes go into .trash/ before the rename, so that
	 * a crash at any point leaves them there or in posts/.  A new post
	 * is renamed without replacing: a file that appeared meanwhile is
	 * checked and kept like any other.
	 */
	for (tries = 0; tries < 10; tries++) {
		if ((r = owner(pfd, base, name, slug, err, errlen)) == -1 ||
		    r == PUBLISH_TAKEN) {
			rv = r;
			goto unlink;
		}
		if (r == PUBLISH_NONE) {
			if (renameat2(pfd, tmp, pfd, base,
			    RENAME_NOREPLACE) == 0)
				break;
			if (errno == EEXIST)
				continue;
			if (errno != EINVAL && errno != ENOSYS) {
				set_err(err, errlen, "rename to", name);
				goto unlink;
			}
			/* No RENAME_NOREPLACE here: an ordinary rename. */
			r = 0;
			memset(&kept, 0, sizeof(kept));
		} else if ((r = keep(cfd, pfd, &tfd, base, tname, KEEP_LINK,
		    &kept, err, errlen)) == -1)
			goto unlink;
		else if (r == 1)
			continue;	/* gone meanwhile: a new post again */
		/*
		 * Swap, so that tmp holds what was replaced, whatever an
		 * editor did since it was kept: those bytes are kept too.
		 */
		if (renameat2(pfd, tmp, pfd, base, RENAME_EXCHANGE) == 0) {
			if (fstatat(pfd, tmp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    st.st_ino == kept.st_ino && st.st_dev == kept.st_dev)
				unlinkat(pfd, tmp, 0);
			else if (keep(cfd, pfd, &tfd, tmp, tmp, KEEP_MOVE, &st,
			    err, errlen) == -1)
				/* XXX: left in posts/ as tmp, hidden, whole. */
				log_warnx("posts/%s: %s", tmp, err);
			break;
		}
		if (errno != EINVAL && errno != ENOSYS && errno != ENOENT) {
			set_err(err, errlen, "rename to", name);
			goto unlink;
		}
		if (renameat(pfd, tmp, pfd, base) == -1) {
			set_err(err, errlen, "rename to", name);
			goto unlink;
		}
		break;
	}
	if (tries == 10) {
		snprintf(err, errlen, "posts/%.100s keeps changing", name);
		goto unlink;
	}
	/* The rename itself survives a crash once the directory is synced. */
	if (fsync(pfd) == -1 || (tfd != -1 && fsync(tfd) == -1)) {
		set_err(err, errlen, "fsync the folder of", name);
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
	free(tname);
	close_dirs(cfd, pfd, tfd);
	return rv;
}

int
publish_trash(const char *capsule, const char *name, const char *slug,
    char *err, size_t errlen)
{
	struct stat	 st;
	const char	*base, *what;
	char		*dir = NULL, *tname = NULL;
	int		 cfd, pfd, bfd = -1, tfd = -1, rv = -1, r;

	if ((cfd = open_capsule(capsule, name, err, errlen)) == -1)
		return -1;
	/*
	 * A bundle's post is its folder: the index and the files it shows
	 * go to .trash/ together, in one rename, so that no image of a
	 * deleted post stays public and nothing is lost.
	 */
	what = name;
	if (capfile_bundle_path(name))
		what = dir = xstrndup(name, (size_t)(strrchr(name, '/') - name));
	if ((pfd = open_parent(cfd, what, 0, &base)) == -1) {
		if (errno == ENOENT)
			rv = PUBLISH_NONE;
		else
			set_err(err, errlen, "open the folder of", name);
		goto out;
	}
	if (dir != NULL && (bfd = openat(pfd, base, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			rv = PUBLISH_NONE;
		else
			set_err(err, errlen, "open", dir);
		goto out;
	}
	/*
	 * XXX: a file put in its place between the check and the move is
	 * moved unchecked; it is kept in .trash/ all the same.
	 */
	if ((r = owner(bfd != -1 ? bfd : pfd, bfd != -1 ?
	    strrchr(name, '/') + 1 : base, name, slug, err, errlen)) != 0) {
		rv = r;
		goto out;
	}
	tname = trash_name(what);
	if ((r = keep(cfd, pfd, &tfd, base, tname, KEEP_MOVE, &st, err,
	    errlen)) != 0) {
		rv = r == 1 ? PUBLISH_NONE : -1;
		goto out;
	}
	if (fsync(tfd) == -1 || fsync(pfd) == -1) {
		set_err(err, errlen, "fsync", ".trash/");
		goto out;
	}
	rv = 0;
out:
	if (bfd != -1)
		close(bfd);
	free(dir);
	free(tname);
	close_dirs(cfd, pfd, tfd);
	return rv;
}
