/*
 * log.c -- diagnostics and the access log.
 *
 * Owns the log file descriptor, or the socket to syslog, and the writer
 * thread.  Knows nothing of connections: callers pass the peer as a
 * string, which log_format_peer() makes from a socket address (full,
 * anonymised or left out, as configured).
 *
 * A line is formatted whole by the thread that logs it, then handed to
 * the destination: written at once before log_start() (the set-up path,
 * a command), queued for the writer thread after it.  Either way the
 * caller never waits for the disk or the syslog daemon: the queue is
 * bounded, a line that finds it full is dropped and counted, and so is
 * a line the destination refuses (a full disk, a syslog socket that
 * would block); the next line that gets through is followed by one
 * saying how many were lost.
 *
 * Syslog is spoken here (RFC 3164 over a Unix datagram socket), not
 * through syslog(3): glibc's opens _PATH_LOG lazily, at the first line,
 * which may come after the chroot or the sandbox that hides it, and its
 * path cannot be pointed at another socket (a test's, a container's).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "core/buf.h"
#include "core/log.h"
#include "core/utf8.h"
#include "core/util.h"

/*
 * The destination: written by one thread at a time, the writer's while
 * it runs (a new one is handed to it: hand_over()).
 */
static _Atomic int	 log_fd = 2;
static _Atomic int	 dest_sys;	/* 1: log_fd is the syslog socket */
static _Atomic int	 log_lvl = LOG_LEVEL_INFO;
static char		*log_path;	/* owned; NULL = stderr */
static _Atomic int	 log_sys;	/* 1: lines are framed for syslog */
static char		*sys_path;	/* owned: its address */
static int		 sys_facility = LOG_DAEMON;
static log_tap_fn	 log_tapfn;	/* log_set_tap() */
static void		*log_taparg;
/*
 * The access lines' own file (log_open_access()), swapped as log_fd is;
 * -1: they go where the diagnostics go.
 */
static _Atomic int	 access_fd = -1;
static char		*access_path;	/* owned; NULL: none */
/* Lines lost since the last line that said so (log_dropped()). */
static _Atomic unsigned long long dropped;

/*
 * The writer thread and its queue (log_start()): entries of a length
 * (uint32_t, Q_ACCESS set for the access file's) and the bytes of whole
 * lines (a datagram to syslog, or lines ending in '\n'), in the order
 * they came.  The mutex is held only to copy an entry in or the queue
 * out, never during a write.
 */
#define Q_ACCESS	0x80000000u
#define LOG_QUEUE_MAX	(64 * 1024)
#define LOG_STOP_MS	2000	/* log_stop() waits at most this long */
#define LOG_POLL_MS	100	/* the writer looks at stop this often */

static uv_once_t	 q_once = UV_ONCE_INIT;
static struct {
	uv_mutex_t	 mu;
	uv_cond_t	 more;		/* queued, a new destination, stop */
	uv_cond_t	 done;		/* the writer returned */
	uv_thread_t	 thread;
	int		 running;	/* producers queue; under mu */
	int		 finished;	/* under mu */
	int		 stuck;		/* log_stop() left it writing */
	_Atomic int	 stop;
	int		 newfd;		/* hand_over(): -1 none */
	int		 newsys;
	int		 newafd;	/* hand_over_access(): -1 none */
	size_t		 len;
	char		 data[LOG_QUEUE_MAX];
} q;
static _Atomic int	 async_on;	/* q.running may be 1: lock, look */

/* This thread's buffered access lines (log.h); whole lines only. */
static _Thread_local struct {
	int	 on;
	size_t	 len;
	char	 data[LOG_ACCESS_BUF];
} abuf;

static const char *const level_names[] = {
	[LOG_LEVEL_ERROR] = "error",
	[LOG_LEVEL_WARN] = "warn",
	[LOG_LEVEL_INFO] = "info",
	[LOG_LEVEL_DEBUG] = "debug",
};

int
log_level_parse(const char *s)
{
	size_t	 i;

	for (i = 0; i < nitems(level_names); i++)
		if (strcasecmp(s, level_names[i]) == 0)
			return (int)i;
	if (strcasecmp(s, "warning") == 0)
		return LOG_LEVEL_WARN;
	return -1;
}

