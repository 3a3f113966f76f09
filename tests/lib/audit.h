/*
 * audit.h -- the kernel's records of system calls a seccomp filter
 * refused (audit.c).  A filter installed with SECCOMP_FILTER_FLAG_LOG
 * (app/sandbox.c does with cgi, where capsuled cannot log a refused
 * call itself) makes the kernel write an audit record for each one:
 *
 *	audit: type=1326 audit(...): ... pid=N comm="sh" exe="/usr/bin/dash"
 *	    sig=0 arch=c000003e syscall=272 compat=0 ip=... code=0x50000
 *
 * into the kernel log when no audit daemon takes them.  A test opens
 * the log at its end before the server starts and reads what came.
 * Reading it needs root (or dmesg_restrict 0).
 */
#ifndef CAPSULED_TEST_AUDIT_H
#define CAPSULED_TEST_AUDIT_H

#include <stddef.h>

struct audit {
	int	 fd;			/* /dev/kmsg, or -1 */
	char	 why[160];		/* why fd is -1 */
	int	 suppressed;	/* records the kernel's rate limit hid */
};

struct audit_record {
	long	 pid;
	long	 syscall;
	unsigned long code;		/* 0x50001: EPERM, 0x30000: a trap */
	char	 comm[64];
	char	 exe[512];
};

/*
 * Read the kernel log from its end on: 0, or -1 with a->why saying why
 * the records cannot be read here (no /dev/kmsg, not allowed, an audit
 * daemon takes them, the kernel logs no refused call).
 */
int	audit_open(struct audit *a);
/* The next record since, into *rec: 1, or 0 when there is none yet. */
int	audit_next(struct audit *a, struct audit_record *rec);
void	audit_close(struct audit *a);

#endif
