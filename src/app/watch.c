/*
 * watch.c -- the capsule's directories watched, changes debounced, and
 * files being written told apart from whole ones (see watch.h).
 *
 * Linux only, as core/fsafe.c (openat2) is: the watch is inotify
 * itself, polled by a uv_poll_t on the loop; libuv's uv_fs_event says
 * "change" for a write and for a close alike, and the difference is the
 * point.  Every watch of a loop shares one inotify descriptor (struct
 * notifier): the kernel allows a user few of them
 * (fs.inotify.max_user_instances, 128 by default), and a server of a
 * thousand capsules has a thousand watches.  An event goes
 * to each watch that has its watch descriptor (the kernel hands out one
 * per inode: two capsules, one inside the other, may share one).
 * A file is unsettled from its first IN_MODIFY (or its IN_CREATE) until
 * IN_CLOSE_WRITE, or until a rename or unlink takes its name, or until
 * it has been quiet for the settle time: a writer that keeps a file open
 * (a log, a script's long-lived stream, some sync tools) never closes
 * it, and its post must show in the end.  Only the end of a write
 * (close, rename, unlink, a directory coming or going, an attribute)
 * asks for a rebuild; a write alone does not.
 *
 * Every watched directory is a struct wdir, with the device and inode
 * it was when the watch began, so that one replaced under us (rm -r
 * posts; mkdir posts) is watched again.  struct watch counts its open
 * handles (its two timers) and is freed with the last one.  The
 * unsettled set is the one thing another thread reads (watch_held(),
 * from the loader during a build): it is guarded by mtx.
 */
#include <dirent.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <errno.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "app/watch.h"
#include "core/log.h"
#include "core/util.h"

#define WATCH_NSUB	4
#define WATCH_MAX_WAIT	10	/* debounces, at most, after the first */
/*
 * How long a file being written may be quiet, still open, before it is
 * taken as it is.  Editors, cp, rsync and Titan close within
 * milliseconds of their last write; a sync tool that pauses between the
 * pieces of a large file waits for the network, seconds at worst.  Five
 * seconds lets those finish and still shows a post whose writer never
 * closes it soon enough for a writer to wonder only briefly; a debounce
 * configured longer than half of that doubles it.
 */
#define WATCH_SETTLE_MS	5000

static const char *const subdirs[WATCH_NSUB] = {
	"posts", "series", "pages", "files"
};
#define WATCH_FILES	3		/* subdirs[]: files/ */

struct wdir {
	int		 wd;		/* inotify watch descriptor */
	struct watch	*w;
	const char	*name;		/* "" for the capsule, else subdirs[],
					   else own */
	char		*own;		/* a bundle's "posts/<folder>", a
					   directory under files/, or NULL */
	int		 kept;		/* sync_owned(): still there */
	dev_t		 dev;		/* which directory: replaced ones */
	ino_t		 ino;		/* are watched again */
};

/* A file being written: its name in the capsule and its last event. */
struct unsettled {
	char		*rel;		/* "posts/x.md", "index.md" */
	uint64_t	 last;		/* uv_now() */
};

/* The inotify descriptor the watches of one loop share. */
struct notifier {
	uv_loop_t	*loop;
	int		 fd;		/* closed with poll */
	uv_poll_t	 poll;
	struct watch	**w;		/* the watches on it; owned array */
	size_t		 nw, capw;
	/* Odd while on_readable() takes events: read by the loader. */
	atomic_uint	 reading;
};

/* The notifier new watches join (NULL: none yet, or it is closing). */
static struct notifier	*notifier;

struct watch {
	uv_loop_t	*loop;
	char		*dir;		/* the capsule, as given */
	unsigned	 debounce_ms;
	unsigned	 settle_ms;
	watch_fn	 fn;
	void		*arg;
	uv_timer_t	 timer;
	int		 due;		/* a change is waiting for the timer */
	uint64_t	 first;		/* uv_now() of the first such change */
	struct wdir	*root;
	struct wdir	*sub[WATCH_NSUB];
	struct wdir	**bundles;	/* the folders of posts/, and every
					   directory under files/; owned */
	size_t		 nbundles;
	int		 nopen;		/* handles not yet closed */
	int		 stopping;
	struct notifier	*nt;		/* NULL: not joined */
	uv_timer_t	 settle;	/* the next unsettled file's time */
	/*
	 * The loader could not vouch for a file it read (watch_held()):
	 * once its build is published, build again (watch_published()).
	 */
	atomic_int	 recheck;
	/* Files being written; changed on the loop, read by the loader. */
	uv_mutex_t	 mtx;
	struct unsettled *un;		/* owned, nun of them */
	size_t		 nun, capun;
	atomic_size_t	 nheld;		/* nun, read without mtx */
};

