/*
 * announce.c -- telling aggregators that a new post went live
 * (announce.h).
 *
 *   announce_posts -(a post newly listed)-> WAIT (announce_delay; a
 *     newer post waits again) -> ASK (net/gproxy.c, 30 s at most)
 *     -> 2x, 3x: told; 5x, 6x, 1x: refused -> closed
 *     -> 4x, no answer: WAIT 4, 16, 64 times the delay -> ASK ...
 *
 * One struct ask per aggregator URL and feed, on the announcer's list
 * until its timer has closed.  Its timer is the wait before an attempt,
 * then the attempt's time limit, then (at 0 ms) the judging of the
 * answer: gproxy's done may come from within gproxy_start(), where
 * nothing may be freed yet.  An ask owns its strings, the attempt's job
 * and the last attempt's gproxy (freed before the next one and when it
 * closes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/config_apps.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/url.h"
#include "core/util.h"
#include "net/announce.h"
#include "net/backend_job.h"
#include "net/gproxy.h"
#include "proto/gemini.h"
#include "site/atom.h"

/* What of an aggregator's answer is read: its header, and then some. */
#define ANNOUNCE_ANSWER_MAX	4096

struct ask {
	struct announcer *an;
	struct ask	*next;		/* on an->asks */
	char		*url;		/* owned: the aggregator's, as set */
	char		*feed;		/* owned: the feed's address */
	char		*line;		/* owned: url?feed, the request */
	struct config_app app;		/* addr and sni owned: where to */
	struct backend_job job;		/* the last attempt's */
	struct gproxy	*gp;		/* owned: the last attempt's */
	uv_timer_t	 timer;
	unsigned	 delay_ms;	/* announce_delay when it was due */
	int		 tries;		/* attempts made */
	int		 flying;	/* an attempt is in flight */
	int		 again;		/* a new post came while it flew */
};

struct announcer {
	uv_loop_t	*loop;
	struct ask	*asks;		/* owned */
	int		 stopping;
};

static void	on_wait(uv_timer_t *);

struct announcer *
announce_new(uv_loop_t *loop)
{
	struct announcer	*an = xcalloc(1, sizeof(*an));

	an->loop = loop;
	return an;
}

static void
job_reset(struct ask *a)
{
	buf_free(&a->job.out);
	free(a->job.who);
	memset(&a->job, 0, sizeof(a->job));
}

static void
on_closed(uv_handle_t *h)
{
	struct ask	*a = h->data;

	free(a->url);
	free(a->feed);
	free(a->line);
	free(a->app.addr);
	free(a->app.sni);
	free(a);
}

/* a leaves the list; freed once its timer has closed. */
static void
ask_close(struct ask *a)
{
	struct ask	**pp;

	for (pp = &a->an->asks; *pp != NULL; pp = &(*pp)->next)
		if (*pp == a) {
			*pp = a->next;
			break;
		}
	gproxy_free(a->gp);
	a->gp = NULL;
	job_reset(a);
	uv_close((uv_handle_t *)&a->timer, on_closed);
}

/* Told, or refused: once more if a post came meanwhile, else done. */
static void
ask_end(struct ask *a)
{
	if (a->again) {
		a->again = 0;
		a->tries = 0;
		uv_timer_start(&a->timer, on_wait, a->delay_ms, 0);
		return;
	}
	ask_close(a);
}

/* Why an attempt without a Gemini header ended, for the log. */
static const char *
why(enum backend_end e)
{
	switch (e) {
	case BACKEND_RUNNING:
	case BACKEND_DONE:
	case BACKEND_TOO_BIG:
		break;
	case BACKEND_UNREACHABLE:
		return "no connection";
	case BACKEND_BAD:
		return "a broken answer";
	case BACKEND_TOO_LONG:
		return "no answer in time";
	case BACKEND_ABORTED:
		return "stopped";
	}
	return "no Gemini header";
}

/* The attempt's answer: told, refused, or to be tried again. */
static void
on_judge(uv_timer_t *t)
{
	struct ask	*a = t->data;
	char		 head[GEMINI_HEADER_MAX + 1];
	ssize_t		 hlen = -1;
	uint64_t	 wait;
	int		 status = 0, i;

	if (a->job.out.len > 0)
		hlen = gemini_header_parse(a->job.out.data, a->job.out.len,
		    &status);
	if (hlen > 2) {
		snprintf(head, sizeof(head), "%.*s", (int)hlen - 2,
		    a->job.out.data);
		if (status / 10 == 2 || status / 10 == 3) {
			log_info("announce %s: %s (attempt %d of %d): told",
			    a->line, head, a->tries, ANNOUNCE_TRIES);
			ask_end(a);
			return;
		}
		if (status / 10 != 4) {
			log_warnx("announce %s: %s (attempt %d of %d): "
			    "refused, not asked again", a->line, head,
			    a->tries, ANNOUNCE_TRIES);
			ask_end(a);
			return;
		}
	} else
		snprintf(head, sizeof(head), "%s", why(a->job.end));
	if (a->tries >= ANNOUNCE_TRIES) {
		log_warnx("announce %s: %s (attempt %d of %d): given up",
		    a->line, head, a->tries, ANNOUNCE_TRIES);
		ask_end(a);
		return;
	}
	for (wait = a->delay_ms, i = 0; i < a->tries; i++)
		wait *= 4;
	log_warnx("announce %s: %s (attempt %d of %d): again in %llu s",
	    a->line, head, a->tries, ANNOUNCE_TRIES,
	    (unsigned long long)(wait + 999) / 1000);
	uv_timer_start(&a->timer, on_wait, wait, 0);
}

