/*
 * dirwalk.c -- the one walk of a directory tree (see dirwalk.h).
 *
 * A folder is read through a DIR of its own descriptor's duplicate
 * (closedir() closes what it reads), rewound first: a duplicate shares
 * the file offset, and the caller may have read the folder before.
 * Unsorted, entries are handed out as readdir(3) gives them, nothing
 * kept; sorted, a folder is read whole first, keeping the smallest
 * names the budget has room for (a heap: memory stays within the
 * budget, and a folder too large for it gives the same names every
 * run), then handed out in order.  One descriptor and one DIR are
 * open per level, so max_depth bounds them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/dirwalk.h"
#include "core/util.h"

/* A folder's entry kept for the sorted order. */
struct ent {
	char		*name;		/* owned */
	unsigned char	 dtype;		/* readdir's d_type */
};

static int	 read_folder(struct dirwalk *, struct buf *, int, int,
		    void *);

const struct stat *
dirwalk_stat(struct dirwalk_entry *e)
{
	if (!e->stated) {
		if (fstatat(e->dfd, e->name, &e->st, AT_SYMLINK_NOFOLLOW) ==
		    -1)
			return NULL;
		e->stated = true;
	}
	return &e->st;
}

/* What readdir(3) says the entry is; lstat(2) when it says nothing. */
static enum dirwalk_type
type_of(struct dirwalk_entry *e, unsigned char dtype)
{
	const struct stat *st;

	switch (dtype) {
	case DT_REG:
		return DIRWALK_FILE;
	case DT_DIR:
		return DIRWALK_DIR;
	case DT_LNK:
		return DIRWALK_LINK;
	case DT_UNKNOWN:
		break;
	default:
		return DIRWALK_OTHER;
	}
	if ((st = dirwalk_stat(e)) == NULL)
		return DIRWALK_OTHER;
	return S_ISREG(st->st_mode) ? DIRWALK_FILE : S_ISDIR(st->st_mode) ?
	    DIRWALK_DIR : S_ISLNK(st->st_mode) ? DIRWALK_LINK : DIRWALK_OTHER;
}

/* path, whose first len bytes are the folder's with its '/', + name. */
static void
set_path(struct buf *path, size_t len, const char *name)
{
	buf_truncate(path, len);
	buf_addstr(path, name);
	buf_add(path, "", 1);		/* its NUL, not counted */
	path->len--;
}

/*
 * Go into the folder e names (an entry of the folder open at e->dfd):
 * open it beneath its parent without following a link, say so, read it,
 * say it is done.  Every DIRWALK_IN has its DIRWALK_OUT, even when the
 * walk ends inside, so that what the caller keeps per folder can go.
 * DIRWALK_STOP, or DIRWALK_NEXT.
 */
static enum dirwalk_answer
enter(struct dirwalk *w, struct buf *path, struct dirwalk_entry *e)
{
	enum dirwalk_answer	 ans;
	size_t			 len = path->len;
	int			 fd, rv = 0, saved;

	if (e->depth > w->max_depth) {
		e->event = DIRWALK_DEEP;
		return w->fn(w->arg, e) == DIRWALK_STOP ? DIRWALK_STOP :
		    DIRWALK_NEXT;
	}
	if ((fd = openat(e->dfd, e->name, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) == -1) {
		e->event = DIRWALK_FAIL;
		e->err = errno;
		return w->fn(w->arg, e) == DIRWALK_STOP ? DIRWALK_STOP :
		    DIRWALK_NEXT;
	}
	e->event = DIRWALK_IN;
	e->fd = fd;
	if ((ans = w->fn(w->arg, e)) != DIRWALK_SKIP &&
	    ans != DIRWALK_STOP) {
		buf_addc(path, '/');
		rv = read_folder(w, path, fd, e->depth, e->data);
		saved = errno;
		set_path(path, len, "");
		if (rv == -1) {
			e->event = DIRWALK_FAIL;
			e->err = saved;
			if (w->fn(w->arg, e) == DIRWALK_STOP)
				rv = 1;
		}
	}
	e->event = DIRWALK_OUT;
	if (w->fn(w->arg, e) == DIRWALK_STOP)
		rv = 1;
	close(fd);
	return ans == DIRWALK_STOP || rv == 1 ? DIRWALK_STOP : DIRWALK_NEXT;
}

/*
 * Hand out the entry name (dtype as readdir gave it) of the folder open
 * at dfd, depth levels below the top, whose path with its '/' is the
 * first len bytes of path.  DIRWALK_STOP when the walk ends, else
 * DIRWALK_NEXT.
 */
static enum dirwalk_answer
hand(struct dirwalk *w, struct buf *path, int dfd, int depth, void *data,
    const char *name, unsigned char dtype)
{
	struct dirwalk_entry	 e;
	enum dirwalk_answer	 ans;
	size_t			 len = path->len;

	if (name[0] == '.')
		return DIRWALK_NEXT;	/* hidden, "." and ".." */
	memset(&e, 0, sizeof(e));
	e.dfd = dfd;
	e.fd = -1;
	e.depth = depth + 1;
	e.data = data;
	if (w->nentries >= w->max_entries) {
		w->full = true;
		/* The folder's path, without its '/'. */
		set_path(path, len > 0 ? len - 1 : 0, "");
		e.event = DIRWALK_FULL;
		e.name = "";
		e.path = path->data != NULL ? path->data : "";
		(void)w->fn(w->arg, &e);
		set_path(path, len > 0 ? len - 1 : 0, len > 0 ? "/" : "");
		return DIRWALK_STOP;
	}
	w->nentries++;
	set_path(path, len, name);
	e.event = DIRWALK_ENTRY;
	e.name = name;
	e.path = path->data;
	e.type = type_of(&e, dtype);
	ans = w->fn(w->arg, &e);
	if (ans == DIRWALK_ENTER && e.type == DIRWALK_DIR)
		ans = enter(w, path, &e);
	set_path(path, len, "");
	return ans == DIRWALK_STOP ? DIRWALK_STOP : DIRWALK_NEXT;
}

static int
cmp_ent(const void *x, const void *y)
{
	return strcmp(((const struct ent *)x)->name,
	    ((const struct ent *)y)->name);
}

/*
 * v[0..n) is a heap with the greatest name first; v[0] was replaced:
 * move it down to its place.
 */
static void
sift_down(struct ent *v, size_t n)
{
	struct ent	 t;
	size_t		 i = 0, c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && cmp_ent(&v[c + 1], &v[c]) > 0)
			c++;
		if (cmp_ent(&v[c], &v[i]) <= 0)
			break;
		t = v[i];
		v[i] = v[c];
		v[c] = t;
		i = c;
	}
}

