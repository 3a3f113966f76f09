/*
 * backend.h -- what answers a Gemini request the router does not: a
 * CGI program, a FastCGI or SCGI server, or another Gemini server, as
 * the configuration names for the path; one interface for the four.
 *
 * A "fastcgi", "scgi" or "proxy" entry whose prefix (or host) holds the
 * path names its backend (core/config_apps.h); else a path under "cgi:"
 * names a program (net/cgi.c).  The request is described once, as its
 * CGI/1.1 meta-variables (struct backend_job, net/backend_job.h), and
 * handed to that one backend, its peers never starting one another:
 * net/cgi.c puts them in a program's environment, net/app.c in a
 * FastCGI params record or an SCGI header, net/gproxy.c sends the
 * request line they hold.  Each answer is bounded alike: cgi_max_output
 * bytes (else 42), cgi_timeout (this module's timer, else 42), and its
 * header checked before a byte of it is sent (else 42, or 43 for the
 * proxy); a backend that cannot be reached is 43.  The logs name a
 * backend "cgi PROGRAM" or "backend ADDRESS" ("backend unix:/run/x",
 * "backend gemini://host:1965").
 *
 * Knows libuv and the configuration, nothing of connections: net/conn.c
 * starts a backend and sends what it answered.  Used on one worker's
 * loop thread; backend_close() ends that thread's share.
 */
#ifndef CAPSULED_BACKEND_H
#define CAPSULED_BACKEND_H

#include <stddef.h>

#include <uv.h>

struct backend;
struct config;
struct tlsconn_names;

/* What the connection knows of the request and its client. */
struct backend_client {
	const char	*url;		/* the request line as received */
	const char	*query;		/* still percent-encoded, or NULL */
	const char	*server_name;	/* the host that answers */
	int		 server_port;
	const char	*remote_addr;	/* the client ("192.0.2.7"), or "" */
	const char	*cert_hash;	/* SHA-256 hex of its certificate,
					   or NULL when it sent none */
	const struct tlsconn_names *tls;
};

/* Called once the backend has answered or failed, nothing pending. */
typedef void	(*backend_done_fn)(struct backend *, void *arg);

/*
 * Start what answers path (percent-decoded) on the host cfg describes
 * (top: the top-level configuration, whose secrets a program's domain
 * leaves out).  Returns the backend, whose done(arg) follows, never
 * from within this call; or NULL with *status and *meta (static) the
 * answer: 51 when no program is there, 42 when none may run (logged).
 * cl's strings are copied; the configurations must live until done.
 */
struct backend	*backend_start(uv_loop_t *, const struct config *top,
		    const struct config *cfg, const char *path,
		    const struct backend_client *cl, backend_done_fn done,
		    void *arg, int *status, const char **meta);
/*
 * After done: the Gemini status to log.  Either *out[0..*len) is the
 * response to send whole (its header first, *hlen bytes with the
 * CRLF), or *out is NULL and *meta (static) says why the answer is 4x.
 * The bytes stay the backend's.
 */
int		 backend_answer(const struct backend *, const char **out,
		    size_t *len, size_t *hlen, const char **meta);
/* The client is gone: stop; done(arg) still follows. */
void		 backend_abort(struct backend *);
void		 backend_free(struct backend *);
/* This thread's loop finishes: its kept connections, contexts, domain. */
void		 backend_close(void);

#endif
