/*
 * cgi.h -- a CGI program answering one Gemini request.
 *
 * With "cgi: cgi-bin", the programs in each capsule's cgi-bin/ answer
 * the paths under /cgi-bin/: the first segment of the path that is a
 * regular file there is the program, what follows it is PATH_INFO.  The
 * program is started by net/program.c (no shell) in its own directory,
 * session and process group, in a Landlock domain without the server's
 * keys and configuration, stdin /dev/null, stderr the server's, its
 * environment the request's meta-variables (net/backend.c;
 * docs/operating.md, "CGI").  It writes the whole response, header and
 * body, on stdout; that is collected into the job, at most
 * cgi_max_output bytes; more output, or cgi_stop() (past cgi_timeout,
 * the client gone), kills the program and all it started.  Never run as
 * root.
 *
 * Knows libuv, the configuration and the files under the capsule;
 * nothing of connections or of the other backends: net/backend.c
 * starts a program and judges its answer.  Used on one worker's loop
 * thread.
 */
#ifndef CAPSULED_CGI_H
#define CAPSULED_CGI_H

#include <stddef.h>

#include <uv.h>

#include "net/backend_job.h"

struct cgi;
struct config;

/* Called once, after the program has ended and its handles closed. */
typedef void	(*cgi_done_fn)(struct cgi *, void *arg);

/*
 * The program path (percent-decoded, under cfg->cgi, as layout_under()
 * says) names in cfg's capsule: the length of its name after path's
 * leading '/' (path[1 + len..] is PATH_INFO); or 0 with *status and
 * *meta (static) the answer: 51 when no program is there, 42 when the
 * server still runs as root (logged as an error).
 */
size_t		 cgi_find(const struct config *cfg, const char *path,
		    int *status, const char **meta);
/*
 * Run that program (len from cgi_find()) for job, whose vars are its
 * environment; top is the top-level configuration, whose secrets its
 * domain leaves out.  Never fails: a program that cannot be started
 * ends the job BACKEND_BAD (logged).  done(arg) follows, never from
 * within this call; job and the configurations must live until then.
 */
struct cgi	*cgi_start(uv_loop_t *loop, const struct config *top,
		    const struct config *cfg, const char *path, size_t len,
		    struct backend_job *job, cgi_done_fn done, void *arg);
/* End it as why says (the group killed); done(arg) still follows. */
void		 cgi_stop(struct cgi *, enum backend_end why);
void		 cgi_free(struct cgi *);

#endif
