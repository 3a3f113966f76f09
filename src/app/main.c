/*
 * main.c -- command line, startup order, signals.
 *
 * Startup: config -> log -> certificates -> archive -> bind -> threads.
 * Everything that can fail for a reason the operator must fix fails
 * here, before the first client is accepted.  The main thread then runs
 * a small loop of its own that handles signals and content changes;
 * reload.c builds what they ask for on its loader thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmark-gfm.h>
#include <openssl/crypto.h>
#include <uv.h>
#include <yaml.h>

#include "app/preview.h"
#include "app/priv.h"
#include "app/reload.h"
#include "app/sandbox.h"
#include "app/report.h"
#include "content/archive.h"
#include "content/frontmatter.h"
#include "content/links.h"
#include "markdown/template.h"
#include "core/buf.h"
#include "core/capfile.h"
#include "core/config.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/util.h"
#include "markdown/html.h"
#include "markdown/htmlbody.h"
#include "markdown/mdx.h"
#include "markdown/render.h"
#include "net/generation.h"
#include "net/limit.h"
#include "net/server.h"
#include "net/ticket.h"
#include "net/tlsconn.h"
#include "site/router.h"
#include "site/site.h"

#ifndef CAPSULED_VERSION
#define CAPSULED_VERSION "0.0.0"
#endif
#ifndef CAPSULED_SYSCONF
#define CAPSULED_SYSCONF "/etc/capsuled/capsuled.yaml"
#endif

enum exit_code {
	EXIT_OK = 0,
	EXIT_TROUBLE = 1,	/* content or runtime problem */
	EXIT_CONFIG = 2,	/* bad configuration or usage */
};

struct daemon_state {
	struct config	 cfg;		/* until serve() hands it over */
	struct server	 srv;
	struct reload	 rl;
	uv_signal_t	 sig[4];
	int		 stopping;
	int		 allow_root;	/* --allow-root */
	const char	*preview;	/* `serve DIR`: what DIR is, said
					   with the URLs; or NULL */
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: capsuled [-c FILE] [--check [--report] [--strict]]\n"
	    "                [--check --effective]\n"
	    "                [--allow-root] [--gemini-port N] [--gopher-port N]\n"
	    "                [--version] [--help]\n"
	    "       capsuled serve [--allow-root] [--gemini-port N]\n"
	    "                [--gopher-port N] [--title TEXT]\n"
	    "                [--gopher-charset utf-8|ascii] DIR\n"
	    "       capsuled [serve] --check [--report] [--strict] DIR\n"
	    "       capsuled --render FILE.md [--to gemini|gopher]\n"
	    "       capsuled --gen-ticket-keys FILE\n"
	    "\n"
	    "  serve DIR          serve the folder DIR on localhost, no\n"
	    "                     configuration file: a capsule, or a folder\n"
	    "                     of .md and .gmi posts (certificate kept in\n"
	    "                     $XDG_STATE_HOME/capsuled)\n"
	    "  -c, --config FILE  configuration (default: config/capsuled.yaml\n"
	    "                     when present, else " CAPSULED_SYSCONF ")\n"
	    "      --gemini-port N, --gopher-port N\n"
	    "                     listen there, whatever the configuration\n"
	    "                     says (0 turns Gopher off)\n"
	    "      --title TEXT   with serve: the site's title (default: the\n"
	    "                     index.md title, else the folder's name)\n"
	    "      --gopher-charset utf-8|ascii\n"
	    "                     with serve: what Gopher is written in\n"
	    "      --check        load configuration and content, report, exit\n"
	    "                     (with DIR: what serve DIR would serve)\n"
	    "      --report       with --check: per file, what was removed,\n"
	    "                     approximated or left unresolved\n"
	    "      --strict       with --check: warnings count as errors\n"
	    "      --effective    with --check: print the configuration of\n"
	    "                     every host, defaults resolved, and exit\n"
	    "      --allow-root   serve as root without `user:` in the config\n"
	    "      --render FILE  print FILE.md as gemtext (or --to gopher)\n"
	    "      --gen-ticket-keys FILE\n"
	    "                     make a ticket_keys file, or add a key to\n"
	    "                     one and keep the newest %d\n"
	    "      --version      print versions and exit\n"
	    "      --help         this text\n", TICKET_GEN_KEEP);
}

/*
 * What is wrong with the words left after the options (n of them at
 * words), said with the reason (a usage text alone says none): -1, or 0
 * when there is nothing to say.  dir is the folder taken, serving and
 * check the command, conf a -c file, other a --render or
 * --gen-ticket-keys, serve_opts a --title or --gopher-charset.
 */
