/*
 * watch.c -- uv_fs_event on the capsule and its content directories,
 * debounced (see watch.h).
 *
 * Every watched directory is a struct wdir of its own, allocated when
 * the watch starts and freed in its handle's close callback, so that a
 * directory replaced under us (rm -r posts; mkdir posts) can be closed
 * and watched again at once, before libuv is done with the old handle.
 * struct watch counts its open handles and is freed with the last one
 * (the timer counts too).
 */
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
	const char	*name;		/* "" for the capsule, else subdirs[] */
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

/*
 * Bring the watched set in line with the disk: watch the content
 * directories that exist, forget those gone or replaced.
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
	len = strlen(name);
	return name[0] != '.' && len > 3 && strcmp(name + len - 3, ".md") == 0;
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
	uv_close((uv_handle_t *)&w->timer, on_closed);
}

int
watch_count(const struct watch *w)
{
	int	 n = w->root != NULL;
	size_t	 i;

	for (i = 0; i < WATCH_NSUB; i++)
		n += w->sub[i] != NULL;
	return n;
}
