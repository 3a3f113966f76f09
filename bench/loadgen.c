/*
 * loadgen.c -- a load generator for Gemini, Gopher, Spartan, Nex,
 * Finger and HTTP servers on this machine.
 *
 * Each thread runs one epoll loop that keeps its share of --conns
 * connections busy: connect, (Gemini) TLS 1.3 handshake, full or resumed
 * from a saved session ticket, one request, read the answer to the end,
 * check it (status line, expected length, close_notify), record the
 * latency, start over.  Bounded by a request count and a duration; a
 * hard deadline aborts whatever is still in flight.  With --pid it reads
 * the server's CPU time (utime+stime+cutime+cstime) from /proc around
 * the measured phase and samples its RSS, children included.
 *
 * HTTP: http (GET, "Connection: close": a connection a request, as
 * Gopher) and http-keep (GET on kept connections: each connection asks
 * again once its answer, measured by Content-Length, is whole).
 *
 * The plain-TCP modes: gopher (a selector line; --menu checks a menu's
 * lines), spartan ("host path 0", a "2 " status line before the body),
 * nex (a path line) and finger (a query line; --path / asks for none):
 * the answer is what comes until the server closes.
 *
 * Other modes: idle (open connections that never send a request, report
 * the server's RSS per connection and when the server closes them),
 * fetch (one request, body to a file), first (one request, then the
 * same request again: first-render versus cached latency) and live
 * (write a post, then ask until the answer has it: save to live).
 *
 * Knows OpenSSL and Linux (epoll, /proc); nothing of the server it
 * measures.  Targets must be loopback addresses: anything else is
 * refused.  Prints one line of key=value pairs on stdout.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#define HIST_SUB	32		/* sub-buckets per octave: ~3 % */
#define HIST_N		(64 * HIST_SUB)
#define HEADER_MAX	1029		/* Gemini: 2 + 1 + 1024 + CRLF */

enum mode { M_GEMINI, M_RESUME, M_GOPHER, M_IDLE, M_FETCH, M_FIRST,
    M_LIVE, M_HTTP, M_HTTP_KEEP, M_SPARTAN, M_NEX, M_FINGER };

enum cstate { C_FREE, C_CONNECTING, C_HANDSHAKE, C_WRITING, C_READING,
    C_IDLE };

/* What the whole run was asked to do; read-only once threads start. */
struct opts {
	enum mode	 mode;
	int		 tls;		/* Gemini modes */
	int		 http;		/* HTTP modes */
	int		 keep;		/* http-keep */
	struct sockaddr_storage addr;
	socklen_t	 addrlen;
	const char	*host;		/* SNI and URL host */
	int		 port;
	const char	*path;
	char		 req[2100];	/* the request line, CRLF included */
	size_t		 reqlen;
	unsigned	 conns;
	unsigned	 threads;
	unsigned long	 requests;
	unsigned long	 warmup;
	double		 duration;	/* seconds, measured phase */
	long		 expect_len;	/* -1: learn from the first answer */
	long		 min_len;
	int		 menu;		/* Gopher: check menu lines */
	int		 pid;		/* server to measure; 0 = none */
	const char	*out;		/* fetch: body goes here */
	double		 retry;		/* fetch: keep trying this long */
	unsigned	 idle_conns;
	double		 idle_wait;	/* seconds to wait for server closes */
	unsigned	 idle_batch;	/* handshakes in flight at once */
	unsigned	 first_repeat;
	const char	*warm;		/* first: a cached path asked before */
	const char	*save;		/* live: the post file to write */
	const char	*needle;	/* live: its title, to wait for */
};

struct hist {
	uint64_t	 n[HIST_N];
	uint64_t	 count;
	uint64_t	 max;
	uint64_t	 sum;
};

struct stats {
	struct hist	 lat;
	unsigned long	 ok;
	unsigned long	 err_connect;
	unsigned long	 err_tls;
	unsigned long	 err_status;
	unsigned long	 err_len;
	unsigned long	 err_format;
	unsigned long	 err_unclean;	/* no close_notify */
	unsigned long	 err_timeout;
	unsigned long	 err_resume;	/* resumption refused */
	unsigned long	 resumed;
	uint64_t	 bytes;
	long		 body_len;	/* last good body length */
};

struct lconn {
	int		 fd;
	enum cstate	 state;
	SSL		*ssl;
	int		 want_resume;
	uint64_t	 t0;		/* ns, connect() */
	size_t		 sent;
	char		*buf;		/* the whole answer; grows */
	size_t		 len, cap;
	int		 clean;		/* close_notify seen / plain EOF */
};

struct phase;

struct worker {
	pthread_t	 th;
	struct phase	*ph;
	unsigned	 nconns;
	struct stats	 st;
};

/* One measured (or warm-up) run over all threads. */
struct phase {
	const struct opts *o;
	SSL_CTX		*ctx;
	unsigned long	 limit;		/* requests to start, in all */
	atomic_ulong	 started;
	uint64_t	 stop_ns;	/* no new requests after this */
	uint64_t	 hard_ns;	/* abort what is left after this */
	atomic_long	 expect_len;	/* learnt once, then enforced */
	atomic_int	 running;
};