/* v[n - 1] was added to the heap v[0..n - 1): move it up. */
static void
sift_up(struct ent *v, size_t n)
{
	struct ent	 t;
	size_t		 i = n - 1, p;

	while (i > 0 && cmp_ent(&v[p = (i - 1) / 2], &v[i]) < 0) {
		t = v[i];
		v[i] = v[p];
		v[p] = t;
		i = p;
	}
}

/*
 * Keep name in v[0..*n), at most room names: the smallest, so that a
 * folder larger than the budget still gives the same names every run.
 */
static void
keep(struct ent **v, size_t *n, size_t *cap, size_t room, const char *name,
    unsigned char dtype)
{
	if (*n == room) {
		if (room == 0 || strcmp(name, (*v)[0].name) >= 0)
			return;
		free((*v)[0].name);
		(*v)[0].name = xstrdup(name);
		(*v)[0].dtype = dtype;
		sift_down(*v, *n);
		return;
	}
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 32;
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[*n].name = xstrdup(name);
	(*v)[(*n)++].dtype = dtype;
	sift_up(*v, *n);
}

/*
 * Hand out the entries of the folder open at fd (depth levels below the
 * top; its path, with its '/', in path).  0 when it was read to its
 * end, 1 when the walk ended in it (the budget, or the call back), -1
 * with errno when it cannot be read.
 */
static int
read_folder(struct dirwalk *w, struct buf *path, int fd, int depth,
    void *data)
{
	struct dirent	*de;
	struct ent	*v = NULL;
	DIR		*d;
	size_t		 n = 0, cap = 0, i, room;
	int		 dfd, stop = 0;

	if ((dfd = dup(fd)) == -1)
		return -1;
	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		return -1;
	}
	rewinddir(d);
	/* The budget's room, and one more to find that it is full. */
	room = w->max_entries - w->nentries;
	if (room < SIZE_MAX)
		room++;
	while (!stop && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (!w->sorted) {
			stop = hand(w, path, fd, depth, data, de->d_name,
			    de->d_type) == DIRWALK_STOP;
			continue;
		}
		keep(&v, &n, &cap, room, de->d_name, de->d_type);
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_ent);
	for (i = 0; i < n; i++) {
		if (!stop)
			stop = hand(w, path, fd, depth, data, v[i].name,
			    v[i].dtype) == DIRWALK_STOP;
		free(v[i].name);
	}
	free(v);
	return stop;
}

int
dirwalk_run(struct dirwalk *w, int fd, const char *path, void *data)
{
	struct buf	 p = BUF_INIT;
	int		 rv, saved;

	w->nentries = 0;
	w->full = false;
	buf_addstr(&p, path);
	if (*path != '\0')
		buf_addc(&p, '/');
	rv = read_folder(w, &p, fd, 0, data) == -1 ? -1 : 0;
	saved = errno;
	buf_free(&p);
	errno = saved;
	return rv;
}
