/*
 * sandbox.c -- Landlock and a seccomp-bpf allow-list after start-up
 * (sandbox.h).
 *
 * The filter is written by hand with <linux/filter.h> and
 * <linux/seccomp.h> (libseccomp is not among the libraries the server
 * builds with), its jumps by label (app/bpfasm.h), never counted.  It
 * checks the architecture (another one is killed: its numbers mean
 * other calls), then looks the number up in a list; the calls whose
 * arguments matter (clone, socket, prctl, ioctl, prlimit64) are checked
 * first.  A call not allowed traps: the SIGSYS handler
 * makes it return EPERM and the main loop logs it.  EPERM rather than
 * a kill because a call this table forgot, in a path of the C library
 * or OpenSSL seldom taken, should cost one failed request and a log
 * line naming the call, not the server; code that an attacker made run
 * gains nothing from an EPERM.  clone3 fails with ENOSYS, which makes
 * glibc fall back to clone, whose flags a filter can read.
 *
 * Landlock (core/landlock.c) is asked for its ABI and every access
 * right that ABI knows is handled (so denied unless a rule grants it);
 * TCP bind is denied from ABI 4 on, and from ABI 6 on signals and
 * abstract sockets stay within the sandbox.  A kernel without it keeps
 * serving, logged.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "app/bpfasm.h"
#include "app/sandbox.h"
#include "core/config.h"
#include "core/config_apps.h"
#include "core/landlock.h"
#include "core/log.h"
#include "core/util.h"
#include "net/program.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#if defined(__x86_64__)
#define SB_ARCH		AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SB_ARCH		AUDIT_ARCH_AARCH64
#endif

#define LL_READ		(LANDLOCK_ACCESS_FS_READ_FILE | \
			 LANDLOCK_ACCESS_FS_READ_DIR)
#define LL_EXEC		(LANDLOCK_ACCESS_FS_EXECUTE | LL_READ)
/* REMOVE_DIR: a Titan delete moves a page bundle's folder to .trash/. */
#define LL_WRITE	(LANDLOCK_ACCESS_FS_WRITE_FILE | \
			 LANDLOCK_ACCESS_FS_MAKE_REG | \
			 LANDLOCK_ACCESS_FS_REMOVE_FILE | \
			 LANDLOCK_ACCESS_FS_REMOVE_DIR | \
			 LANDLOCK_ACCESS_FS_MAKE_DIR | \
			 LANDLOCK_ACCESS_FS_REFER | \
			 LANDLOCK_ACCESS_FS_TRUNCATE)
/* The log: appended to, and made again when rotation moved it. */
#define LL_LOG		(LANDLOCK_ACCESS_FS_WRITE_FILE | \
			 LANDLOCK_ACCESS_FS_MAKE_REG)
/*
 * A host added on SIGHUP gets its key pair made in <certs>/<hostname>
 * (net/cert.c: the folder, temporary files renamed, removed on error).
 */
#define LL_CERTS	(LANDLOCK_ACCESS_FS_MAKE_DIR | \
			 LANDLOCK_ACCESS_FS_MAKE_REG | \
			 LANDLOCK_ACCESS_FS_WRITE_FILE | \
			 LANDLOCK_ACCESS_FS_REMOVE_FILE)

/*
 * What the C library and OpenSSL may read again after start-up: the
 * user database and NSS modules (user capsules on SIGHUP), time zone,
 * the number of CPUs (a reload's threads), shared libraries a reload
 * may load.  Missing ones are skipped.
 */
static const char *const sys_read[] = {
	"/etc/passwd", "/etc/group", "/etc/nsswitch.conf",
	"/etc/localtime", "/etc/ld.so.cache", "/usr/share/zoneinfo",
	"/sys/devices/system/cpu", "/dev/null", "/dev/urandom",
	"/usr/lib", "/lib", "/lib64", "/usr/lib64",
};
/*
 * What the C library reads to resolve a backend's name (uv_getaddrinfo
 * for "fastcgi", "scgi" and "proxy" entries), per request: without it
 * every lookup, "localhost" too, fails with EAI_AGAIN.
 */
