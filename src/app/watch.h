/*
 * watch.h -- notice changes to the content, quietly.
 *
 * Watches what the archive reads (README.md, "Content format"): the
 * capsule directory itself (for index.md, and for posts/, series/ and
 * pages/ coming and going), each of those three directories while it
 * exists, and each folder of posts/ (a page bundle's post is its
 * index.md or index.gmi).  Linux inotify is not recursive, so each
 * directory has its own uv_fs_event handle, started when the directory
 * appears and closed when it goes or is replaced by another one.
 * files/ is not watched: it is served from disk as it is, never from a
 * snapshot; nor are a bundle's other files, for the same reason.
 *
 * Only names that can change a snapshot count: index.md, *.md (not
 * hidden), in posts/ also *.gmi and folders, in a bundle's folder its
 * index.md and index.gmi, and the directories themselves, so editors'
 * swap, backup and temporary files do not.  A burst of changes is one
 * call back: after debounce_ms without a change, and at the latest 10
 * debounces after the first change of a steady stream.
 *
 * Knows libuv and the layout of a capsule; nothing of the archive.  A
 * struct watch owns its handles and is freed by watch_stop() once the
 * last of them has closed.  Main loop thread only.
 */
#ifndef CAPSULED_WATCH_H
#define CAPSULED_WATCH_H

#include <uv.h>

struct watch;

typedef void	(*watch_fn)(void *arg);

/*
 * Watch dir; fn(arg) runs on loop after changes.  Returns NULL (with
 * the reason logged) when dir itself cannot be watched.
 */
struct watch	*watch_start(uv_loop_t *loop, const char *dir,
		    unsigned debounce_ms, watch_fn fn, void *arg);
/* Stop: no call back after this; memory goes when the handles close. */
void		 watch_stop(struct watch *);
/* Directories watched right now (the capsule counts); for tests. */
int		 watch_count(const struct watch *);

#endif