static __thread SSL_SESSION	*t_sess;	/* resumption: newest ticket */
/* A thread's last ticket, handed from the warm-up to the measured run. */
static SSL_SESSION		*g_sess;
static pthread_mutex_t		 g_sess_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void
die(const char *fmt, const char *arg)
{
	fprintf(stderr, "loadgen: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static size_t
hist_index(uint64_t v)
{
	int	 msb, shift;

	if (v < 2 * HIST_SUB)
		return (size_t)v;
	msb = 63 - __builtin_clzll(v);
	shift = msb - 5;		/* keep the top 6 bits */
	return (size_t)shift * HIST_SUB + (size_t)(v >> shift);
}

/* The middle of bucket i, in the unit recorded. */
static uint64_t
hist_value(size_t i)
{
	size_t	 shift;
	uint64_t lo;

	if (i < 2 * HIST_SUB)
		return i;
	shift = i / HIST_SUB - 1;
	lo = (uint64_t)(i % HIST_SUB + HIST_SUB) << shift;
	return lo + ((1ull << shift) >> 1);
}

static void
hist_add(struct hist *h, uint64_t v)
{
	size_t	 i = hist_index(v);

	if (i >= HIST_N)
		i = HIST_N - 1;
	h->n[i]++;
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

static void
hist_merge(struct hist *to, const struct hist *from)
{
	for (size_t i = 0; i < HIST_N; i++)
		to->n[i] += from->n[i];
	to->count += from->count;
	to->sum += from->sum;
	if (from->max > to->max)
		to->max = from->max;
}

static uint64_t
hist_pct(const struct hist *h, double pct)
{
	uint64_t	 want, seen = 0;
	uint64_t	 v;

	if (h->count == 0)
		return 0;
	want = (uint64_t)(pct / 100.0 * (double)h->count + 0.999999);
	if (want == 0)
		want = 1;
	for (size_t i = 0; i < HIST_N; i++) {
		seen += h->n[i];
		if (seen >= want) {
			v = hist_value(i);
			return v > h->max ? h->max : v;
		}
	}
	return h->max;
}

static void
stats_merge(struct stats *to, const struct stats *from)
{
	hist_merge(&to->lat, &from->lat);
	to->ok += from->ok;
	to->err_connect += from->err_connect;
	to->err_tls += from->err_tls;
	to->err_status += from->err_status;
	to->err_len += from->err_len;
	to->err_format += from->err_format;
	to->err_unclean += from->err_unclean;
	to->err_timeout += from->err_timeout;
	to->err_resume += from->err_resume;
	to->resumed += from->resumed;
	to->bytes += from->bytes;
	if (from->body_len >= 0)
		to->body_len = from->body_len;
}

static unsigned long
stats_errors(const struct stats *s)
{
	return s->err_connect + s->err_tls + s->err_status + s->err_len +
	    s->err_format + s->err_unclean + s->err_timeout + s->err_resume;
}

/* --- /proc ------------------------------------------------------------- */

/* utime+stime+cutime+cstime of pid, in clock ticks; -1 if gone. */
static long long
proc_cpu_ticks(int pid)
{
	char		 path[64], buf[2048], *p;
	unsigned long	 ut, st;
	long		 cut, cst;
	ssize_t		 n;
	int		 fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* The command name may hold spaces and parens: skip past the last. */
	if ((p = strrchr(buf, ')')) == NULL)
		return -1;
	/* After ")": state(3) ... utime(14) stime(15) cutime(16) cstime(17) */
	if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
	    "%lu %lu %ld %ld", &ut, &st, &cut, &cst) != 4)
		return -1;
	return (long long)(ut + st) + cut + cst;
}

static long
proc_rss_one(int pid)
{
	char	 path[64], line[256];
	long	 kb = -1;
	FILE	*f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "VmRSS:", 6) == 0) {
			kb = strtol(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

/* RSS of pid plus its direct children (a forking server), in KiB. */
static long
proc_rss(int pid)
{
	char	 path[80];
	long	 total, kb;
	int	 child;
	FILE	*f;

	if ((total = proc_rss_one(pid)) < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	if ((f = fopen(path, "re")) == NULL)
		return total;
	while (fscanf(f, "%d", &child) == 1)
		if ((kb = proc_rss_one(child)) > 0)
			total += kb;
	fclose(f);
	return total;
}

/*
 * CPU time of every live thread of pid, in ns (schedstat: precise, not
 * sampled at clock ticks); -1 when it cannot be read.
 */
static long long
proc_task_ns(int pid)
{
	char		 path[96];
	struct dirent	*de;
	long long	 total = 0, ns;
	DIR		*d;
	FILE		*f;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	if ((d = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.20s/schedstat",
		    pid, de->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		if (fscanf(f, "%lld", &ns) == 1)
			total += ns;
		fclose(f);
	}
	closedir(d);
	return total;
}

/* --- checks ------------------------------------------------------------- */

/* Gopher menu: lines "Tdisplay<TAB>selector<TAB>host<TAB>port", then ".". */
static int
menu_ok(const char *p, size_t len)
{
	const char	*end = p + len, *nl;
	size_t		 tabs;

	if (len < 3 || memcmp(end - 3, ".\r\n", 3) != 0)
		return 0;
	while (p < end) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return 0;
		if (nl == p || nl[-1] != '\r')
			return 0;
		if (nl - p == 2 && p[0] == '.')
			return nl + 1 == end;
		tabs = 0;
		for (const char *q = p; q < nl; q++)
			tabs += *q == '\t';
		if (tabs < 3)
			return 0;
		p = nl + 1;
	}
	return 0;
}

/* Check one complete answer; count it in st.  Returns 1 when good. */
/* The end of an HTTP answer's head in c->buf, or NULL. */
static const char *
http_head_end(const struct lconn *c)
{
	const char	*e;

	if (c->len < 4 || (e = memmem(c->buf, c->len, "\r\n\r\n", 4)) ==
	    NULL)
		return NULL;
	return e + 4;
}

/* Is the HTTP answer in c->buf whole: its head, and Content-Length? */
static int
http_whole(const struct lconn *c)
{
	const char	*e, *cl;
	size_t		 hlen;

	if ((e = http_head_end(c)) == NULL)
		return 0;
	hlen = (size_t)(e - c->buf);
	if ((cl = memmem(c->buf, hlen, "\r\nContent-Length: ", 18)) == NULL)
		return 1;
	return c->len >= hlen + strtoul(cl + 18, NULL, 10);
}

static int
check_answer(struct phase *ph, struct stats *st, struct lconn *c)
{
	const struct opts *o = ph->o;
	const char	*body = c->buf;
	size_t		 blen = c->len;
	long		 want;
	char		*crlf;

	if (o->tls) {
		crlf = c->len ? memmem(c->buf, c->len < HEADER_MAX ? c->len :
		    HEADER_MAX, "\r\n", 2) : NULL;
		if (crlf == NULL || c->len < 3 || memcmp(c->buf, "20 ", 3)) {
			st->err_status++;
			return 0;
		}
		body = crlf + 2;
		blen = c->len - (size_t)(body - c->buf);
		if (!c->clean) {
			st->err_unclean++;
			return 0;
		}
	} else if (o->http) {
		if (c->len < 13 || memcmp(c->buf, "HTTP/1.1 200 ", 13) != 0 ||
		    (body = http_head_end(c)) == NULL) {
			st->err_status++;
			return 0;
		}
		blen = c->len - (size_t)(body - c->buf);
	} else {
		/* Spartan: "2 mime" CRLF, then the body (--mode spartan). */
		if (o->mode == M_SPARTAN) {
			crlf = c->len ? memmem(c->buf, c->len < HEADER_MAX ?
			    c->len : HEADER_MAX, "\r\n", 2) : NULL;
			if (crlf == NULL || c->len < 2 ||
			    memcmp(c->buf, "2 ", 2)) {
				st->err_status++;
				return 0;
			}
			body = crlf + 2;
			blen = c->len - (size_t)(body - c->buf);
		}
		if (blen == 0 || memchr(body, '\0', blen) != NULL ||
		    (o->menu && !menu_ok(body, blen))) {
			st->err_format++;
			return 0;
		}
	}
	if ((long)blen < o->min_len) {
		st->err_len++;
		return 0;
	}
	want = atomic_load(&ph->expect_len);
	if (want < 0) {
		long none = -1;

		if (!atomic_compare_exchange_strong(&ph->expect_len, &none,
		    (long)blen))
			want = none;
		else
			want = (long)blen;
	}
	if ((long)blen != want) {
		st->err_len++;
		return 0;
	}
	st->body_len = (long)blen;
	st->bytes += c->len;
	st->ok++;
	return 1;
}

/* --- one connection ----------------------------------------------------- */

static void
conn_reset(struct lconn *c)
{
	if (c->ssl != NULL) {
		/*
		 * Without this SSL_free() takes the connection for a bad one
		 * and marks its session (the ticket we keep) not resumable.
		 * Nothing is sent: the server has closed already.
		 */
		if (c->clean)
			SSL_set_shutdown(c->ssl, SSL_SENT_SHUTDOWN |
			    SSL_RECEIVED_SHUTDOWN);
		SSL_free(c->ssl);
		c->ssl = NULL;
	}
	if (c->fd != -1) {
		close(c->fd);
		c->fd = -1;
	}
	c->state = C_FREE;
	c->len = 0;
	c->sent = 0;
	c->clean = 0;
}

static int
conn_start(const struct opts *o, int ep, struct lconn *c)
{
	struct epoll_event	 ev;
	int			 one = 1;

	c->t0 = now_ns();
	c->fd = socket(o->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0);
	if (c->fd == -1)
		return -1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(c->fd, (const struct sockaddr *)&o->addr, o->addrlen)
	    == -1 && errno != EINPROGRESS)
		return -1;
	c->state = C_CONNECTING;
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
	ev.data.ptr = c;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev) == -1)
		return -1;
	return 0;
}

