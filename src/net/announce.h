/*
 * announce.h -- telling aggregators that a new post went live
 * ("announce:"): each URL of a host's list asked once, with the
 * address of the host's feed as its query, off the request path.
 *
 * app/reload.c says when a host's content was built again
 * (announce_posts(): the snapshot it replaces and the new one).  A post
 * listed in the new one that the old one did not list (a new file, a
 * draft published, a page a zone no longer guards) makes the host due;
 * an edit, a start-up or a configuration read again does not.  After
 * announce_delay with no other new post (three posts in a minute are
 * told once), each URL is asked over Gemini with net/gproxy.c's client
 * (its name looked up, TLS without a CA, as Gemini trusts, the request
 * line, the answer): 2x or 3x ends it; 4x, no connection, a broken
 * stream or no answer in 30 seconds is tried again after 4, 16 and 64
 * times the delay; 1x (it asks for input it was given), 5x and 6x
 * are the aggregator's no, not tried again.
 * A new post while one is asked has it asked once more.  Each attempt
 * is logged with its answer.  A host with no URL makes no connection
 * (and the sandbox allows none: app/sandbox.c).
 *
 * Knows libuv, the configuration, the archive and the feed's address;
 * nothing of clients.  Runs on the main loop's thread.  A struct
 * announcer owns every request in flight or waiting, each with its own
 * copy of the URL and the feed's address, so a configuration read
 * again may go while they wait.
 */
#ifndef CAPSULED_ANNOUNCE_H
#define CAPSULED_ANNOUNCE_H

#include <uv.h>

struct archive;
struct announcer;
struct config;

#define ANNOUNCE_TRIES		4	/* the first, and three again */
#define ANNOUNCE_TIMEOUT_MS	30000	/* for one attempt's answer */

struct announcer *announce_new(uv_loop_t *);
/*
 * Host h's content went from old to new (both borrowed for the call):
 * when new lists a post old did not, h's aggregators are due.  old
 * NULL (a host new to the configuration) tells no one.
 */
void	 announce_posts(struct announcer *, const struct config *h,
	    const struct archive *old, const struct archive *new);
/*
 * Drop what waits, end what is in flight (logged), close every handle;
 * the loop must then run until they have closed.
 */
void	 announce_stop(struct announcer *);
/* After the loop has run out: free it, and this thread's TLS client. */
void	 announce_free(struct announcer *);

#endif