static int
open_dest(const char *path)
{
	if (path == NULL || strcmp(path, "-") == 0 ||
	    strcmp(path, "stderr") == 0)
		return 2;
	return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
}

/* A datagram socket connected to the syslog socket at path, or -1. */
static int
sys_connect(const char *path)
{
	struct sockaddr_un	 sun;
	int			 fd, saved;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sun.sun_path, path, strlen(path));
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/* Lines in p[0..len): its '\n's, or 1 for a datagram. */
static unsigned long long
nlines(const char *p, size_t len)
{
	unsigned long long	 n = 0;
	const char		*e = p + len;

	while ((p = memchr(p, '\n', (size_t)(e - p))) != NULL)
		n++, p++;
	return n > 0 ? n : 1;
}

static long long
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * One datagram to syslog, never blocking; a daemon that restarted is
 * connected to again, once.  The writer (wait) waits for room while it
 * is not told to stop, and then until giveup (ms); a caller writing
 * directly does not wait.  0, or -1 (not sent).
 */
static int
sys_send(const char *p, size_t len, int wait, long long *giveup)
{
	struct pollfd	 pfd;
	int		 fd, old, again = 1;

	for (;;) {
		fd = log_fd;
		if (send(fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL) != -1)
			return 0;
		if ((errno == ECONNREFUSED || errno == ENOTCONN) && again &&
		    sys_path != NULL && (fd = sys_connect(sys_path)) != -1) {
			old = atomic_exchange(&log_fd, fd);
			if (old != 2 && old != fd)
				close(old);
			again = 0;
			continue;
		}
		if (!wait || (errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != ENOBUFS))
			return -1;
		if (atomic_load(&q.stop)) {
			if (*giveup == 0)
				*giveup = now_ms() + LOG_STOP_MS / 2;
			else if (now_ms() >= *giveup)
				return -1;
		}
		pfd.fd = fd;
		pfd.events = POLLOUT;
		(void)poll(&pfd, 1, LOG_POLL_MS);
	}
}

/* p[0..len) written to the file fd: 0, or -1 with what is left dropped. */
static int
put_file(int fd, const char *p, size_t len)
{
	ssize_t	 n;

	/* A file's write may block (a slow disk): the writer's. */
	while (len > 0 && ((n = write(fd, p, len)) > 0 ||
	    (n == -1 && errno == EINTR)))
		if (n > 0)
			p += n, len -= (size_t)n;
	if (len == 0)
		return 0;
	atomic_fetch_add(&dropped, nlines(p, len));
	return -1;
}

/*
 * p[0..len) to the destination now: all of it, or what is left of it
 * counted as dropped.  0 or -1.
 */
static int
put(const char *p, size_t len, int wait, long long *giveup)
{
	if (!dest_sys)
		return put_file(log_fd, p, len);
	if (sys_send(p, len, wait, giveup) == 0)
		return 0;
	atomic_fetch_add(&dropped, nlines(p, len));
	return -1;
}

static size_t	 say(char *, size_t, enum log_level, const char *, ...)
		    __attribute__((format(printf, 4, 5)));
static size_t	 frame(int, const char *, size_t, char *, size_t);

/* After a line went out: say how many did not, if any. */
static void
report_dropped(int wait, long long *giveup)
{
	unsigned long long	 n = atomic_exchange(&dropped, 0);
	char			 line[256], out[2200];
	size_t			 len;

	if (n == 0)
		return;
	len = say(line, sizeof(line), LOG_LEVEL_WARN, "log: %llu line%s "
	    "dropped: the log could not take them at once", n,
	    n == 1 ? "" : "s");
	if (dest_sys) {
		len = frame(LOG_WARNING, line, len, out, sizeof(out));
		if (put(out, len, wait, giveup) == -1)
			atomic_fetch_add(&dropped, n);
	} else if (put(line, len, wait, giveup) == -1)
		atomic_fetch_add(&dropped, n);
}

/* Write p[0..len) at once (no writer thread). */
static void
write_now(const char *p, size_t len)
{
	long long	 giveup = 0;

	if (put(p, len, 0, &giveup) == 0)
		report_dropped(0, &giveup);
}

