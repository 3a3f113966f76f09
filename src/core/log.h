/*
 * log.h -- diagnostics and the access log (gmid log.c shape).
 *
 * Every line is formatted in a stack buffer and written with one write(2)
 * (one datagram to syslog), so lines from worker threads never
 * interleave; once log_start() ran, a writer thread writes them and no
 * caller waits for the disk or the daemon (a line that cannot be taken
 * at once is dropped, and counted).  fatal()/fatalx() are for the setup
 * path only: a request may never make the server exit.
 *
 * A thread may buffer its access lines (a worker does: a write(2) per
 * request was a tenth of a Gopher request's syscalls): they go out whole,
 * in order, at most LOG_ACCESS_BUF bytes per write(2) (PIPE_BUF, so that a
 * write to a pipe is not split), and before any diagnostic line of the
 * same thread.  The thread calls log_flush() soon after a line (a worker
 * within WORKER_LOG_FLUSH_MS) and when it ends.  A SIGUSR1 reopen sends
 * lines still buffered then to the new file; none is lost.
 */
#ifndef CAPSULED_LOG_H
#define CAPSULED_LOG_H

#include <stdarg.h>
#include <stddef.h>

enum log_level {
	LOG_LEVEL_ERROR,
	LOG_LEVEL_WARN,
	LOG_LEVEL_INFO,
	LOG_LEVEL_DEBUG,
};

/* How a client's address appears in log lines (config "log_peer"). */
enum log_peer {
	LOG_PEER_FULL,		/* 192.0.2.7:51234, [2001:db8::1]:51234 */
	LOG_PEER_ANONYMISE,	/* 192.0.2.0, 2001:db8:1:: -- no port */
	LOG_PEER_NONE,		/* "-" */
};

/* The access log's line (config "log_format"). */
enum log_format {
	LOG_FORMAT_CAPSULED,	/* TIME PEER PROTO "REQUEST" STATUS BYTES USEC */
	LOG_FORMAT_COMMON,	/* NCSA common: HOST - - [TIME] "REQ" ST BYTES */
	LOG_FORMAT_COMBINED,	/* common, then "-" "-" (referer, agent) */
};

/* Parse "error", "warn", "info", "debug"; -1 if none of them. */
int	 log_level_parse(const char *);
/*
 * Send diagnostics to path (NULL or "-" or "stderr": standard error).
 * Returns 0, or -1 with errno set; the old destination is kept then.
 */
int	 log_open(const char *path, enum log_level);
/*
 * Send access lines (log_access_as()) to the file path instead, whatever
 * the diagnostics go to (molly-brown's AccessLog beside its ErrorLog);
 * NULL: with the diagnostics again.  Reopened by log_reopen(), given by
 * log_give_to().  Returns 0, or -1 with errno set (nothing changed).
 */
int	 log_open_access(const char *path);
int	 log_reopen(void);		/* for SIGUSR1 and logrotate */
/*
 * Send every line to syslog instead: RFC 3164 datagrams ("<PRI>Mmm dd
 * hh:mm:ss capsuled[PID]: ...") on the Unix socket at path (/dev/log),
 * connected now, before a chroot or a sandbox could hide it, and again
 * after a failed send.  facility is syslog.h's (LOG_DAEMON...).
 * Returns 0, or -1 with errno set; the old destination is kept then.
 */
int	 log_open_syslog(const char *path, int facility, enum log_level);
/* 1 while lines go to syslog (a socket the process must keep using). */
int	 log_uses_syslog(void);
/*
 * Make the log file the user's who will run the server (before the
 * privilege drop), so that SIGUSR1 can open it again as that user.
 * Nothing for standard error or syslog.  Returns 0 or -1 (errno).
 */
int	 log_give_to(unsigned uid, unsigned gid);
/*
 * From now on lines go through a writer thread (started here, so call
 * it after the sandbox: the thread inherits it): a caller copies its
 * line into a bounded queue (LOG_QUEUE_MAX bytes, log.c) and never
 * waits for the file or the syslog daemon; a line that finds the queue
 * full is dropped and counted, as is one the destination refuses (a
 * full disk; before log_start() too, a syslog socket that would
 * block), and the next line written is followed by "warn: log: N lines
 * dropped...".  0, or -1 (no thread: lines are written at once).
 */
