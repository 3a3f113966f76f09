/*
 * cgi.h -- a CGI program answering one Gemini request.
 *
 * With "cgi: cgi-bin", the programs in each capsule's cgi-bin/ answer
 * the paths under /cgi-bin/: the first segment of the path that is a
 * regular file there is the program, what follows it is PATH_INFO.  The
 * program is run through libuv (uv_spawn, no shell) in its own
 * directory and process group, stdin /dev/null, stderr the server's,
 * with the environment gmid and molly-brown give theirs (README.md,
 * "CGI").  It writes the whole response, header and body, on stdout;
 * that is collected -- at most cgi_max_output bytes, within cgi_timeout
 * -- and its header checked before any of it is sent: a bad header,
 * more output or more time than allowed is 42, and the program's group
 * is killed.  Never run as root.
 *
 * Knows libuv, the configuration and the files under the capsule;
 * nothing of connections: conn.c starts a program, sends what it
 * answered, and counts the programs running on its worker.  Used on
 * one worker's loop thread.
 */
#ifndef CAPSULED_CGI_H
#define CAPSULED_CGI_H

#include <stddef.h>

#include <uv.h>

struct cgi;
struct config;
struct tlsconn_names;

/* What the program is told, besides what cgi_start() finds itself. */
struct cgi_request {
	const char	*url;		/* the request line as received */
	const char	*query;		/* still percent-encoded, or NULL */
	const char	*server_name;	/* the host that answers */
	int		 server_port;
	const char	*remote_addr;	/* the client ("192.0.2.7"), or "" */
	const char	*cert_hash;	/* SHA-256 hex of its certificate,
					   or NULL when it sent none */
	const struct tlsconn_names *tls;
};

/* Called once the program has answered or failed, handles closed. */
typedef void	(*cgi_done_fn)(struct cgi *, void *arg);

/*
 * Run the program that path (percent-decoded, under cfg->cgi, as
 * layout_under() says) names in cfg's capsule.  Returns the running
 * program, whose done(arg) follows; or NULL, with *status and *meta
 * (static) the answer: 51 when no program is there, 42 when it cannot
 * be run (logged).
 */
struct cgi	*cgi_start(uv_loop_t *loop, const struct config *cfg,
		    const char *path, const struct cgi_request *req,
		    cgi_done_fn done, void *arg, int *status,
		    const char **meta);
/*
 * After done: the status to log.  Either *out[0..*len) is the response
 * to send whole (its header first, *hlen bytes with the CRLF), or *out
 * is NULL and *meta (static) says why the answer is 42.  The bytes stay
 * the struct cgi's.
 */
int		 cgi_answer(const struct cgi *, const char **out, size_t *len,
		    size_t *hlen, const char **meta);
/* The client is gone: kill the program; done(arg) still follows. */
void		 cgi_abort(struct cgi *);
void		 cgi_free(struct cgi *);

#endif