static void	on_closed(uv_handle_t *);

/* ---- debounce --------------------------------------------------------- */

static void	sync_dirs(struct watch *);

static void
on_quiet(uv_timer_t *t)
{
	struct watch	*w = t->data;

	w->due = 0;
	if (w->stopping)
		return;
	sync_dirs(w);
	w->fn(w->arg, w->dir);
}

/* Something that can change a snapshot happened: rebuild soon. */
static void
changed(struct watch *w)
{
	uint64_t	 now = uv_now(w->loop);

	if (w->stopping)
		return;
	if (!w->due) {
		w->due = 1;
		w->first = now;
	} else if (now - w->first >= (uint64_t)w->debounce_ms *
	    WATCH_MAX_WAIT)
		return;			/* let the timer fire as it is */
	uv_timer_start(&w->timer, on_quiet, w->debounce_ms, 0);
}

/*
 * Does a change to name, in the directory d watches, matter?  isdir:
 * name is (or was) a directory, when the event says so.
 */
static int
matters(const struct wdir *d, const char *name, int isdir)
{
	size_t	 i, len;

	if (name == NULL)
		return 1;		/* could not say: assume so */
	if (*d->name == '\0') {
		len = strlen(name);
		/* A bare folder's posts are at its top (config.posts_here). */
		if (name[0] != '.' && ((len > 3 && strcmp(name + len - 3,
		    ".md") == 0) || (len > 4 && strcmp(name + len - 4,
		    ".gmi") == 0)))
			return 1;
		for (i = 0; i < WATCH_NSUB; i++)
			if (strcmp(name, subdirs[i]) == 0)
				return 1;
		return 0;
	}
	if (strcmp(name, d->name) == 0)
		return 1;		/* the directory itself went */
	len = strlen(name);
	if (name[0] == '.')
		return 0;		/* never served */
	/*
	 * files/ and a bundle's folder: every file, served from memory
	 * held by the site (site/site.h) that a rebuild replaces.
	 */
	if (d->own != NULL || d == d->w->sub[WATCH_FILES])
		return 1;
	if (len > 3 && strcmp(name + len - 3, ".md") == 0)
		return 1;
	/* posts/ also holds gemtext posts and page bundles' folders. */
	return strcmp(d->name, "posts") == 0 && (isdir ||
	    (len > 4 && strcmp(name + len - 4, ".gmi") == 0));
}

/* ---- the unsettled set ------------------------------------------------ */

/* Index of rel in w->un, or w->nun.  Under mtx, or on the loop. */
static size_t
find_un(const struct watch *w, const char *rel)
{
	size_t	 i;

	for (i = 0; i < w->nun; i++)
		if (strcmp(w->un[i].rel, rel) == 0)
			break;
	return i;
}

static int
unsettled(struct watch *w, const char *rel)
{
	int	 held;

	if (atomic_load(&w->nheld) == 0)
		return 0;
	uv_mutex_lock(&w->mtx);
	held = find_un(w, rel) < w->nun;
	uv_mutex_unlock(&w->mtx);
	return held;
}

/*
 * Have all the events the kernel queued so far been taken into the
 * unsettled set?  Not while on_readable() is at work, nor while bytes
 * wait on the descriptor.  Any thread.
 */
static int
caught_up(struct watch *w)
{
	int	 n = 0;

	/*
	 * The descriptor is every capsule's: events of another one waiting
	 * keep this file back too, and cost one more build at worst.
	 */
	if (w->nt == NULL || atomic_load(&w->nt->reading) & 1)
		return 0;
	if (ioctl(w->nt->fd, FIONREAD, &n) == -1 || n > 0)
		return 0;
	return 1;
}

