/*
 * e2e.c -- the integration tests' side of the wire (e2e.h): start the
 * real capsuled on loopback ephemeral ports with a throwaway
 * configuration, speak Gemini (OpenSSL client) and Gopher to it, stop
 * it.
 *
 * Every socket has a receive/send timeout, and every wait is bounded,
 * so a broken server fails a test instead of hanging the suite.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "e2e.h"
#include "files.h"

/* A port that was free a moment ago. */
int
e2e_free_port(void)
{
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof(sin);
	int			 fd, port;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) == -1) {
		perror("e2e_free_port");
		exit(1);
	}
	port = ntohs(sin.sin_port);
	close(fd);
	return port;
}

int
e2e_connect(int port, unsigned timeout_ms)
{
	return e2e_connect_from(NULL, NULL, port, timeout_ms, 0);
}

/* Does the YAML text y set the top-level key? */
static int
sets_key(const char *y, const char *key)
{
	size_t		 len = strlen(key);
	const char	*p;

	for (p = y; p != NULL; p = (p = strchr(p, '\n')) ? p + 1 : NULL)
		if (strncmp(p, key, len) == 0 && p[len] == ':')
			return 1;
	return 0;
}

/*
 * Write s->dir/capsuled.yaml: loopback, s's Gemini port and the given
 * Gopher port, two workers, debug log in s->dir; then extra1 and extra2
 * (YAML lines, may be "").  e2e_start() writes the first; a test that
 * reloads writes a new one the same way.  An extra that says "bind:"
 * replaces the 127.0.0.1 (it must keep it: e2e_start() connects there);
 * one that says "log:" the log file (s->log is then not written), one
 * that says "certs:" s->dir/certs, one that says "log_level:" the debug
 * level (an operator's log).
 */
void
e2e_write_config(const struct e2e_server *s, int gopher_port,
    const char *capsule_dir, const char *extra1, const char *extra2)
{
	char	 conf[300];
	int	 lo4 = strstr(extra1, "bind:") == NULL &&
		    strstr(extra2, "bind:") == NULL;
	int	 file = !sets_key(extra1, "log") && !sets_key(extra2, "log");
	int	 certs = !sets_key(extra1, "certs") &&
		    !sets_key(extra2, "certs");
	int	 debug = !sets_key(extra1, "log_level") &&
		    !sets_key(extra2, "log_level");

	snprintf(conf, sizeof(conf), "%s/capsuled.yaml", s->dir);
	test_write(conf,
	    "hostname: localhost\n"
	    "%s"
	    "gemini_port: %d\n"
	    "gopher_port: %d\n"
	    "capsule: %s\n"
	    "%s"
	    "workers: 2\n"
	    "%s"
	    "%s"
	    "%s%s",
	    lo4 ? "bind: [127.0.0.1]\n" : "", s->gemini_port, gopher_port,
	    capsule_dir, certs ? "certs: certs\n" : "",
	    file ? "log: capsuled.log\n" : "",
	    debug ? "log_level: debug\n" : "", extra1, extra2);
}

/* e2e_start_flags(): do not pass --allow-root (the refusal is tested). */
#define E2E_NO_ALLOW_ROOT	0x1

/*
 * In a child: become the server (CAPSULED_BIN, else build/capsuled) on
 * the configuration conf, standard input from /dev/null, --allow-root
 * unless flags has E2E_NO_ALLOW_ROOT; under valgrind (CAPSULED_VALGRIND=1,
 * memcheck, leaks are errors) with its report in dir/valgrind.log and
 * exit status 99 on a finding.  Never returns.
 */
void
e2e_exec_server(const char *dir, const char *conf, int flags)
{
	const char	*bin = getenv("CAPSULED_BIN");
	char		 vlog[320];

	if (bin == NULL)
		bin = "build/capsuled";
	dup2(open("/dev/null", O_RDWR), 0);
	snprintf(vlog, sizeof(vlog), "--log-file=%s/valgrind.log", dir);
	if (harness_valgrind())
		execlp("valgrind", "valgrind", "-q", "--leak-check=full",
		    "--show-leak-kinds=definite,indirect,possible",
		    "--errors-for-leak-kinds=definite,indirect,possible",
		    "--error-exitcode=99", vlog, bin, "--allow-root", "-c",
		    conf, (char *)NULL);
	else if (flags & E2E_NO_ALLOW_ROOT)
		execl(bin, "capsuled", "-c", conf, (char *)NULL);
	else
		execl(bin, "capsuled", "--allow-root", "-c", conf,
		    (char *)NULL);
	perror(bin);
	_exit(127);
}