static void
q_init(void)
{
	if (uv_mutex_init(&q.mu) != 0 || uv_cond_init(&q.more) != 0 ||
	    uv_cond_init(&q.done) != 0)
		abort();
	q.newfd = -1;
	q.newafd = -1;
}

/*
 * p[0..len), whole lines, to the destination (access: the access file):
 * queued for the writer when it runs, dropped and counted when the
 * queue has no room for it; else written at once.
 */
static void
deliver_to(int access, const char *p, size_t len)
{
	uint32_t	 n = (uint32_t)len | (access ? Q_ACCESS : 0);

	if (len == 0)
		return;
	if (atomic_load(&async_on)) {
		uv_mutex_lock(&q.mu);
		if (q.running) {
			if (q.len + sizeof(n) + len > sizeof(q.data))
				atomic_fetch_add(&dropped, nlines(p, len));
			else {
				memcpy(q.data + q.len, &n, sizeof(n));
				memcpy(q.data + q.len + sizeof(n), p, len);
				/* The writer waits only on an empty queue. */
				if (q.len == 0)
					uv_cond_signal(&q.more);
				q.len += sizeof(n) + len;
			}
			uv_mutex_unlock(&q.mu);
			return;
		}
		uv_mutex_unlock(&q.mu);
	}
	if (access)
		(void)put_file(access_fd, p, len);
	else
		write_now(p, len);
}

static void
deliver(const char *p, size_t len)
{
	deliver_to(0, p, len);
}

/*
 * fd (sys: the syslog socket) is where lines go from now: at once, or
 * from the writer's next write on (lines it has not written yet go
 * there too).  The old descriptor is closed but for standard error.
 */
static void
hand_over(int fd, int sys)
{
	int	 old;

	log_sys = sys;
	if (atomic_load(&async_on)) {
		uv_mutex_lock(&q.mu);
		if (q.running) {
			if (q.newfd != -1 && q.newfd != 2)
				close(q.newfd);	/* never written to */
			q.newfd = fd;
			q.newsys = sys;
			uv_cond_signal(&q.more);
			uv_mutex_unlock(&q.mu);
			return;
		}
		uv_mutex_unlock(&q.mu);
	}
	dest_sys = sys;
	old = atomic_exchange(&log_fd, fd);
	if (old != 2 && old != fd)
		close(old);
}

/* hand_over() for the access file: fd, or -1 for none. */
static void
hand_over_access(int fd)
{
	int	 old;

	if (atomic_load(&async_on)) {
		uv_mutex_lock(&q.mu);
		if (q.running) {
			if (q.newafd != -1)
				close(q.newafd);
			q.newafd = fd;
			uv_cond_signal(&q.more);
			uv_mutex_unlock(&q.mu);
			return;
		}
		uv_mutex_unlock(&q.mu);
	}
	old = atomic_exchange(&access_fd, fd);
	if (old != -1 && old != fd)
		close(old);
}

/* p[0..len) out by the writer; then what was dropped, if any. */
static void
put_out(const char *p, size_t len, long long *giveup)
{
	if (len > 0 && put(p, len, 1, giveup) == 0)
		report_dropped(1, giveup);
}

/* The access file's lines out by the writer. */
static void
put_access(const char *p, size_t len)
{
	if (len > 0)
		(void)put_file(access_fd, p, len);
}

/*
 * The batch's entries written: datagrams one by one; lines to a file
 * together, in writes of at most LOG_ACCESS_BUF bytes (PIPE_BUF: a
 * write to a pipe is not split), entries kept whole; the access file's
 * to it, in writes of their own.
 */
static void
put_batch(const char *batch, size_t len, long long *giveup)
{
	static char	 chunk[LOG_ACCESS_BUF];	/* the writer's */
	size_t		 at, clen = 0;
	uint32_t	 n;
	int		 acc, cacc = 0;	/* the chunk's destination */

	for (at = 0; at < len; at += n) {
		memcpy(&n, batch + at, sizeof(n));
		at += sizeof(n);
		acc = (n & Q_ACCESS) != 0;
		n &= ~Q_ACCESS;
		if ((dest_sys && !acc) || acc != cacc ||
		    clen + n > sizeof(chunk)) {
			if (cacc)
				put_access(chunk, clen);
			else
				put_out(chunk, clen, giveup);
			clen = 0;
			cacc = acc;
		}
		if (acc && n > sizeof(chunk))
			put_access(batch + at, n);
		else if (!acc && (dest_sys || n > sizeof(chunk)))
			put_out(batch + at, n, giveup);
		else {
			memcpy(chunk + clen, batch + at, n);
			clen += n;
		}
	}
	if (cacc)
		put_access(chunk, clen);
	else
		put_out(chunk, clen, giveup);
}

