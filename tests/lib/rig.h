/*
 * rig.h -- a capsuled with every feature on at once (rig.c), for
 * e2e_sandbox and the soak: CGI (optional), FastCGI through Debian's
 * fcgiwrap, SCGI through apps.c's server, a Gemini proxy to a second
 * capsuled (the backend, which logs to syslog: a datagram socket read
 * here), search, Titan on a page bundle, the watcher, a static tree
 * with a gophermap, a user capsule (made with useradd, as root), the
 * Spartan, Nex and Finger surfaces, a host added by SIGHUP with a
 * certificate made then, and the log moved away and reopened on
 * SIGUSR1.  As root both servers run as nobody.
 *
 * Each probe asks one feature one question and judges the answer
 * against what the rig wrote; rig_probe() says 1 (right), 0 (wrong) or
 * -1 (no answer), and why.  The rig owns its tree under /tmp, its
 * servers, helpers and user; rig_free() removes them all.
 */
#ifndef CAPSULED_TEST_RIG_H
#define CAPSULED_TEST_RIG_H

#include <pthread.h>
#include <stdatomic.h>

#include "e2e.h"

#define RIG_HOST2	"second.test"	/* the host a SIGHUP adds */
#define RIG_WORD	"zanzibarite"	/* in one post only: search */
#define RIG_BUNDLE	"trip"		/* posts/2024/trip/: Titan's */

enum rig_probe {
	RIG_HOME,
	RIG_CGI,		/* only when started with cgi */
	RIG_FASTCGI,
	RIG_SCGI,
	RIG_PROXY,
	RIG_SEARCH,
	RIG_SEARCH_GOPHER,
	RIG_TREE,
	RIG_LISTING,
	RIG_GOPHERMAP,
	RIG_USER,		/* only when there is a user capsule */
	RIG_USER_GOPHER,
	RIG_SPARTAN,
	RIG_NEX,
	RIG_FINGER,
	RIG_NPROBES
};

/* The backend's syslog lines, as a thread of the rig reads them. */
struct rig_syslog {
	int		 fd;
	pthread_t	 thread;
	atomic_int	 stop;
	atomic_long	 lines;
	atomic_long	 refused;	/* "refused with EPERM" */
	atomic_long	 dropped;	/* the sum of "log: N lines dropped" */
	atomic_long	 reloads;	/* "reload: configuration" */
	atomic_long	 far;		/* access lines of the proxied page */
};

struct rig {
	char		 top[64];	/* everything below: 0755 */
	char		 capsule[128];	/* the main host's, nobody's */
	char		 second[128];	/* RIG_HOST2's */
	char		 backcap[128];	/* the backend's */
	/*
	 * The main server's certificates: outside /tmp when it can be (in
	 * /run), where neither the log's folder nor what programs may
	 * write (/tmp) would let the server make a key by chance.
	 */
	char		 certs[128];
	char		 fsock[160], ssock[160], lsock[160];
	char		 user[32];	/* the user capsule's login, or "" */
	char		 nouser[160];	/* why there is none */
	unsigned	 uid;
	pid_t		 fcgiwrap, scgi;
	struct e2e_server main, back;	/* pid -1: not running */
	const char	*extra;		/* more YAML for the main server, or NULL */
	int		 cgi;		/* rig_start()'s */
	int		 host2;		/* the main configuration names it */
	int		 spartan_port, nex_port, finger_port;
	int		 nlogs;		/* main logs moved away */
	SSL_CTX		*anon, *writer;
	char		 writer_hex[65];
	struct rig_syslog sys;
};

/*
 * The tree, the user capsule (as root; else r->nouser says why),
 * fcgiwrap and the SCGI server: 0, or -1 (r->nouser, or a message on
 * stderr).  Skipped by the caller when fcgiwrap is missing:
 * apps_have_fcgiwrap().
 */
int	rig_make(struct rig *r);
/* The backend, then the main server (with cgi: when cgi): 0 or -1. */
int	rig_start(struct rig *r, int cgi);
/* SIGTERM both: 0 when both exited 0. */
int	rig_stop(struct rig *r);
/* Stop what runs, remove the user, the helpers and the tree. */
void	rig_free(struct rig *r);

/* Ask probe p: 1 right, 0 wrong, -1 no answer; why says what. */
int	rig_probe(struct rig *r, enum rig_probe p, char *why, size_t len);
const char *rig_probe_name(enum rig_probe p);
/* Does the rig have what p asks (cgi, a user capsule)? */
int	rig_probe_on(const struct rig *r, enum rig_probe p);

/* RIG_HOST2's home over Gemini: the reply (reply_free() it). */
struct reply rig_host2_get(struct rig *r);
/* The CN of the certificate the main server shows RIG_HOST2: 0 or -1. */
int	rig_host2_cn(struct rig *r, char *cn, size_t len);
/*
 * The main configuration again, naming RIG_HOST2 or not (its
 * certificate directory removed first, so that it is made again),
 * then SIGHUP: 0 when the log says it was loaded, within limit_ms.
 */
int	rig_reload(struct rig *r, int host2, unsigned limit_ms);
/*
 * A Titan upload of body (NULL: a delete) to /posts/slug, as the
 * writer: the reply's status, -1 for none.
 */
int	rig_titan(struct rig *r, const char *slug, const char *body);
/* posts/2024/trip/ written straight to disk, its text says ver. */
void	rig_bundle_put(struct rig *r, const char *ver);
/* The user's post written again (a new file renamed over), version v. */
void	rig_user_edit(struct rig *r, int v);
/*
 * The main log moved to capsuled.log.N, then SIGUSR1: 0 when a new
 * capsuled.log holds a line written after it, within limit_ms.
 */
int	rig_rotate(struct rig *r, unsigned limit_ms);
/* Lines with needle in every main log, moved ones too. */
int	rig_log_count(struct rig *r, const char *needle);
/* The sum of the main logs' "log: N lines dropped" lines. */
long	rig_log_dropped(struct rig *r);

#endif