/*
 * Start capsuled serving capsule_dir.  extra is appended to the YAML
 * configuration (may be "").  Waits (bounded) until the Gemini port
 * accepts.  Returns 0, or -1 when the server did not come up.  The tests
 * run as root, so the server is told --allow-root; under valgrind
 * (CAPSULED_VALGRIND=1, memcheck, leaks are errors) its report goes to
 * DIR/valgrind.log and a finding makes the exit status 99.
 */
static int
e2e_start_once(struct e2e_server *s, const char *capsule_dir,
    const char *extra, int flags, int port)
{
	char		 conf[300];
	uint64_t	 deadline;
	int		 fd, i;

	snprintf(s->dir, sizeof(s->dir), "/tmp/capsuled-e2e.XXXXXX");
	if (mkdtemp(s->dir) == NULL)
		return -1;
	s->gemini_port = port != 0 ? port : e2e_free_port();
	do
		s->gopher_port = e2e_free_port();
	while (s->gopher_port == s->gemini_port);
	snprintf(conf, sizeof(conf), "%s/capsuled.yaml", s->dir);
	snprintf(s->log, sizeof(s->log), "%s/capsuled.log", s->dir);
	e2e_write_config(s, s->gopher_port, capsule_dir, "", extra);
	if ((s->pid = fork()) == -1)
		return -1;
	if (s->pid == 0)
		e2e_exec_server(s->dir, conf, flags);
	deadline = e2e_now_ms() + (harness_valgrind() ? 60000 : 10000);
	for (i = 0; e2e_now_ms() < deadline; i++) {
		int status;

		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			fprintf(stderr, "capsuled exited at start (%d)\n",
			    WEXITSTATUS(status));
			s->pid = -1;
			return -1;
		}
		/* Both listeners are bound before any worker runs, but
		 * ask both anyway: the Gopher tests need the second. */
		if ((fd = e2e_connect(s->gemini_port, 1000)) != -1) {
			close(fd);
			if ((fd = e2e_connect(s->gopher_port, 1000)) != -1) {
				close(fd);
				return 0;
			}
		}
		e2e_sleep_ms(20);
	}
	return -1;
}

/*
 * e2e_start_once(), again with fresh ports when the server exits at
 * start because a port it was given is in use: e2e_free_port() hands
 * out a port that was free a moment ago, and another test run on the
 * machine may have taken it since.  capsuled refuses a busy port rather
 * than share it (SO_REUSEPORT), so a collision is a clean exit 1.
 */
int
e2e_start_flags(struct e2e_server *s, const char *capsule_dir,
    const char *extra, int flags)
{
	char	 cmd[600];
	int	 tries;

	for (tries = 0; tries < 3; tries++) {
		if (e2e_start_once(s, capsule_dir, extra, flags, 0) == 0)
			return 0;
		if (s->pid > 0)		/* up but not answering: a real fault */
			return -1;
		snprintf(cmd, sizeof(cmd), "grep -q 'already in use' "
		    "'%s/capsuled.log' 2>/dev/null", s->dir);
		if (system(cmd) != 0)
			return -1;	/* it failed for another reason */
		fprintf(stderr, "e2e: port taken, starting again\n");
	}
	return -1;
}

int
e2e_start(struct e2e_server *s, const char *capsule_dir, const char *extra)
{
	return e2e_start_flags(s, capsule_dir, extra, 0);
}

/*
 * e2e_start() on the Gemini port given (one a test told another server
 * of before this one listened), once: a port taken since is a failure.
 */
