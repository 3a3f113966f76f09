/*
 * titan_upload.c -- one Titan upload: the request line checked, the body
 * kept or drained, the post written on libuv's pool, the answer decided
 * (titan_upload.h).
 *
 * The upload owns its body and its copy of the capsule's path; the
 * generation and the peer's name are the connection's, which frees the
 * upload only after the pool has called back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "content/archive.h"
#include "content/publish.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/surface.h"
#include "core/util.h"
#include "net/generation.h"
#include "net/titan_upload.h"
#include "proto/gemini.h"
#include "proto/titan.h"
#include "site/site.h"

struct titan_upload {
	const struct gen	*gen;		/* borrowed: the connection's */
	const char		*peer;		/* borrowed: for log lines */
	struct titan_request	 treq;
	size_t			 host;		/* which of gen's hosts */
	struct buf		 body;		/* kept unless status != 0 */
	size_t			 got;		/* body bytes received */
	/*
	 * The answer, once known; 0 before.  Set when the body starts to
	 * arrive, it refuses a writer: the body is only drained.
	 */
	int			 status;
	char			 meta[GEMINI_META_MAX + 1];
	char			 name[1024];	/* under posts/ */
	char			*capsule;	/* owned */
	int			 draft;
	uv_work_t		 work;
	int			 done;		/* the pool has called back */
	int			 uvstatus;	/* its status: < 0, not run */
	int			 rv;		/* publish_store(), _trash() */
	char			 why[256];
	titan_upload_cb		 cb;
	void			*arg;
};

static void
answer(struct titan_upload *up, int status, const char *meta)
{
	up->status = status;
	snprintf(up->meta, sizeof(up->meta), "%s", meta);
}

struct titan_upload *
titan_upload_new(const struct gen *g, const char *peer)
{
	struct titan_upload	*up;

	up = xcalloc(1, sizeof(*up));
	up->gen = g;
	up->peer = peer;
	buf_init(&up->body);
	return up;
}

void
titan_upload_free(struct titan_upload *up)
{
	if (up == NULL)
		return;
	buf_free(&up->body);
	free(up->capsule);
	free(up);
}

int
titan_upload_begin(struct titan_upload *up, const char *line, size_t len,
    const char *sni, int port, const char *hash)
{
	const struct settings	*set = up->gen->set;
	const struct config	*cfg;
	const char		*meta = NULL;
	char			 msg[160];
	size_t			 i;
	int			 st, h;

	/* Writers are a host's (a site key): one host with some is enough. */
	for (i = 0; i < set->nhosts && set->hosts[i].ntitan_writers == 0; i++)
		;
	if (i == set->nhosts) {
		answer(up, 53, "Proxy request refused: no uploads here");
		return 0;
	}
	if ((st = titan_request_parse(line, len, set->ghosts, set->nhosts,
	    &up->treq, &meta)) != 0) {
		answer(up, st, meta);
		return 0;
	}
	if ((h = gemini_request_host(set->ghosts, set->nhosts, &up->treq.g,
	    sni, &meta)) == -1) {
		answer(up, 53, meta);
		return 0;
	}
	up->host = (size_t)h;
	cfg = &set->hosts[h];
	if (cfg->port[SURFACE_GEMINI] != port) {
		answer(up, 53, "Proxy request refused: that host is not "
		    "served on this port");
		return 0;
	}
	if (cfg->ntitan_writers == 0) {
		answer(up, 53, "Proxy request refused: no uploads here");
		return 0;
	}
	if (up->treq.size > cfg->titan_max_size) {
		snprintf(msg, sizeof(msg), "Upload too large: %zu bytes, the "
		    "limit is %zu", up->treq.size, cfg->titan_max_size);
		answer(up, 59, msg);
		return 0;
	}
	if (hash == NULL) {
		answer(up, 60, "A writer's client certificate is required");
	} else if (!titan_writer(cfg, hash)) {
		answer(up, 61, "This certificate may not write here");
	} else if (!titan_mime_ok(up->treq.mime)) {
		up->status = 59;
		snprintf(up->meta, sizeof(up->meta), "Posts are Markdown or "
		    "gemtext: mime=text/markdown or text/gemini, not %.100s",
		    up->treq.mime);
	} else
		buf_reserve(&up->body, up->treq.size);
	return 1;
}

size_t
titan_upload_want(const struct titan_upload *up)
{
	return up->treq.size - up->got;
}

int
titan_upload_writing(const struct titan_upload *up)
{
	return up->status == 0;
}

void
titan_upload_take(struct titan_upload *up, const char *p, size_t len)
{
	if (len > up->treq.size - up->got)
		len = up->treq.size - up->got;
	if (up->status == 0)
		buf_add(&up->body, p, len);
	up->got += len;
}