static void
writer(void *arg)
{
	static char	 batch[LOG_QUEUE_MAX];	/* the queue, copied out */
	long long	 giveup = 0;
	size_t		 len;
	int		 old, aold, stop;

	(void)arg;
	for (;;) {
		old = aold = -1;
		uv_mutex_lock(&q.mu);
		while (q.len == 0 && q.newfd == -1 && q.newafd == -1 &&
		    !atomic_load(&q.stop))
			uv_cond_wait(&q.more, &q.mu);
		if (q.newfd != -1) {
			old = atomic_exchange(&log_fd, q.newfd);
			dest_sys = q.newsys;
			q.newfd = -1;
		}
		if (q.newafd != -1) {
			aold = atomic_exchange(&access_fd, q.newafd);
			q.newafd = -1;
		}
		len = q.len;
		memcpy(batch, q.data, len);
		q.len = 0;
		stop = atomic_load(&q.stop);
		uv_mutex_unlock(&q.mu);
		if (old != -1 && old != 2 && old != log_fd)
			close(old);
		if (aold != -1 && aold != access_fd)
			close(aold);
		put_batch(batch, len, &giveup);
		if (stop && len == 0)
			break;
	}
	uv_mutex_lock(&q.mu);
	q.finished = 1;
	uv_cond_signal(&q.done);
	uv_mutex_unlock(&q.mu);
}

int
log_start(void)
{
	uv_once(&q_once, q_init);
	uv_mutex_lock(&q.mu);
	if (q.running || q.stuck) {
		uv_mutex_unlock(&q.mu);
		return q.stuck ? -1 : 0;
	}
	q.len = 0;
	q.finished = 0;
	atomic_store(&q.stop, 0);
	if (uv_thread_create(&q.thread, writer, NULL) != 0) {
		uv_mutex_unlock(&q.mu);
		return -1;
	}
	q.running = 1;
	atomic_store(&async_on, 1);
	uv_mutex_unlock(&q.mu);
	return 0;
}

int
log_stop(void)
{
	long long	 end = now_ms() + LOG_STOP_MS, left;
	int		 fd, sys, afd;

	if (!atomic_load(&async_on))
		return 0;
	uv_mutex_lock(&q.mu);
	if (!q.running) {
		uv_mutex_unlock(&q.mu);
		return q.stuck ? -1 : 0;
	}
	/* From now on lines are written at once, after the queue's. */
	q.running = 0;
	atomic_store(&q.stop, 1);
	uv_cond_signal(&q.more);
	while (!q.finished && (left = end - now_ms()) > 0)
		(void)uv_cond_timedwait(&q.done, &q.mu,
		    (uint64_t)left * 1000000);
	if (!q.finished) {
		/* XXX: a write that never returns; exit without it. */
		q.stuck = 1;
		uv_mutex_unlock(&q.mu);
		return -1;
	}
	fd = q.newfd;
	sys = q.newsys;
	afd = q.newafd;
	q.newfd = q.newafd = -1;
	uv_mutex_unlock(&q.mu);
	uv_thread_join(&q.thread);
	atomic_store(&async_on, 0);
	if (fd != -1)
		hand_over(fd, sys);
	if (afd != -1)
		hand_over_access(afd);
	return 0;
}

unsigned long long
log_dropped(void)
{
	return atomic_load(&dropped);
}

/*
 * One line (len bytes, its '\n' included) where lines go: as it is to
 * the file, as one datagram to syslog with sev and without the '\n'.
 */
static void
put_line(int sev, const char *line, size_t len)
{
	char	 dgram[2200];

	if (!log_sys) {
		deliver(line, len);
		return;
	}
	deliver(dgram, frame(sev, line, len, dgram, sizeof(dgram)));
}