int
e2e_start_port(struct e2e_server *s, int port, const char *capsule_dir,
    const char *extra)
{
	return e2e_start_once(s, capsule_dir, extra, 0, port);
}

/*
 * Wait (bounded) until the file log has stopped growing for 100 ms.
 * The server's writer thread writes a line a moment after the thread
 * that logged it went on (core/log.h): a diagnostic logged before an
 * answer may reach the file after the answer reached the test.
 */
static void
log_settle(const char *log)
{
	struct stat	 st;
	uint64_t	 end = e2e_now_ms() + 1000 * harness_time_bound(2);
	off_t		 size = -1;

	while (e2e_now_ms() < end) {
		if (stat(log, &st) == -1 || st.st_size == size)
			return;
		size = st.st_size;
		e2e_sleep_ms(100);
	}
}

/*
 * How many lines of s's log have needle, once the log has settled; -1
 * when it cannot be read.
 */
int
e2e_log_count(const struct e2e_server *s, const char *needle)
{
	char	 line[4096];
	FILE	*f;
	int	 n = 0;

	log_settle(s->log);
	if ((f = fopen(s->log, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

struct log_wait {
	const char	*log;
	const char	*needle;
};

static int
log_holds(void *arg)
{
	const struct log_wait	*w = arg;
	char			*text;
	int			 found;

	text = test_read(w->log, "");
	found = strstr(text, w->needle) != NULL;
	free(text);
	return found;
}

/*
 * 1 when the file log holds needle, or comes to within limit_ms (0:
 * look once, when the log has settled); 0 when it does not.
 */
int
e2e_log_wait(const char *log, const char *needle, unsigned limit_ms)
{
	struct log_wait	 w = { log, needle };

	if (limit_ms == 0)
		log_settle(log);
	return harness_poll(limit_ms, log_holds, &w);
}

struct gemini_wait {
	int		 port;
	SSL_CTX		*ctx;
	const char	*path, *needle;
	int		 status, want;
};

static int
gemini_answers(void *arg)
{
	const struct gemini_wait	*w = arg;
	struct reply			 r;
	int				 has, done;

	r = e2e_gemini_get(w->port, w->ctx, "%s", w->path);
	has = w->needle == NULL || (r.body.data != NULL &&
	    strstr(r.body.data, w->needle) != NULL);
	done = r.status == w->status && has == w->want;
	reply_free(&r);
	return done;
}

/*
 * Ask port for path until it answers status with a body that has
 * needle (want 1) or has it not (want 0; needle NULL: any body), for at
 * most limit_ms: the milliseconds it took, or -1.
 */
long
e2e_gemini_wait(int port, SSL_CTX *ctx, const char *path, int status,
    const char *needle, int want, unsigned limit_ms)
{
	struct gemini_wait	 w = { port, ctx, path, needle, status, want };
	uint64_t		 t0 = e2e_now_ms();

	if (!harness_poll(limit_ms, gemini_answers, &w))
		return -1;
	return (long)(e2e_now_ms() - t0);
}

struct fds_wait {
	pid_t	 pid;
	int	 n, last;
};

static int
fds_down(void *arg)
{
	struct fds_wait	*w = arg;

	return (w->last = e2e_fd_count(w->pid)) <= w->n;
}

/*
 * Wait (at most limit_ms) until pid has no more than n fds open: how
 * many it has then.
 */
int
e2e_fds_wait(pid_t pid, int n, unsigned limit_ms)
{
	struct fds_wait	 w = { pid, n, -1 };

	harness_poll(limit_ms, fds_down, &w);
	return w.last;
}

/*
 * Wait (bounded) for s to say it serves: its watches are up by then
 * (the listeners answer before), so a file written after this is one
 * a watch hears of.
 */
static int
serving(void *arg)
{
	return e2e_log_count(arg, "info: serving ") > 0;
}

void
e2e_wait_serving(const struct e2e_server *s)
{
	OK(harness_poll(10000, serving, (void *)s), "the server says it serves");
}

/*
 * SIGTERM and wait (bounded).  Returns the exit status, or -1 when the
 * server had to be killed (a hang) or died of a signal.
 */
int
e2e_stop(struct e2e_server *s)
{
	uint64_t	 deadline;
	int		 status;
	char		 cmd[600];

	if (s->pid <= 0)
		return -1;
	kill(s->pid, SIGTERM);
	deadline = e2e_now_ms() + (harness_valgrind() ? 60000 : 15000);
	while (e2e_now_ms() < deadline) {
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			s->pid = -1;
			if (harness_failed > 0) {	/* for the CI log */
				snprintf(cmd, sizeof(cmd), "tail -n 40 '%s/"
				    "capsuled.log' | sed 's/^/server: /' >&2",
				    s->dir);
				(void)!system(cmd);
			}
			if (harness_valgrind()) {	/* what valgrind saw, if any */
				snprintf(cmd, sizeof(cmd), "cat '%s/valgrind"
				    ".log' >&2 2>/dev/null", s->dir);
				(void)!system(cmd);
			}
			if (getenv("E2E_KEEP") == NULL) {
				snprintf(cmd, sizeof(cmd), "rm -rf '%s'",
				    s->dir);
				(void)!system(cmd);
			}
			return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		}
		e2e_sleep_ms(20);
	}
	kill(s->pid, SIGKILL);
	waitpid(s->pid, &status, 0);
	s->pid = -1;
	return -1;
}

SSL_CTX *
e2e_client_ctx(int max_version)
{
	SSL_CTX	*ctx = SSL_CTX_new(TLS_client_method());

	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	if (max_version != 0) {
		SSL_CTX_set_min_proto_version(ctx, 0);
		SSL_CTX_set_max_proto_version(ctx, max_version);
		SSL_CTX_set_security_level(ctx, 0);
	}
	return ctx;
}

/*
 * A client context with a fresh self-signed certificate (CN cn); the
 * certificate's SHA-256 in hex.
 */
SSL_CTX *
e2e_cert_ctx(const char *cn, char hex[65])
{
	SSL_CTX		*ctx = e2e_client_ctx(0);
	EVP_PKEY	*key = EVP_EC_gen("P-256");
	X509		*x = X509_new();
	unsigned char	*der = NULL, md[32];
	unsigned int	 mdlen = 0;
	int		 len, i;

	X509_set_version(x, X509_VERSION_3);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 7);
	X509_gmtime_adj(X509_getm_notBefore(x), -60);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN",
	    MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(x, X509_get_subject_name(x));
	X509_set_pubkey(x, key);
	X509_sign(x, key, EVP_sha256());
	SSL_CTX_use_certificate(ctx, x);
	SSL_CTX_use_PrivateKey(ctx, key);
	len = i2d_X509(x, &der);
	EVP_Digest(der, (size_t)len, md, &mdlen, EVP_sha256(), NULL);
	OPENSSL_free(der);
	for (i = 0; i < 32; i++)
		sprintf(hex + i * 2, "%02x", md[i]);
	X509_free(x);
	EVP_PKEY_free(key);
	return ctx;
}

void
reply_free(struct reply *r)
{
	buf_free(&r->body);
}

/*
 * r->body holds a whole Gemini answer: move its header line into
 * r->header and set r->status when the header starts with a status.
 */
void
e2e_split_header(struct reply *r)
{
	char	*crlf;
	size_t	 hlen;

	if (r->body.data == NULL ||
	    (crlf = strstr(r->body.data, "\r\n")) == NULL ||
	    (size_t)(crlf - r->body.data) >= sizeof(r->header))
		return;
	hlen = (size_t)(crlf - r->body.data);
	memcpy(r->header, r->body.data, hlen);
	r->header[hlen] = '\0';
	if (hlen >= 2 && r->header[0] >= '1' && r->header[0] <= '6' &&
	    r->header[1] >= '0' && r->header[1] <= '9')
		r->status = (r->header[0] - '0') * 10 + (r->header[1] - '0');
	memmove(r->body.data, crlf + 2, r->body.len - hlen - 2);
	buf_truncate(&r->body, r->body.len - hlen - 2);
}

/* The client context of a request that names none: no certificate. */
static SSL_CTX *
default_ctx(void)
{
	static SSL_CTX	*ctx;

	if (ctx == NULL)
		ctx = e2e_client_ctx(0);
	return ctx;
}

/*
 * Send raw bytes as the request over TLS (ctx NULL: a client without a
 * certificate; sni NULL: none sent) and read the whole reply.  Splits
 * the header off the body; records whether the server ended with a
 * clean close_notify.
 */
int
e2e_gemini_raw(int port, const char *req, size_t reqlen, struct reply *r,
    SSL_CTX *ctx, const char *sni)
{
	SSL	*ssl;
	char	 chunk[16384];
	int	 fd, n, err;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	buf_init(&r->body);
	if ((fd = e2e_connect(port, 5000)) == -1)
		return -1;
	r->connected = 1;
	ssl = SSL_new(ctx != NULL ? ctx : default_ctx());
	SSL_set_fd(ssl, fd);
	if (sni != NULL)
		SSL_set_tlsext_host_name(ssl, sni);
	if (SSL_connect(ssl) != 1) {
		ERR_clear_error();
		SSL_free(ssl);
		close(fd);
		return -1;
	}
	if (reqlen > 0 && SSL_write(ssl, req, (int)reqlen) <= 0) {
		ERR_clear_error();
		SSL_free(ssl);
		close(fd);
		return -1;
	}
	for (;;) {
		n = SSL_read(ssl, chunk, sizeof(chunk));
		if (n > 0) {
			buf_add(&r->body, chunk, (size_t)n);
			continue;
		}
		err = SSL_get_error(ssl, n);
		r->close_notify = (err == SSL_ERROR_ZERO_RETURN);
		ERR_clear_error();
		break;
	}
	SSL_free(ssl);
	close(fd);
	e2e_split_header(r);
	return 0;
}

/*
 * GET gemini://localhost:port<path>, the path formatted as printf's
 * (ctx NULL: a client without a certificate): the reply, its status -2
 * when no reply could be had.  The body of a reply is a C string (""
 * when it has none).
 */
struct reply
e2e_gemini_get(int port, SSL_CTX *ctx, const char *fmt, ...)
{
	struct reply	 r;
	va_list		 ap;
	char		*path, *req;

	va_start(ap, fmt);
	if (vasprintf(&path, fmt, ap) == -1)
		path = NULL;
	va_end(ap);
	req = xasprintf("gemini://localhost:%d%s\r\n", port,
	    path != NULL ? path : "");
	if (e2e_gemini_raw(port, req, strlen(req), &r, ctx, "localhost") == -1)
		r.status = -2;
	else if (r.body.data == NULL)
		buf_add(&r.body, "", 0);
	free(req);
	free(path);
	return r;
}

/* Plain TCP: send req, read until the server closes. */
int
e2e_plain(int port, const char *req, size_t reqlen, struct buf *out)
{
	char	 chunk[16384];
	ssize_t	 n;
	int	 fd;

	buf_init(out);
	if ((fd = e2e_connect(port, 5000)) == -1)
		return -1;
	if (reqlen > 0 && write(fd, req, reqlen) != (ssize_t)reqlen) {
		close(fd);
		return -1;
	}
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_add(out, chunk, (size_t)n);
	close(fd);
	return n < 0 ? -1 : 0;
}

/*
 * Ask the Gopher server on port for a selector formatted as printf's
 * (sent with CRLF): what it answered until it closed, in out (buf_free
 * it; a C string, "" when nothing came).  -1 for no answer.
 */
int
e2e_gopher_get(int port, struct buf *out, const char *fmt, ...)
{
	va_list	 ap;
	char	*sel, *req;
	int	 rc;

	va_start(ap, fmt);
	if (vasprintf(&sel, fmt, ap) == -1)
		sel = NULL;
	va_end(ap);
	req = xasprintf("%s\r\n", sel != NULL ? sel : "");
	if ((rc = e2e_plain(port, req, strlen(req), out)) == 0 &&
	    out->data == NULL)
		buf_add(out, "", 0);
	free(req);
	free(sel);
	return rc;
}

/*
 * Follow each link line of the Gemini page body to a site path ("=> /"):
 * each must answer 20 (or 31).  what names the page in the checks.
 */
void
e2e_crawl_gemini(int port, SSL_CTX *ctx, const char *what, const char *body)
{
	struct reply	 r;
	const char	*p, *nl;
	char		 url[512];
	size_t		 len;

	for (p = body; p != NULL && *p != '\0'; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (strncmp(p, "=> /", 4) != 0)
			continue;
		len = strcspn(p + 3, " \n");
		snprintf(url, sizeof(url), "%.*s", (int)len, p + 3);
		r = e2e_gemini_get(port, ctx, "%s", url);
		OK(r.status == 20 || r.status == 31, "%s: %s answers %d",
		    what, url, r.status);
		reply_free(&r);
	}
}

/*
 * Ask for each item of the Gopher menu that is on this server
 * ("localhost", port): each must resolve (no error item), and no
 * selector holds a dot segment.  The menu must have such items.
 */
void
e2e_crawl_gopher(int port, const char *what, const char *menu)
{
	struct buf	 g;
	const char	*p, *nl, *tab;
	char		 sel[512], host[64];
	size_t		 len;
	int		 n = 0;

	snprintf(host, sizeof(host), "\tlocalhost\t%d", port);
	for (p = menu; p != NULL && *p != '\0'; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (*p == 'i' || *p == '3' || *p == 'h' || *p == '.' ||
		    (tab = strchr(p, '\t')) == NULL || (nl && tab > nl))
			continue;
		len = strcspn(tab + 1, "\t\r\n");
		if (strncmp(tab + 1 + len, host, strlen(host)) != 0)
			continue;
		snprintf(sel, sizeof(sel), "%.*s", (int)len, tab + 1);
		OK(strstr(sel, "/./") == NULL && strstr(sel, "/../") == NULL,
		    "%s: selector %s has no dot segment", what, sel);
		e2e_gopher_get(port, &g, "%s", sel);
		OK(g.len > 0 && g.data[0] != '3', "%s: item %s resolves",
		    what, sel);
		buf_free(&g);
		n++;
	}
	OK(n > 0, "%s: its menu has items", what);
}

/* A "key: N kB" figure of /proc/PID/status (VmRSS...); -1 when absent. */
long
e2e_proc_status_kb(pid_t pid, const char *key)
{
	char	 path[64], line[256];
	FILE	*f;
	long	 v = -1;
	size_t	 klen = strlen(key);

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* How many fds pid has open (/proc/PID/fd); -1 when unknown. */
int
e2e_fd_count(pid_t pid)
{
	char	 cmd[96], out[32];
	FILE	*p;
	int	 n = -1;

	snprintf(cmd, sizeof(cmd), "ls /proc/%d/fd 2>/dev/null | wc -l",
	    (int)pid);
	if ((p = popen(cmd, "r")) == NULL)
		return -1;
	if (fgets(out, sizeof(out), p) != NULL)
		n = atoi(out);
	pclose(p);
	return n;
}

/*
 * A TCP connection to dst:port (NULL: 127.0.0.1) from source address
 * src (NULL: any), with timeouts on both directions; nonblock: return
 * while it is still in progress.
 */
int
e2e_connect_from(const char *src, const char *dst, int port,
    unsigned timeout_ms, int nonblock)
{
	struct sockaddr_in	 sin;
	struct timeval		 tv = { timeout_ms / 1000,
				    (long)(timeout_ms % 1000) * 1000 };
	int			 fd;

	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC |
	    (nonblock ? SOCK_NONBLOCK : 0), 0)) == -1)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (src != NULL) {
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		inet_pton(AF_INET, src, &sin.sin_addr);
		if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1) {
			close(fd);
			return -1;
		}
	}
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	if (dst == NULL)
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else
		inet_pton(AF_INET, dst, &sin.sin_addr);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1 &&
	    !(nonblock && errno == EINPROGRESS)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A number below n from a small LCG (each thread keeps its own seed). */