static void
buf_room(struct lconn *c, size_t want)
{
	if (c->cap - c->len >= want)
		return;
	c->cap = c->cap ? c->cap * 2 : 16384;
	while (c->cap - c->len < want)
		c->cap *= 2;
	if ((c->buf = realloc(c->buf, c->cap)) == NULL) {
		perror("loadgen");
		exit(2);
	}
}

enum step { S_AGAIN, S_DONE, S_FAIL_CONNECT, S_FAIL_TLS, S_IDLE };


/* Move c along as far as the socket allows. */
static enum step
conn_step(struct phase *ph, struct stats *st, struct lconn *c)
{
	const struct opts *o = ph->o;
	int		 r, e, err;
	socklen_t	 elen = sizeof(err);
	ssize_t		 n;

	switch (c->state) {
	case C_CONNECTING:
		if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &elen) == -1
		    || err == EINPROGRESS)
			return S_AGAIN;
		if (err != 0)
			return S_FAIL_CONNECT;
		if (!o->tls && o->mode == M_IDLE) {
			c->state = C_IDLE;	/* connected, says nothing */
			return S_IDLE;
		}
		if (!o->tls) {
			c->state = C_WRITING;
			return conn_step(ph, st, c);
		}
		if ((c->ssl = SSL_new(ph->ctx)) == NULL)
			return S_FAIL_TLS;
		SSL_set_fd(c->ssl, c->fd);
		SSL_set_tlsext_host_name(c->ssl, o->host);
		c->want_resume = 0;
		if (o->mode == M_RESUME && t_sess != NULL) {
			SSL_set_session(c->ssl, t_sess);
			c->want_resume = 1;
		}
		c->state = C_HANDSHAKE;
		/* FALLTHROUGH */
	case C_HANDSHAKE:
		ERR_clear_error();
		if ((r = SSL_connect(c->ssl)) != 1) {
			e = SSL_get_error(c->ssl, r);
			if (e == SSL_ERROR_WANT_READ ||
			    e == SSL_ERROR_WANT_WRITE)
				return S_AGAIN;
			return S_FAIL_TLS;
		}
		if (SSL_session_reused(c->ssl))
			st->resumed++;
		else if (c->want_resume) {
			st->err_resume++;
			return S_FAIL_TLS;
		}
		if (o->mode == M_IDLE) {
			c->state = C_IDLE;
			return S_IDLE;
		}
		c->state = C_WRITING;
		/* FALLTHROUGH */
	case C_WRITING:
		while (c->sent < o->reqlen) {
			if (o->tls) {
				ERR_clear_error();
				r = SSL_write(c->ssl, o->req + c->sent,
				    (int)(o->reqlen - c->sent));
				if (r <= 0) {
					e = SSL_get_error(c->ssl, r);
					if (e == SSL_ERROR_WANT_READ ||
					    e == SSL_ERROR_WANT_WRITE)
						return S_AGAIN;
					return S_FAIL_TLS;
				}
				n = r;
			} else {
				n = send(c->fd, o->req + c->sent,
				    o->reqlen - c->sent, MSG_NOSIGNAL);
				if (n == -1 && errno == EAGAIN)
					return S_AGAIN;
				if (n <= 0)
					return S_FAIL_CONNECT;
			}
			c->sent += (size_t)n;
		}
		c->state = C_READING;
		/* FALLTHROUGH */
	case C_READING:
		for (;;) {
			buf_room(c, 16384);
			if (o->tls) {
				ERR_clear_error();
				r = SSL_read(c->ssl, c->buf + c->len,
				    (int)(c->cap - c->len));
				if (r > 0) {
					c->len += (size_t)r;
					continue;
				}
				e = SSL_get_error(c->ssl, r);
				if (e == SSL_ERROR_WANT_READ ||
				    e == SSL_ERROR_WANT_WRITE)
					return S_AGAIN;
				c->clean = e == SSL_ERROR_ZERO_RETURN;
				return S_DONE;
			}
			n = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
			if (n > 0) {
				c->len += (size_t)n;
				if (o->keep && http_whole(c)) {
					c->clean = 1;
					return S_DONE;
				}
				continue;
			}
			if (n == -1 && errno == EAGAIN)
				return S_AGAIN;
			c->clean = n == 0;
			return S_DONE;
		}
	case C_IDLE:
	case C_FREE:
		break;
	}
	return S_AGAIN;
}