static const char *const resolver_read[] = {
	"/etc/hosts", "/etc/resolv.conf", "/etc/host.conf", "/etc/gai.conf",
	"/etc/services",
};
/* What CGI programs (and their interpreters) need besides. */
static const char *const cgi_exec[] = {
	"/usr", "/bin", "/sbin", "/lib", "/lib64", "/opt",
};
static const char *const cgi_read[] = { "/etc", "/dev", "/proc" };
/* Written to, whatever a program's output is worth: /dev/null. */
static const char *const cgi_devs[] = { "/dev/null", "/dev/zero" };
/* Scratch space any local user may write anyway (a CGI's spool). */
static const char *const cgi_write[] = { "/tmp", "/var/tmp" };

static uv_async_t	 refused_async;	/* on the loop given, or unused */
static _Atomic int	 async_on;
static _Atomic unsigned	 nrefused;	/* calls refused, in all */
static _Atomic unsigned	 nlogged;	/* of those, logged */
static _Atomic long	 last_nr[8];	/* numbers, by nrefused % 8 */

#define N(x)	{ __NR_##x, #x }
static const struct {
	long		 nr;
	const char	*name;
} names[] = {
	N(socket), N(connect), N(bind), N(listen), N(execve), N(ptrace),
	N(clone), N(clone3), N(prctl), N(ioctl), N(mount), N(unshare),
	N(setns), N(bpf), N(perf_event_open), N(keyctl), N(io_uring_setup),
	N(process_vm_readv), N(process_vm_writev), N(userfaultfd),
	N(socketpair), N(memfd_create), N(prlimit64), N(chroot),
	N(setuid), N(setgid), N(kill), N(wait4), N(openat), N(mknodat),
	N(symlinkat), N(personality), N(seccomp), N(fchownat),
#ifdef __NR_open
	N(open), N(fork), N(vfork), N(stat), N(mknod), N(symlink),
#endif
};
#undef N

const char *
sandbox_syscall_name(long nr)
{
	size_t	 i;

	for (i = 0; i < nitems(names); i++)
		if (names[i].nr == nr)
			return names[i].name;
	return NULL;
}

/* ---- Landlock ---------------------------------------------------- */

/* The directory holding path (a file that may be replaced by rename). */
static void
ll_allow_dir_of(struct landlock *r, const char *path, uint64_t access)
{
	char	*d, *slash;

	if (path == NULL)
		return;
	/* "capsuled.yaml" is read again from the working directory. */
	d = strchr(path, '/') == NULL ? xasprintf("./%s", path) :
	    xstrdup(path);
	if ((slash = strrchr(d, '/')) != NULL) {
		if (slash == d)
			slash[1] = '\0';
		else
			*slash = '\0';
		landlock_allow(r, d, access);
	}
	free(d);
}

/*
 * User capsules: beneath every directory holding a home of a user in
 * the range (/home), so a user or capsule made later is served after
 * SIGHUP; the owner checks of core/userdir.c still apply to each.
 */
static void
ll_allow_homes(struct landlock *r, const struct config *cfg)
{
	struct passwd	*pw;

	setpwent();
	while ((pw = getpwent()) != NULL) {
		if (pw->pw_uid < cfg->userdirs_uid_min ||
		    pw->pw_uid > cfg->userdirs_uid_max ||
		    pw->pw_dir == NULL || pw->pw_dir[0] != '/' ||
		    strcmp(pw->pw_dir, "/") == 0)
			continue;
		ll_allow_dir_of(r, pw->pw_dir, LL_READ);
	}
	endpwent();
}

/* What ll_rules() found of the hosts, for the log line. */
struct ll_found {
	int		 anywhere;	/* a host follows links anywhere */
	int		 writable;	/* a host has Titan writers */
};