unsigned
e2e_rnd(unsigned *seed, unsigned n)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 8) % n;
}

/*
 * Write t through fd in n pieces with pauses of 20 to 400 ms between
 * them (most longer than a 100 ms debounce): a writer still typing, or
 * a tool that writes in chunks.
 */
void
e2e_write_pieces(int fd, const char *t, int n, unsigned *seed)
{
	size_t	 len = strlen(t), at = 0, step = len / (size_t)n;
	int	 i;

	for (i = 0; i < n; i++) {
		size_t m = i == n - 1 ? len - at : step;

		if (write(fd, t + at, m) != (ssize_t)m)
			perror("write");
		at += m;
		if (i < n - 1)
			e2e_sleep_ms(20 + e2e_rnd(seed, 380));
	}
}

/*
 * Ask s for path (a URL path, also the Gopher selector) over Gemini or
 * Gopher.  Returns 1 when found (Gemini 20; a Gopher answer that is not
 * an error menu) with the page in body, 0 when not found (Gemini 51, a
 * Gopher type-3 line), -1 for no answer or any other (body is empty).
 */
int
e2e_ask(const struct e2e_server *s, SSL_CTX *ctx, int gopher,
    const char *path, struct buf *body)
{
	struct reply	 r;
	char		 req[512];
	int		 len;

	buf_init(body);
	if (gopher) {
		len = snprintf(req, sizeof(req), "%s\r\n", path);
		if (e2e_plain(s->gopher_port, req, (size_t)len, body) == -1 ||
		    body->len == 0) {
			buf_free(body);
			return -1;
		}
		return body->data[0] != '3';
	}
	len = snprintf(req, sizeof(req), "gemini://localhost:%d%s\r\n",
	    s->gemini_port, path);
	if (e2e_gemini_raw(s->gemini_port, req, (size_t)len, &r, ctx,
	    "localhost") == -1 || (r.status != 20 && r.status != 51) ||
	    !r.close_notify) {
		reply_free(&r);
		return -1;
	}
	*body = r.body;
	return r.status == 20;
}

