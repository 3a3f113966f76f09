/*
 * backend_job.h -- one request as every backend is handed it, and what
 * each hands back: the peers' common ground (net/backend.h).
 *
 * net/backend.c describes the request once -- its CGI/1.1
 * meta-variables, the very variables a CGI program gets in its
 * environment, a FastCGI server in its params records and an SCGI
 * server in its header -- and gives the job to the one backend that
 * answers.  That backend names itself for the log (who), adds what
 * comes back with backend_job_take(), bounded by cgi_max_output, and
 * says how it ended with backend_job_end().  The timer (cgi_timeout) is
 * backend.c's, the same for all.
 *
 * Knows buffers and the log, nothing of sockets or processes.  The job
 * belongs to backend.c; a backend borrows it until its done callback.
 */
#ifndef CAPSULED_BACKEND_JOB_H
#define CAPSULED_BACKEND_JOB_H

#include <stddef.h>

#include "core/buf.h"

/* How a backend's answer ended, whatever the backend. */
enum backend_end {
	BACKEND_RUNNING,
	BACKEND_DONE,			/* the whole answer is in out */
	BACKEND_UNREACHABLE,		/* no connection to the backend */
	BACKEND_BAD,			/* a broken stream, refused, or the
					   program could not be started */
	BACKEND_TOO_BIG,		/* more than cgi_max_output */
	BACKEND_TOO_LONG,		/* past cgi_timeout */
	BACKEND_ABORTED,		/* the client left */
};

struct backend_job {
	/* The request's description, built once (net/backend.c). */
	const char	*url;		/* the request line without its CRLF
					   (GEMINI_URL): vars' copy */
	char		**vars;		/* owned: "NAME=value", NULL-ended */
	/* The answer. */
	char		*who;		/* owned: the log's name for the
					   backend ("cgi /x", "backend ...") */
	size_t		 max;		/* cgi_max_output */
	struct buf	 out;		/* what came back */
	enum backend_end end;
};

/*
 * Append len bytes of the answer: 1, or 0 when that is more than max
 * (logged; the job ends BACKEND_TOO_BIG, and the backend stops).
 */
int	 backend_job_take(struct backend_job *, const void *p, size_t len);
/* The job ends as why says; the first end stays. */
void	 backend_job_end(struct backend_job *, enum backend_end why);

#endif