static void
ll_rules(struct landlock *r, const struct config *cfg, struct ll_found *fd)
{
	struct config	 v;
	size_t		 i;
	char		 exe[PATH_MAX];
	ssize_t		 n;

	/* Each host as its view says: writers, programs, links are a site's. */
	memset(fd, 0, sizeof(*fd));
	for (i = 0; i < config_nhosts(cfg); i++) {
		config_host_view(cfg, i, &v);
		landlock_allow(r, v.capsule_dir, v.ntitan_writers > 0 ?
		    LL_READ | LL_WRITE : LL_READ);
		/*
		 * The domain cannot grow: a host that a SIGHUP adds is
		 * served if its capsule lies beside one served now (as
		 * users' homes beside each other, below).
		 */
		ll_allow_dir_of(r, v.capsule_dir, LL_READ);
		landlock_allow(r, v.cert_dir, LL_READ);
		if (v.cgi != NULL) {
			char *d = xasprintf("%s/%s", v.capsule_dir, v.cgi);

			landlock_allow(r, d, LL_EXEC);
			free(d);
		}
		fd->writable |= v.ntitan_writers > 0;
		fd->anywhere |= v.follow_symlinks == CONFIG_LINKS_ANY;
	}
	/*
	 * Where a host's certificates default to: a host that a SIGHUP
	 * adds has its key made there (programs never see it: net/
	 * program.c leaves the folder out of their domain).
	 */
	landlock_allow(r, cfg->cert_dir, LL_READ | LL_CERTS);
	/* Links under files/ may lead anywhere: the operator said so. */
	if (fd->anywhere)
		landlock_allow(r, "/", LL_READ);
	ll_allow_dir_of(r, cfg->path, LL_READ);
	ll_allow_dir_of(r, cfg->ticket_keys, LL_READ);
	ll_allow_dir_of(r, cfg->log_file, LL_LOG);
	ll_allow_dir_of(r, cfg->access_log_file, LL_LOG);
	if (cfg->userdirs != NULL) {
		ll_allow_homes(r, cfg);
		/*
		 * useradd(8) replaces /etc/passwd by rename: a rule on the
		 * file would keep the old one, so files beneath /etc (no
		 * listing) may be read; root-only ones stay root's.
		 */
		landlock_allow(r, "/etc", LANDLOCK_ACCESS_FS_READ_FILE);
	}
	for (i = 0; i < nitems(sys_read); i++)
		landlock_allow(r, sys_read[i], LL_READ);
	if (config_has_backends(cfg) || config_announces(cfg))
		for (i = 0; i < nitems(resolver_read); i++)
			landlock_allow(r, resolver_read[i], LL_READ);
	/* Read again at each request (proxy) or each SIGHUP (zones). */
	for (i = 0; i < cfg->napps; i++) {
		landlock_allow(r, cfg->apps[i].client_cert, LL_READ);
		landlock_allow(r, cfg->apps[i].client_key, LL_READ);
	}
	for (i = 0; i < cfg->nzones; i++)
		landlock_allow(r, cfg->zones[i].ca, LL_READ);
	if (config_has_cgi(cfg)) {
		for (i = 0; i < nitems(cgi_exec); i++)
			landlock_allow(r, cgi_exec[i], LL_EXEC);
		for (i = 0; i < nitems(cgi_read); i++)
			landlock_allow(r, cgi_read[i], LL_READ);
		for (i = 0; i < nitems(cgi_devs); i++)
			landlock_allow(r, cgi_devs[i], LL_READ |
			    LANDLOCK_ACCESS_FS_WRITE_FILE);
		for (i = 0; i < nitems(cgi_write); i++)
			landlock_allow(r, cgi_write[i], LL_READ | LL_WRITE);
	}
	if (UNDER_ASAN) {
		/* LeakSanitizer's /proc/self/{maps,task}, its symbolizer. */
		landlock_allow(r, "/proc", LL_READ);
		if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) >
		    0) {
			exe[n] = '\0';
			ll_allow_dir_of(r, exe, LL_READ);
		}
	}
}