static int
bad_words(int n, char *const *words, int serving, int check,
    const char *dir, const char *conf, int other, int serve_opts)
{
	struct stat	 st;

	if (n > 0 && (serving || check))	/* dir takes one word alone */
		fprintf(stderr, "capsuled%s: one folder at a time, not '%s' "
		    "and '%s'\n", serving ? " serve" : " --check", words[0],
		    words[1]);
	else if (n > 0 && stat(words[0], &st) == 0 && S_ISDIR(st.st_mode))
		fprintf(stderr, "capsuled: %s is a folder: `capsuled serve "
		    "%s` serves it, `capsuled --check %s` checks it\n",
		    words[0], words[0], words[0]);
	else if (n > 0)
		fprintf(stderr, "capsuled: '%s' is not a command: the one "
		    "command is serve (`capsuled serve DIR`)\n", words[0]);
	else if (serving && dir == NULL)
		fprintf(stderr, "capsuled serve: which folder? `capsuled "
		    "serve DIR`\n");
	else if (dir != NULL && (conf != NULL || other))
		fprintf(stderr, "capsuled: %s: a folder is served or checked "
		    "without -c, --render or --gen-ticket-keys\n", dir);
	else if (dir == NULL && serve_opts)
		fprintf(stderr, "capsuled: --title and --gopher-charset are "
		    "serve DIR's; a configuration file says title: and "
		    "gopher_charset:\n");
	else
		return 0;
	fprintf(stderr, "(`capsuled --help` for the usage)\n");
	return -1;
}

static void
version(void)
{
	printf("capsuled %s\n", CAPSULED_VERSION);
	printf("  libuv %s, %s, libyaml %s, cmark-gfm %s\n",
	    uv_version_string(), OpenSSL_version(OPENSSL_VERSION),
	    yaml_get_version_string(), cmark_version_string());
}

/* The capsule a --render file belongs to, for its links. */
struct render_capsule {
	const struct config *cfg;	/* hostname, Gopher port */
	struct archive	*a;		/* NULL: links stay as written */
	char		*from;		/* "posts/x.md", as the server has it */
	/*
	 * What loading the capsule said of from, as --check lists it
	 * ("posts/x.md:LINE:COL: why" lines); empty when a is NULL.
	 */
	struct buf	 said;
};

/* A log_tap_fn: the lines of the load about rc->from. */
static void
render_tap(void *arg, enum log_level lvl, const char *msg)
{
	struct render_capsule	*rc = arg;
	size_t			 n = strlen(rc->from);

	if (lvl <= LOG_LEVEL_WARN && strncmp(msg, rc->from, n) == 0 &&
	    msg[n] == ':') {
		buf_printf(&rc->said, "%s\n", msg);
	}
}

/*
 * Did a directory the archive reads change at or after t0
 * (CLOCK_REALTIME_COARSE, the clock of file times)?  A post saved
 * between the first read and the start of the watches made no event.
 * A new, renamed or deleted file (an editor's save by rename too)
 * changes its directory; XXX: an edit in place in that window of
 * milliseconds is not seen until the next change.
 */
static int
changed_since(const char *capsule, const struct timespec *t0)
{
	static const char *const sub[] = { "", "/posts", "/series", "/pages" };
	struct stat	 st;
	char		 path[PATH_MAX];
	size_t		 i;

	for (i = 0; i < nitems(sub); i++) {
		snprintf(path, sizeof(path), "%s%s", capsule, sub[i]);
		if (stat(path, &st) == 0 && (st.st_ctim.tv_sec > t0->tv_sec ||
		    (st.st_ctim.tv_sec == t0->tv_sec &&
		    st.st_ctim.tv_nsec >= t0->tv_nsec)))
			return 1;
	}
	return 0;
}

/*
 * A link to a fragment of the page is plain text, as the server shows
 * it (links.h); the others resolve in the file's capsule, when it is in
 * one.
 */
static char *
render_link(void *ctx, const char *url)
{
	struct render_capsule	*rc = ctx;

	if (url[0] == '#')
		return xstrdup("");
	return rc->a != NULL ? links_resolve(rc->a, rc->from, url) : NULL;
}

static char *
render_gopher_url(void *ctx, const char *url)
{
	struct render_capsule	*rc = ctx;

	return router_gopher_url(rc->cfg, rc->a, url);
}

/*
 * Where path sits in a capsule: a post, page or series file
 * (DIR/posts/x.md ...) or DIR/index.md.  Then DIR is loaded as the
 * server loads it (cfg: the configuration's link_aliases and limits),
 * so that links name what the server serves ("/posts/<slug>", not
 * "2024-01-01-<slug>.md"), and what the load says of the file is kept
 * in rc->said.  Quietly: the rest of the capsule's warnings are
 * --check's business.
 */
static void
render_capsule(const char *path, const struct config *cfg,
    struct render_capsule *rc)
{
	static const char *const sections[] = {
		CAPFILE_POSTS, CAPFILE_PAGES, CAPFILE_SERIES
	};
	static const char	 in_posts[] = "/" CAPFILE_POSTS "/";
	struct config	 c;
	enum log_level	 lvl;
	char		*real, *base, *dir, *sect = NULL;
	size_t		 i;

