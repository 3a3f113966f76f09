/*
 * e2e_nex.c -- the Nex surface (nex_port) over the real server, with
 * raw requests on a socket, as the checklist's edge cases say:
 *
 *  - "\n", "\r\n" and "/\n" the same home directory, byte for byte;
 *    "posts", "/posts/" and "posts/\r\n" the same directory; a post as
 *    plain text (LF ends) and its own directory of links;
 *  - a static file byte for byte; a listing of "=> " lines;
 *  - search by "?words"; an error as one line of text (and "=> /" for a
 *    directory's path); a dot segment refused; a line too long;
 *  - a certificate zone: never served, in no directory;
 *  - the access log names the surface.
 */
#include "e2e.h"

static char		 capsule[512];
static struct e2e_server srv;
static int		 nport;

static void
ask(const char *req, struct buf *out)
{
	if (e2e_plain(nport, req, strlen(req), out) == -1 || out->data == NULL)
		buf_add(out, "", 0);
	buf_addc(out, '\0');
}

static void
test_directories(void)
{
	struct buf	 a, b;

	ask("\n", &a);
	HAS(a.data, "Nex test\n========\n", "the home directory: its title");
	HAS(a.data, "\n=> /posts/hello/ ", "a post by its directory");
	OK(strstr(a.data, "\r\n") == NULL, "LF ends");
	OK(strstr(a.data, "Private") == NULL, "a zone's page in no list");
	ask("\r\n", &b);
	STR_EQ(b.data, a.data, "CRLF: the same bytes");
	buf_free(&b);
	ask("/\n", &b);
	STR_EQ(b.data, a.data, "\"/\": the same bytes");
	buf_free(&b);
	buf_free(&a);
	ask("/posts/\n", &a);
	ask("posts\n", &b);
	STR_EQ(b.data, a.data, "\"posts\": the directory all the same");
	buf_free(&b);
	ask("posts/\r\n", &b);
	STR_EQ(b.data, a.data, "\"posts/\" with CRLF");
	buf_free(&b);
	buf_free(&a);
	ask("/posts/hello\n", &a);
	HAS(a.data, "Hello\n=====\n", "a post: its text");
	HAS(a.data, "Hello there, see the file[1].",
	    "its body, references numbered");
	HAS(a.data, "[1] nex://localhost:", "its references as nex:// URLs");
	buf_free(&a);
	ask("/posts/hello/\n", &a);
	HAS(a.data, "=> /posts/hello Read the text", "its directory");
	buf_free(&a);
	ask("/files/\n", &a);
	HAS(a.data, "=> /files/a.txt a.txt", "a listing");
	OK(strstr(a.data, "club") == NULL, "without a zone's entry");
	buf_free(&a);
	ask("/files/a.txt\n", &a);
	STR_EQ(a.data, "a file\r\nwith CRLF kept\r\n", "a file byte for byte");
	buf_free(&a);
}

static void
test_errors(void)
{
	struct buf	 a;
	char		*line;

	ask("/search?hello\n", &a);
	HAS(a.data, "Results for: hello", "search by ?words");
	HAS(a.data, "=> /posts/hello/", "and finds the post");
	buf_free(&a);
	ask("/missing.txt\n", &a);
	STR_EQ(a.data, "Error: not found: /missing.txt\n", "not found");
	buf_free(&a);
	ask("/missing/\n", &a);
	STR_EQ(a.data, "Error: not found: /missing/\n=> /\n",
	    "a directory not found: a way on");
	buf_free(&a);
	ask("/../etc/passwd\n", &a);
	HAS(a.data, "Error: bad request", "a dot segment");
	OK(strstr(a.data, "root:") == NULL, "nothing outside");
	buf_free(&a);
	ask("/%2e%2e/x\n", &a);
	HAS(a.data, "Error: bad request", "an encoded dot segment");
	buf_free(&a);
	ask("/private\n", &a);
	HAS(a.data, "Error: ", "a certificate zone: an error");
	OK(strstr(a.data, "secret") == NULL, "never its content");
	buf_free(&a);
	ask("/files/club/note.txt\n", &a);
	OK(strstr(a.data, "members") == NULL, "a zone's file never sent");
	buf_free(&a);
	line = xmalloc(2100);
	memset(line, 'a', 2099);
	line[0] = '/';
	line[2099] = '\0';
	ask(line, &a);
	HAS(a.data, "Error: request too long", "2 KiB without LF");
	buf_free(&a);
	free(line);
	OK(e2e_log_wait(srv.log, "nex \"/posts/hello\" 20", 3000) == 1,
	    "the access log names the surface");
}

static const struct harness_test tests[] = {
	NAMED("directories"),
	NAMED("errors"),
};

int
main(int argc, char **argv)
{
	char	 top[] = "/tmp/capsuled-e2e-nex.XXXXXX", cmd[600];
	char	 extra[300];

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md", "---\ntitle: Nex test\n---\nHi.\n");
	test_put(capsule, "posts/2024-01-02-hello.md", "---\ntitle: Hello\n"
	    "---\nHello there, see [the file](/files/a.txt).\n");
	test_put(capsule, "pages/private.md",
	    "---\ntitle: Private\n---\nA secret.\n");
	test_put(capsule, "files/a.txt", "a file\r\nwith CRLF kept\r\n");
	test_put(capsule, "files/club/note.txt", "members only\n");
	nport = e2e_free_port();
	snprintf(extra, sizeof(extra), "nex_port: %d\ncert_zones:\n"
	    "  - path: /private\n  - path: /files/club/\n", nport);
	if (e2e_start(&srv, capsule, extra) == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	RUN("directories", test_directories());
	RUN("errors", test_errors());
	INT_EQ(e2e_stop(&srv), 0, "server exits 0");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", srv.dir, top);
	(void)!system(cmd);
	return harness_done();
}