/* 0 and a description, or -1 (logged) when nothing could be done. */
static int
ll_enter(const struct config *cfg, char *what, size_t whatlen)
{
	struct landlock	 r;
	struct ll_found	 found;
	int		 abi;

	if ((abi = landlock_abi()) <= 0) {
		snprintf(what, whatlen, "no Landlock in this kernel");
		return -1;
	}
	if (landlock_new(&r, LANDLOCK_SCOPED) == -1) {
		snprintf(what, whatlen, "Landlock ABI %d: ruleset: %s", abi,
		    strerror(errno));
		return -1;
	}
	ll_rules(&r, cfg, &found);
	if (landlock_enter(&r) == -1) {
		snprintf(what, whatlen, "Landlock ABI %d: %s", abi,
		    strerror(errno));
		landlock_free(&r);
		return -1;
	}
	snprintf(what, whatlen, "Landlock ABI %d (%u paths%s%s%s%s)", abi,
	    r.n, found.anywhere ?
	    ", reads anywhere for follow_symlinks: true" : "",
	    found.writable ? ", capsules writable for Titan" : "",
	    abi >= 4 ? ", no TCP bind" : "",
	    abi >= 6 ? ", signals and abstract sockets scoped" : "");
	landlock_free(&r);
	return 0;
}

/* ---- seccomp ----------------------------------------------------- */

/*
 * The filter is written with labels (app/bpfasm.h): a jump names the
 * instruction it goes to, and bpfasm_link() counts the offsets.
 */
#define LD(p, off)	bpfasm_stmt(p, BPF_LD | BPF_W | BPF_ABS, off)
#define LD_NR(p)	LD(p, offsetof(struct seccomp_data, nr))
/* The low 32 bits of argument i (little-endian). */
#define LD_ARG(p, i)	LD(p, offsetof(struct seccomp_data, args[i]))
#define LD_ARG_HI(p, i)	LD(p, offsetof(struct seccomp_data, args[i]) + 4)
#define JEQ(p, k, t, f)	bpfasm_jump(p, BPF_JMP | BPF_JEQ | BPF_K, k, t, f)
#define RET(p, k)	bpfasm_stmt(p, BPF_RET | BPF_K, k)
#define NEXT		BPFASM_NEXT
#define ALLOW		SECCOMP_RET_ALLOW
#define TRAP		deny

/*
 * What a call not allowed gets: SIGSYS, so the handler can log it; but
 * with cgi EPERM from the kernel, since the handler is gone after
 * execve and a CGI program would be killed instead.  capsuled cannot
 * log those, so the filter asks the kernel to (SECCOMP_FILTER_FLAG_LOG:
 * an audit record naming the process and the call), else a call the
 * list forgot would leave no trace at all.
 */
static uint32_t		 deny = SECCOMP_RET_TRAP;

static void
allow(struct bpfasm *p, long nr)
{
	int	 other = bpfasm_label(p);

	JEQ(p, (uint32_t)nr, NEXT, other);
	RET(p, ALLOW);
	bpfasm_place(p, other);
}

/*
 * nr allowed when its argument arg (masked with mask, unless 0) is one
 * of v[0..n), refused when not; another call goes on, its number still
 * loaded.
 */
static void
allow_arg_in(struct bpfasm *p, long nr, int arg, uint32_t mask,
    const uint32_t *v, size_t n)
{
	int	 yes = bpfasm_label(p), other = bpfasm_label(p);
	size_t	 i;

	JEQ(p, (uint32_t)nr, NEXT, other);
	LD_ARG(p, arg);
	if (mask != 0)
		bpfasm_stmt(p, BPF_ALU | BPF_AND | BPF_K, mask);
	for (i = 0; i < n; i++)
		JEQ(p, v[i], yes, NEXT);
	RET(p, TRAP);
	bpfasm_place(p, yes);
	RET(p, ALLOW);
	bpfasm_place(p, other);
}