	rc->a = NULL;
	rc->from = NULL;
	buf_init(&rc->said);
	if (strcmp(path, "-") == 0 || (real = realpath(path, NULL)) == NULL)
		return;
	/* A post in a folder of posts/: "<capsule>/posts/2019/x.md". */
	for (sect = NULL, base = real; (base = strstr(base, in_posts));
	    base++)
		sect = base;
	if (sect != NULL && strchr(sect + sizeof(in_posts) - 1, '/') !=
	    NULL) {
		*sect = '\0';
		base = sect + sizeof(in_posts) - 1;
		sect = CAPFILE_POSTS;
		dir = real;
		goto load;
	}
	sect = NULL;
	base = strrchr(real, '/');
	*base++ = '\0';
	dir = real;
	if (strcmp(base, CAPFILE_HOME) != 0) {
		if ((sect = strrchr(real, '/')) == NULL)
			goto done;
		*sect++ = '\0';
		for (i = 0; i < nitems(sections); i++)
			if (strcmp(sect, sections[i]) == 0)
				break;
		if (i == nitems(sections))
			goto done;
	}
load:
	c = *cfg;
	c.capsule_dir = *dir != '\0' ? dir : "/";
	rc->from = sect != NULL ? xasprintf("%s/%s", sect, base) :
	    xstrdup(base);
	lvl = log_get_level();
	log_set_level(LOG_LEVEL_ERROR);
	log_set_tap(render_tap, rc);
	if ((rc->a = archive_load(&c)) != NULL)
		links_check(rc->a);
	log_set_tap(NULL, NULL);
	log_set_level(lvl);
	if (rc->a == NULL) {
		free(rc->from);
		rc->from = NULL;
		buf_free(&rc->said);
	}
done:
	free(real);
}

/*
 * What the body's raw HTML becomes (--check --report counts it so):
 * "FILE:LINE:COL: html <iframe>: as a link".
 */
static void
render_html_said(const char *path, const char *body, size_t len,
    unsigned line0)
{
	static const char *const what[] = {
		[HTML_LINKED] = "as a link",
		[HTML_APPROXIMATED] = "approximated",
		[HTML_DROPPED] = "dropped",
	};
	struct html_notes	 ns;
	size_t			 i;

	render_html_notes(body, len, &ns);
	for (i = 0; i < ns.n; i++)
		fprintf(stderr, "%s:%u:%u: html <%s>: %s\n", path,
		    line0 + ns.v[i].line - 1, ns.v[i].col, ns.v[i].name,
		    what[ns.v[i].what]);
	if (ns.nmore > 0)
		fprintf(stderr, "%s: html: %zu more elements\n", path,
		    ns.nmore);
	html_notes_free(&ns);
}

/*
 * --render: the body of one Markdown file, as a reader would get it
 * (template constructs read as the archive reads them, what they lost
 * said on stderr as the server logs it).
 */