static int	 may_start(struct phase *);

/*
 * c's request is over (s): counted, and c closed; or, on a kept HTTP
 * connection with more to ask, made ready for the next request on it
 * (returns 1: the caller steps it on).
 */
static int
conn_finish(struct phase *ph, struct stats *st, struct lconn *c,
    enum step s)
{
	switch (s) {
	case S_DONE:
		if (!check_answer(ph, st, c))
			break;
		hist_add(&st->lat, (now_ns() - c->t0) / 1000);
		/* The server may end a kept connection: "Connection: close". */
		if (ph->o->keep && memmem(c->buf, (size_t)(http_head_end(c) -
		    c->buf), "\r\nConnection: close\r\n", 21) == NULL &&
		    may_start(ph)) {
			c->t0 = now_ns();
			c->len = 0;
			c->sent = 0;
			c->state = C_WRITING;
			return 1;
		}
		/*
		 * Resumption: the session now holds the newest ticket (read
		 * with the answer); the next connection offers it.
		 */
		if (ph->o->mode == M_RESUME) {
			SSL_SESSION *s1 = SSL_get1_session(c->ssl);

			if (s1 != NULL && SSL_SESSION_is_resumable(s1)) {
				if (t_sess != NULL)
					SSL_SESSION_free(t_sess);
				t_sess = s1;
			} else if (s1 != NULL)
				SSL_SESSION_free(s1);
		}
		break;
	case S_FAIL_CONNECT:
		st->err_connect++;
		break;
	case S_FAIL_TLS:
		if (c->want_resume && c->ssl != NULL &&
		    !SSL_session_reused(c->ssl) && SSL_is_init_finished(c->ssl))
			break;		/* counted as err_resume */
		st->err_tls++;
		break;
	default:
		break;
	}
	conn_reset(c);
	return 0;
}

static int
may_start(struct phase *ph)
{
	if (now_ns() >= ph->stop_ns)
		return 0;
	return atomic_fetch_add(&ph->started, 1) < ph->limit;
}

static void *
worker_main(void *arg)
{
	struct worker		*w = arg;
	struct phase		*ph = w->ph;
	struct lconn		*cs;
	struct epoll_event	 evs[256];
	unsigned		 active = 0, i;
	int			 ep, n, k, open_more = 1;
	enum step		 s;

	w->st.body_len = -1;
	if ((ep = epoll_create1(EPOLL_CLOEXEC)) == -1) {
		perror("epoll_create1");
		exit(2);
	}
	if ((cs = calloc(w->nconns, sizeof(*cs))) == NULL) {
		perror("loadgen");
		exit(2);
	}
	for (i = 0; i < w->nconns; i++)
		cs[i].fd = -1;
	pthread_mutex_lock(&g_sess_lock);
	if (g_sess != NULL && SSL_SESSION_up_ref(g_sess))
		t_sess = g_sess;
	pthread_mutex_unlock(&g_sess_lock);
	for (;;) {
		for (i = 0; open_more && i < w->nconns; i++) {
			if (cs[i].state != C_FREE)
				continue;
			if (!may_start(ph)) {
				open_more = 0;
				break;
			}
			if (conn_start(ph->o, ep, &cs[i]) == -1) {
				w->st.err_connect++;
				conn_reset(&cs[i]);
				continue;
			}
			active++;
		}
		if (active == 0)
			break;
		if (now_ns() >= ph->hard_ns) {
			for (i = 0; i < w->nconns; i++)
				if (cs[i].state != C_FREE) {
					w->st.err_timeout++;
					conn_reset(&cs[i]);
				}
			break;
		}
		n = epoll_wait(ep, evs, (int)(sizeof(evs) / sizeof(evs[0])),
		    100);
		for (k = 0; k < n; k++) {
			struct lconn *c = evs[k].data.ptr;

			if (c->state == C_FREE)
				continue;
			do
				s = conn_step(ph, &w->st, c);
			while (s != S_AGAIN && conn_finish(ph, &w->st, c, s));
			if (s == S_AGAIN)
				continue;
			active--;
		}
	}
	for (i = 0; i < w->nconns; i++)
		free(cs[i].buf);
	free(cs);
	close(ep);
	if (t_sess != NULL) {
		pthread_mutex_lock(&g_sess_lock);
		if (g_sess != NULL)
			SSL_SESSION_free(g_sess);
		g_sess = t_sess;	/* ours moves to the next phase */
		t_sess = NULL;
		pthread_mutex_unlock(&g_sess_lock);
	}
	atomic_fetch_sub(&ph->running, 1);
	return NULL;
}

/*
 * Run limit requests over all threads, for at most secs seconds.  Fills
 * st; peak RSS of pid (KiB) in *rss_peak when pid != 0.
 */
static double
run_phase(const struct opts *o, SSL_CTX *ctx, unsigned long limit,
    double secs, struct stats *st, long *rss_peak, long expect)
{
	struct phase	 ph;
	struct worker	*ws;
	uint64_t	 t0, t1;
	unsigned	 i, nth = o->threads;
	long		 kb;

	memset(&ph, 0, sizeof(ph));
	ph.o = o;
	ph.ctx = ctx;
	ph.limit = limit;
	atomic_store(&ph.expect_len, expect);
	if (nth > o->conns)
		nth = o->conns;
	ws = calloc(nth, sizeof(*ws));
	if (ws == NULL) {
		perror("loadgen");
		exit(2);
	}
	t0 = now_ns();
	ph.stop_ns = t0 + (uint64_t)(secs * 1e9);
	ph.hard_ns = ph.stop_ns + 15ull * 1000000000ull;
	atomic_store(&ph.running, (int)nth);
	for (i = 0; i < nth; i++) {
		ws[i].ph = &ph;
		ws[i].nconns = o->conns / nth + (i < o->conns % nth);
		if (pthread_create(&ws[i].th, NULL, worker_main, &ws[i]) != 0)
			die("%s", "pthread_create failed");
	}
	while (atomic_load(&ph.running) > 0) {
		if (o->pid && rss_peak != NULL &&
		    (kb = proc_rss(o->pid)) > *rss_peak)
			*rss_peak = kb;
		usleep(20000);
	}
	t1 = now_ns();
	memset(st, 0, sizeof(*st));
	st->body_len = -1;
	for (i = 0; i < nth; i++) {
		pthread_join(ws[i].th, NULL);
		stats_merge(st, &ws[i].st);
	}
	free(ws);
	return (double)(t1 - t0) / 1e9;
}