/* The calls every configuration needs. */
static const long base_calls[] = {
	/* The hot ones first: the filter is a list. */
	__NR_read, __NR_write, __NR_epoll_wait, __NR_epoll_pwait,
	__NR_epoll_ctl, __NR_futex, __NR_readv, __NR_writev, __NR_recvfrom,
	__NR_sendto, __NR_recvmsg, __NR_sendmsg, __NR_accept4,
	__NR_openat, __NR_close, __NR_fstat, __NR_newfstatat, __NR_statx,
	/* Memory. */
	__NR_mmap, __NR_munmap, __NR_mprotect, __NR_mremap, __NR_madvise,
	__NR_brk, __NR_membarrier,
	/* Files read, and written by Titan and the log. */
	__NR_lseek, __NR_pread64, __NR_pwrite64, __NR_getdents64,
	__NR_preadv, __NR_pwritev, __NR_preadv2, __NR_pwritev2,
	__NR_openat2, __NR_readlinkat, __NR_faccessat, __NR_faccessat2,
	__NR_fcntl, __NR_fstatfs, __NR_statfs, __NR_fadvise64, __NR_splice,
	/* Titan's replace and delete: made, renamed, linked, synced. */
	__NR_mkdirat, __NR_unlinkat, __NR_renameat, __NR_renameat2,
	__NR_linkat, __NR_fsync, __NR_fdatasync, __NR_ftruncate, __NR_fchmod,
	/* Sockets a client accepted, and the loops' descriptors. */
	__NR_shutdown, __NR_getsockopt, __NR_setsockopt, __NR_getsockname,
	__NR_getpeername, __NR_accept, __NR_recvmmsg, __NR_sendmmsg,
	__NR_epoll_create1, __NR_epoll_pwait2, __NR_eventfd2, __NR_pipe2,
	__NR_inotify_init1, __NR_inotify_add_watch, __NR_inotify_rm_watch,
	__NR_dup, __NR_dup3, __NR_ppoll, __NR_pselect6,
	/* Signals and threads. */
	__NR_rt_sigaction, __NR_rt_sigprocmask, __NR_rt_sigreturn,
	__NR_sigaltstack, __NR_set_robust_list, __NR_get_robust_list,
	__NR_rseq, __NR_exit, __NR_exit_group, __NR_kill, __NR_tgkill,
	__NR_tkill, __NR_restart_syscall, __NR_sched_yield,
	__NR_sched_getaffinity,
	/* What the process is, and the time. */
	__NR_getpid, __NR_gettid, __NR_getppid, __NR_getuid, __NR_geteuid,
	__NR_getgid, __NR_getegid, __NR_getresuid, __NR_getresgid,
	__NR_getgroups, __NR_uname, __NR_getcwd, __NR_sysinfo, __NR_umask,
	__NR_getrusage, __NR_getrandom, __NR_clock_gettime,
	__NR_clock_getres, __NR_clock_nanosleep, __NR_gettimeofday,
	__NR_nanosleep,
#ifdef __NR_open
	/* The older calls of the same, where the architecture has them. */
	__NR_open, __NR_stat, __NR_lstat, __NR_access, __NR_readlink,
	__NR_mkdir, __NR_unlink, __NR_rename, __NR_link, __NR_poll,
	__NR_select, __NR_epoll_create, __NR_eventfd, __NR_pipe,
	__NR_inotify_init, __NR_dup2, __NR_getdents, __NR_time,
	__NR_sendfile,
#endif
};

/* Starting a CGI program, and what the program itself may do. */
static const long cgi_calls[] = {
	/* Starting a program and waiting for it. */
	__NR_execve, __NR_execveat, __NR_wait4, __NR_waitid, __NR_setsid,
	__NR_setpgid, __NR_getpgid, __NR_getsid, __NR_chdir, __NR_fchdir,
	__NR_set_tid_address, __NR_close_range,
	/* What programs (shells, interpreters) ask of the process. */
	__NR_prlimit64, __NR_ioctl, __NR_prctl, __NR_times,
	__NR_getitimer, __NR_setitimer, __NR_rt_sigsuspend,
	__NR_rt_sigtimedwait, __NR_rt_sigpending, __NR_capget,
	__NR_getpriority, __NR_sched_getparam, __NR_sched_getscheduler,
	__NR_sched_setaffinity,
	/* And of their files and memory. */
	__NR_fchmodat, __NR_getxattr, __NR_lgetxattr, __NR_fgetxattr,
	__NR_flock, __NR_truncate, __NR_fallocate, __NR_copy_file_range,
	__NR_fchown, __NR_utimensat, __NR_sync_file_range,
	__NR_memfd_create, __NR_mincore, __NR_mlock, __NR_munlock,
	__NR_msync,
	/* A program's own Landlock domain (net/program.c). */
	__NR_landlock_create_ruleset, __NR_landlock_add_rule,
	__NR_landlock_restrict_self,
#ifdef __NR_open
	__NR_vfork, __NR_fork, __NR_getpgrp, __NR_arch_prctl,
	__NR_getrlimit, __NR_setrlimit, __NR_alarm, __NR_pause,
	__NR_chmod, __NR_creat, __NR_symlink,
#endif
};

