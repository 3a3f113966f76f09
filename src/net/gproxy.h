/*
 * gproxy.h -- another Gemini server answering one request ("proxy:").
 *
 * A prefix or host of a "proxy" entry (core/config_apps.h) is answered
 * by a backend Gemini server: the request line goes to it over TLS,
 * asking for the entry's sni, and its answer -- at most cgi_max_output
 * bytes within cgi_timeout, as for the other apps -- comes back, its
 * header checked before any of it is sent.  The client's certificate
 * is never forwarded; the entry's client_cert, when set, is presented
 * instead.  The backend's certificate is not judged by a CA (Gemini
 * trusts on first use) unless the entry pins its fingerprint.
 *
 * Knows libuv and OpenSSL (through net/tlsconn.c), nothing of clients:
 * net/app.c starts a request and says what to send.  Used on one
 * worker's loop thread.
 */
#ifndef CAPSULED_GPROXY_H
#define CAPSULED_GPROXY_H

#include <stddef.h>

#include <uv.h>

struct config_app;
struct gproxy;

/* Called once, after the backend answered or failed; nothing pending. */
typedef void	(*gproxy_done_fn)(struct gproxy *, void *arg);

/*
 * Send the request line url (copied, without its CRLF) to a's backend,
 * answer within timeout_ms and max bytes.  Never fails: an error is an
 * answer, and done(arg) follows (never from within this call).  a must
 * live until done.
 */
struct gproxy	*gproxy_start(uv_loop_t *, const struct config_app *a,
		    const char *url, unsigned timeout_ms, size_t max,
		    gproxy_done_fn done, void *arg);
/*
 * After done: as app_answer() (net/app.h): the status with the bytes
 * to send, or *out NULL and *meta (static): 43 when the backend could
 * not be reached or its header is not a Gemini one, 42 when its answer
 * was too big or too late (each logged).
 */
int		 gproxy_answer(const struct gproxy *, const char **out,
		    size_t *len, size_t *hlen, const char **meta);
/* The client is gone: give up; done(arg) still follows. */
void		 gproxy_abort(struct gproxy *);
void		 gproxy_free(struct gproxy *);
/* This thread's loop finishes: free its TLS client context. */
void		 gproxy_close(void);

#endif