/*
 * A file read while a write to it may be unknown yet: the pending
 * events or the next build will tell.  The flag is raised during the
 * build and read on the main loop once that build is published
 * (watch_published(), which then asks for the next one), so no event
 * can slip between the two.
 */
int
watch_held(void *arg, const char *rel, enum archive_ask ask)
{
	struct watch	*w = arg;

	if (w == NULL)
		return 0;
	switch (ask) {
	case ARCHIVE_ASK_BEFORE:
		return unsettled(w, rel);
	case ARCHIVE_ASK_READ:
		if (unsettled(w, rel))
			return 1;
		if (caught_up(w))
			return unsettled(w, rel);
		atomic_store(&w->recheck, 1);
		log_debug("watch: %s: read before its events were: kept "
		    "back for now", rel);
		return 1;
	case ARCHIVE_ASK_RECENT:
	default:
		atomic_store(&w->recheck, 1);
		log_debug("watch: %s: modified moments ago: kept back for "
		    "now", rel);
		return 1;
	}
}

void
watch_published(struct watch *w)
{
	if (w != NULL && atomic_exchange(&w->recheck, 0))
		changed(w);
}

static void	on_settle(uv_timer_t *);

/* rel is being written (again): unsettled until it is closed. */
static void
unsettle(struct watch *w, const char *rel)
{
	size_t	 i;

	uv_mutex_lock(&w->mtx);
	if ((i = find_un(w, rel)) == w->nun) {
		if (w->nun == w->capun) {
			w->capun = w->capun ? w->capun * 2 : 8;
			w->un = xreallocarray(w->un, w->capun,
			    sizeof(*w->un));
		}
		w->un[w->nun].rel = xstrdup(rel);
		w->nun++;
		atomic_store(&w->nheld, w->nun);
		log_debug("watch: %s: being written", rel);
	}
	w->un[i].last = uv_now(w->loop);
	uv_mutex_unlock(&w->mtx);
	if (!uv_is_active((uv_handle_t *)&w->settle))
		uv_timer_start(&w->settle, on_settle, w->settle_ms, 0);
}

/* The i'th unsettled file is whole, or gone.  Under mtx. */
static void
drop_un(struct watch *w, size_t i)
{
	free(w->un[i].rel);
	w->un[i] = w->un[--w->nun];
	atomic_store(&w->nheld, w->nun);
}

/* rel was closed, renamed or unlinked: whatever it holds is whole. */
static void
settle(struct watch *w, const char *rel)
{
	size_t	 i;

	if (atomic_load(&w->nheld) == 0)
		return;
	uv_mutex_lock(&w->mtx);
	if ((i = find_un(w, rel)) < w->nun) {
		drop_un(w, i);
		log_debug("watch: %s: written", rel);
	}
	uv_mutex_unlock(&w->mtx);
}

/* Files quiet for the settle time are taken as they are. */
static void
on_settle(uv_timer_t *t)
{
	struct watch	*w = t->data;
	uint64_t	 now = uv_now(w->loop), left, next = 0;
	size_t		 i;
	int		 any = 0;

	if (w->stopping)
		return;
	uv_mutex_lock(&w->mtx);
	for (i = 0; i < w->nun;) {
		if (now - w->un[i].last >= w->settle_ms) {
			log_info("%s: still open, but unchanged for %u ms: "
			    "published as it is", w->un[i].rel, w->settle_ms);
			drop_un(w, i);
			any = 1;
			continue;
		}
		left = w->un[i].last + w->settle_ms - now;
		if (next == 0 || left < next)
			next = left;
		i++;
	}
	uv_mutex_unlock(&w->mtx);
	if (next > 0)
		uv_timer_start(&w->settle, on_settle, next, 0);
	if (any)
		changed(w);
}

/* ---- directories ------------------------------------------------------ */

#define WATCH_MASK	(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | \
			 IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | \
			 IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

