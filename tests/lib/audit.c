/*
 * audit.c -- the kernel's records of refused system calls, read from
 * /dev/kmsg (audit.h).  Knows the record's text, not the server; the
 * caller says whose records count (by exe, by pid).  The descriptor is
 * the struct audit's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"

int
audit_open(struct audit *a)
{
	char	 logged[256] = "";
	FILE	*f;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	if ((f = fopen("/proc/sys/kernel/seccomp/actions_logged", "r")) !=
	    NULL) {
		if (fgets(logged, sizeof(logged), f) == NULL)
			logged[0] = '\0';
		fclose(f);
	}
	if (strstr(logged, "errno") == NULL) {
		snprintf(a->why, sizeof(a->why), "the kernel does not log "
		    "refused calls (seccomp actions_logged: %.60s)",
		    logged[0] != '\0' ? logged : "none");
		return -1;
	}
	/* An audit daemon takes the records: none reach the kernel log. */
	if (system("pgrep -x auditd >/dev/null 2>&1") == 0) {
		snprintf(a->why, sizeof(a->why), "auditd takes the kernel's "
		    "audit records");
		return -1;
	}
	if ((a->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC)) ==
	    -1 || lseek(a->fd, 0, SEEK_END) == -1) {
		snprintf(a->why, sizeof(a->why), "/dev/kmsg: %s",
		    strerror(errno));
		if (a->fd != -1)
			close(a->fd);
		a->fd = -1;
		return -1;
	}
	return 0;
}

/* The value of " key=" in s, up to a space or the quote that opens it. */
static void
field(const char *s, const char *key, char *out, size_t len)
{
	const char	*p = strstr(s, key), *e;

	out[0] = '\0';
	if (p == NULL)
		return;
	p += strlen(key);
	if (*p == '"')
		e = strchr(++p, '"');
	else
		e = p + strcspn(p, " \n");
	if (e == NULL)
		e = p + strlen(p);
	snprintf(out, len, "%.*s", (int)(e - p), p);
}

int
audit_next(struct audit *a, struct audit_record *rec)
{
	char		 line[8192], v[64];
	const char	*msg;
	ssize_t		 n;

	if (a->fd == -1)
		return 0;
	for (;;) {
		/* One record per read; EPIPE: older ones were overwritten. */
		if ((n = read(a->fd, line, sizeof(line) - 1)) == -1) {
			if (errno == EPIPE || errno == EINTR)
				continue;
			return 0;
		}
		if (n == 0)
			return 0;
		line[n] = '\0';
		if ((msg = strchr(line, ';')) == NULL)
			continue;
		msg++;
		/* "kauditd_printk_skb: 3 callbacks suppressed" */
		if (strncmp(msg, "kauditd_printk_skb: ", 20) == 0) {
			a->suppressed += atoi(msg + 20);
			continue;
		}
		if (strstr(msg, "audit: type=1326 ") == NULL)
			continue;
		memset(rec, 0, sizeof(*rec));
		field(msg, " pid=", v, sizeof(v));
		rec->pid = atol(v);
		field(msg, " syscall=", v, sizeof(v));
		rec->syscall = atol(v);
		field(msg, " code=", v, sizeof(v));
		rec->code = strtoul(v, NULL, 16);
		field(msg, " comm=", rec->comm, sizeof(rec->comm));
		field(msg, " exe=", rec->exe, sizeof(rec->exe));
		return 1;
	}
}

void
audit_close(struct audit *a)
{
	if (a->fd != -1)
		close(a->fd);
	a->fd = -1;
}
