/*
 * watch.c -- uv_fs_event on the capsule, its content directories and
 * the folders of posts/ (page bundles), debounced (see watch.h).
 *
 * Every watched directory is a struct wdir of its own, allocated when
 * the watch starts and freed in its handle's close callback, so that a
 * directory replaced under us (rm -r posts; mkdir posts) can be closed
 * and watched again at once, before libuv is done with the old handle.
 * struct watch counts its open handles and is freed with the last one
 * (the timer counts too).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/watch.h"
#include "core/log.h"
#include "core/util.h"

#define WATCH_NSUB	3
#define WATCH_MAX_WAIT	10	/* debounces, at most, after the first */

static const char *const subdirs[WATCH_NSUB] = { "posts", "series", "pages" };

struct wdir {
	uv_fs_event_t	 ev;
	struct watch	*w;
	const char	*name;		/* "" for the capsule, else subdirs[],
					   else a bundle's folder (own) */
	char		*own;		/* a bundle's folder name, or NULL */
	dev_t		 dev;		/* which directory: replaced ones */
	ino_t		 ino;		/* are watched again */
};

struct watch {
	uv_loop_t	*loop;
	char		*dir;		/* the capsule, as given */
	unsigned	 debounce_ms;
	watch_fn	 fn;
	void		*arg;
	uv_timer_t	 timer;
	int		 due;		/* a change is waiting for the timer */
	uint64_t	 first;		/* uv_now() of the first such change */
	struct wdir	*root;
	struct wdir	*sub[WATCH_NSUB];
	struct wdir	**bundles;	/* folders of posts/ */
	size_t		 nbundles;
	int		 nopen;		/* handles not yet closed */
	int		 stopping;
};

static void	on_event(uv_fs_event_t *, const char *, int, int);

static void
on_closed(uv_handle_t *h)
{
	struct watch	*w;

	if (h->type == UV_FS_EVENT) {
		struct wdir *d = h->data;

		w = d->w;
		free(d->own);
		free(d);
	} else
		w = h->data;
	if (--w->nopen == 0 && w->stopping) {
		free(w->dir);
		free(w);
	}
}

static void
close_dir(struct wdir *d)
{
	uv_close((uv_handle_t *)&d->ev, on_closed);
}

/* Watch path (name as in struct wdir); NULL when it cannot be (logged). */
static struct wdir *
open_dir(struct watch *w, const char *path, const char *name,
    const struct stat *st)
{
	struct wdir	*d;
	int		 rv;

	d = xcalloc(1, sizeof(*d));
	d->w = w;
	d->name = name;
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	if ((rv = uv_fs_event_init(w->loop, &d->ev)) < 0) {
		free(d);
		log_warnx("watch %s: %s", path, uv_strerror(rv));
		return NULL;
	}
	d->ev.data = d;
	w->nopen++;
	if ((rv = uv_fs_event_start(&d->ev, on_event, path, 0)) < 0) {
		/* ENOSPC: fs.inotify.max_user_watches is used up. */
		log_warnx("watch %s: %s; changes there need a SIGHUP", path,
		    uv_strerror(rv));
		close_dir(d);
		return NULL;
	}
	log_debug("watch: %s", path);
	return d;
}

/* The watched bundle folder name, or NULL. */
static struct wdir *
bundle_dir(const struct watch *w, const char *name)
{
	size_t	 i;

	for (i = 0; i < w->nbundles; i++)
		if (strcmp(w->bundles[i]->name, name) == 0)
			return w->bundles[i];
	return NULL;
}

/*
 * Watch every folder of posts/ (a page bundle, or one that may become
 * one when its index.md appears), and forget those gone or replaced.
 * Hidden ones and links are not bundles (content/archive.c).
 */
