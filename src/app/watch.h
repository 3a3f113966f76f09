/*
 * watch.h -- notice changes to the content, quietly, and only once the
 * files are whole.
 *
 * Watches what the archive reads (docs/writing.md, "The capsule") and
 * what a site keeps in memory (site/site.h): the capsule directory itself
 * (for index.md, and for posts/, series/, pages/ and files/ coming and
 * going), each of those four directories while it exists, every folder
 * beneath posts/ (a page bundle's, however deep: its files are kept in
 * memory too) and every directory beneath files/.  Linux inotify is not
 * recursive, so each directory has a watch of its own, added when the
 * directory appears and removed when it goes or is replaced by another
 * one.
 *
 * Only names that can change a snapshot or a kept file count, as the
 * rule of a capsule says (core/capfile.h): index.md, the sources of
 * posts/, series/ and pages/, the folders of posts/, and every file
 * served from memory (beneath files/, in a bundle's folder, beside the
 * posts of posts/), so editors' hidden swap files do not.  A burst of
 * changes is one call back: after debounce_ms
 * without a change, and at the latest 10 debounces after the first
 * change of a steady stream.
 *
 * A file being written is told apart (inotify's IN_MODIFY, then
 * IN_CLOSE_WRITE): from its first write until it is closed, renamed or
 * unlinked -- or has been quiet, still open, for the settle time (5 s;
 * two debounces when that is longer) -- watch_held() says so, the
 * archive keeps the version it had, and its writes ask for no rebuild.
 * Asked after a file was read, the watch also keeps it back while
 * events it has not taken in wait, and owes a build for it
 * (watch_published()).
 *
 * Every watch of a loop shares one inotify descriptor, so that a
 * thousand capsules need one of the few a user may have
 * (fs.inotify.max_user_instances); each directory is one inotify watch
 * (fs.inotify.max_user_watches: a capsule takes five, and one per folder
 * beneath posts/ and per directory beneath files/; at most a quarter of
 * the limit, and 32 levels deep, so that one capsule leaves the others
 * theirs).  A directory that cannot be watched is logged, naming the
 * limit when that is why, and is not fatal: changes there wait for a
 * SIGHUP.  Folders are opened beneath their parent's descriptor without
 * following a link, and watched as opened: nothing out of the capsule
 * is walked or watched, whatever is swapped in meanwhile.
 *
 * Linux only (inotify, as core/fsafe.c is openat2).  Knows libuv,
 * inotify and the layout of a capsule; nothing of the archive.  A
 * struct watch owns its handles and is freed by watch_stop() once the
 * last of them has closed.  Main loop thread only, but for
 * watch_held().
 */
#ifndef CAPSULED_WATCH_H
#define CAPSULED_WATCH_H

#include <uv.h>

#include "content/archive.h"

struct watch;

/* dir: the capsule that changed, as given to watch_start(). */
typedef void	(*watch_fn)(void *arg, const char *dir);

/*
 * Watch dir; fn(arg, dir) runs on loop after changes.  Returns NULL
 * (with the reason logged) when dir itself cannot be watched.  One
 * watch per capsule: the call back says which capsule changed, so
 * that only that one is built again (app/reload.c).
 */
struct watch	*watch_start(uv_loop_t *loop, const char *dir,
		    unsigned debounce_ms, watch_fn fn, void *arg);
/* Stop: no call back after this; memory goes when the handles close. */
void		 watch_stop(struct watch *);
/*
 * Directories one capsule may watch from its next watch_start() on; 0
 * (the default): a quarter of fs.inotify.max_user_watches.  For tests.
 */
void		 watch_limit(size_t n);
/* Directories watched right now (the capsule counts); for tests. */
int		 watch_count(const struct watch *);
/* The capsule directory, as given to watch_start(). */
const char	*watch_dir(const struct watch *);
/*
 * Is rel ("posts/x.md", "index.md") of the watch at arg being written
 * right now?  Any thread, while the watch is not stopped (an
 * archive_held_fn: content/archive.h).  After a read (ARCHIVE_ASK_READ)
 * also 1 while events the kernel queued are not all taken in yet, and
 * always for a file modified moments ago (ARCHIVE_ASK_RECENT): the
 * watch then owes a build, asked for by watch_published().
 */
int		 watch_held(void *arg, const char *rel, enum archive_ask);
/*
 * A build that asked w has been published: when watch_held() kept a
 * file back without knowing, ask for another build (after the
 * debounce, by which time the events are in).  Main loop.
 */
void		 watch_published(struct watch *w);

#endif
