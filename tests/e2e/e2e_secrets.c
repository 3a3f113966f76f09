/*
 * e2e_secrets.c -- a CGI program cannot read what the server keeps
 * secret (issue 32, item 6; docs/operating.md, "Programs", the program's
 * Landlock domain in net/program.c): each host's private key (the
 * top-level host's certs/key.pem and a second host's
 * certs/<host>/key.pem, both generated at start), the key of a host
 * added on SIGHUP (generated then), the configuration file, a proxy
 * entry's client_key and the ticket_keys file.  A file beside the
 * configuration that is none of those stays readable, so the program
 * is refused the secrets by name, not by the directory's permissions.
 *
 * Every file is made readable by the server's user first (0644 under
 * 0755 directories; the ticket key file its own, 0600): without the program's domain, the probe would read
 * them all (as it did before it existed).  Run with the sandbox on and
 * with `sandbox: off`: the program's domain does not depend on it.  As
 * root the server runs as `user: nobody` (skipped without one); under
 * valgrind, which cannot make Landlock calls, programs are not confined
 * (logged) and the test only checks that the log says so.
 */
#include <pwd.h>

#include "e2e.h"

static SSL_CTX	*ctx;
static char	 top[] = "/tmp/capsuled-e2e-secrets.XXXXXX";
static char	 capsule[512], keys[512], ticket[600], clientkey[600];

#define HOST2	"second.example"
#define HOST3	"third.example"

static void
make_capsule(void)
{
	char	 p[1024];

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	chmod(top, 0755);
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	test_put(capsule, "index.md", "# Secrets\n");
	test_mkdir(capsule, "cgi-bin");
	snprintf(keys, sizeof(keys), "%s/keys", top);
	chmod(top, 0755);
	test_put(keys, "client.key", "-----BEGIN PRIVATE KEY-----\n");
	test_put(keys, "client.pem", "-----BEGIN CERTIFICATE-----\n");
	snprintf(clientkey, sizeof(clientkey), "%s/client.key", keys);
	snprintf(ticket, sizeof(ticket), "%s/tickets", keys);
	snprintf(p, sizeof(p), "%s/cgi-bin/probe.cgi", capsule);
	/* Each path named below: "NAME=read" or "NAME=denied". */
	test_write(p, "#!/bin/sh\nprintf '20 text/plain\\r\\n'\n"
	    "while read -r name path; do\n"
	    "\tif cat \"$path\" >/dev/null 2>&1; then echo \"$name=read\";\n"
	    "\telse echo \"$name=denied\"; fi\n"
	    "done <probe.list\n");
	chmod(p, 0755);
}

/* The ticket key file, made by the server itself. */
static int
make_tickets(void)
{
	const char	*bin = getenv("CAPSULED_BIN");
	struct passwd	*pw;
	char		 cmd[1200];

	snprintf(cmd, sizeof(cmd), "'%s' --gen-ticket-keys '%s' >/dev/null",
	    bin != NULL ? bin : "build/capsuled", ticket);
	if (system(cmd) != 0)
		return -1;
	/* The server's user's own, 0600, as the server demands. */
	if (getuid() == 0 && (pw = getpwnam("nobody")) != NULL)
		return chown(ticket, pw->pw_uid, pw->pw_gid);
	return 0;
}

/* What the probe reads, in cgi-bin/probe.list; everything readable. */
static void
list_secrets(const struct e2e_server *s)
{
	char	 p[1024], cmd[1400];

	snprintf(p, sizeof(p), "%s/cgi-bin/probe.list", capsule);
	test_write(p,
	    "key %s/certs/key.pem\n"
	    "key2 %s/certs/" HOST2 "/key.pem\n"
	    "key3 %s/certs/" HOST3 "/key.pem\n"
	    "config %s/capsuled.yaml\n"
	    "client_key %s\n"
	    "tickets %s\n"
	    "beside %s/public.txt\n"
	    "capsule %s/index.md\n",
	    s->dir, s->dir, s->dir, s->dir, clientkey, ticket, s->dir,
	    capsule);
	chmod(p, 0644);
	test_put(s->dir, "public.txt", "not a secret\n");
	/* Nothing but the program's domain stands in the way. */
	snprintf(cmd, sizeof(cmd), "chmod -R a+rX '%s' '%s/client.key' "
	    "'%s/client.pem'", s->dir, keys, keys);
	(void)!system(cmd);
	/* Where the server's user makes a new host's key on SIGHUP. */
	if (getuid() == 0) {
		snprintf(cmd, sizeof(cmd), "chown nobody '%s/certs'", s->dir);
		(void)!system(cmd);
	}
}

/* The probe's answer for name: "read", "denied" or "" when absent. */
static const char *
probe_says(const struct reply *r, const char *name, char *out, size_t len)
{
	char		 needle[64];
	const char	*p;

	out[0] = '\0';
	snprintf(needle, sizeof(needle), "%s=", name);
	for (p = r->body.data; p != NULL && *p != '\0'; ) {
		if (strncmp(p, needle, strlen(needle)) == 0) {
			p += strlen(needle);
			snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
			break;
		}
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	}
	return out;
}

/* "MODE: what", for the harness's messages. */
static const char *
what(const char *mode, const char *text)
{
	static char	 buf[160];

	snprintf(buf, sizeof(buf), "%s: %s", mode, text);
	return buf;
}

