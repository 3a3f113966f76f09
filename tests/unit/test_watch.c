/*
 * test_watch.c -- files being written, told apart and held back: the
 * watch (app/watch.c) on a real loop over a temp capsule, and what the
 * archive does with what it says (archive_reload_held()).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "app/watch.h"
#include "content/archive.h"
#include "core/config.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"

static char	 top[64];

static void
config_for(struct config *c, const char *dir)
{
	memset(c, 0, sizeof(*c));
	c->capsule_dir = (char *)dir;
	c->site_title = "Config title";
	c->lang = "en";
	c->hostname = "localhost";
}

/* held(): the names in the NULL-terminated list arg. */
static int
held_list(void *arg, const char *rel, enum archive_ask ask)
{
	const char *const	*p;

	for (p = arg; *p != NULL; p++)
		if (strcmp(*p, rel) == 0)
			return 1;
	return 0;
}

/*
 * A file being written keeps the version the previous snapshot read; a
 * new one is left out; once whole, each is read as usual.
 */
static void
test_archive_held(void)
{
	static const char *const both[] = {
		"posts/2024-01-01-a.md", "posts/2024-01-02-b.md", NULL
	};
	static const char *const none[] = { NULL };
	struct config	 c;
	struct archive	*a1, *a2, *a3, *a0;
	struct post	*p;
	char		*dir;

	dir = xasprintf("%s/held", top);
	test_mkdir(top, "held");
	test_mkdir(dir, "posts");
	test_put(dir, "posts/2024-01-01-a.md", "---\ntitle: A one\n---\n"
	    "One.\n");
	config_for(&c, dir);
	a1 = archive_load(&c);
	OK(a1 != NULL && a1->nposts == 1, "load");

	/* Half-written: the front matter is not even closed yet. */
	test_put(dir, "posts/2024-01-01-a.md", "---\ntitle: A two\n");
	test_put(dir, "posts/2024-01-02-b.md", "---\ntitle: B\n");
	a2 = archive_reload_held(&c, a1, held_list, (void *)both);
	INT_EQ(a2->nheld, 2, "two files being written");
	INT_EQ(a2->nwarnings, 0, "no warning for a file being written");
	INT_EQ(a2->nposts, 1, "the new one is left out");
	p = archive_post(a2, "a");
	STR_EQ(p ? p->title : NULL, "A one", "the old version stays");
	OK(p != NULL && p->src == archive_post(a1, "a")->src,
	    "the very same record");
	OK(archive_post(a2, "b") == NULL, "b not yet there");

	/* Held with nothing before: left out. */
	a0 = archive_reload_held(&c, NULL, held_list, (void *)both);
	INT_EQ(a0->nposts, 0, "no previous version: nothing shown");
	archive_unref(a0);

	/* Whole now. */
	test_put(dir, "posts/2024-01-01-a.md", "---\ntitle: A two\n---\n"
	    "Two.\n");
	test_put(dir, "posts/2024-01-02-b.md", "---\ntitle: B\n---\nBee.\n");
	a3 = archive_reload_held(&c, a2, held_list, (void *)none);
	INT_EQ(a3->nheld, 0, "nothing held");
	INT_EQ(a3->nposts, 2, "both posts");
	p = archive_post(a3, "a");
	STR_EQ(p ? p->title : NULL, "A two", "the new version");
	OK(archive_post(a3, "b") != NULL, "b is there");
	archive_unref(a1);
	archive_unref(a2);
	archive_unref(a3);
	free(dir);
}

/* held(): nothing held; what was asked after a read is noted in arg. */
static int
note_ask(void *arg, const char *rel, enum archive_ask ask)
{
	if (ask != ARCHIVE_ASK_BEFORE)
		*(enum archive_ask *)arg = ask;
	return 0;
}

/*
 * A file modified moments ago is let age before it is read, then asked
 * about as a plain read, like one modified long ago or stamped ahead of
 * now by hand.
 */