static int
cmd_render(const char *path, const char *to, const struct config *cfg)
{
	struct render_opts	 ropts;
	struct render_capsule	 rc;
	struct buf		 out = BUF_INIT, md = BUF_INIT;
	struct template_result	 tr;
	struct meta		 m;
	struct fm_error		 fe;
	struct template_files	 tf = { NULL, 0 };
	struct template_probe	 tp = { NULL, NULL };
	struct archive_probe	 probe;
	size_t			 len, blen, i;
	char			*src, *dir, **names = NULL, more[64];
	int			 gmi, bundle = 0;
	const char		*body, *said, *nl, *slash;

	if (strcmp(to, "gemini") != 0 && strcmp(to, "gopher") != 0) {
		fprintf(stderr, "capsuled: --to: gemini or gopher\n");
		return EXIT_CONFIG;
	}
	if (strcmp(path, "-") == 0)
		src = util_read_fd(STDIN_FILENO, SIZE_MAX, &len);
	else
		src = util_read_file(path, SIZE_MAX, &len);
	if (src == NULL) {
		fprintf(stderr, "capsuled: %s: %s\n", path, strerror(errno));
		return EXIT_TROUBLE;
	}
	/* The writer sees the same front matter errors the server logs. */
	if (frontmatter_parse(src, len, &m, &fe) == -1) {
		fprintf(stderr, "%s:%u:%u: %s; the server skips this file\n",
		    path, fe.line, fe.col, fe.msg);
		free(src);
		return EXIT_TROUBLE;
	}
	render_capsule(path, cfg, &rc);
	/*
	 * In a capsule, what --check says of the file, as it says it
	 * (front matter values, templates, links), the capsule's name
	 * of the file given as the writer named it; else what the file
	 * says by itself.
	 */
	said = rc.said.data != NULL ? rc.said.data : "";
	for (; *said != '\0'; said = nl + 1) {
		nl = strchr(said, '\n');
		fprintf(stderr, "%s%.*s\n", path, (int)(nl - said -
		    strlen(rc.from)), said + strlen(rc.from));
	}
	if (rc.a == NULL)
		for (i = 0; i < m.nwarns; i++)
			fprintf(stderr, "%s:%u:%u: %s\n", path,
			    m.warns[i].line, m.warns[i].col, m.warns[i].msg);
	body = src + m.body_off;
	blen = len - m.body_off;
	memset(&tr, 0, sizeof(tr));
	/* A body in another markup, made Markdown as the archive does. */
	if (capfile_markup(path) == CAPFILE_MDX ||
	    capfile_markup(path) == CAPFILE_HTML) {
		(capfile_markup(path) == CAPFILE_MDX ? mdx_rewrite :
		    htmlbody_markdown)(body, blen, &md);
		body = md.data;
		blen = md.len;
	}
	/* A gemtext post is a .gmi file, as in posts/; no templates. */
	gmi = archive_gmi_name(path);
	if (!gmi && template_present(body, blen)) {
		/*
		 * A bundle's index.md: its shortcodes read the folder's
		 * files, as the server's do (content/record.c).
		 */
		if (rc.from != NULL && strncmp(rc.from, CAPFILE_POSTS "/",
		    sizeof(CAPFILE_POSTS)) == 0 &&
		    capfile_bundle_path(rc.from + sizeof(CAPFILE_POSTS))) {
			dir = xstrdup(path);
			if ((slash = strrchr(dir, '/')) == NULL)
				snprintf(dir, strlen(path) + 1, ".");
			else
				dir[slash == dir ? 1 : slash - dir] = '\0';
			tf.n = archive_bundle_names(dir,
			    cfg->files_hardlinks != 0, &names);
			tf.names = (const char *const *)names;
			free(dir);
			bundle = 1;
		}
		/* In a capsule, its files named as the server finds them. */
		if (rc.a != NULL)
			archive_probe_begin(&probe, rc.a->dir, rc.from, &tp);
		template_rewrite_bundle(body, blen, bundle ? &tf : NULL, &tp,
		    &tr);
		if (rc.a != NULL)
			archive_probe_end(&probe);
		archive_bundle_names_free(names, tf.n);
		for (i = 0; rc.a == NULL && i < tr.nnotes; i++)
			fprintf(stderr, "%s:%u:%u: template: %s %s%s\n", path,
			    m.body_line + tr.notes[i].line - 1,
			    tr.notes[i].col, tr.notes[i].what ==
			    TEMPLATE_REMOVED ? "removed" : "approximated",
			    tr.notes[i].text, template_more(&tr.notes[i], more,
			    sizeof(more)));
		body = tr.body;
		blen = tr.len;
	}
	if (!gmi)
		render_html_said(path, body, blen, m.body_line);
	memset(&ropts, 0, sizeof(ropts));
	ropts.width = cfg->gopher_width;
	ropts.rewrite = render_link;
	ropts.rewrite_ctx = &rc;
	if (rc.a != NULL) {
		/* As the server writes Gopher text: absolute URLs. */
		rc.cfg = cfg;
		ropts.absolute = render_gopher_url;
		ropts.absolute_ctx = &rc;
	}
	if (strcmp(to, "gemini") == 0)
		(gmi ? render_gemtext_gmi : render_gemtext)(body, blen, &ropts,
		    &out);
	else
		(gmi ? render_gopher_gmi : render_gopher)(body, blen, &ropts,
		    &out);
	fwrite(out.data ? out.data : "", 1, out.len, stdout);
	buf_free(&out);
	buf_free(&md);
	if (rc.a != NULL)
		archive_unref(rc.a);
	free(rc.from);
	buf_free(&rc.said);
	template_result_free(&tr);
	meta_free(&m);
	free(src);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_TROUBLE;
}

/* --gen-ticket-keys: make or rotate a fleet's ticket key file. */
static int
cmd_gen_ticket_keys(const char *path)
{
	char	 err[PATH_MAX + 256];
	int	 n;

	if ((n = ticket_gen_file(path, err, sizeof(err))) == -1) {
		fprintf(stderr, "capsuled: %s\n", err);
		return EXIT_TROUBLE;
	}
	printf("%s: %d key%s, the last one new; every key opens tickets, the "
	    "last one seals them\n", path, n, n == 1 ? "" : "s");
	return EXIT_OK;
}

/*
 * --check: the posts by the format of their bodies, their shape, and
 * how many folders below posts/ they are (a bundle's own not counted).
 */
static void
check_formats(const struct archive *a)
{
	size_t		 i, d, ngmi = 0, nbundles = 0, depth[4] = { 0 };
	size_t		 nmdx = 0, nhtml = 0;
	const char	*p;

	for (i = 0; i < a->nposts; i++) {
		ngmi += a->posts[i]->gemtext;
		nmdx += capfile_markup(a->posts[i]->path) == CAPFILE_MDX;
		nhtml += capfile_markup(a->posts[i]->path) == CAPFILE_HTML;
		nbundles += a->posts[i]->bundle;
		for (d = 0, p = a->posts[i]->path + 6; (p = strchr(p, '/'));
		    p++)
			d++;
		d -= d > 0 && a->posts[i]->bundle;
		depth[d < 3 ? d : 3]++;
	}
	printf("\n          folders: %zu in posts/, %zu one below, %zu two "
	    "below, %zu three or more below", depth[0], depth[1], depth[2],
	    depth[3]);
	printf("\n          body: %zu Markdown (%zu of them MDX, %zu HTML), "
	    "%zu gemtext", a->nposts - ngmi, nmdx, nhtml, ngmi);
	printf("\n          kept as: %zu single file%s, %zu page bundle%s",
	    a->nposts - nbundles, a->nposts - nbundles == 1 ? "" : "s",
	    nbundles, nbundles == 1 ? "" : "s");
}