/* Does a directory of w other than d have watch descriptor wd? */
static int
uses_wd(const struct watch *w, int wd, const struct wdir *d)
{
	size_t	 i;

	if (w->root != NULL && w->root != d && w->root->wd == wd)
		return 1;
	for (i = 0; i < WATCH_NSUB; i++)
		if (w->sub[i] != NULL && w->sub[i] != d &&
		    w->sub[i]->wd == wd)
			return 1;
	for (i = 0; i < w->nbundles; i++)
		if (w->bundles[i] != d && w->bundles[i]->wd == wd)
			return 1;
	return 0;
}

static void
close_dir(struct wdir *d)
{
	struct notifier	*nt = d->w->nt;
	size_t		 i;
	int		 shared = 0;

	/* The kernel hands out one descriptor per inode: maybe shared. */
	for (i = 0; nt != NULL && i < nt->nw && !shared; i++)
		shared = uses_wd(nt->w[i], d->wd, d);
	/* EINVAL: the directory went, and its watch with it. */
	if (!shared && nt != NULL)
		(void)inotify_rm_watch(nt->fd, d->wd);
	free(d->own);
	free(d);
}

static struct wdir *
open_dir(struct watch *w, const char *path, const char *name,
    const struct stat *st)
{
	struct wdir	*d;
	uint32_t	 mask = WATCH_MASK;
	int		 wd;

	/* lstat: the archive does not follow a symlinked posts/. */
	if (*name != '\0')
		mask |= IN_DONT_FOLLOW;
	if ((wd = inotify_add_watch(w->nt->fd, path, mask)) == -1) {
		/* ENOSPC: fs.inotify.max_user_watches is used up. */
		if (errno == ENOSPC)
			log_warnx("watch %s: no inotify watch left "
			    "(fs.inotify.max_user_watches); changes there "
			    "need a SIGHUP", path);
		else
			log_warn("watch %s: changes there need a SIGHUP",
			    path);
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->wd = wd;
	d->w = w;
	d->name = name;
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	log_debug("watch: %s", path);
	return d;
}

/* The watch of the folder rel ("posts/<folder>", "files/a"), or NULL. */
static struct wdir *
bundle_dir(const struct watch *w, const char *rel)
{
	size_t	 i;

	for (i = 0; i < w->nbundles; i++)
		if (strcmp(w->bundles[i]->own, rel) == 0)
			return w->bundles[i];
	return NULL;
}

/*
 * rel (owned: taken) is a directory to watch when it is one and no
 * link: its watch (the one it has, or a new one) goes into keep.
 * Returns 1 when it is watched.
 */
static int
keep_dir(struct watch *w, char *rel, struct wdir ***keep, size_t *n)
{
	struct wdir	*d = NULL;
	struct stat	 st;
	char		*path = xasprintf("%s/%s", w->dir, rel);

	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if ((d = bundle_dir(w, rel)) != NULL &&
		    (d->dev != st.st_dev || d->ino != st.st_ino))
			d = NULL;	/* replaced: watched anew */
		if (d == NULL && (d = open_dir(w, path, rel, &st)) != NULL) {
			d->own = rel;	/* d->name is rel: kept */
			rel = NULL;
		}
	}
	if (d != NULL) {
		d->kept = 1;
		*keep = xreallocarray(*keep, *n + 1, sizeof(**keep));
		(*keep)[(*n)++] = d;
	}
	free(rel);
	free(path);
	return d != NULL;
}

/*
 * Every directory beneath files/ (none hidden, no links: fsafe.c
 * follows links there only to places files/ holds, which are watched
 * where they are), depth first.
 */
static void
keep_files(struct watch *w, struct wdir ***keep, size_t *n)
{
	struct dirent	*de;
	DIR		*dir;
	char		**todo = NULL, *rel, *path;
	size_t		 ntodo = 0;

	if (w->sub[WATCH_FILES] == NULL)
		return;
	todo = xreallocarray(todo, ++ntodo, sizeof(*todo));
	todo[0] = xstrdup("files");
	while (ntodo > 0) {
		rel = todo[--ntodo];
		path = xasprintf("%s/%s", w->dir, rel);
		dir = opendir(path);
		free(path);
		while (dir != NULL && (de = readdir(dir)) != NULL) {
			if (de->d_name[0] == '.' || (de->d_type != DT_DIR &&
			    de->d_type != DT_UNKNOWN))
				continue;
			if (keep_dir(w, xasprintf("%s/%s", rel, de->d_name),
			    keep, n)) {
				todo = xreallocarray(todo, ntodo + 1,
				    sizeof(*todo));
				todo[ntodo++] = xstrdup((*keep)[*n - 1]->own);
			}
		}
		if (dir != NULL)
			closedir(dir);
		free(rel);
	}
	free(todo);
}

