/*
 * priv.c -- chroot and the switch to an unprivileged user.
 *
 * See priv.h for the order of the calls.  The drop is the classic one:
 * supplementary groups first (setgroups needs root), then the group IDs,
 * then the user IDs, real, effective and saved alike, so that nothing
 * can switch back; then we check that it really cannot.  Before that,
 * only the effective IDs change (seteuid), so that the content is read
 * with the user's rights while root is still at hand for bind(2).
 * Every path rewritten for the jail is resolved with realpath() first,
 * so a symlink cannot make a directory look inside the jail when it is
 * not.  Knows nothing of the server.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/priv.h"
#include "core/config.h"
#include "core/log.h"
#include "core/util.h"

#if defined(__SANITIZE_ADDRESS__)	/* gcc */
#define PRIV_ASAN	1
#elif defined(__has_feature)		/* clang */
#if __has_feature(address_sanitizer)
#define PRIV_ASAN	1
#endif
#endif

char *
priv_jail_path(const char *root, const char *path)
{
	size_t	 len = strlen(root);

	while (len > 1 && root[len - 1] == '/')
		len--;
	if (len == 1 && root[0] == '/')
		return xstrdup(path);
	if (strncmp(path, root, len) != 0 ||
	    (path[len] != '/' && path[len] != '\0'))
		return NULL;
	return xstrdup(path[len] == '\0' ? "/" : path + len);
}

/* path under the jail at real (a realpath), or NULL when it is not. */
static char *
jailed(const char *real, const char *path)
{
	char	*r, *out;

	if ((r = realpath(path, NULL)) == NULL)
		return NULL;
	out = priv_jail_path(real, r);
	free(r);
	return out;
}

int
priv_prepare(struct priv *p, const struct config *cfg, int allow_root,
    char *err, size_t errlen)
{
	struct passwd	*pw;
	struct config	 v;
	char		*key, *root = NULL, *in = NULL;
	size_t		 i;
	int		 rv = -1;

	memset(p, 0, sizeof(*p));
	p->root = geteuid() == 0;
	if (cfg->user != NULL) {
		errno = 0;
		if ((pw = getpwnam(cfg->user)) == NULL) {
			snprintf(err, errlen, "user: no user named '%s'%s%s",
			    cfg->user, errno ? ": " : "",
			    errno ? strerror(errno) : "");
			goto done;
		}
		if (pw->pw_uid == 0) {
			snprintf(err, errlen, "user: '%s' is root; name an "
			    "unprivileged user", cfg->user);
			goto done;
		}
		p->uid = pw->pw_uid;
		p->gid = pw->pw_gid;
		snprintf(p->user, sizeof(p->user), "%s", cfg->user);
		if (p->root)
			p->drop = 1;
		else if (getuid() != p->uid || geteuid() != p->uid) {
			snprintf(err, errlen, "user: switching to '%s' needs "
			    "root", cfg->user);
			goto done;
		}
	}
	if (cfg->chroot_dir != NULL) {
		if (!p->root) {
			snprintf(err, errlen, "chroot: %s: needs root",
			    cfg->chroot_dir);
			goto done;
		}
		if ((root = realpath(cfg->chroot_dir, NULL)) == NULL) {
			snprintf(err, errlen, "chroot: %s: %s",
			    cfg->chroot_dir, strerror(errno));
			goto done;
		}
		for (i = 0; i < config_nhosts(cfg); i++) {
			config_host_view(cfg, i, &v);
			if ((in = jailed(root, v.capsule_dir)) == NULL) {
				snprintf(err, errlen, "chroot: the capsule %s "
				    "is not inside %s", v.capsule_dir, root);
				goto done;
			}
			free(in);
			in = NULL;
		}
	}
	if (root != NULL && cfg->ticket_keys != NULL &&
	    (in = jailed(root, cfg->ticket_keys)) == NULL) {
		/* Read after the chroot, and again on every change. */
		if (access(cfg->ticket_keys, F_OK) == -1)
			snprintf(err, errlen, "ticket_keys: %s: %s",
			    cfg->ticket_keys, strerror(errno));
		else
			snprintf(err, errlen, "chroot: the ticket key file %s "
			    "is not inside %s", cfg->ticket_keys, root);
		goto done;
	}
	free(in);
	in = NULL;
	if (p->root && !p->drop && !cfg->allow_root && !allow_root) {
		snprintf(err, errlen, "refusing to serve as root: set `user:` "
		    "in the configuration to drop to an unprivileged user "
		    "after binding, or say allow_root: true (or "
		    "--allow-root)");
		goto done;
	}
	p->key_existed = 0;
	for (i = 0; i < config_nhosts(cfg); i++) {
		config_host_view(cfg, i, &v);
		key = xasprintf("%s/key.pem", v.cert_dir);
		if (access(key, F_OK) == 0)
			p->key_existed |= (uint64_t)1 << i;
		free(key);
	}
	rv = 0;
done:
	free(root);
	free(in);
	return rv;
}

/* Give one file we just made to the user; the fd pins what we chown. */
static void
give(const struct priv *p, const char *dir, const char *name)
{
	char	*path = xasprintf("%s/%s", dir, name);
	int	 fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1 ||
	    fchown(fd, p->uid, p->gid) == -1)
		log_warn("%s: cannot give it to %s", path, p->user);
	else
		log_info("%s: made at this start, given to user %s", path,
		    p->user);
	if (fd != -1)
		close(fd);
	free(path);
}

