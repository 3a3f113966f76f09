/*
 * e2e_gopher.c -- the real server's Gopher side over loopback: every
 * menu of the sample capsule checked line by line (RFC 1436 menus),
 * every link followed, errors as type-3 menus, files byte-exact, and no
 * selector that leaves the capsule.
 */
#include "e2e.h"

static struct e2e_server srv;

static int
fetch(const char *selector, struct buf *out)
{
	char	 req[2048];
	int	 len;

	len = snprintf(req, sizeof(req), "%s\r\n", selector);
	return e2e_plain(srv.gopher_port, req, (size_t)len, out);
}

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

static void
crawl(void)
{
	char	*queue[3000], types[3000];
	size_t	 nq = 0, i, menus = 0, docs = 0;
	int	 errors = 0;

	queue[nq] = strdup("");
	types[nq++] = '1';
	for (i = 0; i < nq; i++) {
		struct buf b;

		if (fetch(queue[i], &b) == -1 || b.len == 0) {
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
			if (strncmp(queue[i], "/posts/", 7) == 0) {
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
	for (i = 0; i < nq; i++)
		free(queue[i]);
}

static void
test_requests(void)
{
	struct buf	 b;
	char		 big[1100];

	fetch("/nope", &b);
	OK(b.len > 0 && b.data[0] == '3', "unknown selector: type-3 menu");
	HAS(b.data, ".\r\n", "error menu ends with .");
	buf_free(&b);

	e2e_plain(srv.gopher_port, "\r\n", 2, &b);
	HAS(b.data, "\tlocalhost\t", "empty selector: the home menu");
	buf_free(&b);
	e2e_plain(srv.gopher_port, "/\n", 2, &b);
	HAS(b.data, "\tlocalhost\t", "bare LF accepted");
	buf_free(&b);
	e2e_plain(srv.gopher_port, "/posts/\t+\r\n", 11, &b);
	HAS(b.data, "/posts/", "Gopher+ field ignored");
	OK(b.data != NULL && b.data[0] != '3', "Gopher+ request served");
	buf_free(&b);
	fetch("/posts", &b);
	OK(b.data != NULL && b.data[0] != '3', "/posts served as /posts/");
	buf_free(&b);

	e2e_plain(srv.gopher_port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27, &b);
	HAS(b.data, "Gopher", "HTTP request told it reached a Gopher server");
	buf_free(&b);

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	fetch(big, &b);
	OK(b.len > 0 && b.data[0] == '3', "over-long selector: type-3");
	buf_free(&b);

	static const char *const escapes[] = {
		"/../secret.txt", "../secret.txt", "/files/../../secret.txt",
		"/files/escape", "/%2e%2e/secret.txt", "/files/fifo",
	};
	for (size_t i = 0; i < nitems(escapes); i++) {
		fetch(escapes[i], &b);
		OK(b.data == NULL || strstr(b.data, "TOP-SECRET") == NULL,
		    "%s: leaked", escapes[i]);
		OK(b.data != NULL && b.data[0] == '3', "%s: type-3 error",
		    escapes[i]);
		buf_free(&b);
	}
}

int
main(void)
{
	const char	*repo = getenv("CAPSULED_TOP");
	char		 top[] = "/tmp/capsuled-e2e-gph.XXXXXX";
	char		 capsule[600], path[700], cmd[800];
	struct buf	 b;

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
	e2e_write_file(path, "TOP-SECRET\n");
	snprintf(path, sizeof(path), "%s/files/escape", capsule);
	snprintf(cmd, sizeof(cmd), "%s/secret.txt", top);
	(void)!symlink(cmd, path);
	snprintf(path, sizeof(path), "%s/files/fifo", capsule);
	mkfifo(path, 0644);

	if (e2e_start(&srv, capsule, "") == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	crawl();
	test_requests();
	fetch("/files/capsule.png", &b);
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