/* line as an RFC 3164 datagram of severity sev into out; its length. */
static size_t
frame(int sev, const char *line, size_t len, char *out, size_t size)
{
	static _Thread_local time_t	 last = (time_t)-1;
	static _Thread_local char	 hdr[64];
	static _Thread_local size_t	 hdrlen;
	struct tm			 tm;
	time_t				 now;
	size_t				 n;

	now = time(NULL);
	if (now != last) {
		localtime_r(&now, &tm);
		hdrlen = strftime(hdr, sizeof(hdr), "%b %e %H:%M:%S ", &tm);
		last = now;
	}
	n = (size_t)snprintf(out, size, "<%d>%.*scapsuled[%ld]: ",
	    sys_facility | sev, (int)hdrlen, hdr, (long)getpid());
	if (len > 0 && line[len - 1] == '\n')
		len--;
	if (len > size - n)
		len = size - n;
	memcpy(out + n, line, len);
	return n + len;
}

int
log_open_syslog(const char *path, int facility, enum log_level lvl)
{
	int	 fd;

	if ((fd = sys_connect(path)) == -1)
		return -1;
	/* Only ever before log_start(): the writer reads sys_path. */
	free(sys_path);
	sys_path = xstrdup(path);
	sys_facility = facility;
	hand_over(fd, 1);
	free(log_path);
	log_path = NULL;
	log_lvl = lvl;
	return 0;
}

int
log_uses_syslog(void)
{
	return log_sys;
}

int
log_give_to(unsigned uid, unsigned gid)
{
	if (access_path != NULL && fchown(access_fd, (uid_t)uid,
	    (gid_t)gid) == -1)
		return -1;
	if (log_path == NULL || log_sys)
		return 0;
	return fchown(log_fd, (uid_t)uid, (gid_t)gid);
}

int
log_open_access(const char *path)
{
	int	 fd = -1;

	if (path != NULL && (fd = open(path, O_WRONLY | O_APPEND | O_CREAT |
	    O_CLOEXEC, 0640)) == -1)
		return -1;
	hand_over_access(fd);
	free(access_path);
	access_path = path != NULL ? xstrdup(path) : NULL;
	return 0;
}

int
log_open(const char *path, enum log_level lvl)
{
	int	 fd;

	if ((fd = open_dest(path)) == -1)
		return -1;
	hand_over(fd, 0);
	free(log_path);
	log_path = (fd == 2) ? NULL : xstrdup(path);
	log_lvl = lvl;
	return 0;
}

int
log_reopen(void)
{
	int	 fd, rv = 0;

	/* The writer closes the old ones between two of its writes. */
	if (access_path != NULL) {
		if ((fd = open(access_path, O_WRONLY | O_APPEND | O_CREAT |
		    O_CLOEXEC, 0640)) == -1)
			rv = -1;
		else
			hand_over_access(fd);
	}
	if (log_path == NULL || log_sys)
		return rv;
	if ((fd = open_dest(log_path)) == -1)
		return -1;
	hand_over(fd, 0);
	return rv;
}

void
log_set_level(enum log_level lvl)
{
	log_lvl = lvl;
}

enum log_level
log_get_level(void)
{
	return (enum log_level)log_lvl;
}

void
log_close(void)
{
	/* A writer stuck in a write keeps what it uses: we exit. */
	if (log_stop() == -1)
		return;
	hand_over(2, 0);
	free(log_path);
	log_path = NULL;
	(void)log_open_access(NULL);
	free(sys_path);
	sys_path = NULL;
}

/*
 * "2026-01-02T03:04:05Z " into p; 0 when len is too small.  Each thread
 * formats a second once: a busy worker logs thousands of lines in it.
 */
static size_t
stamp(char *p, size_t len)
{
	static _Thread_local time_t	 last = (time_t)-1;
	static _Thread_local char	 text[32];
	static _Thread_local size_t	 textlen;
	struct timespec			 ts;
	struct tm			 tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (ts.tv_sec != last) {
		gmtime_r(&ts.tv_sec, &tm);
		textlen = strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ ",
		    &tm);
		last = ts.tv_sec;
	}
	if (textlen >= len)
		return 0;
	memcpy(p, text, textlen);
	return textlen;
}