/*
 * Watch every folder of posts/ (a page bundle, or one that may become
 * one when its index appears: content/archive.c) and every directory
 * beneath files/, and forget those gone or replaced.  Hidden ones and
 * links are not watched.
 */
static void
sync_owned(struct watch *w)
{
	struct wdir	**keep = NULL, **old;
	struct dirent	*de;
	DIR		*dir = NULL;
	char		*path;
	size_t		 i, n = 0, nold;

	path = xasprintf("%s/posts", w->dir);
	if (w->sub[0] != NULL)		/* subdirs[0]: posts */
		dir = opendir(path);
	free(path);
	for (i = 0; i < w->nbundles; i++)
		w->bundles[i]->kept = 0;
	while (dir != NULL && (de = readdir(dir)) != NULL) {
		/* Posts' files are most of posts/: no lstat for them. */
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR &&
		    de->d_type != DT_UNKNOWN))
			continue;
		(void)keep_dir(w, xasprintf("posts/%s", de->d_name), &keep,
		    &n);
	}
	if (dir != NULL)
		closedir(dir);
	keep_files(w, &keep, &n);
	/*
	 * The new list first: a folder renamed keeps its inode, so its new
	 * watch shares the old one's descriptor, which close_dir() must
	 * then leave alone.
	 */
	old = w->bundles;
	nold = w->nbundles;
	w->bundles = keep;
	w->nbundles = n;
	for (i = 0; i < nold; i++)
		if (!old[i]->kept)
			close_dir(old[i]);
	free(old);
}

/*
 * Bring the watched set in line with the disk: watch the content
 * directories that exist (and the folders of posts/), forget those
 * gone or replaced.
 */
static void
sync_dirs(struct watch *w)
{
	struct stat	 st;
	struct wdir	*d;
	char		*path;
	size_t		 i;
	int		 isdir;

	for (i = 0; i < WATCH_NSUB; i++) {
		path = xasprintf("%s/%s", w->dir, subdirs[i]);
		/* lstat: the archive does not follow a symlinked posts/. */
		isdir = lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
		d = w->sub[i];
		if (d != NULL && (!isdir || d->dev != st.st_dev ||
		    d->ino != st.st_ino)) {
			close_dir(d);
			w->sub[i] = d = NULL;
		}
		if (d == NULL && isdir)
			w->sub[i] = open_dir(w, path, subdirs[i], &st);
		free(path);
	}
	sync_owned(w);
}

/* ---- events ----------------------------------------------------------- */

static struct wdir *
by_wd(const struct watch *w, int wd)
{
	size_t	 i;

	if (w->root != NULL && w->root->wd == wd)
		return w->root;
	for (i = 0; i < WATCH_NSUB; i++)
		if (w->sub[i] != NULL && w->sub[i]->wd == wd)
			return w->sub[i];
	for (i = 0; i < w->nbundles; i++)
		if (w->bundles[i]->wd == wd)
			return w->bundles[i];
	return NULL;
}

/*
 * A file just made: being written, unless it came whole (a hard link to
 * a file written elsewhere) or is no regular file (the archive skips
 * those).
 */
static int
fresh(const struct watch *w, const char *rel)
{
	struct stat	 st;
	char		*path = xasprintf("%s/%s", w->dir, rel);
	int		 rv;

	rv = lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_nlink == 1;
	free(path);
	return rv;
}

