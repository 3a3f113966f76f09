/*
 * program.h -- a program started, confined, waited for, and every
 * process it leaves killed (for CGI, net/cgi.c).
 *
 * program_start() forks and, in the child, between fork and exec: its
 * own session and process group, stdin /dev/null, stdout the caller's
 * pipe, stderr the server's, no other descriptor of the server's, the
 * signals as a new process has them, and a Landlock domain of its own
 * (program_domain below) -- then execs.  uv_spawn() has no hook between
 * fork and exec, so this is done here.  Its end comes through SIGCHLD
 * (a uv_signal_t per program, on the caller's loop).
 *
 * The domain: whatever the server may reach (its own domain, or the
 * whole file system when it has none) except what a program must
 * never read: each host's certificate directory (so every key, one
 * made on SIGHUP included), the configuration file, the ticket_keys
 * file, and each proxy entry's client_cert and client_key.  It is
 * made on first use on each worker thread and made again when the
 * configuration names other secrets, or an entry appeared or went in a
 * directory on the way to one.  Without Landlock (an old kernel,
 * valgrind) programs run without it, and program_describe() says so at
 * start; when Landlock is there but the domain cannot be made, no
 * program runs.
 *
 * Nothing a program started outlives its answer, not even a process
 * that left its group with setsid(): the server is a child subreaper
 * (prctl(2)), so a descendant whose parent exits becomes the server's
 * child instead of init's; program_kill() and program_sweep() kill
 * every process below a program (found through /proc) and every such
 * orphan -- a child of the server in a session of its own that is no
 * running program -- and reap the orphans.  The table of running
 * programs is shared by the workers, under a lock held across fork(),
 * so that a program just forked is never taken for an orphan.  Without
 * /proc (a chroot) only the group is killed.
 *
 * Knows libuv, Landlock (core/landlock.h) and the configuration's
 * paths; nothing of CGI.  A struct program is the caller's memory; its
 * signal handle is closed by program_close(), whose callback ends it.
 */
#ifndef CAPSULED_PROGRAM_H
#define CAPSULED_PROGRAM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <uv.h>

struct config;
struct program;

/* It exited (status), or a signal ended it (sig); once. */
typedef void	(*program_exit_fn)(struct program *, int64_t status, int sig);

typedef void	(*program_closed_fn)(struct program *);

struct program {
	uv_signal_t	 sigchld;	/* embedded: program_close() */
	pid_t		 pid;		/* 0: never started */
	int		 exited;
	program_exit_fn	 exit_cb;
	program_closed_fn closed_cb;
	void		*data;		/* the caller's */
};

struct program_spawn {
	const struct config *cfg;	/* the top level: whose secrets */
	const char	*file;		/* absolute */
	char *const	*argv;
	char *const	*envp;
	const char	*cwd;
};

/*
 * Start ps's program; exit_cb follows its end (never from within this
 * call).  Its stdout is a pipe whose read end (close-on-exec, the
 * caller's) is *out.  Returns 0, or a libuv error (negative) when it
 * could not be started (logged by the caller; *out -1); program_close()
 * is due either way.
 */
int	 program_start(uv_loop_t *, struct program *,
	    const struct program_spawn *ps, program_exit_fn exit_cb,
	    int *out);
/* Kill it, its process group, and every process below it. */
void	 program_kill(struct program *);
/*
 * It exited and its output is read: kill what it left in its group,
 * and the orphans; reap them.
 */
void	 program_sweep(struct program *);
/* Close its signal handle; closed follows. */
void	 program_close(struct program *, program_closed_fn closed);
/*
 * One line for the start's log: the domain programs will have under
 * cfg, made once to see (ABI, paths), or why there is none.
 */
void	 program_describe(const struct config *cfg, char *what,
	    size_t whatlen);
/* This thread's loop finishes: forget its domain. */
void	 program_thread_end(void);

#endif