static void
on_done(struct gproxy *gp, void *arg)
{
	struct ask	*a = arg;

	a->gp = gp;
	a->flying = 0;
	if (a->an->stopping) {
		log_warnx("announce %s: stopped with the server (attempt %d "
		    "of %d)", a->line, a->tries, ANNOUNCE_TRIES);
		ask_close(a);
		return;
	}
	/* Not here: gproxy_start() may not have returned yet. */
	uv_timer_start(&a->timer, on_judge, 0, 0);
}

static void
on_timeout(uv_timer_t *t)
{
	struct ask	*a = t->data;

	if (a->flying)
		gproxy_stop(a->gp, BACKEND_TOO_LONG);	/* done follows */
}

/* The wait is over: ask. */
static void
on_wait(uv_timer_t *t)
{
	struct ask	*a = t->data;

	gproxy_free(a->gp);
	a->gp = NULL;
	job_reset(a);
	a->job.url = a->line;
	a->job.max = ANNOUNCE_ANSWER_MAX;
	a->job.who = xasprintf("announce %s", a->url);
	a->tries++;
	a->flying = 1;
	log_debug("announce %s: attempt %d of %d", a->line, a->tries,
	    ANNOUNCE_TRIES);
	uv_timer_start(&a->timer, on_timeout, ANNOUNCE_TIMEOUT_MS, 0);
	a->gp = gproxy_start(a->an->loop, &a->app, &a->job, on_done, a);
}

/* An ask of url for feed, waiting delay_ms; NULL when url is not one. */
static struct ask *
ask_new(struct announcer *an, const char *url, const char *feed,
    unsigned delay_ms)
{
	struct ask	*a;
	struct url	 u;
	struct buf	 b = BUF_INIT;
	const char	*err;
	char		*tmp = xstrdup(url), *host;
	size_t		 n;

	/* The configuration checked it (core/config_keys.c). */
	if (url_parse(tmp, &u, &err) == -1) {
		free(tmp);
		return NULL;
	}
	host = u.host;
	n = strlen(host);
	if (host[0] == '[' && n > 1) {
		host++;
		n -= 2;
	}
	a = xcalloc(1, sizeof(*a));
	a->an = an;
	a->url = xstrdup(url);
	a->feed = xstrdup(feed);
	buf_printf(&b, "%s?", url);
	url_encode_link(feed, &b);
	a->line = xstrndup(b.data, strlen(b.data));
	buf_free(&b);
	a->app.kind = CONFIG_APP_PROXY;
	a->app.addr = xstrndup(host, n);
	a->app.sni = xstrndup(host, n);
	a->app.port = u.port > 0 ? u.port : 1965;
	a->delay_ms = delay_ms;
	free(tmp);
	uv_timer_init(an->loop, &a->timer);
	a->timer.data = a;
	a->next = an->asks;
	an->asks = a;
	uv_timer_start(&a->timer, on_wait, delay_ms, 0);
	return a;
}

/* The first post new lists that old did not, or NULL. */
static const struct post *
went_live(const struct archive *old, const struct archive *new)
{
	const struct post	*p;
	size_t			 i;

	for (i = 0; i < new->nposts; i++) {
		p = archive_post(old, new->posts[i]->slug);
		if (p == NULL || p->unlisted)
			return new->posts[i];
	}
	return NULL;
}

void
announce_posts(struct announcer *an, const struct config *h,
    const struct archive *old, const struct archive *new)
{
	const struct post	*p;
	struct ask		*a;
	char			*base, *feed;
	size_t			 i;

	if (h->nannounce == 0 || old == NULL || old == new || an->stopping ||
	    (p = went_live(old, new)) == NULL)
		return;
	base = atom_base(h->hostname, config_public_port(h, SURFACE_GEMINI));
	feed = xasprintf("%s%s%s", base, h->base != NULL ? h->base : "",
	    LAYOUT_PATH_FEED);
	free(base);
	log_info("announce: post %s went live: %zu aggregator%s told of %s "
	    "in %.1f s", p->slug, h->nannounce, h->nannounce == 1 ? "" : "s",
	    feed, h->announce_delay_ms / 1000.0);
	for (i = 0; i < h->nannounce; i++) {
		for (a = an->asks; a != NULL; a = a->next)
			if (strcmp(a->url, h->announce[i]) == 0 &&
			    strcmp(a->feed, feed) == 0)
				break;
		if (a == NULL)
			(void)ask_new(an, h->announce[i], feed,
			    h->announce_delay_ms);
		else if (a->flying)
			a->again = 1;	/* it may have read the feed before */
		else if (a->tries == 0) {
			a->delay_ms = h->announce_delay_ms;
			uv_timer_start(&a->timer, on_wait, a->delay_ms, 0);
		}
		/* else a retry is due, and the feed it reads has the post */
	}
	free(feed);
}

void
announce_stop(struct announcer *an)
{
	struct ask	*a, *next;

	an->stopping = 1;
	for (a = an->asks; a != NULL; a = next) {
		next = a->next;
		if (a->flying) {
			gproxy_stop(a->gp, BACKEND_ABORTED);	/* on_done */
			continue;
		}
		log_warnx("announce %s: not asked: the server stops", a->line);
		ask_close(a);
	}
}

void
announce_free(struct announcer *an)
{
	if (an == NULL)
		return;
	gproxy_close();
	free(an);
}
