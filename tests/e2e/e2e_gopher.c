/*
 * e2e_gopher.c -- the real server's Gopher side over loopback: every
 * menu of the sample capsule checked line by line (RFC 1436 menus),
 * every link followed, every post, page, tag and series reached by
 * selectable items alone and every reference of a text an item of its
 * menu,
 * errors as type-3 menus, files byte-exact, and no selector that leaves
 * the capsule.
 */
#include "content/archive.h"
#include "core/config.h"
#include "e2e.h"

static struct e2e_server srv;

/*
 * Check one menu; append its links (type, selector) to the queue.
 * Returns the number of syntax errors found.
 */
static int
check_menu(const char *sel, const struct buf *m, char **queue, char *types,
    size_t *nq, size_t max)
{
	const char	*p = m->data ? m->data : "", *end = p + m->len;
	int		 errors = 0, lines = 0, ended = 0;
	char		 port[16];

	snprintf(port, sizeof(port), "%d", srv.gopher_port);
	while (p < end) {
		const char *eol = strstr(p, "\r\n");
		char line[2048], *f[5], *save = NULL;
		size_t len, k, tabs = 0;

		if (eol == NULL) {
			fprintf(stderr, "%s: line without CRLF\n", sel);
			return errors + 1;
		}
		len = (size_t)(eol - p);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		p = eol + 2;
		lines++;
		if (strcmp(line, ".") == 0) {
			ended = 1;
			if (p != end) {
				fprintf(stderr, "%s: bytes after '.'\n", sel);
				errors++;
			}
			break;
		}
		for (k = 0; k < len; k++)
			tabs += line[k] == '\t';
		if (tabs != 3 || strchr(line, '\r') || strchr(line, '\n')) {
			fprintf(stderr, "%s: bad line (%zu tabs): %s\n", sel,
			    tabs, line);
			errors++;
			continue;
		}
		f[0] = line;
		for (k = 1; k < 4; k++) {
			f[k] = strchr(f[k - 1], '\t');
			*f[k]++ = '\0';
		}
		(void)save;
		if (strchr("0179ghiIsdp3", line[0]) == NULL) {
			fprintf(stderr, "%s: unknown item type %c\n", sel,
			    line[0]);
			errors++;
		}
		if (line[0] == 'i' || line[0] == '3')
			continue;
		if (strcmp(f[2], "localhost") != 0 || strcmp(f[3], port) != 0) {
			fprintf(stderr, "%s: item points to %s:%s\n", sel,
			    f[2], f[3]);
			errors++;
		}
		if (line[0] == 'h' || *nq >= max)
			continue;
		for (k = 0; k < *nq; k++)
			if (strcmp(queue[k], f[1]) == 0)
				break;
		if (k == *nq) {
			types[*nq] = line[0];
			queue[(*nq)++] = strdup(f[1]);
		}
	}
	if (!ended) {
		fprintf(stderr, "%s: menu does not end with .\\r\\n\n", sel);
		errors++;
	}
	if (lines < 2) {
		fprintf(stderr, "%s: empty menu\n", sel);
		errors++;
	}
	return errors;
}

static char	*queue[3000], types[3000];
static size_t	 nq;

static int
crawled(const char *sel)
{
	size_t	 i;

	for (i = 0; i < nq; i++)
		if (strcmp(queue[i], sel) == 0)
			return 1;
	return 0;
}

/*
 * The "[n] URL" lines under a text's "References" and the "Link n: label"
 * items of its menu must agree: every link the text can only print is
 * an item a client can select, and it goes where the URL goes (one of
 * ours: the URL's type and selector on this server; any other: an "h"
 * item with "URL:").  path is the text's; its menu is path + "/".
 * Returns the number of references.
 */