static void
test_archive_asks(void)
{
	struct config	 c;
	struct archive	*a1, *a2, *a3;
	struct timespec	 ts[2];
	struct post	*p;
	enum archive_ask ask;
	uint64_t	 t0, waited;
	char		*dir, path[512];

	dir = xasprintf("%s/asks", top);
	test_mkdir(top, "asks");
	test_mkdir(dir, "posts");
	snprintf(path, sizeof(path), "%s/posts/2024-01-01-a.md", dir);
	test_put(dir, "posts/2024-01-01-a.md", "---\ntitle: A\n---\nOne.\n");
	config_for(&c, dir);
	ask = ARCHIVE_ASK_BEFORE;
	t0 = uv_hrtime();
	a1 = archive_reload_held(&c, NULL, note_ask, &ask);
	waited = (uv_hrtime() - t0) / 1000000;
	INT_EQ(ask, ARCHIVE_ASK_READ, "written just now: let age, then read");
	OK(waited >= ARCHIVE_RECENT_MS / 2 && waited < 1000,
	    "the loader waited for it to age");
	p = archive_post(a1, "a");
	STR_EQ(p ? p->title : NULL, "A", "and took it");

	test_put(dir, "posts/2024-01-01-a.md", "---\ntitle: A\n---\nTwo!\n");
	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec -= 2;
	ts[1] = ts[0];
	OK(utimensat(AT_FDCWD, path, ts, 0) == 0, "mtime two seconds back");
	ask = ARCHIVE_ASK_BEFORE;
	a2 = archive_reload_held(&c, a1, note_ask, &ask);
	INT_EQ(ask, ARCHIVE_ASK_READ, "modified long ago: a plain read");

	test_put(dir, "posts/2024-01-01-a.md", "---\ntitle: A\n---\nThree\n");
	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec += 3600;
	ts[1] = ts[0];
	OK(utimensat(AT_FDCWD, path, ts, 0) == 0, "mtime an hour ahead");
	ask = ARCHIVE_ASK_BEFORE;
	a3 = archive_reload_held(&c, a2, note_ask, &ask);
	INT_EQ(ask, ARCHIVE_ASK_READ, "stamped ahead by hand: a plain read");
	archive_unref(a1);
	archive_unref(a2);
	archive_unref(a3);
	free(dir);
}

/* ---- the watch on a loop ----------------------------------------------- */

static uv_loop_t	 loop;
static struct watch	*w;
static int		 ncalls;
static char		 wdir[128];

static void
on_change(void *arg, const char *dir)
{
	(void)arg;
	if (strcmp(dir, wdir) == 0)	/* it says which capsule */
		ncalls++;
}

static void
on_stop(uv_timer_t *t)
{
	uv_stop(t->loop);
}

/* Run the loop for ms: the events arrive, the debounce runs out. */
static void
run_for(unsigned ms)
{
	uv_timer_t	 t;

	uv_update_time(&loop);		/* from now, not the last run */
	uv_timer_init(&loop, &t);
	uv_timer_start(&t, on_stop, ms, 0);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_close((uv_handle_t *)&t, NULL);
	uv_run(&loop, UV_RUN_NOWAIT);
}