/* LeakSanitizer stops the world at exit: a tracer and ptrace. */
static const long asan_calls[] = {
	__NR_ptrace, __NR_wait4, __NR_waitid, __NR_prctl, __NR_prlimit64,
	__NR_sched_getparam, __NR_sched_getscheduler, __NR_ioctl,
#ifdef __NR_getrlimit
	__NR_getrlimit,
#endif
#ifdef __NR_arch_prctl
	__NR_arch_prctl,
#endif
};

/*
 * Client sockets (FastCGI, SCGI, proxy backends, aggregators, syslog):
 * which ones.
 */
static int
client_sockets(const struct config *cfg)
{
	/*
	 * FastCGI, SCGI and proxy backends are connected per request,
	 * aggregators when a post goes live, and the syslog socket again
	 * after SIGHUP: with any configured the server makes sockets after
	 * start-up; without, never.
	 */
	return config_has_backends(cfg) || config_announces(cfg) ||
	    cfg->log_syslog;
}

static void
build_filter(struct bpfasm *p, const struct config *cfg)
{
	static const uint32_t prctl_ok[] = { PR_SET_NAME, PR_GET_NAME,
	    0x53564d41 /* PR_SET_VMA: glibc names its mappings */ };
	static const uint32_t ioctl_ok[] = { FIONBIO, FIOCLEX, FIONCLEX,
	    FIONREAD, TCGETS, TIOCGWINSZ };
	static const uint32_t family_ok[] = { AF_UNIX, AF_INET, AF_INET6 };
	int	 cgi = config_has_cgi(cfg), asan = UNDER_ASAN;
	int	 nr, yes, no, other;
	size_t	 i;

	deny = cgi ? SECCOMP_RET_ERRNO | EPERM : SECCOMP_RET_TRAP;

	LD(p, offsetof(struct seccomp_data, arch));
	nr = bpfasm_label(p);
	JEQ(p, SB_ARCH, nr, NEXT);
	RET(p, SECCOMP_RET_KILL_PROCESS);
	bpfasm_place(p, nr);
	LD_NR(p);
#ifdef __X32_SYSCALL_BIT
	other = bpfasm_label(p);
	bpfasm_jump(p, BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, NEXT,
	    other);
	RET(p, TRAP);
	bpfasm_place(p, other);
#endif
	/*
	 * glibc falls back to clone(2), whose flags we can read.  With cgi
	 * clone's flags are not checked, so clone3 gains nothing from an
	 * ENOSYS, which the kernel would record at every thread start
	 * (SECCOMP_FILTER_FLAG_LOG): allowed there.
	 */
	other = bpfasm_label(p);
	JEQ(p, __NR_clone3, NEXT, other);
	RET(p, cgi ? ALLOW : SECCOMP_RET_ERRNO | ENOSYS);
	bpfasm_place(p, other);
	/* Nor io_uring: a large surface nothing here uses. */
	other = bpfasm_label(p);
	JEQ(p, __NR_io_uring_setup, NEXT, other);
	RET(p, SECCOMP_RET_ERRNO | ENOSYS);
	bpfasm_place(p, other);
	if (cgi || asan)
		allow(p, __NR_clone);
	else {
		/* Threads only: CLONE_THREAD set. */
		yes = bpfasm_label(p);
		other = bpfasm_label(p);
		JEQ(p, __NR_clone, NEXT, other);
		LD_ARG(p, 0);
		bpfasm_jump(p, BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, yes,
		    NEXT);
		RET(p, TRAP);
		bpfasm_place(p, yes);
		RET(p, ALLOW);
		bpfasm_place(p, other);
	}
	if (!cgi && !asan) {
		allow_arg_in(p, __NR_prctl, 0, 0, prctl_ok,
		    nitems(prctl_ok));
		allow_arg_in(p, __NR_ioctl, 1, 0, ioctl_ok,
		    nitems(ioctl_ok));
		/* getrlimit(): prlimit64(0, r, NULL, old), new NULL. */
		yes = bpfasm_label(p);
		no = bpfasm_label(p);
		other = bpfasm_label(p);
		JEQ(p, __NR_prlimit64, NEXT, other);
		LD_ARG(p, 2);
		JEQ(p, 0, NEXT, no);
		LD_ARG_HI(p, 2);
		JEQ(p, 0, yes, NEXT);
		bpfasm_place(p, no);
		RET(p, TRAP);
		bpfasm_place(p, yes);
		RET(p, ALLOW);
		bpfasm_place(p, other);
	}
	if (cgi && !client_sockets(cfg)) {
		/*
		 * libuv's pipes to a CGI program are socket pairs; the C
		 * library's user lookups (ls -l, id) in a program ask nscd
		 * or systemd over a local socket.
		 */
		static const uint32_t unix_only[] = { AF_UNIX };

		allow_arg_in(p, __NR_socketpair, 0, 0, unix_only, 1);
		allow_arg_in(p, __NR_socket, 0, 0, unix_only, 1);
		allow(p, __NR_connect);
	}
	if (client_sockets(cfg)) {
		allow(p, __NR_socketpair);
		allow_arg_in(p, __NR_socket, 0, 0, family_ok,
		    nitems(family_ok));
		/* allow_arg_in() returned or kept nr; types are not asked */
		allow(p, __NR_connect);
	}
	for (i = 0; i < nitems(base_calls); i++)
		allow(p, base_calls[i]);
	if (cgi)
		for (i = 0; i < nitems(cgi_calls); i++)
			allow(p, cgi_calls[i]);
	if (asan)
		for (i = 0; i < nitems(asan_calls); i++)
			allow(p, asan_calls[i]);
	RET(p, TRAP);
}