/*
 * The access line and the peer are made for every request: by hand, not
 * with printf (which was half of a Gopher request's instructions).
 */

/* Decimal v at p (room for 20 bytes); returns the digits written. */
static size_t
put_dec(char *p, unsigned long long v)
{
	char	 tmp[20];
	size_t	 n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	for (i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

/* At most max bytes of the string s at p; returns the bytes written. */
static size_t
put_str(char *p, const char *s, size_t max)
{
	size_t	 n = strnlen(s, max);

	memcpy(p, s, n);
	return n;
}

/*
 * s[0..len) at p, room bytes at most, so that a log line holds only
 * printable UTF-8 (grep and terminals take it for text, and a line is
 * one line): what is not valid UTF-8, C0 and C1 controls, DEL and
 * U+2028/2029 are written \xHH, a byte at a time; with quoted, so are
 * '"' and '\\', and the field stays one quoted string.  Stops before a
 * character that does not fit whole.  Returns the bytes written.
 */
static size_t
put_esc(char *p, size_t room, const char *s, size_t len, int quoted)
{
	static const char hex[] = "0123456789abcdef";
	size_t		 out = 0, i = 0, n, k;
	unsigned char	 c;
	uint32_t	 cp;

	while (i < len) {
		c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && !(quoted && (c == '"' ||
		    c == '\\'))) {
			if (out + 1 > room)
				break;
			p[out++] = (char)c;
			i++;
			continue;
		}
		n = utf8_decode(s + i, len - i, &cp);
		if (cp != UTF8_INVALID && cp >= 0xa0 && cp != 0x2028 &&
		    cp != 0x2029) {
			if (out + n > room)
				break;
			memcpy(p + out, s + i, n);
			out += n;
			i += n;
			continue;
		}
		if (out + 4 * n > room)
			break;
		for (k = 0; k < n; k++, i++) {
			c = (unsigned char)s[i];
			p[out++] = '\\';
			p[out++] = 'x';
			p[out++] = hex[c >> 4];
			p[out++] = hex[c & 0xf];
		}
	}
	return out;
}

void
log_flush(void)
{
	/* abuf holds access lines only: their destination. */
	deliver_to(atomic_load(&access_fd) != -1, abuf.data, abuf.len);
	abuf.len = 0;
}

static const int severities[] = {
	[LOG_LEVEL_ERROR] = LOG_ERR,
	[LOG_LEVEL_WARN] = LOG_WARNING,
	[LOG_LEVEL_INFO] = LOG_INFO,
	[LOG_LEVEL_DEBUG] = LOG_DEBUG,
};

void
log_access_buffer(int on)
{
	if (!on)
		log_flush();
	abuf.on = on;
}

size_t
log_access_pending(void)
{
	return abuf.len;
}

void
log_set_tap(log_tap_fn fn, void *arg)
{
	log_tapfn = fn;
	log_taparg = arg;
}

/*
 * "[TIME ]LEVEL: message[: strerror]\n" into line (size > 64; no time
 * when syslog stamps it); its length.
 */
static size_t
diag_line(char *line, size_t size, enum log_level lvl, int errnum,
    const char *fmt, va_list ap)
{
	char	 msg[2048];
	size_t	 len;
	int	 n;

	len = log_sys ? 0 : stamp(line, size);
	n = snprintf(line + len, size - len, "%s: ", level_names[lvl]);
	len += (size_t)n;
	/* Messages quote paths and names that came from outside. */
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n > 0)
		len += put_esc(line + len, size - len - 2, msg,
		    strnlen(msg, sizeof(msg)), 0);
	if (errnum != 0 && len < size - 1) {
		n = snprintf(line + len, size - len, ": %s",
		    strerror(errnum));
		if (n > 0)
			len += (size_t)n < size - len ? (size_t)n :
			    size - len - 1;
	}
	if (len >= size - 1)
		len = size - 2;
	line[len++] = '\n';
	return len;
}

static size_t
say(char *line, size_t size, enum log_level lvl, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 len;

	va_start(ap, fmt);
	len = diag_line(line, size, lvl, 0, fmt, ap);
	va_end(ap);
	return len;
}