/* On the pool: the only part that blocks. */
static void
work(uv_work_t *w)
{
	struct titan_upload	*up = w->data;

	if (up->treq.size == 0)
		up->rv = publish_trash(up->capsule, up->name, up->treq.slug,
		    up->why, sizeof(up->why));
	else
		up->rv = publish_store(up->capsule, up->name, up->treq.slug,
		    up->body.data, up->body.len, up->why, sizeof(up->why));
}

static void
after_work(uv_work_t *w, int status)
{
	struct titan_upload	*up = w->data;

	up->done = 1;
	up->uvstatus = status;
	up->cb(up, up->arg);
}

int
titan_upload_finish(struct titan_upload *up, uv_loop_t *loop,
    titan_upload_cb cb, void *arg)
{
	struct archive	*a = up->gen->sites[up->host]->a;
	char		 why[256];
	int		 gmi;

	if (up->status != 0)
		return 0;
	gmi = strcasecmp(up->treq.mime, "text/gemini") == 0;
	publish_target(a, up->treq.slug, gmi, up->name, sizeof(up->name));
	/*
	 * A post keeps its format: the renderer reads a file by its name,
	 * and a Markdown body in a .gmi (or the reverse) would be served
	 * wrong.  text/plain and no mime take the post's own format.
	 */
	if (up->treq.size > 0 && (gmi || strcasecmp(up->treq.mime,
	    "text/markdown") == 0 || strcasecmp(up->treq.mime,
	    "text/x-markdown") == 0) && gmi != archive_gmi_name(up->name)) {
		up->status = 59;
		snprintf(up->meta, sizeof(up->meta), "Bad upload: posts/%.200s "
		    "is %s: upload it with mime=%s", up->name, gmi ?
		    "Markdown" : "gemtext", gmi ? "text/markdown" :
		    "text/gemini");
		return 0;
	}
	if (up->treq.size > 0 && publish_check(up->body.data, up->body.len,
	    up->treq.slug, up->name, &up->draft, why, sizeof(why)) == -1) {
		up->status = 59;
		snprintf(up->meta, sizeof(up->meta), "Bad upload: %.200s", why);
		return 0;
	}
	up->capsule = xstrdup(a->dir);
	up->cb = cb;
	up->arg = arg;
	up->work.data = up;
	if (uv_queue_work(loop, &up->work, work, after_work) < 0) {
		answer(up, 40, "Temporary failure");
		return 0;
	}
	return 1;
}

/*
 * 30 to gemini://host[:port]<path>: the post, live once the reload the
 * watcher asks for has published the next generation.
 */
static void
redirect(struct titan_upload *up, const char *path)
{
	const struct settings	*set = up->gen->set;
	const struct config	*cfg = &set->hosts[up->host];
	const char		*host = cfg->hostname;
	char			 port[16] = "";
	int			 v6 = strchr(host, ':') != NULL;

	if (config_public_port(cfg, SURFACE_GEMINI) != GEMINI_DEFAULT_PORT)
		snprintf(port, sizeof(port), ":%d",
		    config_public_port(cfg, SURFACE_GEMINI));
	up->status = 30;
	snprintf(up->meta, sizeof(up->meta), "gemini://%s%s%s%s%s",
	    v6 ? "[" : "", host, v6 ? "]" : "", port, path);
}

/* The pool is done: what the write did decides the answer. */
static void
written(struct titan_upload *up)
{
	char	*path;

	if (up->uvstatus < 0 || up->rv == -1) {
		log_warnx("%s: titan: posts/%s: %s", up->peer, up->name,
		    up->uvstatus < 0 ? uv_strerror(up->uvstatus) : up->why);
		answer(up, 40, "Temporary failure: the post was not written");
	} else if (up->treq.size == 0 && up->rv != 0) {
		/* No file, or another post's: no post has this slug. */
		if (up->rv == PUBLISH_TAKEN)
			log_info("%s: titan: not deleted: %s", up->peer,
			    up->why);
		answer(up, 51, "Not found");
	} else if (up->rv == PUBLISH_TAKEN) {
		log_info("%s: titan: refused: %s", up->peer, up->why);
		up->status = 59;
		snprintf(up->meta, sizeof(up->meta), "Bad upload: %.200s",
		    up->why);
	} else if (up->treq.size == 0) {
		log_info("%s: titan: posts/%s moved to .trash/", up->peer,
		    up->name);
		redirect(up, LAYOUT_PATH_POSTS);
	} else {
		log_info("%s: titan: posts/%s written (%zu bytes)", up->peer,
		    up->name, up->body.len);
		path = layout_path(up->draft ? LAYOUT_DRAFT : LAYOUT_POST,
		    up->treq.slug, NULL);
		redirect(up, path);
		free(path);
	}
}

int
titan_upload_answer(struct titan_upload *up, const char **meta)
{
	if (up->status == 0 && up->done)
		written(up);
	*meta = up->meta;
	return up->status;
}