static void
on_inotify(struct watch *w, const struct inotify_event *ev)
{
	struct wdir	*d;
	const char	*name = ev->len > 0 ? ev->name : NULL;
	char		*rel;
	uint32_t	 m = ev->mask;
	size_t		 i;

	if (m & IN_Q_OVERFLOW) {
		log_warnx("watch %s: too many changes at once; all read "
		    "again", w->dir);
		sync_dirs(w);
		changed(w);
		return;
	}
	if ((d = by_wd(w, ev->wd)) == NULL)
		return;			/* a directory no longer watched */
	if (m & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
		/*
		 * Forget it whatever sync_dirs() would say: a directory made
		 * at once in its place may have its inode number.
		 */
		for (i = 0; i < WATCH_NSUB; i++)
			if (w->sub[i] == d) {
				close_dir(d);
				w->sub[i] = NULL;
			}
		for (i = 0; i < w->nbundles; i++)
			if (w->bundles[i] == d) {
				close_dir(d);
				w->bundles[i] = w->bundles[--w->nbundles];
				break;
			}
		sync_dirs(w);		/* before anything is written there */
		changed(w);
		return;
	}
	if (!matters(d, name, (m & IN_ISDIR) != 0))
		return;
	if ((m & IN_ISDIR) || name == NULL || (d == w->root &&
	    strcmp(name, "index.md") != 0)) {
		if (d == w->root)
			sync_dirs(w);	/* posts/, series/, pages/ */
		changed(w);
		return;
	}
	rel = *d->name != '\0' ? xasprintf("%s/%s", d->name, name) :
	    xstrdup(name);
	if (m & IN_MODIFY)
		unsettle(w, rel);
	else if ((m & IN_CREATE) && fresh(w, rel))
		unsettle(w, rel);
	else {
		/* Closed, renamed, unlinked, linked, chmod'ed: whole. */
		if (m & (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM |
		    IN_DELETE))
			settle(w, rel);
		changed(w);
	}
	free(rel);
}

/* An event of nt: to each watch that has its directory. */
static void
dispatch(struct notifier *nt, const struct inotify_event *ev)
{
	size_t	 i;

	/* on_inotify() stops no watch: the call backs run from timers. */
	for (i = 0; i < nt->nw; i++)
		if ((ev->mask & IN_Q_OVERFLOW) || by_wd(nt->w[i], ev->wd) !=
		    NULL)
			on_inotify(nt->w[i], ev);
}

static void
on_readable(uv_poll_t *h, int status, int events)
{
	struct notifier			*nt = h->data;
	const struct inotify_event	*ev;
	char				 buf[16384]
	    __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t				 n;
	char				*p;

	if (status < 0) {
		log_warnx("watch: inotify: %s", uv_strerror(status));
		return;
	}
	atomic_fetch_add(&nt->reading, 1);	/* odd: caught_up() waits */
	for (;;) {
		if ((n = read(nt->fd, buf, sizeof(buf))) == -1) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				log_warn("watch: inotify");
			break;
		}
		if (n == 0)
			break;
		for (p = buf; p < buf + n; p += sizeof(*ev) + ev->len) {
			ev = (const struct inotify_event *)p;
			dispatch(nt, ev);
		}
	}
	atomic_fetch_add(&nt->reading, 1);
}

static void
on_notifier_closed(uv_handle_t *h)
{
	struct notifier	*nt = h->data;

	close(nt->fd);
	free(nt->w);
	free(nt);
}

/* The loop's notifier, made when there is none; NULL when it cannot be. */
static struct notifier *
notifier_get(uv_loop_t *loop, const char *dir)
{
	struct notifier	*nt;
	int		 rv;

	if (notifier != NULL && notifier->loop == loop)
		return notifier;
	nt = xcalloc(1, sizeof(*nt));
	nt->loop = loop;
	atomic_init(&nt->reading, 0);
	if ((nt->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) == -1) {
		/* EMFILE: fs.inotify.max_user_instances is used up. */
		log_warn("watch %s: inotify", dir);
		free(nt);
		return NULL;
	}
	if ((rv = uv_poll_init(loop, &nt->poll, nt->fd)) < 0) {
		log_warnx("watch %s: %s", dir, uv_strerror(rv));
		close(nt->fd);
		free(nt);
		return NULL;
	}
	nt->poll.data = nt;
	if ((rv = uv_poll_start(&nt->poll, UV_READABLE, on_readable)) < 0) {
		log_warnx("watch %s: %s", dir, uv_strerror(rv));
		uv_close((uv_handle_t *)&nt->poll, on_notifier_closed);
		return NULL;
	}
	notifier = nt;
	return nt;
}