static void
put_num(char *s, size_t *n, unsigned long v)
{
	char	 d[24];
	size_t	 k = 0;

	do
		d[k++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (k > 0)
		s[(*n)++] = d[--k];
}

/* SIGSYS from the filter: the call returns EPERM; the loop logs it. */
static void
on_sigsys(int sig, siginfo_t *si, void *uctx)
{
	ucontext_t	*uc = uctx;
	unsigned	 i;
	int		 saved = errno;

	(void)sig;
#if defined(__x86_64__)
	uc->uc_mcontext.gregs[REG_RAX] = -EPERM;
#elif defined(__aarch64__)
	uc->uc_mcontext.regs[0] = (uint64_t)-EPERM;
#endif
	i = atomic_fetch_add(&nrefused, 1);
	atomic_store(&last_nr[i % nitems(last_nr)], (long)si->si_syscall);
	if (atomic_load(&async_on))
		uv_async_send(&refused_async);
	else {
		char	 line[96];
		size_t	 n = 0;

		memcpy(line, "capsuled: sandbox: system call ", 31);
		n = 31;
		put_num(line, &n, (unsigned long)si->si_syscall);
		memcpy(line + n, " refused (EPERM)\n", 17);
		n += 17;
		(void)!write(STDERR_FILENO, line, n);
	}
	errno = saved;
}

static void
on_refused(uv_async_t *h)
{
	unsigned	 total = atomic_load(&nrefused);
	unsigned	 from = atomic_load(&nlogged), i;
	const char	*name;
	long		 nr;

	if (total - from > nitems(last_nr))
		from = total - (unsigned)nitems(last_nr);
	for (i = from; i < total; i++) {
		nr = atomic_load(&last_nr[i % nitems(last_nr)]);
		name = sandbox_syscall_name(nr);
		log_warnx("sandbox: system call %ld (%s) refused with EPERM "
		    "(%u refused in all)", nr, name ? name : "?", total);
	}
	atomic_store(&nlogged, total);
}

int
sandbox_filter(const struct config *cfg, struct bpfasm *p,
    const char **errstr)
{
#ifdef SB_ARCH
	build_filter(p, cfg);
	return bpfasm_link(p, errstr);
#else
	*errstr = "no seccomp filter for this architecture";
	return -1;
#endif
}

/* 0 and a description, or -1. */
static int
seccomp_enter(const struct config *cfg, uv_loop_t *loop, char *what,
    size_t whatlen)
{
#ifdef SB_ARCH
	struct sock_fprog fp;
	struct sigaction sa;
	struct bpfasm	 p;
	const char	*err;
	size_t		 n;
	long		 rv;
	unsigned	 flags = SECCOMP_FILTER_FLAG_TSYNC;

	bpfasm_init(&p);
	if (sandbox_filter(cfg, &p, &err) == -1) {
		snprintf(what, whatlen, "seccomp: filter: %s", err);
		bpfasm_free(&p);
		return -1;
	}
	if (loop != NULL && !atomic_load(&async_on) &&
	    uv_async_init(loop, &refused_async, on_refused) == 0) {
		uv_unref((uv_handle_t *)&refused_async);
		atomic_store(&async_on, 1);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSYS, &sa, NULL);
	fp.len = (unsigned short)p.n;
	fp.filter = p.insn;
	if (config_has_cgi(cfg))
		flags |= SECCOMP_FILTER_FLAG_LOG;
	rv = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &fp);
	if (rv == -1 && errno == EINVAL && (flags & SECCOMP_FILTER_FLAG_LOG)) {
		/* Before Linux 4.14: no such flag, so no record either. */
		flags &= ~SECCOMP_FILTER_FLAG_LOG;
		rv = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags,
		    &fp);
	}
	n = p.n;
	bpfasm_free(&p);
	if (rv != 0) {
		snprintf(what, whatlen, "seccomp: %s", rv > 0 ?
		    "a thread could not be synchronised" : strerror(errno));
		return -1;
	}
	snprintf(what, whatlen, "seccomp allow-list (%zu instructions; "
	    "others EPERM%s%s%s)", n, !config_has_cgi(cfg) ? ", logged" :
	    flags & SECCOMP_FILTER_FLAG_LOG ? ", in the kernel's audit log; "
	    "fork, execve and local sockets for CGI" : ", not logged; fork, "
	    "execve and local sockets for CGI", client_sockets(cfg) ?
	    "; client sockets" :
	    config_has_cgi(cfg) ? "" : "; no new sockets",
	    UNDER_ASAN ? "; relaxed for ASan" : "");
	return 0;
