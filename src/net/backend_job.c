/*
 * backend_job.c -- what every backend hands back (backend_job.h).
 *
 * Knows buffers and the log.  The job is net/backend.c's; backends
 * only fill it.
 */
#include "core/log.h"
#include "net/backend_job.h"

int
backend_job_take(struct backend_job *job, const void *p, size_t len)
{
	if (job->out.len + len > job->max) {
		log_warnx("%s: more than %zu bytes of answer", job->who,
		    job->max);
		backend_job_end(job, BACKEND_TOO_BIG);
		return 0;
	}
	buf_add(&job->out, p, len);
	return 1;
}

void
backend_job_end(struct backend_job *job, enum backend_end why)
{
	if (job->end == BACKEND_RUNNING)
		job->end = why;
}