static void
check_probe(const struct e2e_server *s, const char *mode, int host3)
{
	static const char *const secret[] = { "key", "key2", "config",
	    "client_key", "tickets" };
	struct reply	 r;
	char		 v[32], t[64];
	size_t		 i;

	r = e2e_gemini_get(s->gemini_port, ctx, "/cgi-bin/probe.cgi");
	buf_addc(&r.body, '\0');
	STR_EQ(r.header, "20 text/plain", what(mode, "the probe runs"));
	for (i = 0; i < nitems(secret); i++) {
		snprintf(t, sizeof(t), "%s not readable", secret[i]);
		STR_EQ(probe_says(&r, secret[i], v, sizeof(v)), "denied",
		    what(mode, t));
	}
	if (host3)
		STR_EQ(probe_says(&r, "key3", v, sizeof(v)), "denied",
		    what(mode, "the key made on SIGHUP not readable"));
	STR_EQ(probe_says(&r, "beside", v, sizeof(v)), "read",
	    what(mode, "a file beside the configuration is readable"));
	STR_EQ(probe_says(&r, "capsule", v, sizeof(v)), "read",
	    what(mode, "the capsule is readable"));
	reply_free(&r);
}

/* The configuration's extra lines, with a third host when host3. */
static void
secrets_config(char *out, size_t len, const char *extra, int host3)
{
	snprintf(out, len,
	    "%scgi: cgi-bin\nrate_limit: 0\nticket_keys: %s\n"
	    "proxy:\n"
	    "  - {prefix: /elsewhere, backend: '127.0.0.1:1',"
	    " client_cert: '%s/client.pem', client_key: '%s'}\n"
	    "hosts:\n"
	    "  - hostname: " HOST2 "\n"
	    "    capsule: %s\n"
	    "%s%s%s",
	    extra, ticket, keys, clientkey, capsule,
	    host3 ? "  - hostname: " HOST3 "\n    capsule: " : "",
	    host3 ? capsule : "", host3 ? "\n" : "");
}

static int
exists(void *path)
{
	return access(path, F_OK) == 0;
}

/* The third host answers (the generation that has it is live). */
static int
host3_serves(void *arg)
{
	const struct e2e_server	*s = arg;
	struct reply		 r;
	char			 req[128];
	int			 n, ok;

	n = snprintf(req, sizeof(req), "gemini://" HOST3 ":%d/\r\n",
	    s->gemini_port);
	ok = e2e_gemini_raw(s->gemini_port, req, (size_t)n, &r, ctx,
	    HOST3) == 0 && r.status == 20;
	reply_free(&r);
	return ok;
}

static void
run(const char *mode, const char *extra)
{
	struct e2e_server s;
	struct reply	 r;
	char		 conf[4096], key3[600], path[600];

	secrets_config(conf, sizeof(conf), extra, 0);
	if (e2e_start(&s, capsule, conf) == -1) {
		OK(0, "%s: the server starts", mode);
		return;
	}
	list_secrets(&s);
	/* Said once the sandbox is entered, after the ports accept. */
	OK(e2e_log_wait(s.log, "programs: Landlock", 5000),
	    what(mode, "the log says how programs are confined"));
	check_probe(&s, mode, 0);

	/* A third host, its key generated now, by the server's user. */
	secrets_config(conf, sizeof(conf), extra, 1);
	e2e_write_config(&s, s.gopher_port, capsule, "", conf);
	snprintf(path, sizeof(path), "%s/capsuled.yaml", s.dir);
	chmod(path, 0644);		/* the server reads it as nobody */
	snprintf(key3, sizeof(key3), "%s/certs/" HOST3 "/key.pem", s.dir);
	kill(s.pid, SIGHUP);
	OK(harness_poll(harness_time_bound(10) * 1000, exists, key3),
	    "%s: SIGHUP: a key made for " HOST3, mode);
	OK(harness_poll(5000, host3_serves, &s), "%s: " HOST3 " served",
	    mode);
	list_secrets(&s);
	check_probe(&s, mode, 1);
	r = e2e_gemini_get(s.gemini_port, ctx, "/");
	INT_EQ(r.status, 20, what(mode, "still serving"));
	reply_free(&r);
	INT_EQ(e2e_log_count(&s, "refused with EPERM"), 0,
	    what(mode, "no system call refused"));
	INT_EQ(e2e_stop(&s), 0, what(mode, "a clean stop"));
}

/* Under valgrind: no Landlock calls, and the log says so. */
static void
test_valgrind(void)
{
	struct e2e_server s;

	if (e2e_start(&s, capsule, "cgi: cgi-bin\nrate_limit: 0\n") == -1) {
		OK(0, "the server starts under valgrind");
		return;
	}
	OK(e2e_log_wait(s.log, "programs: not confined under valgrind",
	    60000),
	    "valgrind: the log says programs are not confined");
	INT_EQ(e2e_stop(&s), 0, "a clean stop under valgrind");
}

static const struct harness_test tests[] = {
	NAMED("on"),
	NAMED("off"),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	if (getuid() == 0 && getpwnam("nobody") == NULL) {
		harness_skip("no user nobody to run CGI as");
		return harness_done();
	}
	ctx = e2e_client_ctx(0);
	make_capsule();
	if (make_tickets() == -1)
		OK(0, "capsuled --gen-ticket-keys");
	else if (harness_valgrind())
		RUN("on", test_valgrind());
	else {
		RUN("on", run("sandbox on", getuid() == 0 ?
		    "user: nobody\n" : ""));
		RUN("off", run("sandbox off", getuid() == 0 ?
		    "user: nobody\nsandbox: off\n" : "sandbox: off\n"));
	}
	SSL_CTX_free(ctx);
	test_rm_tree(top);
	return harness_done();
}