/* Did the peer close fd?  Reads and discards what is there. */
int
e2e_peer_closed(int fd)
{
	char	 tmp[4096];
	ssize_t	 n;

	for (;;) {
		n = recv(fd, tmp, sizeof(tmp), MSG_DONTWAIT);
		if (n > 0)
			continue;
		if (n == 0)
			return 1;
		return errno != EAGAIN && errno != EWOULDBLOCK;
	}
}

/*
 * Write n posts that never change into capsule/posts/: "Stable post K"
 * (/posts/stable-K), its text between "STABLE K BEGIN" and "STABLE K
 * END", for the tests that change other posts under load.
 */
void
e2e_stable_posts(const char *capsule, int n)
{
	char	 path[1024];
	int	 k;

	for (k = 0; k < n; k++) {
		snprintf(path, sizeof(path), "%s/posts/2024-03-%02d-stable-%d"
		    ".md", capsule, k + 1, k);
		test_write(path, "---\ntitle: Stable post %d\n---\n"
		    "STABLE %d BEGIN\n\nNever changes.\n\nSTABLE %d END\n", k,
		    k, k);
	}
}

/* Is body stable post k, whole? */
int
e2e_stable_whole(const char *body, int k)
{
	char	 a[64], b[64];

	snprintf(a, sizeof(a), "STABLE %d BEGIN", k);
	snprintf(b, sizeof(b), "STABLE %d END", k);
	return body != NULL && strstr(body, a) != NULL &&
	    strstr(body, b) != NULL;
}

/* Does body (a /posts/ page) list all n stable posts? */
int
e2e_lists_stable(const char *body, int n)
{
	char	 t[64];
	int	 k;

	for (k = 0; k < n; k++) {
		snprintf(t, sizeof(t), "Stable post %d", k);
		if (body == NULL || strstr(body, t) == NULL)
			return 0;
	}
	return 1;
}

/* A wrong answer from a request loop: counted in *n, and said why. */
void
e2e_wrong(atomic_int *n, const char *proto, const char *path,
    const char *why)
{
	atomic_fetch_add(n, 1);
	fprintf(stderr, "WRONG %s %s: %s\n", proto, path, why);
}