/* --- idle connections ----------------------------------------------------- */

static int
run_idle(const struct opts *o, SSL_CTX *ctx)
{
	struct phase		 ph;
	struct stats		 st;
	struct lconn		*cs;
	struct epoll_event	 evs[256];
	uint64_t		*t_closed, t_est = 0, t_begin, deadline;
	unsigned		 i, nest = 0, nclosed = 0, nfail = 0;
	unsigned		 open_now = 0;
	long			 rss0, rss1 = -1;
	double			 min_ms = 1e18, max_ms = 0;
	int			 ep, n, k;
	char			 scratch[4096];

	memset(&ph, 0, sizeof(ph));
	memset(&st, 0, sizeof(st));
	ph.o = o;
	ph.ctx = ctx;
	rss0 = o->pid ? proc_rss(o->pid) : -1;
	if ((ep = epoll_create1(EPOLL_CLOEXEC)) == -1)
		die("%s", "epoll_create1");
	cs = calloc(o->idle_conns, sizeof(*cs));
	t_closed = calloc(o->idle_conns, sizeof(*t_closed));
	if (cs == NULL || t_closed == NULL)
		die("%s", "out of memory");
	t_begin = now_ns();
	deadline = t_begin + 30ull * 1000000000ull;
	/* Open them in batches so that the listen backlog never overflows. */
	for (i = 0; i < o->idle_conns || open_now > 0;) {
		while (i < o->idle_conns && open_now < o->idle_batch) {
			cs[i].fd = -1;
			if (conn_start(o, ep, &cs[i]) == -1) {
				nfail++;
				conn_reset(&cs[i]);
				i++;
				continue;
			}
			i++;
			open_now++;
		}
		if (now_ns() > deadline)
			break;
		n = epoll_wait(ep, evs, 256, 100);
		for (k = 0; k < n; k++) {
			struct lconn *c = evs[k].data.ptr;
			enum step s;

			if (c->state != C_CONNECTING &&
			    c->state != C_HANDSHAKE)
				continue;
			s = conn_step(&ph, &st, c);
			if (s == S_AGAIN)
				continue;
			open_now--;
			if (s == S_IDLE) {
				nest++;
				continue;
			}
			nfail++;
			conn_reset(c);
		}
	}
	t_est = now_ns();
	usleep(300000);			/* let the server settle */
	if (o->pid)
		rss1 = proc_rss(o->pid);
	/* Now wait for the server to close them (request timeout). */
	deadline = now_ns() + (uint64_t)(o->idle_wait * 1e9);
	while (nclosed < nest && now_ns() < deadline) {
		n = epoll_wait(ep, evs, 256, 100);
		for (k = 0; k < n; k++) {
			struct lconn *c = evs[k].data.ptr;
			int r, e;
			size_t idx = (size_t)(c - cs);

			if (c->state != C_IDLE)
				continue;
			if (c->ssl != NULL) {
				ERR_clear_error();
				r = SSL_read(c->ssl, scratch, sizeof(scratch));
				if (r > 0)
					continue;	/* data: not a close */
				e = SSL_get_error(c->ssl, r);
				if (e == SSL_ERROR_WANT_READ ||
				    e == SSL_ERROR_WANT_WRITE)
					continue;	/* a ticket */
			} else {
				ssize_t m = recv(c->fd, scratch,
				    sizeof(scratch), 0);

				if (m > 0 || (m == -1 && errno == EAGAIN))
					continue;
			}
			t_closed[idx] = now_ns();
			c->state = C_FREE;
			nclosed++;
		}
	}
	for (i = 0; i < o->idle_conns; i++) {
		if (t_closed[i] != 0) {
			double ms = (double)(t_closed[i] - cs[i].t0) / 1e6;

			if (ms < min_ms)
				min_ms = ms;
			if (ms > max_ms)
				max_ms = ms;
		}
		if (cs[i].fd != -1 || cs[i].ssl != NULL)
			conn_reset(&cs[i]);
	}
	close(ep);
	printf("mode=idle conns=%u established=%u failed=%u "
	    "rss_before_kb=%ld rss_after_kb=%ld rss_per_conn_kb=%.2f "
	    "closed_by_server=%u close_min_ms=%.0f close_max_ms=%.0f "
	    "open_s=%.2f\n", o->idle_conns, nest, nfail, rss0, rss1,
	    nest && rss0 >= 0 && rss1 >= 0 ?
	    (double)(rss1 - rss0) / nest : -1.0, nclosed,
	    nclosed ? min_ms : -1.0, nclosed ? max_ms : -1.0,
	    (double)(t_est - t_begin) / 1e9);
	free(cs);
	free(t_closed);
	return nest == o->idle_conns ? 0 : 1;
}

/* --- single requests ------------------------------------------------------ */

/* One request on one connection; the answer stays in c->buf. */
static enum step
one_request(const struct opts *o, SSL_CTX *ctx, struct stats *st,
    struct lconn *c, uint64_t *us)
{
	struct phase		 ph;
	struct epoll_event	 evs[4];
	uint64_t		 deadline = now_ns() + 10ull * 1000000000ull;
	enum step		 s = S_AGAIN;
	int			 ep, n;

	memset(&ph, 0, sizeof(ph));
	ph.o = o;
	ph.ctx = ctx;
	atomic_store(&ph.expect_len, -1);
	if ((ep = epoll_create1(EPOLL_CLOEXEC)) == -1)
		die("%s", "epoll_create1");
	c->fd = -1;
	if (conn_start(o, ep, c) == -1) {
		conn_reset(c);
		close(ep);
		return S_FAIL_CONNECT;
	}
	while (s == S_AGAIN && now_ns() < deadline) {
		if ((n = epoll_wait(ep, evs, 4, 100)) <= 0)
			continue;
		s = conn_step(&ph, st, c);
	}
	*us = (now_ns() - c->t0) / 1000;
	close(ep);
	return s;
}