static void
sync_bundles(struct watch *w)
{
	struct wdir	**keep = NULL, *d;
	struct dirent	*de;
	struct stat	 st;
	DIR		*dir = NULL;
	char		*posts, *path;
	size_t		 i, n = 0;

	posts = xasprintf("%s/posts", w->dir);
	if (w->sub[0] != NULL)		/* subdirs[0]: posts */
		dir = opendir(posts);
	while (dir != NULL && (de = readdir(dir)) != NULL) {
		/* Posts' files are most of posts/: no lstat for them. */
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR &&
		    de->d_type != DT_UNKNOWN))
			continue;
		path = xasprintf("%s/%s", posts, de->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			d = bundle_dir(w, de->d_name);
			if (d == NULL || d->dev != st.st_dev ||
			    d->ino != st.st_ino) {
				d = open_dir(w, path, de->d_name, &st);
				if (d != NULL)
					d->name = d->own =
					    xstrdup(de->d_name);
			} else
				d->w = NULL;	/* kept: see below */
			if (d != NULL) {
				keep = xreallocarray(keep, n + 1,
				    sizeof(*keep));
				keep[n++] = d;
			}
		}
		free(path);
	}
	if (dir != NULL)
		closedir(dir);
	/* Those not marked kept (and not new) are gone: close them. */
	for (i = 0; i < w->nbundles; i++)
		if (w->bundles[i]->w != NULL)
			close_dir(w->bundles[i]);
	for (i = 0; i < n; i++)
		keep[i]->w = w;
	free(w->bundles);
	w->bundles = keep;
	w->nbundles = n;
	free(posts);
}

/*
 * Bring the watched set in line with the disk: watch the content
 * directories (and the folders of posts/) that exist, forget those gone
 * or replaced.
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
	sync_bundles(w);
}

static void
on_quiet(uv_timer_t *t)
{
	struct watch	*w = t->data;

	w->due = 0;
	if (w->stopping)
		return;
	sync_dirs(w);
	w->fn(w->arg);
}

/* Is posts/name a directory (not a link to one)? */
static int
is_dir(const struct watch *w, const char *name)
{
	struct stat	 st;
	char		*path;
	int		 rv;

	path = xasprintf("%s/posts/%s", w->dir, name);
	rv = lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
	free(path);
	return rv;
}

/* Does a change to name, in the directory d watches, matter? */
static int
matters(const struct wdir *d, const char *name)
{
	size_t	 i, len;

	if (name == NULL)
		return 1;		/* libuv could not say: assume so */
	if (*d->name == '\0') {
		if (strcmp(name, "index.md") == 0)
			return 1;
		for (i = 0; i < WATCH_NSUB; i++)
			if (strcmp(name, subdirs[i]) == 0)
				return 1;
		return 0;
	}
	if (strcmp(name, d->name) == 0)
		return 1;		/* the directory itself went */
	if (d->own != NULL)		/* a bundle: only its post matters */
		return strcmp(name, "index.md") == 0 ||
		    strcmp(name, "index.gmi") == 0;
	len = strlen(name);
	if (name[0] == '.')
		return 0;
	if (len > 3 && strcmp(name + len - 3, ".md") == 0)
		return 1;
	if (d != d->w->sub[0])
		return 0;
	/* posts/ also holds gemtext posts and bundles' folders. */
	return (len > 4 && strcmp(name + len - 4, ".gmi") == 0) ||
	    bundle_dir(d->w, name) != NULL || is_dir(d->w, name);
}

static void
on_event(uv_fs_event_t *h, const char *name, int events, int status)
{
	struct wdir	*d = h->data;
	struct watch	*w = d->w;
	uint64_t	 now;

	if (w->stopping || uv_is_closing((uv_handle_t *)h))
		return;
	if (status < 0)
		log_debug("watch %s: %s", d->name, uv_strerror(status));
	else if (!matters(d, name))
		return;
	now = uv_now(w->loop);
	if (!w->due) {
		w->due = 1;
		w->first = now;
	} else if (now - w->first >= (uint64_t)w->debounce_ms *
	    WATCH_MAX_WAIT)
		return;			/* let the timer fire as it is */
	uv_timer_start(&w->timer, on_quiet, w->debounce_ms, 0);
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
	w->fn = fn;
	w->arg = arg;
	uv_timer_init(loop, &w->timer);
	w->timer.data = w;
	w->nopen = 1;
	if ((w->root = open_dir(w, dir, "", &st)) == NULL) {
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
	if (w->root != NULL)
		close_dir(w->root);
	for (i = 0; i < WATCH_NSUB; i++)
		if (w->sub[i] != NULL)
			close_dir(w->sub[i]);
	for (i = 0; i < w->nbundles; i++)
		close_dir(w->bundles[i]);
	free(w->bundles);
	w->bundles = NULL;
	w->nbundles = 0;
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