static int
refs_are_items(const char *path, int *errors)
{
	char		 sel[600], pre[32], url[1024], ours[64], *want;
	struct buf	 text, menu;
	const char	*p, *q, *item, *eol;
	unsigned	 n, nrefs = 0;
	int		 nours;

	if (e2e_gopher_get(srv.gopher_port, &text, "%s", path) == -1) {
		(*errors)++;
		return 0;
	}
	snprintf(sel, sizeof(sel), "%s/", path);
	if (e2e_gopher_get(srv.gopher_port, &menu, "%s", sel) == -1) {
		buf_free(&text);
		(*errors)++;
		return 0;
	}
	nours = snprintf(ours, sizeof(ours), "gopher://localhost:%d/",
	    srv.gopher_port);
	p = text.data != NULL ? strstr(text.data, "\r\nReferences\r\n") :
	    NULL;
	for (; p != NULL; p = strstr(p + 1, "\r\n[")) {
		if (sscanf(p + 2, "[%u] %1023[^\r]", &n, url) != 2)
			continue;
		nrefs++;
		snprintf(pre, sizeof(pre), "Link %u: ", n);
		for (item = menu.data; item != NULL; item = strchr(item, '\n')) {
			if (*item == '\n')
				item++;
			if (*item != '\0' && strncmp(item + 1, pre,
			    strlen(pre)) == 0)
				break;
		}
		if (item == NULL) {
			fprintf(stderr, "%s: reference [%u] is no item of "
			    "its menu\n", path, n);
			(*errors)++;
			continue;
		}
		if (strncmp(url, ours, (size_t)nours) == 0)
			want = xasprintf("%c\t%s\tlocalhost\t%d\r", url[nours],
			    url + nours + 1, srv.gopher_port);
		else
			want = xasprintf("h\tURL:%s\t", url);
		eol = strchr(item, '\n');
		if (*item != want[0] || (q = strstr(item, want + 1)) == NULL ||
		    (eol != NULL && q > eol)) {
			fprintf(stderr, "%s: [%u] %s is not its item: %.*s\n",
			    path, n, url, eol ? (int)(eol - item) : 80, item);
			(*errors)++;
		}
		free(want);
	}
	buf_free(&text);
	buf_free(&menu);
	return (int)nrefs;
}

/*
 * What the crawl must have reached by items alone: every post and page
 * (its menu and its text), every tag and every series of the capsule,
 * as archive_load() sees it.
 */
static void
reached_all(const char *capsule)
{
	struct config	 c;
	struct archive	*a;
	char		 sel[600];
	size_t		 i;
	int		 missing = 0, errors = 0, refs = 0;

	config_defaults(&c, NULL);
	free(c.capsule_dir);
	c.capsule_dir = strdup(capsule);
	if ((a = archive_load(&c)) == NULL) {
		OK(0, "archive_load");
		config_free(&c);
		return;
	}
	for (i = 0; i < a->nposts; i++) {
		snprintf(sel, sizeof(sel), "/posts/%s/", a->posts[i]->slug);
		missing += !crawled(sel);
		sel[strlen(sel) - 1] = '\0';
		missing += !crawled(sel);
		if (!crawled(sel))
			fprintf(stderr, "crawl: never reached %s\n", sel);
		refs += refs_are_items(sel, &errors);
	}
	for (i = 0; i < a->ndocs; i++) {
		snprintf(sel, sizeof(sel), "/%s/", a->docs[i]->name);
		missing += !crawled(sel);
		sel[strlen(sel) - 1] = '\0';
		if (!crawled(sel)) {
			fprintf(stderr, "crawl: never reached %s\n", sel);
			missing++;
		}
		refs += refs_are_items(sel, &errors);
	}
	for (i = 0; i < a->ntags; i++) {
		snprintf(sel, sizeof(sel), "/tags/%s/", a->tags[i]->slug);
		if (!crawled(sel)) {
			fprintf(stderr, "crawl: never reached %s\n", sel);
			missing++;
		}
	}
	for (i = 0; i < a->nseries; i++) {
		snprintf(sel, sizeof(sel), "/series/%s/", a->series[i]->slug);
		if (!crawled(sel)) {
			fprintf(stderr, "crawl: never reached %s\n", sel);
			missing++;
		}
	}
	OK(a->nposts >= 15 && a->ntags >= 5 && a->nseries >= 3,
	    "the sample capsule: %zu posts, %zu tags, %zu series", a->nposts,
	    a->ntags, a->nseries);
	INT_EQ(missing, 0, "every post and page (menu and text), tag and "
	    "series reached by selectable items");
	OK(refs >= 20, "%d references in the posts' texts", refs);
	INT_EQ(errors, 0, "every reference of every post and page is an "
	    "item to where it points");
	archive_unref(a);
	config_free(&c);
}