/* 1 (logged as an error) when dir is not a directory. */
static int
capsule_missing(const char *dir)
{
	struct stat	 st;

	if (stat(dir, &st) == -1) {
		log_error("the capsule %s", dir);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		log_errorx("the capsule %s: not a directory", dir);
		return 1;
	}
	return 0;
}

/*
 * --check for one host: load its capsule, say what was found.  A
 * capsule that loads is fine (its warnings are printed, so that
 * `--check && reload` reloads past one dead link); with strict, a
 * warning is trouble too.
 */
static int
check_host(const struct config *cfg, int report, int strict)
{
	struct site	*s;
	struct archive	*a;
	struct report	*rep;
	enum log_level	 lvl;
	size_t		 i, parts = 0, syntax[FM_SYNTAX_HEADER + 1] = { 0 };

	printf("host:     %s\n", cfg->hostname);
	fflush(stdout);			/* before the load's log lines */
	/* As the server says it, and stops: no capsule is an error. */
	if (capsule_missing(cfg->capsule_dir)) {
		printf("capsule:  %s (cannot be read)\n", cfg->capsule_dir);
		return EXIT_TROUBLE;
	}
	/*
	 * The load's warnings are listed below, each under its heading,
	 * not logged as well: each problem named once.  Errors still are.
	 */
	rep = report_new();
	log_set_tap(report_tap, rep);
	lvl = log_get_level();
	if (lvl > LOG_LEVEL_ERROR)
		log_set_level(LOG_LEVEL_ERROR);
	s = reload_site(cfg, NULL);
	log_set_level(lvl);
	log_set_tap(NULL, NULL);
	if (s == NULL) {
		report_free(rep);
		printf("capsule:  %s (cannot be read)\n", cfg->capsule_dir);
		return EXIT_TROUBLE;
	}
	a = s->a;
	if (report)
		report_html(rep, a);
	for (i = 0; i < a->nseries; i++)
		parts += a->series[i]->nparts;
	printf("capsule:  %s\n", a->dir);
	printf("certs:    %s\n", cfg->cert_dir);
	printf("site:     %s\n", a->title);
	printf("posts:    %zu", a->nposts);
	if (a->nposts > 0)
		printf(" (%s to %s)", a->posts[a->nposts - 1]->date.ymd,
		    a->posts[0]->date.ymd);
	for (i = 0; i < a->nposts; i++)
		syntax[frontmatter_syntax(a->posts[i]->src,
		    a->posts[i]->srclen, a->posts[i]->body_off)]++;
	if (a->nposts > 0) {
		printf("\n          front matter: %zu YAML, %zu TOML, %zu "
		    "header lines, %zu none", syntax[FM_SYNTAX_YAML],
		    syntax[FM_SYNTAX_TOML], syntax[FM_SYNTAX_HEADER],
		    syntax[FM_SYNTAX_NONE]);
		check_formats(a);
	}
	printf("\nseries:   %zu (%zu parts)\n", a->nseries, parts);
	for (i = 0; i < a->nseries; i++)
		printf("          " LAYOUT_PATH_SERIES "%s/  %s, %zu part%s\n",
		    a->series[i]->slug, a->series[i]->title,
		    a->series[i]->nparts, a->series[i]->nparts == 1 ? "" : "s");
	printf("tags:     %zu\n", a->ntags);
	for (i = 0; i < a->ntags; i++)
		printf("          " LAYOUT_PATH_TAGS "%s/  %s (%zu)\n",
		    a->tags[i]->slug, a->tags[i]->name, a->tags[i]->nposts);
	printf("pages:    %zu\n", a->ndocs);
	for (i = 0; i < a->ndocs; i++)
		printf("          /%s  %s\n", a->docs[i]->name,
		    a->docs[i]->title);
	report_problems(rep, a, stdout);
	if (report)
		report_print(rep, stdout);
	report_free(rep);
	i = a->nwarnings;
	site_unref(s);
	return i == 0 || !strict ? EXIT_OK : EXIT_TROUBLE;
}

/* --check: every host in turn; trouble with any is trouble. */
static int
cmd_check(const struct config *cfg, int report, int strict)
{
	struct config	 view;
	size_t		 i;
	int		 rv = EXIT_OK;

	printf("config:   %s\n", cfg->path ? cfg->path :
	    "none (the defaults of serve DIR)");
	for (i = 0; i < config_nhosts(cfg); i++) {
		if (i > 0)
			printf("\n");
		config_host_view(cfg, i, &view);
		if (check_host(&view, report, strict) != EXIT_OK)
			rv = EXIT_TROUBLE;
	}
	return rv;
}

