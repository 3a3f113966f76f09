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
 * posts; mkdir posts) is watched again.  The notifier finds them by
 * watch descriptor and a watch its folders by name in hash chains, so
 * an event, a lookup and a folder gone cost O(1) whatever their number;
 * a pass over every folder (core/dirwalk.h's walk, from descriptors it
 * holds, following no link) runs only once a directory came or went,
 * once per rebuild.  What a name is, is core/capfile.h's rule.
 * struct watch counts its open handles (its two timers) and is freed
 * with the last one.  The unsettled set is the one thing another
 * thread reads (watch_held(), from the loader during a build): it is
 * guarded by mtx.
 */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <errno.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "app/watch.h"
#include "core/capfile.h"
#include "core/dirwalk.h"
#include "core/hash.h"
#include "core/log.h"
#include "core/util.h"

#define WATCH_NSUB	4
#define WATCH_MAX_WAIT	10	/* debounces, at most, after the first */
/*
 * Folders below posts/ or files/ watched, at most: one descriptor is
 * open per level while they are walked.  Deeper ones wait for a SIGHUP
 * (said in the log); a Gemini URL has room for about 500 levels, a
 * capsule seldom more than five.
 */
#define WATCH_MAX_DEPTH	32
/* Entries of posts/ or of files/ (each with what is beneath) read. */
#define WATCH_MAX_ENTRIES	1000000
#define WATCH_READS	16	/* reads of events per turn of the loop */
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

/* The folders of a capsule watched (core/capfile.h names them). */
static const char *const subdirs[WATCH_NSUB] = {
	CAPFILE_POSTS, CAPFILE_SERIES, CAPFILE_PAGES, CAPFILE_FILES
};
#define WATCH_FILES	3		/* subdirs[]: files/ */

struct wdir {
	int		 wd;		/* inotify watch descriptor */
	struct watch	*w;
	const char	*name;		/* "" for the capsule, else subdirs[],
					   else own */
	char		*own;		/* a folder beneath posts/ ("posts/<
					   bundle>/img"), a directory beneath
					   files/, or NULL */
	enum capfile_kind kind;		/* what folder it is, for the rule */
	uint64_t	 hash;		/* hash_str(own) */
	size_t		 idx;		/* own: its place in w->bundles */
	unsigned	 pass;		/* own: the sync_owned() that saw it */
	dev_t		 dev;		/* which directory: replaced ones */
	ino_t		 ino;		/* are watched again */
	struct wdir	*wdnext;	/* the notifier's chain of its wd */
	struct wdir	*relnext;	/* own: w->rtab's chain */
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
	/* Every watch's directories by wd (one inotify event: O(1)). */
	struct wdir	**tab;		/* owned array, tabcap chains */
	size_t		 tabcap, ndirs;
	/* Odd while on_readable() takes events: read by the loader. */
	atomic_uint	 reading;
};

/* The notifier new watches join (NULL: none yet, or it is closing). */
static struct notifier	*notifier;
/* watch_limit(): directories one capsule may watch; 0: budget(). */
static size_t		 limit;

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
	struct wdir	**bundles;	/* every folder beneath posts/ and
					   directory beneath files/; owned */
	size_t		 nbundles, capbundles;
	struct wdir	**rtab;		/* bundles by name; owned array */
	size_t		 rtabcap;
	unsigned	 pass;		/* sync_owned() passes so far */
	int		 resync;	/* a directory came or went: pass due */
	size_t		 budget;	/* directories it may watch */
	size_t		 over, deep;	/* left out by the last pass */
	int		 warned;	/* and it said so */
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

static void	sync_dirs(struct watch *, int);

