/*
 * e2e_static.c -- static trees over the real server: a hand-written
 * capsule and gopherhole served from "root", with the generated gemlog
 * mounted beside it, crawled.
 *
 * The capsule: nested folders, index files, a folder listed with its
 * files' titles, a file that conflicts with a generated page (reported
 * at load), the generated pages under /gemlog/.  Over Gemini every link
 * of every page reached from "/" and "/gemlog/" answers 20; over Gopher
 * every item of ours of every menu reached from "/" resolves (menus are
 * menus, files are not error lines), through gophermaps in every shape
 * site/gophermap.c reads: info lines with and without TABs, relative
 * and absolute selectors, missing host and port, ".", "*", "-name" and
 * "=file".
 */
#include "e2e.h"

#define MAXQ	400

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 top[] = "/tmp/capsuled-e2e-static.XXXXXX";

struct queue {
	char	*item[MAXQ];
	char	 type[MAXQ];
	size_t	 n;
};

static int
queued(const struct queue *q, const char *s)
{
	size_t	 i;

	for (i = 0; i < q->n; i++)
		if (strcmp(q->item[i], s) == 0)
			return 1;
	return 0;
}

static void
push(struct queue *q, const char *s, char type)
{
	if (q->n < MAXQ && !queued(q, s)) {
		q->type[q->n] = type;
		q->item[q->n++] = xstrdup(s);
	}
}

static void
queue_free(struct queue *q)
{
	size_t	 i;

	for (i = 0; i < q->n; i++)
		free(q->item[i]);
	q->n = 0;
}

static void
make_capsule(char *cap, size_t size)
{
	snprintf(cap, size, "%s/capsule", top);
	test_mkdir(top, "capsule");
	test_mkdir(cap, "posts");
	test_mkdir(cap, "pages");
	test_put(cap, "posts/2024-05-01-first.md",
	    "---\ntitle: First post\n---\nSee [the notes](/notes/) too.\n");
	test_put(cap, "pages/about.md", "# About\n\nGenerated about.\n");
	test_mkdir(cap, "site");
	test_put(cap, "site/index.gmi",
	    "# My capsule\n"
	    "=> notes/ Notes\n"
	    "=> /gemlog/ The gemlog\n"
	    "=> log/ A hand-written gemlog\n"
	    "=> about.gmi About me\n"
	    "=> gemini://elsewhere.example/ Away\n");
	test_put(cap, "site/about.gmi", "# About me\n=> / Home\n");
	test_put(cap, "site/gemlog", "shadowed by the mount\n");
	test_mkdir(cap, "site/notes");
	test_mkdir(cap, "site/notes/2024");
	test_mkdir(cap, "site/notes/2024/trip");
	test_put(cap, "site/notes/index.gmi",
	    "# Notes\n=> 2024/ 2024\n=> ../ Up\n=> a.txt Text\n");
	test_put(cap, "site/notes/a.txt", "plain text\n");
	test_put(cap, "site/notes/2024/trip/day1.gmi",
	    "# Day one\n=> ../ Back\n=> day2.gmi Next\n");
	test_put(cap, "site/notes/2024/trip/day2.gmi", "# Day two\n");
	test_put(cap, "site/notes/2024/trip/pic.png", "\x89PNG fake");
	test_mkdir(cap, "site/log");
	test_put(cap, "site/log/2024-01-01-new-year.gmi", "# A new year\n");
	test_put(cap, "site/log/2024-02-01-february.gmi", "# February\n");
	/* Dated as their names say: listed newest first. */
	{
		struct timespec	 ts[2] = { { 1704067200, 0 },
				    { 1704067200, 0 } };
		char		 p[400];

		test_path(p, sizeof(p), cap, "site/log/2024-01-01-new-year.gmi");
		OK(utimensat(AT_FDCWD, p, ts, 0) == 0, "dated");
		ts[0].tv_sec = ts[1].tv_sec = 1706745600;
		test_path(p, sizeof(p), cap, "site/log/2024-02-01-february.gmi");
		OK(utimensat(AT_FDCWD, p, ts, 0) == 0, "dated");
	}
	/* The gopherhole: a gophermap in every shape. */
	test_put(cap, "site/gophermap",
	    "!My gopherhole\n"
	    "# comment, not shown\n"
	    "Info without a tab\n"
	    "iInfo with tabs\tfake\t(NULL)\t0\n"
	    "\n"
	    "1Notes (relative)\tnotes/\n"
	    "1Notes (absolute)\t/notes/\n"
	    "0A text, host and port missing\tnotes/a.txt\n"
	    "0A text with our host\tnotes/a.txt\tlocalhost\n"
	    "1The phlog\tphlog\n"
	    "1The gemlog's menu\t/gemlog/\n"
	    "1Another server\t/\tgopher.example\t70\n"
	    "hA web page\tURL:https://example.org/\n"
	    "=include.map\n"
	    ".\n"
	    "0Never shown\t/nope\n");
	test_put(cap, "site/include.map",
	    "Included, with an item:\n"
	    "0About me\tabout.gmi\n");
	test_mkdir(cap, "site/phlog");
	test_mkdir(cap, "site/phlog/2024");
	test_put(cap, "site/phlog/gophermap",
	    "Phlog: what follows is the listing\n"
	    "-secret.txt\n"
	    "1Up\t..\n"
	    "*\n");
	test_put(cap, "site/phlog/first.txt", "first entry\n");
	test_put(cap, "site/phlog/secret.txt", "hidden from the menu\n");
	test_put(cap, "site/phlog/2024/old.txt", "old entry\n");
}