/*
 * --check --effective: the configuration every host ends up with, as
 * YAML capsuled reads back to the same (gmid's -nn); nothing is loaded
 * but the file.
 */
static int
cmd_effective(struct config *cfg)
{
	struct buf	 out = BUF_INIT;

	config_print(cfg, &out);
	fwrite(out.data, 1, out.len, stdout);
	buf_free(&out);
	config_free(cfg);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_TROUBLE;
}

static void
on_signal(uv_signal_t *h, int signum)
{
	struct daemon_state	*d = h->data;
	size_t			 i;

	switch (signum) {
	case SIGHUP:
		/* Off this thread; the old generation serves meanwhile. */
		log_info("SIGHUP: reloading configuration and content");
		reload_request(&d->rl, 1);
		break;
	case SIGUSR1:
		/* Lines keep going to the old file then, never nowhere. */
		if (log_reopen() == -1)
			log_warn("log reopen (the user the server runs as must"
			    " be able to open or create the file)");
		break;
	case SIGTERM:
	case SIGINT:
		if (d->stopping)
			break;
		d->stopping = 1;
		log_info("%s: finishing requests in flight, then exiting",
		    signum == SIGTERM ? "SIGTERM" : "SIGINT");
		reload_stop(&d->rl);
		server_stop(&d->srv);
		sandbox_stop();
		for (i = 0; i < nitems(d->sig); i++)
			uv_close((uv_handle_t *)&d->sig[i], NULL);
		break;
	}
}

/*
 * 1 (logged) when a host's capsule is not a directory.  Asked before
 * the certificates: a configuration whose paths are wrong (the example
 * copied to /etc/capsuled/ with "../capsule" unchanged) must stop
 * before it makes a key and certificate where "../certs" points.
 */
static int
capsules_missing(const struct config *cfg)
{
	struct config	 v;
	size_t		 i;

	for (i = 0; i < config_nhosts(cfg); i++) {
		config_host_view(cfg, i, &v);
		if (capsule_missing(v.capsule_dir))
			return 1;
	}
	return 0;
}

/*
 * "gemini://host:1965/, gopher://host:7070/ and ...": the surfaces
 * that listen, each with its port (one turned off is not named).
 */
static void
surface_urls(const struct config *cfg, struct buf *out)
{
	size_t	 i, n = 0, k = 0;

	for (i = 0; i < SURFACE_N; i++)
		n += cfg->port[i] > 0;
	for (i = 0; i < SURFACE_N; i++) {
		if (cfg->port[i] == 0)
			continue;
		if (k > 0)
			buf_addstr(out, k + 1 == n ? " and " : ", ");
		buf_printf(out, "%s://%s:%d/", surfaces[i].name, cfg->hostname,
		    cfg->port[i]);
		k++;
	}
	buf_addc(out, '\0');
}