static int
open_in(const char *rel)
{
	char	 path[512];

	snprintf(path, sizeof(path), "%s/%s", wdir, rel);
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

static void
piece(int fd, const char *s)
{
	OK(write(fd, s, strlen(s)) == (ssize_t)strlen(s), "write");
}

static void
test_watch(void)
{
	struct config	 c;
	struct archive	*a1, *a2;
	struct post	*p;
	struct timespec	 ts[2];
	char		 a[512], b[512];
	int		 fd, before;

	snprintf(wdir, sizeof(wdir), "%s/watched", top);
	test_mkdir(top, "watched");
	test_mkdir(wdir, "posts");
	OK(uv_loop_init(&loop) == 0, "loop");
	w = watch_start(&loop, wdir, 20, on_change, NULL);
	OK(w != NULL, "watch_start");
	if (w == NULL)
		return;
	INT_EQ(watch_count(w), 2, "the capsule and posts/");
	STR_EQ(watch_dir(w), wdir, "watch_dir");

	/* Written in pieces: held, and no rebuild, until it is closed. */
	fd = open_in("posts/2024-01-01-x.md");
	piece(fd, "---\ntitle: X\n");
	run_for(100);
	INT_EQ(watch_held(w, "posts/2024-01-01-x.md", ARCHIVE_ASK_BEFORE), 1, "being written");
	INT_EQ(watch_held(w, "posts/other.md", ARCHIVE_ASK_BEFORE), 0, "another file is not");
	INT_EQ(ncalls, 0, "a write asks for no rebuild");
	piece(fd, "---\nBody.\n");
	run_for(100);
	INT_EQ(watch_held(w, "posts/2024-01-01-x.md", ARCHIVE_ASK_BEFORE), 1, "still written");
	INT_EQ(ncalls, 0, "still no rebuild");
	close(fd);
	run_for(100);
	INT_EQ(watch_held(w, "posts/2024-01-01-x.md", ARCHIVE_ASK_BEFORE), 0, "closed: whole");
	INT_EQ(ncalls, 1, "closed: one rebuild");

	/* A temp file renamed over: whole at once (the temp is hidden). */
	fd = open_in("posts/.x.tmp");
	piece(fd, "---\ntitle: Y\n---\n");
	snprintf(a, sizeof(a), "%s/posts/.x.tmp", wdir);
	snprintf(b, sizeof(b), "%s/posts/2024-01-02-y.md", wdir);
	OK(rename(a, b) == 0, "rename");
	run_for(100);
	INT_EQ(watch_held(w, "posts/2024-01-02-y.md", ARCHIVE_ASK_BEFORE), 0, "renamed in: whole");
	INT_EQ(ncalls, 2, "renamed in: a rebuild");
	close(fd);

	/* The name renamed over a file being written settles it too. */
	fd = open_in("posts/2024-01-01-x.md");
	piece(fd, "half");
	run_for(60);
	INT_EQ(watch_held(w, "posts/2024-01-01-x.md", ARCHIVE_ASK_BEFORE), 1, "written again");
	snprintf(a, sizeof(a), "%s/posts/2024-01-01-x.md", wdir);
	OK(rename(b, a) == 0, "rename over it");
	run_for(100);
	INT_EQ(watch_held(w, "posts/2024-01-01-x.md", ARCHIVE_ASK_BEFORE), 0, "renamed over");
	close(fd);
	run_for(60);

	/* A hard link is whole when it is made. */
	snprintf(b, sizeof(b), "%s/posts/2024-01-03-z.md", wdir);
	before = ncalls;
	OK(link(a, b) == 0, "link");
	run_for(100);
	INT_EQ(watch_held(w, "posts/2024-01-03-z.md", ARCHIVE_ASK_BEFORE), 0, "a link is whole");
	OK(ncalls > before, "a link: a rebuild");

	/* index.md too. */
	fd = open_in("index.md");
	piece(fd, "---\n");
	run_for(60);
	INT_EQ(watch_held(w, "index.md", ARCHIVE_ASK_BEFORE), 1, "index.md being written");
	close(fd);
	run_for(60);
	INT_EQ(watch_held(w, "index.md", ARCHIVE_ASK_BEFORE), 0, "index.md whole");

	/* Unlinked while written: nothing left to hold. */
	fd = open_in("posts/2024-01-04-gone.md");
	piece(fd, "---\n");
	run_for(60);
	snprintf(a, sizeof(a), "%s/posts/2024-01-04-gone.md", wdir);
	OK(unlink(a) == 0, "unlink");
	run_for(60);
	INT_EQ(watch_held(w, "posts/2024-01-04-gone.md", ARCHIVE_ASK_BEFORE), 0, "unlinked");
	close(fd);

	/* posts/ replaced: the new one is watched. */
	snprintf(a, sizeof(a), "rm -rf '%s/posts'", wdir);
	OK(system(a) == 0, "rm -r posts");
	test_mkdir(wdir, "posts");
	run_for(100);
	INT_EQ(watch_count(w), 2, "posts/ watched again");
	fd = open_in("posts/2024-01-05-new.md");
	piece(fd, "---\n");
	run_for(60);
	INT_EQ(watch_held(w, "posts/2024-01-05-new.md", ARCHIVE_ASK_BEFORE), 1,
	    "the new posts/ tells writes too");
	close(fd);
	run_for(60);

	/*
	 * Editor droppings, and what no capsule reads or serves: nothing.
	 * (A file beside posts in posts/ is served, from memory: below.)
	 */
	before = ncalls;
	fd = open_in("posts/.x.md.swp");
	piece(fd, "swap");
	close(fd);
	fd = open_in("notes.txt");
	piece(fd, "notes");
	close(fd);
	run_for(100);
	INT_EQ(ncalls, before, "no rebuild for other files");
	INT_EQ(watch_held(w, "posts/.x.md.swp", ARCHIVE_ASK_BEFORE), 0, "swap files not held");

	/*
	 * A file beside the posts of posts/ is one a single-file post
	 * serves (content/files.c), kept in memory like a bundle's: its
	 * change makes the site that keeps it be replaced.
	 */
	before = ncalls;
	fd = open_in("posts/notes.txt");
	piece(fd, "notes");
	close(fd);
	run_for(100);
	INT_EQ(ncalls, before + 1, "a file beside posts: one rebuild");

	/* A .gmi post counts; a page bundle's folder is watched too. */
	before = ncalls;
	fd = open_in("posts/2024-01-06-g.gmi");
	piece(fd, "# G\n");
	close(fd);
	run_for(100);
	OK(ncalls > before, "a .gmi post: a rebuild");
	before = ncalls;
	test_mkdir(wdir, "posts/2024-01-07-b");
	run_for(100);
	OK(ncalls > before, "a folder made: a rebuild");
	INT_EQ(watch_count(w), 3, "the folder watched");
	before = ncalls;
	fd = open_in("posts/2024-01-07-b/index.md");
	piece(fd, "# B\n");
	run_for(60);
	INT_EQ(watch_held(w, "posts/2024-01-07-b/index.md", ARCHIVE_ASK_BEFORE), 1,
	    "a bundle's index being written");
	INT_EQ(ncalls, before, "no rebuild while written");
	close(fd);
	run_for(100);
	INT_EQ(watch_held(w, "posts/2024-01-07-b/index.md", ARCHIVE_ASK_BEFORE), 0,
	    "the index whole");
	OK(ncalls > before, "the index closed: a rebuild");
	before = ncalls;
	fd = open_in("posts/2024-01-07-b/pic.png");
	piece(fd, "PNG");
	close(fd);
	run_for(100);
	/* Served from memory the site holds: a new site forgets it. */
	OK(ncalls > before, "a bundle's picture: a rebuild");
	before = ncalls;
	fd = open_in("posts/2024-01-07-b/.pic.png.swp");
	piece(fd, "x");
	close(fd);
	run_for(100);
	INT_EQ(ncalls, before, "a hidden file in a bundle: no rebuild");

	/*
	 * A bundle's folders, however deep: their files are served from
	 * memory too, so an edit or an rm there must make a new site.
	 */
	before = ncalls;
	snprintf(a, sizeof(a), "mkdir -p '%s/posts/2024-01-07-b/img/big'",
	    wdir);
	OK(system(a) == 0, "mkdir -p the bundle's img/big");
	run_for(100);
	OK(ncalls > before, "a bundle's sub-folder made: a rebuild");
	INT_EQ(watch_count(w), 5, "the bundle, img and img/big watched");
	before = ncalls;
	fd = open_in("posts/2024-01-07-b/img/big/x.png");
	piece(fd, "PNG one");
	run_for(60);
	INT_EQ(watch_held(w, "posts/2024-01-07-b/img/big/x.png",
	    ARCHIVE_ASK_BEFORE), 1, "a file deep in a bundle being written");
	close(fd);
	run_for(100);
	OK(ncalls > before, "a file deep in a bundle edited: a rebuild");
	before = ncalls;
	snprintf(a, sizeof(a), "%s/posts/2024-01-07-b/img/big/x.png", wdir);
	OK(unlink(a) == 0, "rm img/big/x.png");
	run_for(100);
	OK(ncalls > before, "a file deep in a bundle removed: a rebuild");
	before = ncalls;
	snprintf(a, sizeof(a), "%s/posts/2024-01-07-b/img/big", wdir);
	snprintf(b, sizeof(b), "%s/posts/2024-01-07-b/big", wdir);
	OK(rename(a, b) == 0, "mv img/big big");
	run_for(100);
	INT_EQ(watch_count(w), 5, "moved: watched under its new name");
	fd = open_in("posts/2024-01-07-b/big/y.png");
	piece(fd, "PNG two");
	close(fd);
	run_for(100);
	OK(ncalls > before, "a file in the moved folder: a rebuild");

	snprintf(a, sizeof(a), "rm -rf '%s/posts/2024-01-07-b'", wdir);
	OK(system(a) == 0, "rm -r the bundle");
	run_for(100);
	OK(ncalls > before, "the folder gone: a rebuild");
	INT_EQ(watch_count(w), 2, "and no longer watched");

	/*
	 * Read before the loop took in its events (the loader is another
	 * thread): the watch cannot vouch for it, and owes a build.
	 */
	fd = open_in("posts/2024-01-08-r.md");
	piece(fd, "---\ntitle: R\n");
	INT_EQ(watch_held(w, "posts/2024-01-08-r.md", ARCHIVE_ASK_BEFORE), 0,
	    "its events not yet taken in: not known");
	INT_EQ(watch_held(w, "posts/2024-01-08-r.md", ARCHIVE_ASK_READ), 1,
	    "read meanwhile: kept back");
	before = ncalls;
	watch_published(w);
	run_for(100);
	INT_EQ(ncalls, before + 1, "kept back: a build asked for");
	INT_EQ(watch_held(w, "posts/2024-01-08-r.md", ARCHIVE_ASK_READ), 1,
	    "its events taken in: being written");
	close(fd);
	run_for(100);
	INT_EQ(watch_held(w, "posts/2024-01-08-r.md", ARCHIVE_ASK_READ), 0,
	    "closed, and the events in: whole");
	INT_EQ(watch_held(w, "posts/2024-01-08-r.md", ARCHIVE_ASK_RECENT), 1,
	    "modified moments ago: kept back all the same");
	before = ncalls;
	watch_published(w);
	run_for(100);
	INT_EQ(ncalls, before + 1, "and a build asked for");
	watch_published(w);
	run_for(60);
	INT_EQ(ncalls, before + 1, "only once");

	/*
	 * What the soak found: a build (started by something else) reads a
	 * writer's first piece before the loop took in its events.  The
	 * archive keeps the whole version; the stamp is moved back so that
	 * only the waiting events can tell.
	 */
	test_put(wdir, "posts/2024-01-08-r.md", "---\ntitle: R\n---\nWhole.\n");
	run_for(100);
	config_for(&c, wdir);
	a1 = archive_reload_held(&c, NULL, watch_held, w);
	p = archive_post(a1, "r");
	STR_EQ(p ? p->title : NULL, "R", "the whole version");
	fd = open_in("posts/2024-01-08-r.md");
	piece(fd, "---\ntitle: R two\n---\nThe first half of");
	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec -= 2;
	ts[1] = ts[0];
	OK(futimens(fd, ts) == 0, "stamped two seconds back");
	a2 = archive_reload_held(&c, a1, watch_held, w);
	p = archive_post(a2, "r");
	STR_EQ(p ? p->title : NULL, "R", "read half-written: the whole "
	    "version stays");
	OK(a2->nheld >= 1, "kept back (and the broken files read again)");
	before = ncalls;
	watch_published(w);
	run_for(100);
	OK(ncalls > before, "and a build asked for");
	close(fd);
	run_for(100);
	archive_unref(a1);
	archive_unref(a2);

	/* files/ and every directory beneath it, however deep. */
	before = ncalls;
	snprintf(a, sizeof(a), "mkdir -p '%s/files/a/b/c' '%s/files/.git'",
	    wdir, wdir);
	OK(system(a) == 0, "mkdir -p files/a/b/c");
	run_for(100);
	OK(ncalls > before, "files/ made: a rebuild");
	INT_EQ(watch_count(w), 6, "files/, a, b and c watched, not .git");
	before = ncalls;
	fd = open_in("files/a/b/c/x.txt");
	piece(fd, "one");
	run_for(60);
	INT_EQ(ncalls, before, "no rebuild while a file is written");
	close(fd);
	run_for(100);
	OK(ncalls > before, "a file deep in files/ closed: a rebuild");
	before = ncalls;
	fd = open_in("files/.git/HEAD");
	piece(fd, "x");
	close(fd);
	fd = open_in("files/.x.swp");
	piece(fd, "x");
	close(fd);
	run_for(100);
	INT_EQ(ncalls, before, "hidden names under files/: no rebuild");
	before = ncalls;
	snprintf(a, sizeof(a), "mv '%s/files/a/b' '%s/files/d'", wdir, wdir);
	OK(system(a) == 0, "mv files/a/b files/d");
	run_for(100);
	OK(ncalls > before, "a directory moved: a rebuild");
	INT_EQ(watch_count(w), 6, "still four under files/");
	before = ncalls;
	fd = open_in("files/d/c/y.txt");
	piece(fd, "two");
	close(fd);
	run_for(100);
	OK(ncalls > before, "a file in the moved directory: a rebuild");
	snprintf(a, sizeof(a), "rm -rf '%s/files'", wdir);
	OK(system(a) == 0, "rm -r files");
	run_for(100);
	INT_EQ(watch_count(w), 2, "files/ no longer watched");

	watch_stop(w);
	uv_run(&loop, UV_RUN_DEFAULT);
	INT_EQ(uv_loop_close(&loop), 0, "every handle closed");
}

/* ---- many watches on one loop -------------------------------------------- */

#define NMANY	200		/* more than the default 128 inotify instances */

static int	 many_calls[NMANY];
static char	 many_dir[NMANY][100];

static void
on_many(void *arg, const char *dir)
{
	int	 i = (int)(intptr_t)arg;

	if (strcmp(dir, many_dir[i]) == 0)
		many_calls[i]++;
}

/*
 * The watches of a loop share one inotify descriptor: more capsules
 * than the kernel gives a user descriptors (128 by default) are all
 * watched, and each change calls back its own capsule's watch only.
 */
static void
test_many(void)
{
	struct watch	*ws[NMANY];
	char		 sub[32];
	int		 i, started = 0, others = 0, fd;

	test_mkdir(top, "many");
	OK(uv_loop_init(&loop) == 0, "loop");
	for (i = 0; i < NMANY; i++) {
		snprintf(sub, sizeof(sub), "many/c%d", i);
		test_mkdir(top, sub);
		snprintf(many_dir[i], sizeof(many_dir[i]), "%s/%s", top, sub);
		snprintf(sub, sizeof(sub), "many/c%d/posts", i);
		test_mkdir(top, sub);
		ws[i] = watch_start(&loop, many_dir[i], 20, on_many,
		    (void *)(intptr_t)i);
		started += ws[i] != NULL;
	}
	INT_EQ(started, NMANY, "200 watches started");
	snprintf(wdir, sizeof(wdir), "%s", many_dir[150]);
	fd = open_in("posts/2024-01-01-x.md");
	piece(fd, "---\ntitle: X\n---\n");
	close(fd);
	run_for(150);
	INT_EQ(many_calls[150], 1, "the changed capsule's watch calls back");
	for (i = 0; i < NMANY; i++)
		others += i != 150 && many_calls[i] != 0;
	INT_EQ(others, 0, "and no other");
	/* One stopped: the others still hear of their changes. */
	watch_stop(ws[150]);
	ws[150] = NULL;
	snprintf(wdir, sizeof(wdir), "%s", many_dir[7]);
	fd = open_in("posts/2024-01-01-y.md");
	piece(fd, "---\ntitle: Y\n---\n");
	close(fd);
	run_for(150);
	INT_EQ(many_calls[7], 1, "after another stopped, a change still "
	    "calls back");
	for (i = 0; i < NMANY; i++)
		watch_stop(ws[i]);
	uv_run(&loop, UV_RUN_DEFAULT);
	INT_EQ(uv_loop_close(&loop), 0, "every handle closed");
}

/* ---- what the walk may not reach -------------------------------------- */

#define NOUT	21		/* out/ and its folders */

static atomic_int	 swapping;
#define NSWAP	8		/* folders swapped, each with its link */
static char		 swap_a[NSWAP][256], swap_b[NSWAP][256];

/* files/xN and files/.lN (a link out of the capsule) change places. */
static void
swapper(void *arg)
{
	int	 i;

	(void)arg;
	/* A pause a round, so that the loop gets its turn under valgrind. */
	while (atomic_load(&swapping)) {
		for (i = 0; i < NSWAP; i++)
			(void)renameat2(AT_FDCWD, swap_a[i], AT_FDCWD,
			    swap_b[i], RENAME_EXCHANGE);
		usleep(100);
	}
}

/*
 * A folder swapped for a link to somewhere else while the watch walks
 * (RENAME_EXCHANGE, over and over): nothing out of the capsule is ever
 * opened (a walk opens what it lists: inotify's IN_OPEN tells, where a
 * watch so made would go again within microseconds), however the walk
 * and the swaps fall.
 */
static void
test_swapped(void)
{
	uv_thread_t	 t;
	uint64_t	 t0;
	char		 cmd[1024], y[300], outdir[200];
	char		 evbuf[4096]
	    __attribute__((aligned(__alignof__(struct inotify_event))));
	int		 i, spy, rounds = 0, opened;

	snprintf(wdir, sizeof(wdir), "%s/swap", top);
	snprintf(outdir, sizeof(outdir), "%s/out", top);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/files' && cd '%s/files' && "
	    "for i in `seq 0 %d`; do mkdir -p x$i/s && ln -s '%s' .l$i; "
	    "done && cd '%s' && mkdir -p `seq -f d%%g 1 %d`", wdir, wdir,
	    NSWAP - 1, outdir, outdir, NOUT - 1);
	test_mkdir(top, "out");
	OK(system(cmd) == 0, "a capsule, and folders out of it");
	spy = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	OK(spy != -1, "inotify");
	for (i = 0; i < NOUT; i++) {
		snprintf(y, sizeof(y), i > 0 ? "%s/d%d" : "%s", outdir, i);
		OK(inotify_add_watch(spy, y, IN_OPEN | IN_ONLYDIR) != -1,
		    "out/... spied on");
	}
	for (i = 0; i < NSWAP; i++) {
		snprintf(swap_a[i], sizeof(swap_a[i]), "%s/files/x%d", wdir, i);
		snprintf(swap_b[i], sizeof(swap_b[i]), "%s/files/.l%d", wdir,
		    i);
	}
	snprintf(y, sizeof(y), "%s/files/y", wdir);
	OK(uv_loop_init(&loop) == 0, "loop");
	w = watch_start(&loop, wdir, 5, on_change, NULL);
	OK(w != NULL, "watch_start");
	if (w == NULL)
		return;
	atomic_store(&swapping, 1);
	OK(uv_thread_create(&t, swapper, NULL) == 0, "swapper");
	/* A directory made and removed: a pass over files/ each time. */
	t0 = uv_hrtime();
	while ((opened = read(spy, evbuf, sizeof(evbuf))) <= 0 &&
	    rounds < 60 && uv_hrtime() - t0 < 10000 * 1000000ULL) {
		(void)mkdir(y, 0755);
		run_for(10);
		(void)rmdir(y);
		run_for(10);
		rounds++;
	}
	atomic_store(&swapping, 0);
	uv_thread_join(&t);
	OK(opened > 0 || rounds > 10, "the watch walked files/ again and "
	    "again (%d rounds)", rounds);
	OK(opened <= 0, "no folder out of the capsule opened");
	close(spy);
	watch_stop(w);
	uv_run(&loop, UV_RUN_DEFAULT);
	INT_EQ(uv_loop_close(&loop), 0, "every handle closed");
}