static void
emit(enum log_level lvl, int errnum, const char *fmt, va_list ap)
{
	char	 line[2048], msg[2048];
	va_list	 ap2;

	if (log_tapfn != NULL && lvl <= LOG_LEVEL_INFO) {
		va_copy(ap2, ap);
		if (vsnprintf(msg, sizeof(msg), fmt, ap2) >= 0)
			log_tapfn(log_taparg, lvl, msg);
		va_end(ap2);
	}
	if ((int)lvl > log_lvl)
		return;
	log_flush();			/* this thread's lines stay in order */
	put_line(severities[lvl], line, diag_line(line, sizeof(line), lvl,
	    errnum, fmt, ap));
}

#define LOG_FN(name, lvl, witherr)				\
void								\
name(const char *fmt, ...)					\
{								\
	va_list	 ap;						\
	int	 saved = errno;					\
								\
	va_start(ap, fmt);					\
	emit(lvl, witherr ? saved : 0, fmt, ap);		\
	va_end(ap);						\
	errno = saved;						\
}

LOG_FN(log_error, LOG_LEVEL_ERROR, 1)
LOG_FN(log_errorx, LOG_LEVEL_ERROR, 0)
LOG_FN(log_warn, LOG_LEVEL_WARN, 1)
LOG_FN(log_warnx, LOG_LEVEL_WARN, 0)
LOG_FN(log_info, LOG_LEVEL_INFO, 0)
LOG_FN(log_debug, LOG_LEVEL_DEBUG, 0)

void
fatal(const char *fmt, ...)
{
	va_list	 ap;
	int	 saved = errno;

	va_start(ap, fmt);
	emit(LOG_LEVEL_ERROR, saved, fmt, ap);
	va_end(ap);
	(void)log_stop();		/* the line out before we go */
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	emit(LOG_LEVEL_ERROR, 0, fmt, ap);
	va_end(ap);
	(void)log_stop();
	exit(1);
}

int
log_status_http(int status)
{
	static const struct { int gemini, http; } map[] = {
		{ 20, 200 }, { 30, 302 }, { 31, 301 }, { 40, 503 },
		{ 41, 503 }, { 42, 502 }, { 43, 502 }, { 44, 429 },
		{ 50, 500 }, { 51, 404 }, { 52, 410 }, { 53, 421 },
		{ 59, 400 }, { 60, 401 }, { 61, 403 }, { 62, 403 },
	};
	size_t	 i;

	if (status < 0)
		return 400;
	if (status / 10 == 1)
		return 200;
	for (i = 0; i < nitems(map); i++)
		if (map[i].gemini == status)
			return map[i].http;
	return 500;
}

/* "[02/Jan/2026:03:04:05 +0000] " into p (room for 32); its length. */
static size_t
clf_stamp(char *p)
{
	static _Thread_local time_t	 last = (time_t)-1;
	static _Thread_local char	 text[40];
	static _Thread_local size_t	 textlen;
	struct tm			 tm;
	time_t				 now = time(NULL);

	if (now != last) {
		gmtime_r(&now, &tm);
		textlen = strftime(text, sizeof(text),
		    "[%d/%b/%Y:%H:%M:%S +0000] ", &tm);
		last = now;
	}
	memcpy(p, text, textlen);
	return textlen;
}

/* The address of a peer as log_format_peer() wrote it, without a port. */
static size_t
put_host(char *p, const char *peer)
{
	const char	*end;

	if (peer[0] == '[') {		/* "[2001:db8::1]:51234" */
		if ((end = strchr(peer, ']')) == NULL)
			return put_str(p, peer, 64);
		return put_str(p, peer + 1, (size_t)(end - peer - 1));
	}
	/* "192.0.2.7:51234"; an anonymised IPv6 has colons and no port. */
	if ((end = strchr(peer, ':')) != NULL && strchr(end + 1, ':') == NULL)
		return put_str(p, peer, (size_t)(end - peer));
	return put_str(p, peer, 64);
}

void
log_access(const char *peer, const char *proto, const char *req,
    size_t reqlen, int status, unsigned long long bytes,
    unsigned long long usec)
{
	log_access_as(LOG_FORMAT_CAPSULED, peer, proto, req, reqlen, status,
	    bytes, usec);
}

