/*
 * sandbox.h -- what the server may still do once it serves (Linux):
 * Landlock over the file system, a seccomp-bpf allow-list of system
 * calls.
 *
 * Entered once, from main.c, after priv_drop() and before the loader
 * and worker threads start, so every thread inherits both (the filter
 * is also synchronised across threads, TSYNC).  The policy is built
 * from the configuration:
 *
 *   read        beneath each host's capsule and certificate directory,
 *               the directories holding the users' homes (userdirs),
 *               the configuration file's and ticket_keys' directories,
 *               and the system files the C library and OpenSSL read
 *               again on SIGHUP (/etc/passwd, nsswitch.conf, /usr, ...)
 *   write       beneath the capsules when Titan is on (titan_writers),
 *               the log file's directory; nothing else
 *   execute     only with cgi: the CGI programs and the system's
 *               programs and libraries they use
 *   system calls  what the serving threads, libuv, OpenSSL and glibc
 *               make; socket() only when client sockets are needed,
 *               fork and execve only with cgi.  Any other one fails
 *               with EPERM and is logged (SIGSYS handler).
 *
 * A kernel without Landlock or seccomp keeps serving: the log line
 * says what is enforced.  Under valgrind the sandbox is off (it runs
 * the program's calls itself); under ASan it allows what LeakSanitizer
 * needs at exit (ptrace of its own threads, /proc).
 */
#ifndef CAPSULED_SANDBOX_H
#define CAPSULED_SANDBOX_H

#include <stddef.h>

#include <uv.h>

struct config;

/* What sandbox_enter() enforced. */
#define SANDBOX_LANDLOCK	0x1
#define SANDBOX_SECCOMP		0x2

/*
 * Enter the sandbox cfg describes (its cfg->sandbox 0: nothing).
 * Refused calls are logged from loop (NULL: written to stderr by the
 * signal handler itself).  Returns the SANDBOX_* bits enforced and
 * writes one line saying what into what; never fails the start.
 */
int	 sandbox_enter(const struct config *cfg, uv_loop_t *loop,
	    char *what, size_t whatlen);
/* Close the logging handle on loop (before uv_loop_close()). */
void	 sandbox_stop(void);
/*
 * The seccomp filter cfg asks for, into p (bpfasm_init()ed; the
 * caller frees it), linked: 0, or -1 and *errstr.  What
 * sandbox_enter() loads; tests run it.
 */
struct bpfasm;
int	 sandbox_filter(const struct config *cfg, struct bpfasm *p,
	    const char **errstr);
/* The name of system call nr in this build's table, or NULL. */
const char *sandbox_syscall_name(long nr);

#endif