static int
run_fetch(const struct opts *o, SSL_CTX *ctx)
{
	struct stats	 st;
	struct lconn	 c;
	uint64_t	 us, t_start = now_ns();
	uint64_t	 until = t_start + (uint64_t)(o->retry * 1e9);
	enum step	 s;
	const char	*body;
	char		*crlf;
	size_t		 blen;
	FILE		*f;
	int		 tries = 0;

	memset(&st, 0, sizeof(st));
	memset(&c, 0, sizeof(c));
	for (;;) {
		tries++;
		s = one_request(o, ctx, &st, &c, &us);
		if (s == S_DONE && c.len > 0 && (!o->tls ||
		    memcmp(c.buf, "20 ", 3) == 0))
			break;
		conn_reset(&c);
		if (now_ns() >= until) {
			fprintf(stderr, "loadgen: fetch failed (%s)\n",
			    s == S_DONE ? "bad answer" : "no answer");
			return 1;
		}
		usleep(10000);
	}
	body = c.buf;
	blen = c.len;
	if (o->tls && (crlf = memmem(c.buf, c.len, "\r\n", 2)) != NULL) {
		body = crlf + 2;
		blen = c.len - (size_t)(body - c.buf);
		printf("header=\"%.*s\" ", (int)(crlf - c.buf), c.buf);
	}
	if (o->out != NULL) {
		if ((f = fopen(o->out, "w")) == NULL ||
		    fwrite(body, 1, blen, f) != blen || fclose(f) != 0)
			die("%s: cannot write", o->out);
	}
	printf("mode=fetch body_len=%zu latency_us=%llu tries=%d "
	    "elapsed_us=%llu clean=%d\n", blen, (unsigned long long)us, tries,
	    (unsigned long long)((now_ns() - t_start) / 1000), c.clean);
	conn_reset(&c);
	free(c.buf);
	return 0;
}

/*
 * Write o->save (a post whose title and text are o->needle), then ask
 * every 2 ms until the answer has the needle: the time from before the
 * write to the end of that answer.
 */
static int
run_live(const struct opts *o, SSL_CTX *ctx)
{
	struct stats	 st;
	struct lconn	 c;
	uint64_t	 us, t0, until;
	enum step	 s;
	FILE		*f;
	int		 tries = 0, found;

	memset(&st, 0, sizeof(st));
	memset(&c, 0, sizeof(c));
	t0 = now_ns();
	until = t0 + (uint64_t)((o->retry > 0 ? o->retry : 10) * 1e9);
	if ((f = fopen(o->save, "w")) == NULL || fprintf(f, "---\ntitle: "
	    "%s\n---\n%s, saved by loadgen.\n", o->needle, o->needle) < 0 ||
	    fclose(f) != 0)
		die("%s: cannot write", o->save);
	for (;;) {
		tries++;
		s = one_request(o, ctx, &st, &c, &us);
		found = s == S_DONE && memmem(c.buf, c.len, o->needle,
		    strlen(o->needle)) != NULL;
		conn_reset(&c);
		if (found)
			break;
		if (now_ns() >= until) {
			fprintf(stderr, "loadgen: %s never served\n",
			    o->needle);
			free(c.buf);
			return 1;
		}
		usleep(2000);
	}
	printf("mode=live live_us=%llu tries=%d\n",
	    (unsigned long long)((now_ns() - t0) / 1000), tries);
	free(c.buf);
	return 0;
}

/*
 * First request (renders), then the same again (cached).  With --pid,
 * also the server's CPU time for each request (all its threads, from
 * schedstat), which a busy machine does not blur the way it blurs
 * latency.
 */
static int
run_first(const struct opts *o, SSL_CTX *ctx)
{
	struct stats	 st;
	struct lconn	 c;
	struct hist	*h, *hc;
	uint64_t	 us, first = 0;
	long long	 c0 = -1, c1 = -1, first_cpu = -1;
	unsigned	 i, bad = 0;
	size_t		 first_len = 0;

	memset(&st, 0, sizeof(st));
	memset(&c, 0, sizeof(c));
	if ((h = calloc(1, sizeof(*h))) == NULL ||
	    (hc = calloc(1, sizeof(*hc))) == NULL)
		die("%s", "out of memory");
	/*
	 * --warm: one request for a page already cached, then the pause
	 * the cached requests below have too.  Without it the first request
	 * comes after a longer idle time than they do, and a server whose
	 * CPU caches went cold meanwhile (a virtual CPU's, most of all)
	 * pays for that in its handshake and request path as well, which
	 * the difference would count as rendering.
	 */
	if (o->warm != NULL) {
		struct opts	 w = *o;

		if (o->tls)
			snprintf(w.req, sizeof(w.req), "gemini://%s:%d%s\r\n",
			    o->host, o->port, o->warm);
		else
			snprintf(w.req, sizeof(w.req), "%s\r\n", o->warm);
		w.reqlen = strlen(w.req);
		if (one_request(&w, ctx, &st, &c, &us) != S_DONE ||
		    c.len == 0)
			bad++;
		conn_reset(&c);
		usleep(3000);
	}
	for (i = 0; i <= o->first_repeat; i++) {
		if (o->pid)
			c0 = proc_task_ns(o->pid);
		if (one_request(o, ctx, &st, &c, &us) != S_DONE || c.len == 0 ||
		    (o->tls && memcmp(c.buf, "20 ", 3) != 0) ||
		    (i > 0 && c.len != first_len))
			bad++;
		if (o->pid) {
			/* The access log line is written after the close. */
			usleep(3000);
			c1 = proc_task_ns(o->pid);
		}
		if (i == 0) {
			first = us;
			first_len = c.len;
			if (c0 >= 0 && c1 >= c0)
				first_cpu = (c1 - c0) / 1000;
		} else {
			hist_add(h, us);
			if (c0 >= 0 && c1 >= c0)
				hist_add(hc, (uint64_t)(c1 - c0) / 1000);
		}
		conn_reset(&c);
	}
	printf("mode=first first_us=%llu cached_p50_us=%llu "
	    "cached_min_us=%llu render_us=%lld first_cpu_us=%lld "
	    "cached_cpu_p50_us=%lld render_cpu_us=%lld bytes=%zu "
	    "errors=%u\n",
	    (unsigned long long)first,
	    (unsigned long long)hist_pct(h, 50), (unsigned long long)
	    hist_pct(h, 0.0001), (long long)first -
	    (long long)hist_pct(h, 50), first_cpu,
	    hc->count ? (long long)hist_pct(hc, 50) : -1LL,
	    first_cpu >= 0 && hc->count ? first_cpu -
	    (long long)hist_pct(hc, 50) : -1LL, first_len, bad);
	free(c.buf);
	free(h);
	free(hc);
	return bad ? 1 : 0;
}