static void
crawl(void)
{
	size_t	 i, menus = 0, docs = 0;
	int	 errors = 0;

	queue[nq] = strdup("");
	types[nq++] = '1';
	for (i = 0; i < nq; i++) {
		struct buf b;

		if (e2e_gopher_get(srv.gopher_port, &b, "%s",
		    queue[i]) == -1 || b.len == 0) {
			fprintf(stderr, "crawl: %s: no answer\n", queue[i]);
			errors++;
		} else if (types[i] == '1') {
			menus++;
			errors += check_menu(queue[i], &b, queue, types, &nq,
			    nitems(queue));
			if (b.len > 0 && b.data[0] == '3') {
				fprintf(stderr, "crawl: %s: error menu\n",
				    queue[i]);
				errors++;
			}
		} else {
			docs++;
			/* A bundle's picture (type I) is no text. */
			if (strncmp(queue[i], "/posts/", 7) == 0 &&
			    types[i] == '0') {
				const char *nl = b.data;

				/* Every line of a post ends in CRLF. */
				while ((nl = strchr(nl, '\n')) != NULL) {
					if (nl == b.data || nl[-1] != '\r') {
						fprintf(stderr, "crawl: %s: bare "
						    "LF\n", queue[i]);
						errors++;
						break;
					}
					nl++;
				}
			}
			if (b.data[0] == '3' && strstr(b.data, "\t") != NULL &&
			    strstr(b.data, "Not found") != NULL) {
				fprintf(stderr, "crawl: %s: not found\n",
				    queue[i]);
				errors++;
			}
		}
		buf_free(&b);
	}
	OK(menus >= 10, "crawled %zu menus", menus);
	OK(docs >= 15, "crawled %zu documents", docs);
	INT_EQ(errors, 0, "every menu valid and every link answers");
}

/*
 * Gopher+ (the Gopher+ document of 1993) as the UMN client asks it: "$"
 * for a menu, "+view" for a text, "!" for one item, a search with "$".
 */