void
log_access_as(enum log_format fmt, const char *peer, const char *proto,
    const char *req, size_t reqlen, int status, unsigned long long bytes,
    unsigned long long usec)
{
	char		 line[1600];
	size_t		 len = 0;
	int		 own = atomic_load(&access_fd) != -1;

	/* 32 + 64 + 16 + 3 before the request, at most 80 after it. */
	if (fmt == LOG_FORMAT_CAPSULED) {
		if (!log_sys || own)	/* syslog stamps its lines itself */
			len = stamp(line, 32);
		len += put_str(line + len, peer, 64);
		line[len++] = ' ';
		len += put_str(line + len, proto, 16);
		line[len++] = ' ';
	} else {
		len += put_host(line + len, peer);
		memcpy(line + len, " - - ", 5);
		len += 5;
		len += clf_stamp(line + len);
	}
	line[len++] = '"';
	/* Escape so one request is always one well-formed field. */
	len += put_esc(line + len, sizeof(line) - 80 - len, req, reqlen, 1);
	line[len++] = '"';
	line[len++] = ' ';
	if (fmt != LOG_FORMAT_CAPSULED)
		len += put_dec(line + len,
		    (unsigned long long)log_status_http(status));
	else if (status < 0) {
		line[len++] = '-';
		len += put_dec(line + len, -(long long)status);
	} else
		len += put_dec(line + len, (unsigned long long)status);
	line[len++] = ' ';
	len += put_dec(line + len, bytes);
	if (fmt == LOG_FORMAT_CAPSULED) {
		line[len++] = ' ';
		len += put_dec(line + len, usec);
	} else if (fmt == LOG_FORMAT_COMBINED) {
		memcpy(line + len, " \"-\" \"-\"", 8);
		len += 8;
	}
	line[len++] = '\n';
	if (log_sys && !own) {
		put_line(LOG_INFO, line, len);
		return;
	}
	if (!abuf.on) {
		deliver_to(own, line, len);
		return;
	}
	if (abuf.len + len > sizeof(abuf.data))
		log_flush();
	memcpy(abuf.data + abuf.len, line, len);
	abuf.len += len;
}

char *
log_format_peer(char *out, size_t outlen, const struct sockaddr *sa,
    enum log_peer mode)
{
	struct in_addr	 a4;
	struct in6_addr	 a6;
	char		 host[INET6_ADDRSTRLEN];
	unsigned	 port;
	int		 v4;

	if (outlen < 2) {
		if (outlen == 1)
			out[0] = '\0';
		return out;
	}
	out[0] = '-';
	out[1] = '\0';
	if (mode == LOG_PEER_NONE || sa == NULL)
		return out;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)sa;

		a4 = sin->sin_addr;
		port = ntohs(sin->sin_port);
		v4 = 1;
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)sa;

		a6 = sin6->sin6_addr;
		port = ntohs(sin6->sin6_port);
		v4 = 0;
		/* ::ffff:192.0.2.7 is an IPv4 client on a dual-stack socket. */
		if (mode == LOG_PEER_ANONYMISE && IN6_IS_ADDR_V4MAPPED(&a6)) {
			memcpy(&a4, &a6.s6_addr[12], 4);
			v4 = 1;
		}
	} else
		return out;
	if (mode == LOG_PEER_ANONYMISE) {
		if (v4)
			((unsigned char *)&a4)[3] = 0;
		else
			memset(&a6.s6_addr[6], 0, 10);	/* keep a /48 */
	}
	if (v4) {
		/* inet_ntop() would printf: by hand, as log_access(). */
		const unsigned char *b = (const unsigned char *)&a4;
		size_t n = 0;
		int i;

		for (i = 0; i < 4; i++) {
			if (i > 0)
				host[n++] = '.';
			n += put_dec(host + n, b[i]);
		}
		if (mode != LOG_PEER_ANONYMISE) {
			host[n++] = ':';
			n += put_dec(host + n, port);
		}
		if (n >= outlen)
			n = outlen - 1;
		memcpy(out, host, n);
		out[n] = '\0';
		return out;
	}
	inet_ntop(AF_INET6, &a6, host, sizeof(host));
	if (mode == LOG_PEER_ANONYMISE)
		snprintf(out, outlen, "%s", host);
	else
		snprintf(out, outlen, "[%s]:%u", host, port);
	return out;
}