/* --- setup ---------------------------------------------------------------- */

/* Loopback only: 127.0.0.0/8, ::1 or "localhost". */
static void
set_addr(struct opts *o, const char *s, int port)
{
	struct sockaddr_in	*sin = (struct sockaddr_in *)&o->addr;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&o->addr;

	memset(&o->addr, 0, sizeof(o->addr));
	if (strcmp(s, "localhost") == 0)
		s = "127.0.0.1";
	if (inet_pton(AF_INET, s, &sin->sin_addr) == 1) {
		if ((ntohl(sin->sin_addr.s_addr) >> 24) != 127)
			die("%s: not a loopback address; refused", s);
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		o->addrlen = sizeof(*sin);
		return;
	}
	if (inet_pton(AF_INET6, s, &sin6->sin6_addr) == 1) {
		if (!IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr))
			die("%s: not a loopback address; refused", s);
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		o->addrlen = sizeof(*sin6);
		return;
	}
	die("%s: not an IP address (loopback only)", s);
}

static SSL_CTX *
client_ctx(const struct opts *o)
{
	SSL_CTX	*ctx;

	if ((ctx = SSL_CTX_new(TLS_client_method())) == NULL)
		die("%s", "SSL_CTX_new failed");
	/* The benchmark is about TLS 1.3, full or resumed. */
	SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	/*
	 * No client cache: with one, OpenSSL uses a TLS 1.3 ticket once
	 * and marks it spent.  Resumption keeps its own (conn_finish).
	 */
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
	return ctx;
}

static void
usage(void)
{
	fprintf(stderr,
"usage: loadgen --mode gemini|resume|gopher|spartan|nex|finger|http|\n"
"         http-keep|idle|fetch|first|live --port N\n"
"         [--addr 127.0.0.1] [--host localhost] [--path /x] [--conns 32]\n"
"         [--threads 1] [--requests 10000] [--duration 10] [--warmup 0]\n"
"         [--expect-len N] [--min-len N] [--menu] [--pid PID]\n"
"         [--idle-conns 1000] [--idle-wait 10] [--idle-batch 64]\n"
"         [--out FILE] [--retry S]\n"
"         [--repeat 20] [--warm /cached-path]\n"
"         [--save FILE --needle TEXT]\n");
	exit(2);
}

