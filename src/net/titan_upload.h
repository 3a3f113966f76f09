/*
 * titan_upload.h -- one Titan upload on a Gemini connection, from the
 * titan:// request line to the answer (proto/titan.h has the protocol).
 *
 * After the line, the connection reads exactly size bytes (at most
 * titan_max_size), which are checked and written as a post on libuv's
 * pool (fsync has no place on a loop); the answer is 30 to the post.  A
 * client that may not write still has its body read (and dropped, never
 * kept) before the 60/61, so that it reads the answer instead of a
 * reset; a size over the limit is answered at once.
 *
 * conn.c moves the bytes: it hands over the request line, then the body
 * as TLS yields it, and sends the answer this module decides, with its
 * own timers.  Knows the generation the request came under, the
 * request parser (proto/titan.h) and the writing of posts
 * (content/publish.h); nothing of sockets or TLS.  Runs on the
 * connection's loop thread, but for the write on the pool.
 */
#ifndef CAPSULED_TITAN_UPLOAD_H
#define CAPSULED_TITAN_UPLOAD_H

#include <stddef.h>
#include <uv.h>

struct gen;
struct titan_upload;

/* The write is over (titan_upload_finish()); called on the loop. */
typedef void	(*titan_upload_cb)(struct titan_upload *, void *arg);

/*
 * A new upload answered from g, whose log lines name peer; both are
 * borrowed and must outlive the upload (the connection holds them).
 */
struct titan_upload	*titan_upload_new(const struct gen *g,
			    const char *peer);
/* NULL: ignored.  Not while titan_upload_finish()'s write is running. */
void			 titan_upload_free(struct titan_upload *);

/*
 * The titan:// request line line[0..len), no CRLF.  sni: the server
 * name the client sent in TLS, port: ours it reached (a host with a
 * gemini_port of its own takes uploads there only), hash: its certificate's
 * (tlsconn_client_hash()); NULL when none.  Returns 1 when a body of
 * titan_upload_want() bytes follows, 0 when the answer is due now
 * (titan_upload_answer()): no uploads here, a bad line, a host that is
 * not ours, a size over the limit.
 */
int	 titan_upload_begin(struct titan_upload *, const char *line,
	    size_t len, const char *sni, int port, const char *hash);
/* Body bytes still to come. */
size_t	 titan_upload_want(const struct titan_upload *);
/* 1 when the body is kept to be written; 0 when it is only drained. */
int	 titan_upload_writing(const struct titan_upload *);
/* Body bytes: kept (or dropped), up to titan_upload_want() of them. */
void	 titan_upload_take(struct titan_upload *, const char *p, size_t len);

/*
 * The whole body is here: check it and queue the write on loop's pool.
 * Returns 1 when cb(up, arg) will run on loop once the write is over,
 * 0 when the answer is due now (a refused writer, a bad upload, a pool
 * that would not take the work).
 */
int	 titan_upload_finish(struct titan_upload *, uv_loop_t *loop,
	    titan_upload_cb cb, void *arg);

/*
 * The answer: returns the status, with *meta its META (valid while the
 * upload lives).  Called in titan_upload_finish()'s callback, it reads
 * the outcome of the write and logs it; a connection that closed in the
 * meantime does not call it, so nothing is logged for it.
 */
int	 titan_upload_answer(struct titan_upload *, const char **meta);

#endif
