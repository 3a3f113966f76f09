/*
 * e2e_tls.c -- tls_protocols (capsuled.yaml(5)) over the real server: by
 * default a TLS 1.2 client and a TLS 1.3 one are both served; with
 * "1.3" the TLS 1.2 client's handshake fails and the TLS 1.3 one is
 * served; a value that names no versions stops the start (exit 2).
 */
#include "e2e.h"

static char		 capsule[512];

/* The status a client of at most TLS version max gets for "/". */
static int
status_with(const struct e2e_server *s, int max)
{
	SSL_CTX		*ctx = e2e_client_ctx(max);
	struct reply	 r;
	int		 st;

	r = e2e_gemini_get(s->gemini_port, ctx, "/");
	st = r.status;
	reply_free(&r);
	SSL_CTX_free(ctx);
	return st;
}

static void
test_default(void)
{
	struct e2e_server	 s;

	if (e2e_start(&s, capsule, "") == -1) {
		OK(0, "server did not start");
		return;
	}
	INT_EQ(status_with(&s, TLS1_2_VERSION), 20, "default: TLS 1.2");
	INT_EQ(status_with(&s, TLS1_3_VERSION), 20, "default: TLS 1.3");
	INT_EQ(e2e_stop(&s), 0, "server exits 0");
}

static void
test_only_13(void)
{
	struct e2e_server	 s;

	if (e2e_start(&s, capsule, "tls_protocols: \"1.3\"\n") == -1) {
		OK(0, "server did not start");
		return;
	}
	OK(status_with(&s, TLS1_2_VERSION) < 0,
	    "1.3 only: a TLS 1.2 client gets no answer");
	INT_EQ(status_with(&s, TLS1_3_VERSION), 20, "1.3 only: TLS 1.3");
	INT_EQ(e2e_stop(&s), 0, "server exits 0");
}

static void
test_bad_value(void)
{
	char	 dir[] = "/tmp/capsuled-e2e-tlsbad.XXXXXX", cmd[900];
	int	 rv;

	if (mkdtemp(dir) == NULL) {
		OK(0, "mkdtemp");
		return;
	}
	snprintf(cmd, sizeof(cmd), "printf 'capsule: %s\\ntls_protocols: "
	    "\"1.1\"\\n' >'%s/c.yaml' && '%s' --check -c '%s/c.yaml' "
	    ">/dev/null 2>'%s/err'; echo $? >'%s/rc'; grep -q "
	    "'tls_protocols: expected' '%s/err'", capsule, dir,
	    getenv("CAPSULED_BIN"), dir, dir, dir, dir);
	rv = system(cmd);
	OK(rv == 0, "1.1: refused with a message naming the setting");
	snprintf(cmd, sizeof(cmd), "grep -qx 2 '%s/rc'", dir);
	OK(system(cmd) == 0, "1.1: exit 2");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	(void)!system(cmd);
}

static const struct harness_test tests[] = {
	TEST(test_default),
	TEST(test_only_13),
	TEST(test_bad_value),
};

int
main(int argc, char **argv)
{
	char	 top[] = "/tmp/capsuled-e2e-tls.XXXXXX", cmd[600];

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md", "---\ntitle: TLS\n---\nHi.\n");
	harness_run();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