static int
begin(struct watch *w)
{
	struct notifier	*nt;

	if ((nt = notifier_get(w->loop, w->dir)) == NULL)
		return -1;
	if (nt->nw == nt->capw) {
		nt->capw = nt->capw ? nt->capw * 2 : 8;
		nt->w = xreallocarray(nt->w, nt->capw, sizeof(*nt->w));
	}
	nt->w[nt->nw++] = w;
	w->nt = nt;
	uv_timer_init(w->loop, &w->settle);
	w->settle.data = w;
	w->nopen++;
	return 0;
}

/* After the directories are closed: w leaves its notifier. */
static void
end(struct watch *w)
{
	struct notifier	*nt = w->nt;
	size_t		 i;

	if (nt == NULL)
		return;
	uv_close((uv_handle_t *)&w->settle, on_closed);
	for (i = 0; i < nt->nw; i++)
		if (nt->w[i] == w) {
			memmove(&nt->w[i], &nt->w[i + 1], (nt->nw - i - 1) *
			    sizeof(*nt->w));
			nt->nw--;
			break;
		}
	w->nt = NULL;
	if (nt->nw > 0)
		return;
	if (notifier == nt)
		notifier = NULL;
	/* The descriptor goes once the poll handle no longer watches it. */
	uv_close((uv_handle_t *)&nt->poll, on_notifier_closed);
}

/* ---- the watch -------------------------------------------------------- */

static void
on_closed(uv_handle_t *h)
{
	struct watch	*w = h->data;
	size_t		 i;

	if (--w->nopen > 0 || !w->stopping)
		return;
	for (i = 0; i < w->nun; i++)
		free(w->un[i].rel);
	free(w->un);
	uv_mutex_destroy(&w->mtx);
	free(w->dir);
	free(w);
}

struct watch *
watch_start(uv_loop_t *loop, const char *dir, unsigned debounce_ms,
    watch_fn fn, void *arg)
{
	struct watch	*w;
	struct stat	 st;

	if (stat(dir, &st) == -1) {
		log_warn("watch %s", dir);
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		log_warnx("watch %s: not a directory", dir);
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	w->loop = loop;
	w->dir = xstrdup(dir);
	w->debounce_ms = debounce_ms;
	w->settle_ms = WATCH_SETTLE_MS;
	if (w->settle_ms < 2 * debounce_ms)
		w->settle_ms = 2 * debounce_ms;
	w->fn = fn;
	w->arg = arg;
	if (uv_mutex_init(&w->mtx) != 0)
		fatalx("watch: mutex");
	atomic_init(&w->nheld, 0);
	atomic_init(&w->recheck, 0);
	uv_timer_init(loop, &w->timer);
	w->timer.data = w;
	w->nopen = 1;
	if (begin(w) == -1 ||
	    (w->root = open_dir(w, dir, "", &st)) == NULL) {
		watch_stop(w);
		return NULL;
	}
	sync_dirs(w);
	return w;
}

void
watch_stop(struct watch *w)
{
	size_t	 i;

	if (w == NULL)
		return;
	w->stopping = 1;
	for (i = 0; i < WATCH_NSUB; i++)
		if (w->sub[i] != NULL) {
			close_dir(w->sub[i]);
			w->sub[i] = NULL;
		}
	/* Out of the list first: close_dir() reads the ones left in it. */
	while (w->nbundles > 0)
		close_dir(w->bundles[--w->nbundles]);
	free(w->bundles);
	w->bundles = NULL;
	w->nbundles = 0;
	if (w->root != NULL) {
		close_dir(w->root);
		w->root = NULL;
	}
	end(w);
	uv_close((uv_handle_t *)&w->timer, on_closed);
}

int
watch_count(const struct watch *w)
{
	int	 n = w->root != NULL;
	size_t	 i;

	for (i = 0; i < WATCH_NSUB; i++)
		n += w->sub[i] != NULL;
	return n + (int)w->nbundles;
}

const char *
watch_dir(const struct watch *w)
{
	return w->dir;
}
