/*
 * app.h -- a FastCGI or SCGI server answering one Gemini request.
 *
 * A prefix of "fastcgi:" or "scgi:" (core/config_apps.h) is answered by
 * a server already running on a Unix or TCP socket: it is sent the
 * request's meta-variables (net/backend.c: what a CGI program gets in
 * its environment, with the entry's params) and its answer, header and
 * body, is collected into the job, at most cgi_max_output bytes.
 * FastCGI connections are kept open (FCGI_KEEP_CONN) and reused; SCGI's
 * end with their answer.  At most max_connections per backend are open
 * on one worker; a request beyond that waits for one, within its
 * cgi_timeout (net/backend.c's timer, which calls app_stop()).
 *
 * Knows libuv and the wire modules (proto/fastcgi.c, proto/scgi.c),
 * nothing of clients or of the other backends: net/backend.c starts a
 * request and judges its answer.  Used on one worker's loop thread; the
 * connections kept open belong to that thread, and app_pool_close()
 * closes them when it finishes.
 */
#ifndef CAPSULED_APP_H
#define CAPSULED_APP_H

#include <stddef.h>

#include <uv.h>

#include "net/backend_job.h"

struct app;
struct config_app;

/* Called once, when the request is over; it holds no handle. */
typedef void	(*app_done_fn)(struct app *, void *arg);

/*
 * Send job's vars to the backend a names.  Never fails: an error ends
 * the job (BACKEND_UNREACHABLE when the backend cannot be reached, else
 * BACKEND_BAD, BACKEND_TOO_BIG; logged), and done(arg) follows, which
 * may be from within this call.  a and job must live until done.
 */
struct app	*app_start(uv_loop_t *, const struct config_app *a,
		    struct backend_job *job, app_done_fn done, void *arg);
/* End it as why says (its connection closed); done(arg) follows. */
void		 app_stop(struct app *, enum backend_end why);
void		 app_free(struct app *);
/* This thread's loop finishes: close the connections kept open. */
void		 app_pool_close(void);

#endif