static void
on_quiet(uv_timer_t *t)
{
	struct watch	*w = t->data;

	w->due = 0;
	if (w->stopping)
		return;
	sync_dirs(w, w->resync);
	w->resync = 0;
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
 * name is (or was) a directory, when the event says so.  What the rule
 * of a capsule (core/capfile.h) reads or serves does: a source, a
 * folder of posts/, a file served from memory held by the site
 * (site/site.h) that a rebuild replaces; hidden names, editors' swap
 * files, never.  Beneath posts/ every folder is taken for one of
 * posts/, whose every name counts: a bundle's folder is no different.
 */
static int
matters(const struct wdir *d, const char *name, int isdir)
{
	if (name == NULL)
		return 1;		/* could not say: assume so */
	if (capfile_entry(d->kind, name, isdir, NULL) != CAPFILE_IGNORED)
		return 1;
	/* A bare folder's posts are at its top (config.posts_here). */
	return d->kind == CAPFILE_TOP_DIR && capfile_entry(CAPFILE_POSTS_DIR,
	    name, false, NULL) == CAPFILE_POST;
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
#define WATCH_OPEN	(O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* A power of two at least n, and 16 at least. */
static size_t
pow2_for(size_t n)
{
	size_t	 cap = 16;

	while (cap < n)
		cap *= 2;
	return cap;
}

/* nt->tab: every directory of every watch of nt, chained by wd. */
static void
nt_link(struct notifier *nt, struct wdir *d)
{
	struct wdir	**tab, *e, *next;
	size_t		 i, cap;

	if (nt->ndirs + 1 > nt->tabcap) {
		cap = pow2_for(2 * (nt->ndirs + 1));
		tab = xcalloc(cap, sizeof(*tab));
		for (i = 0; i < nt->tabcap; i++)
			for (e = nt->tab[i]; e != NULL; e = next) {
				next = e->wdnext;
				e->wdnext = tab[(unsigned)e->wd & (cap - 1)];
				tab[(unsigned)e->wd & (cap - 1)] = e;
			}
		free(nt->tab);
		nt->tab = tab;
		nt->tabcap = cap;
	}
	i = (unsigned)d->wd & (nt->tabcap - 1);
	d->wdnext = nt->tab[i];
	nt->tab[i] = d;
	nt->ndirs++;
}

/* d out of nt->tab; 1 when another directory still has its wd. */
static int
nt_unlink(struct notifier *nt, struct wdir *d)
{
	struct wdir	**pp, *e;
	int		 shared = 0;

	if (nt->tabcap == 0)
		return 0;
	for (pp = &nt->tab[(unsigned)d->wd & (nt->tabcap - 1)];
	    (e = *pp) != NULL;) {
		if (e == d) {
			*pp = e->wdnext;
			nt->ndirs--;
			continue;
		}
		shared |= e->wd == d->wd;
		pp = &e->wdnext;
	}
	return shared;
}

/* The directory of w (any watch: NULL) with watch descriptor wd. */
static struct wdir *
nt_find(const struct notifier *nt, int wd, const struct watch *w)
{
	struct wdir	*e;

	if (nt == NULL || nt->tabcap == 0)
		return NULL;
	for (e = nt->tab[(unsigned)wd & (nt->tabcap - 1)]; e != NULL;
	    e = e->wdnext)
		if (e->wd == wd && (w == NULL || e->w == w))
			return e;
	return NULL;
}

static struct wdir *
by_wd(const struct watch *w, int wd)
{
	return nt_find(w->nt, wd, w);
}

/* w->rtab: the directories of w->bundles, chained by name. */
static void
rel_link(struct watch *w, struct wdir *d)
{
	struct wdir	**tab, *e, *next;
	size_t		 i, cap;

	if (w->nbundles > w->rtabcap) {
		cap = pow2_for(2 * w->nbundles);
		tab = xcalloc(cap, sizeof(*tab));
		for (i = 0; i < w->rtabcap; i++)
			for (e = w->rtab[i]; e != NULL; e = next) {
				next = e->relnext;
				e->relnext = tab[e->hash & (cap - 1)];
				tab[e->hash & (cap - 1)] = e;
			}
		free(w->rtab);
		w->rtab = tab;
		w->rtabcap = cap;
	}
	i = d->hash & (w->rtabcap - 1);
	d->relnext = w->rtab[i];
	w->rtab[i] = d;
}

static void
rel_unlink(struct watch *w, struct wdir *d)
{
	struct wdir	**pp;

	if (w->rtabcap == 0)
		return;
	for (pp = &w->rtab[d->hash & (w->rtabcap - 1)]; *pp != NULL;
	    pp = &(*pp)->relnext)
		if (*pp == d) {
			*pp = d->relnext;
			return;
		}
}

/* The watch of the folder rel ("posts/<folder>", "files/a"), or NULL. */
static struct wdir *
bundle_dir(const struct watch *w, const char *rel, uint64_t hash)
{
	struct wdir	*e;

	if (w->rtabcap == 0)
		return NULL;
	for (e = w->rtab[hash & (w->rtabcap - 1)]; e != NULL; e = e->relnext)
		if (e->hash == hash && strcmp(e->own, rel) == 0)
			return e;
	return NULL;
}

static void
close_dir(struct wdir *d)
{
	struct notifier	*nt = d->w->nt;

	/*
	 * The kernel hands out one descriptor per inode: maybe shared (a
	 * folder renamed is watched under its new name before its old one
	 * goes; one capsule may hold another).  EINVAL: the directory went,
	 * and its watch with it.
	 */
	if (nt != NULL && !nt_unlink(nt, d))
		(void)inotify_rm_watch(nt->fd, d->wd);
	free(d->own);
	free(d);
}

/* A directory of w->bundles out of it and closed: O(1). */
static void
drop_bundle(struct watch *w, struct wdir *d)
{
	size_t	 i = d->idx;

	rel_unlink(w, d);
	w->bundles[i] = w->bundles[--w->nbundles];
	w->bundles[i]->idx = i;
	close_dir(d);
}

/* Set by the first attempt: no /proc (a chroot), watch by name. */
static int	 noproc;

/*
 * An inotify watch of the directory fd is open on, whatever its names
 * have become since it was opened: /proc/self/fd/N is the open file
 * itself, not a name looked up again.  Without /proc (a chroot) the
 * path is watched, its last name not followed, and then checked to be
 * the directory fd is; a watch of something else is removed at once.
 * XXX: a link swapped in and back between the two checks goes unseen
 * there; openat2() cannot help, as inotify takes a name.
 */
static int
add_watch(struct notifier *nt, int fd, const char *path, uint32_t mask,
    const struct stat *st)
{
	struct stat	 now;
	char		 proc[64];
	int		 wd, saved;

	if (!noproc) {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		if ((wd = inotify_add_watch(nt->fd, proc, mask)) != -1 ||
		    errno != ENOENT)
			return wd;
		noproc = 1;
		log_debug("watch: no /proc: directories watched by name");
	}
	if ((wd = inotify_add_watch(nt->fd, path, mask | IN_DONT_FOLLOW)) ==
	    -1)
		return -1;
	if (lstat(path, &now) == 0 && now.st_dev == st->st_dev &&
	    now.st_ino == st->st_ino)
		return wd;
	saved = nt_find(nt, wd, NULL) != NULL;
	if (!saved)
		(void)inotify_rm_watch(nt->fd, wd);
	log_warnx("watch %s: replaced while it was watched; not watched",
	    path);
	errno = ESTALE;
	return -1;
}

/*
 * Watch the directory open on fd (path: for the log and without /proc;
 * name: as struct wdir's).  NULL, logged, when it cannot be.
 */
static struct wdir *
open_dir(struct watch *w, int fd, const char *path, const char *name,
    enum capfile_kind kind, const struct stat *st)
{
	struct wdir	*d;
	int		 wd;

	if ((wd = add_watch(w->nt, fd, path, WATCH_MASK, st)) == -1) {
		/* ENOSPC: fs.inotify.max_user_watches is used up. */
		if (errno == ENOSPC)
			log_warnx("watch %s: no inotify watch left "
			    "(fs.inotify.max_user_watches); changes there "
			    "need a SIGHUP", path);
		else if (errno != ESTALE)
			log_warn("watch %s: changes there need a SIGHUP",
			    path);
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->wd = wd;
	d->w = w;
	d->name = name;
	d->kind = kind;
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	nt_link(w->nt, d);
	log_debug("watch: %s", path);
	return d;
}

/*
 * rel (owned: taken), open on fd as st, is a folder to watch, of kind:
 * its watch (the one it has, or a new one) is marked as found by this
 * pass.  NULL when it is not watched.
 */
static struct wdir *
keep_dir(struct watch *w, int fd, char *rel, enum capfile_kind kind,
    const struct stat *st)
{
	struct wdir	*d;
	uint64_t	 hash = hash_str(rel);
	char		*path;

	if ((d = bundle_dir(w, rel, hash)) != NULL &&
	    (d->dev != st->st_dev || d->ino != st->st_ino)) {
		drop_bundle(w, d);	/* replaced: watched anew */
		d = NULL;
	}
	if (d == NULL) {
		if ((size_t)watch_count(w) >= w->budget) {
			w->over++;
			free(rel);
			return NULL;
		}
		path = xasprintf("%s/%s", w->dir, rel);
		d = open_dir(w, fd, path, rel, kind, st);
		free(path);
		if (d == NULL) {
			free(rel);
			return NULL;
		}
		d->own = rel;		/* d->name is rel: kept */
		d->hash = hash;
		if (w->nbundles == w->capbundles) {
			w->capbundles = w->capbundles ? w->capbundles * 2 :
			    16;
			w->bundles = xreallocarray(w->bundles, w->capbundles,
			    sizeof(*w->bundles));
		}
		d->idx = w->nbundles;
		w->bundles[w->nbundles++] = d;
		rel_link(w, d);
	} else
		free(rel);
	d->pass = w->pass;
	return d;
}

/* The watch of rel when it is still the directory st, or NULL. */
static struct wdir *
seen(const struct watch *w, const char *rel, const struct stat *st)
{
	struct wdir	*d;

	d = bundle_dir(w, rel, hash_str(rel));
	return d != NULL && d->dev == st->st_dev && d->ino == st->st_ino ?
	    d : NULL;
}

/* A pass over the folders beneath posts/ or files/. */
struct pass {
	struct watch	*w;
	enum capfile_kind kind;		/* what each folder beneath is */
};

/*
 * One entry of the walk beneath posts/ or files/ (core/dirwalk.h: each
 * folder opened beneath its parent's descriptor without following a
 * link, so that one swapped for a link leads nowhere; files/ follows
 * links only to places files/ holds, which are watched where they are:
 * core/fsafe.c).  Only folders count.
 */
static enum dirwalk_answer
walk_entry(void *arg, struct dirwalk_entry *e)
{
	struct pass		*ps = arg;
	struct watch		*w = ps->w;
	const struct stat	*st;
	struct stat		 now;
	struct wdir		*d;

	switch (e->event) {
	case DIRWALK_ENTRY:
		/* Posts' files are most of posts/: no stat for them. */
		if (e->type != DIRWALK_DIR || (st = dirwalk_stat(e)) == NULL ||
		    !S_ISDIR(st->st_mode))
			return DIRWALK_NEXT;
		/*
		 * A folder watched already with no folder in it (two
		 * links: its name and "."; btrfs says one, and is walked)
		 * costs that one fstatat: most of a big tree.
		 */
		d = seen(w, e->path, st);
		if (d != NULL && st->st_nlink == 2) {
			d->pass = w->pass;
			return DIRWALK_NEXT;
		}
		if (d == NULL && (size_t)watch_count(w) >= w->budget) {
			w->over++;	/* not even opened */
			return DIRWALK_NEXT;
		}
		return DIRWALK_ENTER;
	case DIRWALK_IN:
		return fstat(e->fd, &now) == 0 && keep_dir(w, e->fd,
		    xstrdup(e->path), ps->kind, &now) != NULL ? DIRWALK_NEXT :
		    DIRWALK_SKIP;
	case DIRWALK_DEEP:
		w->deep++;
		return DIRWALK_NEXT;
	case DIRWALK_FULL:
		w->over++;
		return DIRWALK_STOP;
	case DIRWALK_OUT:
	case DIRWALK_FAIL:	/* ELOOP: a link; ENOTDIR: a file */
		return DIRWALK_NEXT;
	}
	return DIRWALK_NEXT;
}

/* Every folder beneath the one open on dfd (rel: posts/ or files/). */
static void
walk(struct watch *w, int dfd, const char *rel, enum capfile_kind kind)
{
	struct pass	 ps = { w, kind };
	struct dirwalk	 dw = {
		.max_depth = WATCH_MAX_DEPTH,
		.max_entries = WATCH_MAX_ENTRIES,
		.fn = walk_entry,
		.arg = &ps,
	};

	(void)dirwalk_run(&dw, dfd, rel, NULL);
}

/*
 * Watch every folder beneath posts/ (a page bundle, one that may
 * become one when its index appears: content/archive.c, and their
 * folders) and every directory beneath files/, and forget those gone or
 * replaced: one pass over the folders, each found in O(1).
 */
static void
sync_owned(struct watch *w, int pfd, int ffd)
{
	size_t	 i, over;

	w->pass++;
	w->over = w->deep = 0;
	if (pfd != -1)
		walk(w, pfd, CAPFILE_POSTS, CAPFILE_POSTS_DIR);
	if (ffd != -1)
		walk(w, ffd, CAPFILE_FILES, CAPFILE_FILES_DIR);
	for (i = w->nbundles; i-- > 0;)
		if (w->bundles[i]->pass != w->pass)
			drop_bundle(w, w->bundles[i]);
	over = w->over + w->deep;
	if (over > 0 && !w->warned) {
		if (w->over > 0)
			log_warnx("watch %s: %zu directories watched, the "
			    "most one capsule may have (a quarter of "
			    "fs.inotify.max_user_watches); changes in the "
			    "other %zu or more need a SIGHUP", w->dir,
			    (size_t)watch_count(w), w->over);
		if (w->deep > 0)
			log_warnx("watch %s: %zu directories more than %d "
			    "deep are not watched; changes there need a "
			    "SIGHUP", w->dir, w->deep, WATCH_MAX_DEPTH);
	}
	w->warned = over > 0;
}

/*
 * Bring the watched set in line with the disk: watch the content
 * directories that exist, forget those gone or replaced; with owned,
 * every folder beneath posts/ and files/ too (a pass over them all:
 * only once a directory came or went).
 */
static void
sync_dirs(struct watch *w, int owned)
{
	struct stat	 st;
	struct wdir	*d;
	char		*path;
	size_t		 i;
	int		 rfd, fd[WATCH_NSUB], isdir;

	rfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (i = 0; i < WATCH_NSUB; i++) {
		/* No link: the archive does not follow a symlinked posts/. */
		fd[i] = rfd == -1 ? -1 : openat(rfd, subdirs[i], WATCH_OPEN);
		isdir = fd[i] != -1 && fstat(fd[i], &st) == 0;
		d = w->sub[i];
		if (d != NULL && (!isdir || d->dev != st.st_dev ||
		    d->ino != st.st_ino)) {
			close_dir(d);
			w->sub[i] = d = NULL;
			owned = 1;	/* its folders are to forget */
		}
		if (d == NULL && isdir) {
			owned = 1;	/* what it holds is new too */
			path = xasprintf("%s/%s", w->dir, subdirs[i]);
			w->sub[i] = open_dir(w, fd[i], path, subdirs[i],
			    capfile_entry(CAPFILE_TOP_DIR, subdirs[i], true,
			    NULL), &st);
			free(path);
		}
		if (w->sub[i] == NULL && fd[i] != -1) {
			close(fd[i]);
			fd[i] = -1;
		}
	}
	if (owned)
		sync_owned(w, fd[0], fd[WATCH_FILES]); /* posts/, files/ */
	for (i = 0; i < WATCH_NSUB; i++)
		if (fd[i] != -1)
			close(fd[i]);
	if (rfd != -1)
		close(rfd);
}

/* ---- events ----------------------------------------------------------- */

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
		sync_dirs(w, 1);
		changed(w);
		return;
	}
	if ((d = by_wd(w, ev->wd)) == NULL)
		return;			/* a directory no longer watched */
	if (m & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
		/*
		 * Forget it whatever sync_dirs() would say: a directory made
		 * at once in its place may have its inode number.  One of
		 * the folders beneath (rm -r of thousands: an event each) is
		 * forgotten alone, the next pass finds what came instead.
		 */
		if (d->own != NULL) {
			drop_bundle(w, d);
			w->resync = 1;
			changed(w);
			return;
		}
		for (i = 0; i < WATCH_NSUB; i++)
			if (w->sub[i] == d) {
				close_dir(d);
				w->sub[i] = NULL;
			}
		sync_dirs(w, 1);	/* before anything is written there */
		changed(w);
		return;
	}
	if (!matters(d, name, (m & IN_ISDIR) != 0))
		return;
	if ((m & IN_ISDIR) || name == NULL || (d == w->root &&
	    strcmp(name, CAPFILE_HOME) != 0)) {
		/*
		 * posts/, series/, pages/, files/ at once; a folder beneath
		 * them with the next build (on_quiet()), a pass for a burst.
		 */
		if (d == w->root)
			sync_dirs(w, 1);
		else if (m & IN_ISDIR)
			w->resync = 1;
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

/*
 * An event of nt: to each watch that has its directory (most often
 * one; more when capsules share a folder).  The watches are taken
 * first, as on_inotify() changes the chains.
 */
static void
dispatch(struct notifier *nt, const struct inotify_event *ev)
{
	struct watch	*one[8], **ws = one;
	struct wdir	*e;
	size_t		 i, n = 0, cap = nitems(one);

	/* on_inotify() stops no watch: the call backs run from timers. */
	if (ev->mask & IN_Q_OVERFLOW) {
		for (i = 0; i < nt->nw; i++)
			on_inotify(nt->w[i], ev);
		return;
	}
	for (e = nt->tabcap > 0 ? nt->tab[(unsigned)ev->wd &
	    (nt->tabcap - 1)] : NULL; e != NULL; e = e->wdnext) {
		if (e->wd != ev->wd)
			continue;
		for (i = 0; i < n && ws[i] != e->w; i++)
			;
		if (i < n)
			continue;
		if (n == cap) {
			cap *= 2;
			ws = ws == one ? memcpy(xreallocarray(NULL, cap,
			    sizeof(*ws)), one, sizeof(one)) :
			    xreallocarray(ws, cap, sizeof(*ws));
		}
		ws[n++] = e->w;
	}
	for (i = 0; i < n; i++)
		on_inotify(ws[i], ev);
	if (ws != one)
		free(ws);
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
	int				 reads;

	if (status < 0) {
		log_warnx("watch: inotify: %s", uv_strerror(status));
		return;
	}
	atomic_fetch_add(&nt->reading, 1);	/* odd: caught_up() waits */
	/*
	 * A bounded batch: one who makes events as fast as they are read
	 * (a rename loop) must not keep the loop here; the poll calls
	 * again at once for the rest.
	 */
	for (reads = 0; reads < WATCH_READS; reads++) {
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
	free(nt->tab);
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

/*
 * The directories one capsule may watch: a quarter of the user's
 * inotify watches (fs.inotify.max_user_watches, read when the first
 * watch starts: in a chroot it may not be there later), so that one
 * capsule with a hundred thousand folders leaves the others theirs.
 */
static size_t
budget(void)
{
	static size_t	 max;
	FILE		*f;
	unsigned long	 v;

	if (limit > 0)
		return limit;
	if (max == 0) {
		max = SIZE_MAX;		/* not known: the kernel's limit */
		if ((f = fopen("/proc/sys/fs/inotify/max_user_watches",
		    "re")) != NULL) {
			if (fscanf(f, "%lu", &v) == 1 && v >= 4)
				max = v / 4;
			fclose(f);
		}
		log_debug("watch: at most %zu directories per capsule", max);
	}
	return max;
}

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
	int		 fd;

	/* The capsule as the configuration names it: a link is followed. */
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1) {
		log_warn("watch %s", dir);
		if (fd != -1)
			close(fd);
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
	w->budget = budget();
	if (begin(w) == -1 ||
	    (w->root = open_dir(w, fd, dir, "", CAPFILE_TOP_DIR, &st)) ==
	    NULL) {
		close(fd);
		watch_stop(w);
		return NULL;
	}
	close(fd);
	sync_dirs(w, 1);
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
	while (w->nbundles > 0)
		close_dir(w->bundles[--w->nbundles]);
	free(w->bundles);
	free(w->rtab);
	w->bundles = w->rtab = NULL;
	w->nbundles = w->capbundles = w->rtabcap = 0;
	if (w->root != NULL) {
		close_dir(w->root);
		w->root = NULL;
	}
	end(w);
	uv_close((uv_handle_t *)&w->timer, on_closed);
}

void
watch_limit(size_t n)
{
	limit = n;
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