#else
	snprintf(what, whatlen, "no seccomp filter for this architecture");
	return -1;
#endif
}

/* The server's own sandbox: sandbox_enter() without the programs. */
static int
enter(const struct config *cfg, uv_loop_t *loop, char *what,
    size_t whatlen)
{
	char	 ll[256], sc[256];
	int	 on = 0;

	if (!cfg->sandbox) {
		snprintf(what, whatlen, "off (sandbox: off)");
		return 0;
	}
	if (landlock_valgrind()) {
		snprintf(what, whatlen, "off under valgrind (it makes the "
		    "program's system calls itself)");
		return 0;
	}
	/* Both require it unless privileged; priv_drop() may have set it. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1) {
		snprintf(what, whatlen, "off: no_new_privs: %s",
		    strerror(errno));
		return 0;
	}
	if (ll_enter(cfg, ll, sizeof(ll)) == 0)
		on |= SANDBOX_LANDLOCK;
	if (seccomp_enter(cfg, loop, sc, sizeof(sc)) == 0)
		on |= SANDBOX_SECCOMP;
	snprintf(what, whatlen, "%s%s; %s%s", on & SANDBOX_LANDLOCK ?
	    "" : "files not confined: ", ll, on & SANDBOX_SECCOMP ?
	    "" : "system calls not filtered: ", sc);
	return on;
}

int
sandbox_enter(const struct config *cfg, uv_loop_t *loop, char *what,
    size_t whatlen)
{
	char	 prog[256];
	int	 on;

	on = enter(cfg, loop, what, whatlen);
	/*
	 * Programs get a stricter domain of their own, cut from this one,
	 * whether the server has one or not (net/program.c): said here,
	 * once the server's domain is known, and tried once.
	 */
	if (config_has_cgi(cfg)) {
		program_describe(cfg, prog, sizeof(prog));
		log_info("programs: %s", prog);
	}
	return on;
}

void
sandbox_stop(void)
{
	if (atomic_exchange(&async_on, 0))
		uv_close((uv_handle_t *)&refused_async, NULL);
}
