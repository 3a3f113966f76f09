/*
 * app.h -- a FastCGI or SCGI server answering one Gemini request.
 *
 * A prefix of "fastcgi:" or "scgi:" (core/config_apps.h) is answered by
 * a server already running on a Unix or TCP socket: it is sent the
 * environment a CGI program gets (net/cgi.c) and its answer, header
 * and body, is collected -- at most cgi_max_output bytes within
 * cgi_timeout -- and its header checked before any of it is sent, as
 * for CGI.  FastCGI connections are kept open (FCGI_KEEP_CONN) and
 * reused; SCGI's end with their answer.  At most max_connections per
 * backend are open on one worker; a request beyond that waits for one,
 * within its cgi_timeout.  A "proxy:" entry is handed to net/gproxy.c
 * behind the same calls.
 *
 * Knows libuv and the wire modules (proto/fastcgi.c, proto/scgi.c),
 * nothing of clients: net/cgi.c starts a request and says what to send.
 * Used on one worker's loop thread; the connections kept open belong
 * to that thread, and app_pool_close() closes them when it finishes.
 */
#ifndef CAPSULED_APP_H
#define CAPSULED_APP_H

#include <stddef.h>

#include <uv.h>

struct app;
struct config_app;

/* Called once, after the backend answered or failed; nothing pending. */
typedef void	(*app_done_fn)(struct app *, void *arg);

/*
 * Send env (NULL-terminated "NAME=value", copied) to the backend a
 * names, answer within timeout_ms and max bytes.  Never fails: an
 * error is an answer, and done(arg) follows (never from within this
 * call).  a must live until done.
 */
struct app	*app_start(uv_loop_t *, const struct config_app *a,
		    char *const *env, unsigned timeout_ms, size_t max,
		    app_done_fn done, void *arg);
/*
 * After done: the Gemini status, with *out[0..*len) the response to
 * send (its header *hlen bytes), or *out NULL and *meta (static) what
 * to answer: 43 when the backend could not be reached, 42 when its
 * answer was wrong, too big or too late (logged).  The bytes stay the
 * struct app's.
 */
int		 app_answer(const struct app *, const char **out, size_t *len,
		    size_t *hlen, const char **meta);
/*
 * A whole answer output, of a program or a backend (named who, for the
 * log, e.g. "cgi /x"): its status with *out, *len, *hlen as above, or
 * 42 with *meta when its header is not a Gemini one (logged).
 */
struct buf;
int		 app_header(const struct buf *output, const char *who,
		    const char **out, size_t *len, size_t *hlen,
		    const char **meta);
/* The client is gone: give up; done(arg) still follows. */
void		 app_abort(struct app *);
void		 app_free(struct app *);
/* This thread's loop finishes: close the connections kept open. */
void		 app_pool_close(void);

#endif