/* Replace *path with its view from inside the jail, when it has one. */
static int
rewrite(const char *root, char **path, const char *what)
{
	char	*in;

	if (*path == NULL)
		return 0;
	if ((in = jailed(root, *path)) == NULL) {
		log_warnx("chroot: %s %s lies outside %s: opened now, but "
		    "it cannot be reopened or reloaded later", what, *path,
		    root);
		return -1;
	}
	free(*path);
	*path = in;
	return 0;
}

int
priv_confine(struct priv *p, struct config *cfg)
{
	struct config	 v;
	char		 key[PATH_MAX];
	char		*root, *in = NULL;
	size_t		 i;

	for (i = 0; p->drop && i < config_nhosts(cfg); i++) {
		config_host_view(cfg, i, &v);
		snprintf(key, sizeof(key), "%s/key.pem", v.cert_dir);
		if (!(p->key_existed & (uint64_t)1 << i) &&
		    access(key, F_OK) == 0) {
			give(p, v.cert_dir, "key.pem");
			give(p, v.cert_dir, "cert.pem");
		}
	}
	if (cfg->chroot_dir != NULL) {
		if ((root = realpath(cfg->chroot_dir, NULL)) == NULL) {
			log_error("chroot: %s", cfg->chroot_dir);
			return -1;
		}
		/* Now, while the outside paths still mean something. */
		if (rewrite(root, &cfg->capsule_dir, "the capsule") == -1) {
			free(root);
			return -1;
		}
		(void)rewrite(root, &cfg->cert_dir,
		    "the certificate directory");
		(void)rewrite(root, &cfg->ticket_keys, "the ticket key file");
		for (i = 0; i < cfg->nhosts; i++) {
			if (rewrite(root, &cfg->hosts[i].site->capsule_dir,
			    "the capsule") == -1) {
				free(root);
				return -1;
			}
			(void)rewrite(root, &cfg->hosts[i].site->cert_dir,
			    "the certificate directory");
		}
		if (cfg->log_file != NULL && (in = jailed(root,
		    cfg->log_file)) == NULL)
			log_warnx("chroot: the log file %s lies outside %s: "
			    "SIGUSR1 cannot reopen it", cfg->log_file, root);
		free(in);
		in = NULL;
		if (cfg->access_log_file != NULL && (in = jailed(root,
		    cfg->access_log_file)) == NULL)
			log_warnx("chroot: the access log %s lies outside %s: "
			    "SIGUSR1 cannot reopen it", cfg->access_log_file,
			    root);
		free(in);
		if (chroot(root) == -1 || chdir("/") == -1) {
			log_error("chroot: %s", root);
			free(root);
			return -1;
		}
		log_info("chroot: confined to %s; the capsule is %s there",
		    root, cfg->capsule_dir);
		if (!p->drop)
			log_warnx("chroot without `user:`: root can leave a "
			    "chroot");
		free(root);
		p->jailed = 1;
	}
	if (!p->drop)
		return 0;
	/* The content is read with the user's rights, not root's. */
	if (setgroups(1, &p->gid) == -1 || setegid(p->gid) == -1 ||
	    seteuid(p->uid) == -1) {
		log_error("user %s", p->user);
		return -1;
	}
	return 0;
}

int
priv_restore(struct priv *p)
{
	if (!p->drop || geteuid() == 0)
		return 0;
	if (seteuid(0) == -1 || setegid(0) == -1) {
		log_error("back to root for bind");
		return -1;
	}
	return 0;
}

int
priv_drop(struct priv *p)
{
	uid_t	 ru, eu, su;
	gid_t	 rg, eg, sg, groups[4];
	int	 n;

	if (!p->drop)
		return 0;
	if (priv_restore(p) == -1)
		return -1;
	if (setgroups(1, &p->gid) == -1 ||
	    setresgid(p->gid, p->gid, p->gid) == -1 ||
	    setresuid(p->uid, p->uid, p->uid) == -1) {
		log_error("dropping privileges to %s", p->user);
		return -1;
	}
	/* Trust, but verify: every ID is the user's, and root stays gone. */
	if (getresuid(&ru, &eu, &su) == -1 || getresgid(&rg, &eg, &sg) == -1 ||
	    ru != p->uid || eu != p->uid || su != p->uid || rg != p->gid ||
	    eg != p->gid || sg != p->gid ||
	    (n = getgroups((int)nitems(groups), groups)) < 0 || n > 1 ||
	    (n == 1 && groups[0] != p->gid)) {
		log_errorx("dropping privileges to %s: IDs not as set",
		    p->user);
		return -1;
	}
	if (setuid(0) != -1 || seteuid(0) != -1 || setgid(0) != -1) {
		log_errorx("dropping privileges to %s: root could be regained",
		    p->user);
		return -1;
	}
	/* Nothing we could exec may raise us again either. */
	(void)prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
#if defined(PRIV_ASAN)
	/*
	 * Sanitizer builds only (tests): LeakSanitizer reads /proc/self and
	 * ptraces its own threads at exit, which a process that changed its
	 * IDs may not do.  Release builds stay non-dumpable: no other
	 * process of this user can read the TLS key out of our memory.
	 */
	(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
#endif
	log_info("running as %s (uid %u, gid %u)%s", p->user,
	    (unsigned)p->uid, (unsigned)p->gid, p->jailed ? ", chrooted" : "");
	return 0;
}