static void
test_plus(void)
{
	struct buf	 b;
	char		 want[256];
	const char	*end;

	e2e_gopher_get(srv.gopher_port, &b, "%s\t%s", "", "$");
	OK(strncmp(b.data, "+-1\r\n+INFO: i", 13) == 0,
	    "\\t$ at the root: +-1, then +INFO blocks: %.40s", b.data);
	snprintf(want, sizeof(want), "+INFO: 1Gopher Archaeology (3 parts, "
	    "9 min)\t/series/gopher-archaeology/\tlocalhost\t%d\t+\r\n",
	    srv.gopher_port);
	HAS(b.data, want, "an item of ours, marked Gopher+");
	HAS(b.data, "+ADMIN:\r\n Admin: Juniper Hale\r\n Mod-Date: ",
	    "+ADMIN: the author, a date");
	HAS(b.data, "+VIEWS:\r\n application/gopher+-menu:\r\n",
	    "+VIEWS: a menu");
	end = b.len >= 3 ? b.data + b.len - 3 : b.data;
	STR_EQ(end, ".\r\n", "ends with a . line");
	buf_free(&b);

	/* A post's menu: its first item is the text, with a size. */
	e2e_gopher_get(srv.gopher_port, &b, "%s\t%s",
	    "/posts/running-a-capsule-1/", "$");
	HAS(b.data, "+VIEWS:\r\n text/plain: <",
	    "+VIEWS: a post is text/plain, with its size");
	buf_free(&b);

	e2e_gopher_get(srv.gopher_port, &b, "%s\t%s",
	    "/posts/running-a-capsule-1", "+text/plain");
	OK(strncmp(b.data, "+", 1) == 0 && strstr(b.data, "\r\n") != NULL,
	    "+view: a length line first");
	{
		long long n = atoll(b.data + 1);
		const char *body = strstr(b.data, "\r\n") + 2;

		INT_EQ(n, (long long)(b.len - (size_t)(body - b.data)),
		    "+view: the length is the text's");
		HAS(body, "Running a Capsule, Part 1: Why Bother?\r\n",
		    "+view: the text");
	}
	buf_free(&b);

	e2e_gopher_get(srv.gopher_port, &b, "%s\t%s", "/posts/", "+");
	OK(strncmp(b.data, "+-1\r\n", 5) == 0, "+ on a menu: +-1");
	snprintf(want, sizeof(want), "\t/posts/running-a-capsule-1/\t"
	    "localhost\t%d\t+\r\n", srv.gopher_port);
	HAS(b.data, want, "+ on a menu: the menu, items marked");
	buf_free(&b);

	e2e_gopher_get(srv.gopher_port, &b, "%s\t%s",
	    "/posts/running-a-capsule-1", "!");
	snprintf(want, sizeof(want), "+-1\r\n+INFO: 0Running a Capsule, "
	    "Part 1: Why Bother?\t/posts/running-a-capsule-1\tlocalhost\t"
	    "%d\t+\r\n+ADMIN:\r\n Admin: Juniper Hale\r\n Mod-Date: "
	    "Sat Apr 08 12:00:00 2023 <20230408120000>\r\n+VIEWS:\r\n"
	    " text/plain: <", srv.gopher_port);
	OK(strncmp(b.data, want, strlen(want)) == 0, "! on a post: %s",
	    b.data);
	buf_free(&b);

	/* A post's menu is dated as the post. */
	e2e_gopher_get(srv.gopher_port, &b, "%s\t%s",
	    "/posts/running-a-capsule-1/", "!");
	HAS(b.data, "+INFO: 1Running a Capsule, Part 1: Why Bother?\t"
	    "/posts/running-a-capsule-1/\t", "! on a post's menu");
	HAS(b.data, " Mod-Date: Sat Apr 08 12:00:00 2023 <20230408120000>",
	    "! on a post's menu: the post's date");
	buf_free(&b);

	e2e_gopher_get(srv.gopher_port, &b, "%s\t%s", "/search\tgopher", "$");
	HAS(b.data, "+INFO: 1", "a Gopher+ search: results as +INFO");
	HAS(b.data, "\t/posts/gopher-archaeology-1/\t", "the results: "
	    "post menus");
	buf_free(&b);

	e2e_gopher_get(srv.gopher_port, &b, "%s\t%s", "/nope", "+");
	STR_EQ(b.data, "--1\r\n1 Juniper Hale\r\nNot found\r\n.\r\n",
	    "a Gopher+ error");
	buf_free(&b);
	e2e_gopher_get(srv.gopher_port, &b, "%s\t%s", "/a/../b", "$");
	OK(strncmp(b.data, "--1\r\n", 5) == 0, "a bad selector, Gopher+ asked");
	buf_free(&b);

	e2e_gopher_get(srv.gopher_port, &b, "/posts/");
	OK(strstr(b.data, "\t+\r\n") == NULL && strstr(b.data, "+INFO") ==
	    NULL, "a plain request stays plain Gopher");
	buf_free(&b);

	e2e_gopher_get(srv.gopher_port, &b, "caps.txt");
	OK(strncmp(b.data, "CAPS\r\n", 6) == 0, "caps.txt: CAPS first");
	HAS(b.data, "\r\nCapsVersion=1\r\n", "caps.txt: its version");
	HAS(b.data, "\r\nPathDelimeter=/\r\n", "caps.txt: the delimiter");
	HAS(b.data, "\r\nServerSoftware=capsuled\r\n", "caps.txt: software");
	HAS(b.data, "\r\nServerDefaultEncoding=UTF-8\r\n",
	    "caps.txt: the charset");
	buf_free(&b);
}