/* path of a link on the page at dir ("/x/"), or NULL: not ours. */
static char *
gemini_target(const char *dir, const char *url)
{
	char	 ours[64];
	size_t	 n;

	snprintf(ours, sizeof(ours), "gemini://localhost:%d/",
	    srv.gemini_port);
	if (strncmp(url, ours, strlen(ours)) == 0)
		return xstrdup(url + strlen(ours) - 1);
	if (strstr(url, "://") != NULL || strncmp(url, "mailto:", 7) == 0)
		return NULL;
	if (url[0] == '/')
		return xstrdup(url);
	/* Relative: "../" and "x" against dir. */
	n = strlen(dir);
	while (strncmp(url, "../", 3) == 0 || strcmp(url, "..") == 0) {
		if (n > 1) {
			n--;
			while (n > 0 && dir[n - 1] != '/')
				n--;
		}
		url += url[2] == '/' ? 3 : 2;
	}
	return xasprintf("%.*s%s", (int)n, dir, url);
}

static void
crawl_gemini(const char *start, size_t *pages)
{
	struct queue	 q = { .n = 0 };
	size_t		 i;

	push(&q, start, 0);
	for (i = 0; i < q.n; i++) {
		struct reply	 r = e2e_gemini_get(srv.gemini_port, ctx, "%s",
				    q.item[i]);
		char		*line, *save = NULL, *dir, *t;

		/* A search asks for its query: 10. */
		OK(r.status == 20 || (r.status == 10 &&
		    strstr(q.item[i], "/search") != NULL), "gemini %s: %d %s",
		    q.item[i], r.status, r.header);
		(*pages)++;
		if (r.status != 20 || strstr(r.header, "text/gemini") == NULL) {
			reply_free(&r);
			continue;
		}
		dir = xstrdup(q.item[i]);
		*(strrchr(dir, '/') + 1) = '\0';
		for (line = strtok_r(r.body.data, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			char	*url;

			if (strncmp(line, "=>", 2) != 0)
				continue;
			url = line + 2 + strspn(line + 2, " \t");
			url[strcspn(url, " \t\r")] = '\0';
			if ((t = gemini_target(dir, url)) != NULL)
				push(&q, t, 0);
			free(t);
		}
		free(dir);
		reply_free(&r);
	}
	queue_free(&q);
}

static void
crawl_gopher(size_t *menus, size_t *files, struct buf *all)
{
	struct queue	 q = { .n = 0 };
	char		 port[16];
	size_t		 i;

	snprintf(port, sizeof(port), "%d", srv.gopher_port);
	push(&q, "/", '1');
	for (i = 0; i < q.n; i++) {
		struct buf	 b;
		char		*line, *save = NULL, *f[4];
		int		 k;

		OK(e2e_gopher_get(srv.gopher_port, &b, "%s", q.item[i]) == 0,
		    "gopher %s: an answer", q.item[i]);
		OK(b.len > 0 && b.data[0] != '3', "gopher %s (%c): %.60s",
		    q.item[i], q.type[i], b.data != NULL ? b.data : "");
		if (q.type[i] != '1') {
			(*files)++;
			buf_free(&b);
			continue;
		}
		(*menus)++;
		buf_add(all, b.data, b.len);
		for (line = strtok_r(b.data, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			if (line[0] == 'i' || line[0] == '3' ||
			    line[0] == '.' || line[0] == 'h')
				continue;
			f[0] = line;
			for (k = 1; k < 4; k++) {
				if ((f[k] = strchr(f[k - 1], '\t')) == NULL)
					break;
				*f[k]++ = '\0';
			}
			if (k < 4) {
				OK(0, "gopher %s: a line of %d fields", q.item[i],
				    k);
				continue;
			}
			f[3][strcspn(f[3], "\r")] = '\0';
			if (strcmp(f[2], "localhost") != 0 ||
			    strcmp(f[3], port) != 0)
				continue;	/* another server's */
			if (line[0] == '7')
				continue;	/* a search asks */
			push(&q, f[1], line[0]);
		}
		buf_free(&b);
	}
	queue_free(&q);
}

static void
test_static(void)
{
	char		 cap[300];
	size_t		 pages = 0, menus = 0, files = 0;
	struct buf	 all = BUF_INIT;
	struct reply	 r;

	make_capsule(cap, sizeof(cap));
	if (e2e_start(&srv, cap, "root: site\nmount: gemlog\n"
	    "listing_sort: date\n") == -1) {
		OK(0, "server did not start");
		return;
	}
	OK(e2e_log_wait(srv.log, "site/gemlog: not served at /gemlog", 5000),
	    "the conflict with the mount is reported at load");
	r = e2e_gemini_get(srv.gemini_port, ctx, "/");
	OK(r.status == 20 && strstr(r.body.data, "# My capsule") != NULL,
	    "the hand-written index.gmi keeps /");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/log/");
	OK(r.status == 20 && strstr(r.body.data, "February") != NULL &&
	    strstr(r.body.data, "February") < strstr(r.body.data,
	    "A new year"), "a listing with titles, newest first");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/gemlog/posts/first");
	OK(r.status == 20 && strstr(r.body.data, "=> /notes/") != NULL,
	    "a post's link into the tree stays as written");
	reply_free(&r);
	/*
	 * A hand-written file's menu names the paths it gives as they
	 * are: "/gemlog/" is the mount, not its "/gemlog/gemlog/".
	 */
	OK(e2e_gopher_get(srv.gopher_port, &all, "/index.gmi/") == 0 &&
	    strstr(all.data, "\t/gemlog/\t") != NULL &&
	    strstr(all.data, "/gemlog/gemlog/") == NULL,
	    "a gemtext file's menu: its link to the mount as written");
	buf_free(&all);
	OK(e2e_gopher_get(srv.gopher_port, &all, "/about.gmi/") == 0 &&
	    strstr(all.data, "1Link 1: Home\t/\t") != NULL,
	    "its link to the tree's home as written");
	buf_free(&all);
	crawl_gemini("/", &pages);
	crawl_gemini("/gemlog/", &pages);
	OK(pages >= 15, "the crawl reached %zu pages", pages);

	crawl_gopher(&menus, &files, &all);
	OK(menus >= 5 && files >= 4, "the Gopher crawl: %zu menus, %zu files",
	    menus, files);
	OK(strstr(all.data, "iMy gopherhole\t") != NULL &&
	    strstr(all.data, "iInfo without a tab\t") != NULL &&
	    strstr(all.data, "iIncluded, with an item:\t") != NULL &&
	    strstr(all.data, "Never shown") == NULL &&
	    strstr(all.data, "comment") == NULL, "the gophermap's lines");
	OK(strstr(all.data, "first.txt\t/phlog/first.txt\t") != NULL &&
	    strstr(all.data, "secret.txt") == NULL,
	    "'*' lists the phlog, '-' hides a file");
	OK(strstr(all.data, "1Up\t/\t") != NULL, "'..' resolved");
	buf_free(&all);
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
}

static const struct harness_test tests[] = {
	NAMED("static"),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	ctx = e2e_client_ctx(0);
	RUN("static", test_static());
	SSL_CTX_free(ctx);
	test_rm_tree(top);
	return harness_done();
}