static unsigned long
num(const char *s, const char *what)
{
	char		*end;
	unsigned long	 v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end != '\0' || end == s)
		die("%s: not a number", what);
	return v;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "addr", required_argument, NULL, 'a' },
		{ "host", required_argument, NULL, 'H' },
		{ "port", required_argument, NULL, 'p' },
		{ "path", required_argument, NULL, 'P' },
		{ "conns", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 't' },
		{ "requests", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'd' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "expect-len", required_argument, NULL, 'e' },
		{ "min-len", required_argument, NULL, 'l' },
		{ "menu", no_argument, NULL, 'M' },
		{ "pid", required_argument, NULL, 'x' },
		{ "idle-conns", required_argument, NULL, 'i' },
		{ "idle-wait", required_argument, NULL, 'W' },
		{ "idle-batch", required_argument, NULL, 'B' },
		{ "out", required_argument, NULL, 'o' },
		{ "retry", required_argument, NULL, 'r' },
		{ "repeat", required_argument, NULL, 'R' },
		{ "warm", required_argument, NULL, 'A' },
		{ "save", required_argument, NULL, 'S' },
		{ "needle", required_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts	 o;
	struct stats	 warm, st;
	struct rlimit	 rl;
	SSL_CTX		*ctx = NULL;
	const char	*addr = "127.0.0.1", *mode = NULL;
	long long	 cpu0 = -1, cpu1 = -1;
	long		 rss_peak = -1, tck = sysconf(_SC_CLK_TCK);
	double		 secs, cpu_s;
	int		 ch;

	memset(&o, 0, sizeof(o));
	o.host = "localhost";
	o.path = "/";
	o.conns = 32;
	o.threads = 1;
	o.requests = 10000;
	o.duration = 10;
	o.expect_len = -1;
	o.idle_conns = 1000;
	o.idle_wait = 10;
	o.idle_batch = 64;
	o.first_repeat = 20;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'm': mode = optarg; break;
		case 'a': addr = optarg; break;
		case 'H': o.host = optarg; break;
		case 'p': o.port = (int)num(optarg, "--port"); break;
		case 'P': o.path = optarg; break;
		case 'c': o.conns = (unsigned)num(optarg, "--conns"); break;
		case 't': o.threads = (unsigned)num(optarg, "--threads"); break;
		case 'n': o.requests = num(optarg, "--requests"); break;
		case 'd': o.duration = atof(optarg); break;
		case 'w': o.warmup = num(optarg, "--warmup"); break;
		case 'e': o.expect_len = (long)num(optarg, "--expect-len");
			break;
		case 'l': o.min_len = (long)num(optarg, "--min-len"); break;
		case 'M': o.menu = 1; break;
		case 'x': o.pid = (int)num(optarg, "--pid"); break;
		case 'i': o.idle_conns = (unsigned)num(optarg, "--idle-conns");
			break;
		case 'W': o.idle_wait = atof(optarg); break;
		case 'B': o.idle_batch = (unsigned)num(optarg, "--idle-batch");
			break;
		case 'o': o.out = optarg; break;
		case 'r': o.retry = atof(optarg); break;
		case 'A': o.warm = optarg; break;
		case 'S': o.save = optarg; break;
		case 'N': o.needle = optarg; break;
		case 'R': o.first_repeat = (unsigned)num(optarg, "--repeat");
			break;
		default: usage();
		}
	}
	if (mode == NULL || o.port <= 0 || o.port > 65535 || optind != argc)
		usage();
	if (strcmp(mode, "gemini") == 0)
		o.mode = M_GEMINI;
	else if (strcmp(mode, "resume") == 0)
		o.mode = M_RESUME;
	else if (strcmp(mode, "gopher") == 0)
		o.mode = M_GOPHER;
	else if (strcmp(mode, "spartan") == 0)
		o.mode = M_SPARTAN;
	else if (strcmp(mode, "nex") == 0)
		o.mode = M_NEX;
	else if (strcmp(mode, "finger") == 0)
		o.mode = M_FINGER;
	else if (strcmp(mode, "idle") == 0)
		o.mode = M_IDLE;
	else if (strcmp(mode, "fetch") == 0)
		o.mode = M_FETCH;
	else if (strcmp(mode, "first") == 0)
		o.mode = M_FIRST;
	else if (strcmp(mode, "http") == 0)
		o.mode = M_HTTP;
	else if (strcmp(mode, "http-keep") == 0)
		o.mode = M_HTTP_KEEP;
	else if (strcmp(mode, "live") == 0 && o.save != NULL &&
	    o.needle != NULL)
		o.mode = M_LIVE;
	else
		usage();
	/* fetch/first/idle speak Gemini unless the path says gopher:. */
	o.http = o.mode == M_HTTP || o.mode == M_HTTP_KEEP;
	o.keep = o.mode == M_HTTP_KEEP;
	o.tls = o.mode != M_GOPHER && o.mode != M_SPARTAN && o.mode != M_NEX &&
	    o.mode != M_FINGER && !o.http;
	if (strncmp(o.path, "gopher:", 7) == 0) {
		o.tls = 0;
		o.path += 7;
	}
	if (o.warm != NULL && strncmp(o.warm, "gopher:", 7) == 0)
		o.warm += 7;
	if (o.mode == M_IDLE && strcmp(o.path, "tcp") == 0)
		o.tls = 0;
	if (o.conns == 0 || o.threads == 0 || o.duration <= 0 ||
	    o.duration > 600 || o.idle_wait > 600 || o.idle_conns > 100000 ||
	    o.idle_batch == 0)
		die("%s", "bad --conns/--threads/--duration/--idle-* value");
	set_addr(&o, addr, o.port);
	if (o.tls)
		snprintf(o.req, sizeof(o.req), "gemini://%s:%d%s\r\n", o.host,
		    o.port, o.path);
	else if (o.http)
		snprintf(o.req, sizeof(o.req), "GET %s HTTP/1.1\r\nHost: %s"
		    "\r\n%s\r\n", o.path, o.host, o.keep ? "" :
		    "Connection: close\r\n");
	else if (o.mode == M_SPARTAN)	/* host SP path SP length */
		snprintf(o.req, sizeof(o.req), "%s %s 0\r\n", o.host, o.path);
	else if (o.mode == M_FINGER)	/* the query; "/" asks for none */
		snprintf(o.req, sizeof(o.req), "%s\r\n", strcmp(o.path,
		    "/") == 0 ? "" : o.path);
	else				/* a Gopher selector, a Nex path */
		snprintf(o.req, sizeof(o.req), "%s\r\n", o.path);
	o.reqlen = strlen(o.req);

	/* A server that closes first must not kill us mid-write. */
	signal(SIGPIPE, SIG_IGN);
	/* 1,000 idle connections and 256 busy ones need the descriptors. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (o.tls)
		ctx = client_ctx(&o);

	switch (o.mode) {
	case M_IDLE:
		return run_idle(&o, ctx);
	case M_FETCH:
		return run_fetch(&o, ctx);
	case M_FIRST:
		return run_first(&o, ctx);
	case M_LIVE:
		return run_live(&o, ctx);
	default:
		break;
	}

	/*
	 * Warm-up fills caches (ours and the server's) and, for resumption,
	 * each thread's first ticket; it also fixes the expected length.
	 */
	memset(&warm, 0, sizeof(warm));
	warm.body_len = -1;
	if (o.warmup > 0) {
		run_phase(&o, ctx, o.warmup, 60, &warm, NULL, o.expect_len);
		if (warm.ok == 0) {
			fprintf(stderr, "loadgen: warm-up: no good answer "
			    "(%lu errors)\n", stats_errors(&warm));
			return 1;
		}
		if (o.expect_len < 0)
			o.expect_len = warm.body_len;
	}
	if (o.pid)
		cpu0 = proc_cpu_ticks(o.pid);
	secs = run_phase(&o, ctx, o.requests, o.duration, &st, &rss_peak,
	    o.expect_len);
	if (o.pid) {
		/* A forking server: let the last children be reaped. */
		usleep(100000);
		cpu1 = proc_cpu_ticks(o.pid);
	}
	cpu_s = cpu0 >= 0 && cpu1 >= 0 ? (double)(cpu1 - cpu0) / (double)tck :
	    -1;
	printf("mode=%s conns=%u threads=%u requests=%lu ok=%lu errors=%lu "
	    "secs=%.3f rps=%.1f p50_us=%llu p90_us=%llu p99_us=%llu "
	    "max_us=%llu mean_us=%.0f cpu_s=%.3f cpu_us_per_req=%.1f "
	    "rss_kb=%ld body_len=%ld resumed=%lu "
	    "e_connect=%lu e_tls=%lu e_status=%lu e_len=%lu e_format=%lu "
	    "e_unclean=%lu e_timeout=%lu e_resume=%lu\n",
	    mode, o.conns, o.threads, st.ok + stats_errors(&st), st.ok,
	    stats_errors(&st), secs, (double)st.ok / secs,
	    (unsigned long long)hist_pct(&st.lat, 50),
	    (unsigned long long)hist_pct(&st.lat, 90),
	    (unsigned long long)hist_pct(&st.lat, 99),
	    (unsigned long long)st.lat.max,
	    st.lat.count ? (double)st.lat.sum / (double)st.lat.count : 0.0,
	    cpu_s, cpu_s >= 0 && st.ok > 0 ? cpu_s * 1e6 / (double)st.ok : -1,
	    rss_peak, st.body_len, st.resumed, st.err_connect, st.err_tls,
	    st.err_status, st.err_len, st.err_format, st.err_unclean,
	    st.err_timeout, st.err_resume);
	if (g_sess != NULL)
		SSL_SESSION_free(g_sess);
	SSL_CTX_free(ctx);
	return 0;
}