/*
 * One capsule watches so many directories at most: the others keep
 * theirs (watch_limit(); a quarter of fs.inotify.max_user_watches by
 * default).
 */
static void
test_budget(void)
{
	char	 cmd[1024];

	snprintf(wdir, sizeof(wdir), "%s/budget", top);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/posts' '%s/files/a/b/c' "
	    "'%s/files/d'", wdir, wdir, wdir);
	OK(system(cmd) == 0, "a capsule of seven directories");
	OK(uv_loop_init(&loop) == 0, "loop");
	watch_limit(5);
	w = watch_start(&loop, wdir, 5, on_change, NULL);
	watch_limit(0);
	OK(w != NULL, "watch_start");
	if (w == NULL)
		return;
	INT_EQ(watch_count(w), 5, "five watched, no more");
	watch_stop(w);
	w = watch_start(&loop, wdir, 5, on_change, NULL);
	INT_EQ(w != NULL ? watch_count(w) : 0, 7, "the default: all seven");
	watch_stop(w);
	uv_run(&loop, UV_RUN_DEFAULT);
	INT_EQ(uv_loop_close(&loop), 0, "every handle closed");
}

static const struct harness_test tests[] = {
	TEST(test_archive_held),
	TEST(test_archive_asks),
	TEST(test_watch),
	TEST(test_many),
	TEST(test_swapped),
	TEST(test_budget),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	snprintf(top, sizeof(top), "/tmp/capsuled-watch-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	harness_run();
	test_rm_tree(top);
	return harness_done();
}
