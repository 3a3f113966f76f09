/*
 * e2e_public_port.c -- gemini_public_port (capsuled.yaml(5)) over the real
 * server, as behind a port forward: the server listens on one port and
 * clients name another.
 *
 *  - a request naming the public port is answered as our own (not 53),
 *    one naming the listening port too, another port 53;
 *  - the feeds' absolute links carry the public port;
 *  - a Titan upload's redirect names it.
 */
#include "e2e.h"

#define PUBLIC	19650

static char		 capsule[512];

static void
test_public_port(void)
{
	struct e2e_server	 s;
	struct reply		 r;
	SSL_CTX			*ctx = e2e_client_ctx(0), *writer;
	char			 req[300], hex[65], extra[300];
	const char		*body =
	    "---\ntitle: Up\ndate: 2024-03-01\n---\nHi.\n";

	writer = e2e_cert_ctx("writer", hex);
	snprintf(extra, sizeof(extra), "gemini_public_port: %d\n"
	    "titan_writers: [\"%s\"]\n", PUBLIC, hex);
	if (e2e_start(&s, capsule, extra) == -1) {
		OK(0, "server did not start");
		goto out;
	}
	snprintf(req, sizeof(req), "gemini://localhost:%d/\r\n", PUBLIC);
	e2e_gemini_raw(s.gemini_port, req, strlen(req), &r, ctx, "localhost");
	INT_EQ(r.status, 20, "the public port is ours");
	reply_free(&r);
	r = e2e_gemini_get(s.gemini_port, ctx, "/");
	INT_EQ(r.status, 20, "the listening port too");
	reply_free(&r);
	snprintf(req, sizeof(req), "gemini://localhost:%d/\r\n", PUBLIC + 1);
	e2e_gemini_raw(s.gemini_port, req, strlen(req), &r, ctx, "localhost");
	INT_EQ(r.status, 53, "another port: 53");
	reply_free(&r);

	r = e2e_gemini_get(s.gemini_port, ctx, "/atom.xml");
	INT_EQ(r.status, 20, "the feed");
	snprintf(req, sizeof(req), "gemini://localhost:%d/posts/hello", PUBLIC);
	HAS(r.body.data ? r.body.data : "", req,
	    "the feed's links carry the public port");
	snprintf(req, sizeof(req), "localhost:%d/", s.gemini_port);
	OK(r.body.data == NULL || strstr(r.body.data, req) == NULL,
	    "and never the listening port");
	reply_free(&r);

	snprintf(req, sizeof(req), "titan://localhost:%d/posts/up;size=%zu;"
	    "mime=text/markdown\r\n%s", PUBLIC, strlen(body), body);
	e2e_gemini_raw(s.gemini_port, req, strlen(req), &r, writer,
	    "localhost");
	snprintf(req, sizeof(req), "30 gemini://localhost:%d/posts/", PUBLIC);
	HAS(r.header, req, "Titan's redirect names the public port");
	reply_free(&r);
	INT_EQ(e2e_stop(&s), 0, "server exits 0");
out:
	SSL_CTX_free(ctx);
	SSL_CTX_free(writer);
}

static const struct harness_test tests[] = {
	TEST(test_public_port),
};

int
main(int argc, char **argv)
{
	char	 top[] = "/tmp/capsuled-e2e-pport.XXXXXX", cmd[600];

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md", "---\ntitle: NAT\n---\nHi.\n");
	test_put(capsule, "posts/2024-01-02-hello.md",
	    "---\ntitle: Hello\n---\nHi.\n");
	harness_run();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
