/*
 * gproxy.h -- another Gemini server answering one request ("proxy:").
 *
 * A prefix or host of a "proxy" entry (core/config_apps.h) is answered
 * by a backend Gemini server: the request line (the job's url, as the
 * client sent it) goes to it over TLS, asking for the entry's sni, and
 * its answer comes back into the job, at most cgi_max_output bytes, as
 * for the other backends.  The client's certificate is never forwarded;
 * the entry's client_cert, when set, is presented instead.  The
 * backend's certificate is not judged by a CA (Gemini trusts on first
 * use) unless the entry pins its fingerprint.  The log names it
 * "backend gemini://HOST:PORT".
 *
 * Knows libuv and OpenSSL (through net/tlsconn.c), nothing of clients
 * or of the other backends: net/backend.c starts a request and judges
 * its answer.  Used on one worker's loop thread.
 */
#ifndef CAPSULED_GPROXY_H
#define CAPSULED_GPROXY_H

#include <stddef.h>

#include <uv.h>

#include "net/backend_job.h"

struct config_app;
struct gproxy;

/* Called once, after the backend answered or failed; nothing pending. */
typedef void	(*gproxy_done_fn)(struct gproxy *, void *arg);

/*
 * Send job's url to a's backend.  Never fails: an error ends the job
 * (BACKEND_UNREACHABLE: no name, no connection, no handshake, another
 * certificate than the one pinned; BACKEND_BAD: the stream broke;
 * BACKEND_TOO_BIG; each logged), and done(arg) follows, which may be
 * from within this call.  a and job must live until done.
 */
struct gproxy	*gproxy_start(uv_loop_t *, const struct config_app *a,
		    struct backend_job *job, gproxy_done_fn done, void *arg);
/* End it as why says (its socket closed); done(arg) follows. */
void		 gproxy_stop(struct gproxy *, enum backend_end why);
void		 gproxy_free(struct gproxy *);
/* This thread's loop finishes: free its TLS client context. */
void		 gproxy_close(void);

#endif