static void
test_requests(void)
{
	struct buf	 b;
	char		 big[1100];

	e2e_gopher_get(srv.gopher_port, &b, "/nope");
	OK(b.len > 0 && b.data[0] == '3', "unknown selector: type-3 menu");
	HAS(b.data, ".\r\n", "error menu ends with .");
	buf_free(&b);

	e2e_plain(srv.gopher_port, "\r\n", 2, &b);
	HAS(b.data, "\tlocalhost\t", "empty selector: the home menu");
	buf_free(&b);
	e2e_plain(srv.gopher_port, "/\n", 2, &b);
	HAS(b.data, "\tlocalhost\t", "bare LF accepted");
	buf_free(&b);
	e2e_gopher_get(srv.gopher_port, &b, "/posts");
	OK(b.data != NULL && b.data[0] != '3', "/posts served as /posts/");
	buf_free(&b);

	e2e_plain(srv.gopher_port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27, &b);
	HAS(b.data, "Gopher", "HTTP request told it reached a Gopher server");
	buf_free(&b);

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	e2e_gopher_get(srv.gopher_port, &b, "%s", big);
	OK(b.len > 0 && b.data[0] == '3', "over-long selector: type-3");
	buf_free(&b);

	static const char *const escapes[] = {
		"/../secret.txt", "../secret.txt", "/files/../../secret.txt",
		"/files/escape", "/%2e%2e/secret.txt", "/files/fifo",
	};
	for (size_t i = 0; i < nitems(escapes); i++) {
		e2e_gopher_get(srv.gopher_port, &b, "%s", escapes[i]);
		OK(b.data == NULL || strstr(b.data, "TOP-SECRET") == NULL,
		    "%s: leaked", escapes[i]);
		OK(b.data != NULL && b.data[0] == '3', "%s: type-3 error",
		    escapes[i]);
		buf_free(&b);
	}
}

static const struct harness_test tests[] = {
	NAMED("requests"),
	NAMED("plus"),
};

int
main(int argc, char **argv)
{
	const char	*repo = getenv("CAPSULED_TOP");
	char		 top[] = "/tmp/capsuled-e2e-gph.XXXXXX";
	char		 capsule[600], path[700], cmd[800];
	struct buf	 b;

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	if (repo == NULL || mkdtemp(top) == NULL) {
		OK(0, "CAPSULED_TOP not set");
		return harness_done();
	}
	/* A copy of the sample capsule, plus ways out that must fail. */
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/capsule' '%s'", repo, top);
	if (system(cmd) != 0)
		return 1;
	snprintf(path, sizeof(path), "%s/secret.txt", top);
	test_write(path, "TOP-SECRET\n");
	snprintf(path, sizeof(path), "%s/files/escape", capsule);
	snprintf(cmd, sizeof(cmd), "%s/secret.txt", top);
	(void)!symlink(cmd, path);
	snprintf(path, sizeof(path), "%s/files/fifo", capsule);
	mkfifo(path, 0644);

	/* The crawl asks for some 150 items at once: no rate limit. */
	if (e2e_start(&srv, capsule, "rate_limit: 0\n") == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	crawl();
	reached_all(capsule);
	for (size_t i = 0; i < nq; i++)
		free(queue[i]);
	RUN("requests", test_requests());
	RUN("plus", test_plus());
	e2e_gopher_get(srv.gopher_port, &b, "/files/capsule.png");
	snprintf(path, sizeof(path), "%s/files/capsule.png", capsule);
	{
		struct stat st;

		OK(stat(path, &st) == 0 && (size_t)st.st_size == b.len,
		    "image served byte-exact over Gopher (%zu bytes)", b.len);
	}
	buf_free(&b);
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