int	 log_start(void);
/*
 * The writer writes what is queued and ends; lines are written at once
 * again.  It is given LOG_STOP_MS: a write that blocks longer is left
 * behind (-1), and the log is then left as it is for the exit.
 * log_close() and fatal() call it.  0, or -1.
 */
int	 log_stop(void);
/* Lines dropped and not yet reported. */
unsigned long long log_dropped(void);
void	 log_set_level(enum log_level);
enum log_level log_get_level(void);
void	 log_close(void);

/*
 * Also hand every diagnostic of level info or above, as formatted and
 * whatever the level set, to fn (NULL: none).  For a command that runs
 * on one thread (capsuled --check --report): not for the server.
 */
typedef void (*log_tap_fn)(void *arg, enum log_level, const char *msg);
void	 log_set_tap(log_tap_fn fn, void *arg);
/* What stops the server (start-up failing), without exiting here. */
void	 log_error(const char *, ...)	/* appends strerror(errno) */
	    __attribute__((format(printf, 1, 2)));
void	 log_errorx(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
void	 log_warn(const char *, ...)	/* appends strerror(errno) */
	    __attribute__((format(printf, 1, 2)));
void	 log_warnx(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
void	 log_info(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
void	 log_debug(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
void	 fatal(const char *, ...)	/* appends strerror(errno), exit 1 */
	    __attribute__((format(printf, 1, 2), noreturn));
void	 fatalx(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

/*
 * One access-log line:
 *   TIME PEER PROTO "REQUEST" STATUS BYTES USEC
 * REQUEST is escaped (what is not printable UTF-8, and quotes, as \xHH)
 * so the line stays parseable text whatever a client sent; diagnostic
 * lines are escaped the same way, quotes kept.
 */
void	 log_access(const char *peer, const char *proto, const char *req,
	    size_t reqlen, int status, unsigned long long bytes,
	    unsigned long long usec);
/*
 * The same line in format fmt.  common and combined write the peer's
 * address without its port as the host, "-" for ident and user, the
 * time as [02/Jan/2026:03:04:05 +0000], REQUEST quoted and escaped as
 * above (a Gemini URL, a Gopher selector), the status as HTTP's
 * (log_status_http()) and the bytes sent; combined adds "-" "-".
 */
void	 log_access_as(enum log_format fmt, const char *peer,
	    const char *proto, const char *req, size_t reqlen, int status,
	    unsigned long long bytes, unsigned long long usec);
/*
 * The HTTP status log tools expect for a Gemini one (Gopher answers
 * carry the Gemini status of what the router found): 1x 200 (a page
 * asking for input), 20 200, 30 302, 31 301, 40 41 503, 42 43 502,
 * 44 429, 50 500, 51 404, 52 410, 53 421, 59 400, 60 401, 61 62 403;
 * anything else 500, and a connection that ended without an answer
 * (negative) 400.
 */
int	 log_status_http(int status);

#define LOG_ACCESS_BUF	4096
/* Buffer this thread's access lines (1), or write each at once (0). */
void	 log_access_buffer(int on);
/* Bytes of access lines this thread holds. */
size_t	 log_access_pending(void);
/* Write them now. */
void	 log_flush(void);

/*
 * The peer at sa (AF_INET or AF_INET6; anything else is "-") as the log
 * shows it under mode, into out (NUL-terminated; 56 bytes are enough).
 * Anonymising zeroes the last octet of an IPv4 address and the last 80
 * bits of an IPv6 one (an IPv4-mapped IPv6 address counts as IPv4), and
 * drops the port.  Returns out.
 */
struct sockaddr;
char	*log_format_peer(char *out, size_t outlen, const struct sockaddr *sa,
	    enum log_peer mode);

#endif