static int
serve(struct daemon_state *d)
{
	static const int signums[] = { SIGTERM, SIGINT, SIGHUP, SIGUSR1 };
	struct tls_server *tls = NULL;
	struct settings	*set;
	struct site	**sites;
	struct gen	*g;
	struct limits	*lim;
	struct priv	 pv;
	const struct config *cfg;
	uv_loop_t	*loop = uv_default_loop();
	struct timespec	 t0;
	struct buf	 urls = BUF_INIT;
	char		 err[512];
	size_t		 i, na;
	int		 rv;

	signal(SIGPIPE, SIG_IGN);
	/*
	 * Catch signals before the listeners exist: a client (or a test)
	 * that can connect may already send SIGTERM.  libuv queues them,
	 * and on_signal() runs once uv_run() starts, when all is set up.
	 */
	for (i = 0; i < nitems(signums); i++) {
		uv_signal_init(loop, &d->sig[i]);
		d->sig[i].data = d;
		uv_signal_start(&d->sig[i], on_signal, signums[i]);
	}
	/* Who we may run as is settled before anything is written. */
	if (priv_prepare(&pv, &d->cfg, d->allow_root, err, sizeof(err)) ==
	    -1) {
		log_errorx("%s", err);
		return EXIT_CONFIG;
	}
	/* The log file is the user's, so that SIGUSR1 can open it again. */
	if (pv.drop && pv.root && log_give_to(pv.uid, pv.gid) == -1)
		log_warn("log: cannot give %s to the user; SIGUSR1 may not "
		    "reopen it", d->cfg.access_log_file != NULL ?
		    "the log files" : d->cfg.log_file);
	if (capsules_missing(&d->cfg))
		return EXIT_TROUBLE;
	ticket_set_rotation(d->cfg.ticket_rotation_ms);
	if (d->cfg.port[SURFACE_GEMINI] > 0) {
		tls = reload_certs(&d->cfg, err, sizeof(err));
		if (tls == NULL) {
			log_errorx("%s", err);
			return EXIT_TROUBLE;
		}
	}
	/* Keys read as root; the content as the user, in the jail. */
	if (priv_confine(&pv, &d->cfg) == -1) {
		tls_server_free(tls);
		return EXIT_TROUBLE;
	}
	/* The fleet's ticket keys too: as every later reading will be. */
	if (d->cfg.ticket_keys != NULL && ticket_use_file(d->cfg.ticket_keys,
	    err, sizeof(err)) == -1) {
		log_warnx("%s", err);
		tls_server_free(tls);
		return EXIT_CONFIG;
	}
	/* After the jail: its view of the paths is the one kept. */
	set = settings_new(&d->cfg, tls);	/* d->cfg is now empty */
	cfg = &set->cfg;
	na = set->nsites;
	/* As a reload does, from nothing; the loader has logged why. */
	clock_gettime(CLOCK_REALTIME_COARSE, &t0);
	if ((sites = reload_sites(set, NULL, NULL, err, sizeof(err))) ==
	    NULL) {
		log_errorx("%s", err);
		settings_unref(set);
		return EXIT_TROUBLE;
	}
	if (priv_restore(&pv) == -1) {		/* root again, to bind */
		reload_sites_free(sites, na);
		settings_unref(set);
		return EXIT_TROUBLE;
	}
	g = gen_new(set, sites);
	rv = server_bind(&d->srv, g);
	if (rv == 0 && priv_drop(&pv) == -1)	/* for good, before threads */
		rv = -1;
	if (rv == -1) {
		gen_unref(g);
		server_free(&d->srv);
		reload_sites_free(sites, na);
		settings_unref(set);
		return EXIT_TROUBLE;
	}
	/* Before the loader and the workers: each thread inherits it. */
	sandbox_enter(cfg, loop, err, sizeof(err));
	log_info("sandbox: %s", err);
	/* No serving thread waits for the log's disk or daemon (log.h). */
	if (log_start() == -1)
		log_warnx("log: no writer thread; lines are written at once");
	lim = limits_new(cfg->max_connections);
	d->srv.limits = lim;
	reload_init(&d->rl, loop, &d->srv, set, sites);
	reload_adopt(&d->rl, g);
	gen_unref(g);			/* the workers hold theirs */
	reload_sites_free(sites, na);
	settings_unref(set);
	if (server_start(&d->srv) == -1)
		return EXIT_TROUBLE;
	/* Only those: each capsule is built on its own. */
	for (i = 0; i < d->rl.set->nsites; i++)
		if (changed_since(d->rl.set->hosts[i].capsule_dir, &t0))
			reload_changed(&d->rl, d->rl.set->hosts[i].capsule_dir);
	surface_urls(cfg, &urls);
	log_info("serving %s with %d worker(s)", urls.data, d->srv.nworkers);
	buf_free(&urls);
	if (d->preview != NULL) {
		/* Bound: the writer can open these now. */
		printf("capsuled: serving %s (%s); open\n", cfg->capsule_dir,
		    d->preview);
		for (i = 0; i < SURFACE_N; i++)
			if (cfg->port[i] > 0)
				printf("  %s://%s:%d/\n", surfaces[i].name,
				    cfg->hostname, cfg->port[i]);
		printf("Edits show at once; ^C stops.\n");
		fflush(stdout);
	}
	for (i = 1; i < config_nhosts(cfg); i++)
		log_info("serving gemini://%s:%d/ too (SNI)",
		    cfg->hosts[i - 1].site->hostname,
		    cfg->port[SURFACE_GEMINI]);
	uv_run(loop, UV_RUN_DEFAULT);
	if ((rv = uv_loop_close(loop)) != 0)
		log_warnx("main loop close: %s", uv_strerror(rv));
	server_free(&d->srv);		/* then the reaper can go */
	reload_free(&d->rl);
	limits_free(lim);
	log_info("stopped");
	return EXIT_OK;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "config",	required_argument,	NULL, 'c' },
		{ "check",	no_argument,		NULL, 'C' },
		{ "report",	no_argument,		NULL, 'P' },
		{ "strict",	no_argument,		NULL, 'S' },
		{ "effective",	no_argument,		NULL, 'E' },
		{ "render",	required_argument,	NULL, 'R' },
		{ "to",		required_argument,	NULL, 'T' },
		{ "version",	no_argument,		NULL, 'V' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "allow-root",	no_argument,		NULL, 'A' },
		{ "gen-ticket-keys", required_argument,	NULL, 'K' },
		{ "gemini-port", required_argument,	NULL, 'G' },
		{ "gopher-port", required_argument,	NULL, 'O' },
		{ "title",	required_argument,	NULL, 't' },
		{ "gopher-charset", required_argument,	NULL, 'H' },
		{ NULL,		0,			NULL, 0 },
	};
	struct daemon_state	 d;
	const char		*confpath = NULL, *render = NULL;
	const char		*genkeys = NULL, *dir = NULL;
	const char		*title = NULL, *charset = NULL;
	const char		*to = "gemini";
	char			 err[1024], *end;
	long			 port;
	struct stat		 st;
	int			 ch, check = 0, report = 0, strict = 0, rv;
	int			 effective = 0, serving = 0;
	int			 gemini_port = -1, gopher_port = -1;

	memset(&d, 0, sizeof(d));
	while ((ch = getopt_long(argc, argv, "c:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			confpath = optarg;
			break;
		case 'S':
			strict = 1;
			check = 1;
			break;
		case 'E':
			effective = 1;
			check = 1;
			break;
		case 'P':
			report = 1;
			/* FALLTHROUGH */
		case 'C':
			check = 1;
			break;
		case 'R':
			render = optarg;
			break;
		case 'T':
			to = optarg;
			break;
		case 'V':
			version();
			return EXIT_OK;
		case 'A':
			d.allow_root = 1;
			break;
		case 'K':
			genkeys = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'H':
			charset = optarg;
			break;
		case 'G':
		case 'O':
			errno = 0;
			port = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    port < (ch == 'G' ? 1 : 0) || port > 65535) {
				fprintf(stderr, "capsuled: --%s-port %s: not a "
				    "port (%d to 65535)\n", ch == 'G' ?
				    "gemini" : "gopher", optarg, ch == 'G');
				return EXIT_CONFIG;
			}
			*(ch == 'G' ? &gemini_port : &gopher_port) = (int)port;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_CONFIG;
		}
	}
	/*
	 * `serve DIR` and `--check DIR` (or both): a folder, no
	 * configuration file.  "serve" is the one command word; options
	 * go anywhere.
	 */
	if (optind < argc && strcmp(argv[optind], "serve") == 0) {
		serving = 1;
		optind++;
	}
	if (optind == argc - 1 && (serving || check))
		dir = argv[optind++];
	if (bad_words(argc - optind, argv + optind, serving, check, dir,
	    confpath, render != NULL || genkeys != NULL,
	    title != NULL || charset != NULL) == -1)
		return EXIT_CONFIG;
	if (dir != NULL) {
		if (preview_config(&d.cfg, dir, !check, err, sizeof(err)) ==
		    -1 || preview_options(&d.cfg, title, charset, err,
		    sizeof(err)) == -1) {
			fprintf(stderr, "%s\n", err);
			config_free(&d.cfg);
			return EXIT_CONFIG;
		}
		d.preview = preview_what(d.cfg.capsule_dir);
	}
	if (render != NULL) {
		/* A configuration only when named: its aliases, its width. */
		if (confpath == NULL)
			config_defaults(&d.cfg, ".");
		else if (config_load(&d.cfg, confpath, err, sizeof(err)) ==
		    -1) {
			fprintf(stderr, "%s\n", err);
			return EXIT_CONFIG;
		}
		rv = cmd_render(render, to, &d.cfg);
		config_free(&d.cfg);
		return rv;
	}
	if (genkeys != NULL)
		return cmd_gen_ticket_keys(genkeys);

	if (confpath == NULL)
		confpath = stat("config/capsuled.yaml", &st) == 0 ?
		    "config/capsuled.yaml" : CAPSULED_SYSCONF;
	if (dir == NULL && config_load(&d.cfg, confpath, err,
	    sizeof(err)) == -1) {
		fprintf(stderr, "%s\n", err);
		return EXIT_CONFIG;
	}
	/* The command line's ports over the file's (`make run PORT=`). */
	if (gemini_port != -1)
		d.cfg.port[SURFACE_GEMINI] = gemini_port;
	if (gopher_port != -1)
		d.cfg.port[SURFACE_GOPHER] = gopher_port;
	if (effective)
		return cmd_effective(&d.cfg);
	/* Syslog is connected now: later a chroot or sandbox hides it. */
	if (!check && d.cfg.log_syslog) {
		if (log_open_syslog(d.cfg.syslog_socket != NULL ?
		    d.cfg.syslog_socket : "/dev/log", d.cfg.syslog_facility,
		    d.cfg.log_level) == -1) {
			fprintf(stderr, "capsuled: log: syslog at %s: %s\n",
			    d.cfg.syslog_socket != NULL ?
			    d.cfg.syslog_socket : "/dev/log", strerror(errno));
			config_free(&d.cfg);
			return EXIT_CONFIG;
		}
	} else if (log_open(check ? NULL : d.cfg.log_file, d.cfg.log_level) ==
	    -1) {
		fprintf(stderr, "capsuled: %s: %s\n", d.cfg.log_file,
		    strerror(errno));
		config_free(&d.cfg);
		return EXIT_CONFIG;
	}
	if (!check && d.cfg.access_log_file != NULL &&
	    log_open_access(d.cfg.access_log_file) == -1) {
		fprintf(stderr, "capsuled: access_log: %s: %s\n",
		    d.cfg.access_log_file, strerror(errno));
		config_free(&d.cfg);
		return EXIT_CONFIG;
	}
	rv = check ? cmd_check(&d.cfg, report, strict) : serve(&d);
	config_free(&d.cfg);
	log_close();
	return rv;
}
