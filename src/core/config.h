/*
 * config.h -- the YAML configuration file, as one struct config.
 *
 * config_load() fills a struct config from a file, starting from the
 * defaults (which run as-is on localhost).  Paths in the file are taken
 * relative to the directory of the file and stored absolute.  A site
 * key may be set per host ("hosts:"); what a host, or a user capsule,
 * is served with is its view (config_host_view(), config_user_view()),
 * and config_print() writes every host's back as YAML.  Knows libyaml,
 * nothing of the server.  A struct config owns every string in it, its
 * hosts' too; config_free() releases them.  After startup it is
 * read-only and shared by all threads.
 */
#ifndef CAPSULED_CONFIG_H
#define CAPSULED_CONFIG_H

#include <stddef.h>

#include "core/log.h"
#include "core/redirect.h"	/* struct config_redirect */
#include "core/surface.h"

/* Served at /robots.txt unless the file says otherwise: allow all. */
#define CONFIG_ROBOTS_DEFAULT	"User-agent: *\nDisallow:\n"

struct buf;
struct config;
struct config_app;
struct config_types;
struct robots;

/* Keys of the file, at most (core/config_keys.c's table). */
#define CONFIG_KEYS_MAX		128

/*
 * One more name served on the Gemini port ("hosts:"), a site of its
 * own: site holds what its item says (its name, capsule and
 * certificates, filled in when left out, and whichever site keys it
 * sets; zero elsewhere), and set says which keys those are.  The top
 * level is the first host, the one served to clients that send no (or
 * an unknown) server name, and over Gopher; its values are the
 * defaults of every other.  config_host_view() makes a host's whole
 * configuration from the two.
 */
struct config_host {
	struct config	*site;		/* owned; partial: read a host through
					   config_host_view() */
	unsigned char	 set[CONFIG_KEYS_MAX / 8]; /* bit i: key i is
					   set (config_keys()) */
};

/*
 * One entry of "cert_zones": a path prefix (of one host, or of every
 * host) that Gemini serves only to a client certificate the zone
 * accepts (site/zone.h): one of its fingerprints, one that chains to
 * its CA file, or, with neither, any certificate.  Gopher never serves
 * a zone's content.
 */
struct config_zone {
	char		*host;		/* owned, lower case; NULL: every host */
	char		*path;		/* owned: "/family", no trailing '/';
					   "" for the whole host */
	char		**fingerprints;	/* owned: SHA-256, lower-case hex */
	size_t		 nfingerprints;
	char		*ca;		/* owned: absolute CA file, or NULL */
	int		 require;	/* 1: "require: certificate" (the only
					   requirement there is) */
};

#define CONFIG_MAX_ZONES	1000	/* "cert_zones" items */
#define CONFIG_MAX_ZONE_PATH	1024	/* bytes of a zone's "path" */

#define CONFIG_MAX_HOSTS	4096	/* "hosts:" items, plus the first */

/* follow_symlinks: which symbolic links under files/ are followed. */
enum config_links {
	CONFIG_LINKS_INSIDE,		/* "false": only those that stay inside */
	CONFIG_LINKS_ANY,		/* "true": also those that lead out */
	CONFIG_LINKS_NONE,		/* "never": none at all */
};

/* listing_sort: the order of a listing's entries. */
enum config_sort {
	CONFIG_SORT_NAME,		/* "name": by name */
	CONFIG_SORT_DATE,		/* "date": newest first */
};

/* tls_protocols: the TLS versions the Gemini port speaks. */
enum config_tls {
	CONFIG_TLS_12,			/* "1.2 1.3" (and spellings): both */
	CONFIG_TLS_13,			/* "1.3": TLS 1.3 only */
};

/* gopher_charset: what Gopher menus and texts are written in. */
enum config_charset {
	CONFIG_CHARSET_UTF8,		/* "utf-8": as written */
	CONFIG_CHARSET_ASCII,		/* "ascii": transliterated */
};

struct config {
	char		*path;		/* the file it came from, or NULL */

	/* Where readers find us: written into links and Gopher menus. */
	char		*hostname;	/* public name, default "localhost" */
	char		**bind;		/* addresses to listen on */
	size_t		 nbind;		/* default: 127.0.0.1 and ::1 */
	/*
	 * Each surface's port (core/surface.h), from its "<name>_port"
	 * key: 0 turns it off (Gemini cannot be).  Behind NAT or a port
	 * forward, "<name>_public_port" is the port clients use, written
	 * in absolute links, menus, feeds and redirects and answered as
	 * our own; 0: the port itself (config_public_port()).
	 */
	int		 port[SURFACE_N];
	int		 public_port[SURFACE_N];

	char		*capsule_dir;	/* absolute; default <confdir>/../capsule */
	char		*cert_dir;	/* absolute; default <confdir>/../certs */
	/*
	 * 1: capsule_dir is itself the posts/ folder, a bare folder of
	 * posts (`capsuled serve`, app/preview.c); no YAML key sets it.
	 */
	int		 posts_here;
	/* More names on the Gemini port (SNI); see config_host_view(). */
	struct config_host *hosts;	/* owned */
	size_t		 nhosts;	/* 0: the top-level one only */

	/* Live editing: watch the content, cache what was rendered. */
	int		 watch;		/* 1 = rebuild when content changes */
	unsigned	 watch_debounce_ms; /* quiet time before a rebuild */
	size_t		 cache_max_bytes; /* rendered pages; 0 = no limit */
	size_t		 file_cache_max; /* files kept in memory up to this
					    size (watch on); 0 = none */

	int		 workers;	/* 0 = auto: one per core */
	unsigned	 request_timeout_ms; /* handshake + request line */
	unsigned	 idle_timeout_ms; /* no progress while answering */
	unsigned	 max_connections; /* per worker share of the total */

	/* Hardening: limits, file access, privileges, TLS tickets. */
	unsigned	 handshake_timeout_ms; /* TLS handshake alone */
	unsigned	 max_conns_per_ip; /* open at once; 0 = no limit */
	unsigned	 rate_limit_milli; /* requests/s x 1000; 0 = off */
	unsigned	 rate_burst;	/* requests in a burst */
	size_t		 max_post_size;	/* bytes of one Markdown file */
	size_t		 max_archive_size; /* bytes of Markdown in all */
	int		 follow_symlinks; /* CONFIG_LINKS_* */
	int		 files_hardlinks; /* 1 = serve st_nlink > 1 files */
	int		 listings;	/* 1 = list files/ directories
					   without an index.gmi */
	/*
	 * A static tree served at "/" beside the generated pages
	 * (docs/operating.md, "Static trees"): root is a directory of the
	 * capsule (NULL: none); a path no generated page answers is
	 * looked up in it.  With mount ("/gemlog"), the generated pages
	 * are served under that prefix only, and the tree has every other
	 * path.
	 */
	char		*root;		/* owned: "site", or NULL */
	char		*mount;		/* owned: "/gemlog", or NULL */
	char		*index;		/* owned: a directory's page,
					   "index.gmi" */
	int		 root_listings;	/* 1 = list the tree's directories */
	int		 listing_titles; /* 1 = a .gmi file's first heading */
	int		 listing_sort;	/* CONFIG_SORT_* */
	int		 listing_reverse; /* 1 = that order backwards */
	/*
	 * Types and language per path (core/config_types.h): extensions'
	 * types over the built-in table, the type of what neither knows,
	 * and lang and charset parameters by path prefix.
	 */
	struct config_types *types;	/* owned; NULL: none set */
	char		*user;		/* drop to this user; NULL = stay */
	char		*chroot_dir;	/* absolute; NULL = no chroot */
	int		 allow_root;	/* 1 = may serve as root */
	int		 sandbox;	/* 1 = Landlock and seccomp once
					   serving (app/sandbox.h) */
	unsigned	 ticket_rotation_ms; /* TLS ticket key lifetime */
	int		 tls_protocols;	/* CONFIG_TLS_*: versions offered */
	/*
	 * Ticket keys shared by a fleet: this file's (absolute), re-read
	 * when it changes; NULL: each process makes and rotates its own.
	 */
	char		*ticket_keys;	/* owned or NULL */

	/*
	 * Load balancers in front: a connection from one of these (an
	 * address, or one with a prefix length: "10.0.0.0/8") starts with
	 * a PROXY protocol header naming the real client; none: off.
	 */
	char		**proxy_protocol; /* owned */
	size_t		 nproxy_protocol;

	/* Site: fallbacks for what capsule/index.md's front matter omits. */
	char		*lang;		/* default "en" */
	char		*site_title;
	char		*site_subtitle;	/* may be NULL */
	char		*author;	/* may be NULL */
	unsigned	 latest_posts;	/* on the home page; default 10 */
	int		 atom_full_content; /* 1 = gemtext in <content> */
	/*
	 * The writer's old web URLs for posts ("https://old.example/
	 * posts/"): a link starting with one names a post by its last
	 * path segment and is rewritten to /posts/<slug>.
	 */
	char		**link_aliases;	/* owned */
	size_t		 nlink_aliases;
	/*
	 * The writer's old web site ("https://old.example", no trailing
	 * "/"): a site link that names nothing in the capsule goes there.
	 */
	char		*web_url;	/* or NULL */
	/*
	 * Aggregators told when a new post goes live (net/announce.h):
	 * gemini:// URLs, each asked once with the feed's address as its
	 * query; none: no connection out.
	 */
	char		**announce;	/* owned */
	size_t		 nannounce;
	unsigned	 announce_delay_ms; /* quiet time after a new post */
	unsigned	 gopher_width;	/* wrap width of Gopher text; 70 */
	int		 gopher_charset; /* CONFIG_CHARSET_*; default UTF-8 */

	char		*log_file;	/* NULL = stderr */
	int		 log_syslog;	/* 1: "log: syslog" (log_file NULL) */
	enum log_level	 log_level;
	/*
	 * One line per request (access_log 1): where the diagnostics go,
	 * or to a file of its own (molly-brown's AccessLog).
	 */
	char		*access_log_file; /* owned, or NULL */
	int		 access_log;
	enum log_peer	 log_peer;	/* client addresses in the logs */
	int		 log_format;	/* LOG_FORMAT_*: the access log's lines */
	int		 syslog_facility; /* syslog.h's: LOG_DAEMON (default) */
	char		*syslog_socket;	/* owned; NULL: /dev/log */

	/*
	 * Gemini 31 or 30 (Gopher: served in place) for paths nothing has;
	 * with redirects_first, for what they hold whatever is there (gmid's
	 * "block return", molly-brown's redirects).
	 */
	struct config_redirect *redirects; /* owned; sorted by from */
	size_t		 nredirects;
	int		 redirects_first; /* 1: a rule wins over content */
	struct robots	*robots;	/* owned: what /robots.txt is made
					   of (core/robots.h); NULL = 51 */

	/*
	 * CGI (Gemini): programs in the capsule's directory of this name
	 * answer "/<cgi>/..."; NULL: off.  Never run as root.
	 */
	char		*cgi;		/* owned: "cgi-bin", or NULL */
	unsigned	 cgi_timeout_ms; /* a program's time to answer */
	size_t		 cgi_max_output; /* bytes of one answer, header too */
	unsigned	 cgi_max_programs; /* running at once, per worker */
	/*
	 * Application backends (core/config_apps.h): prefixes answered by
	 * a FastCGI or SCGI server, or proxied to a Gemini server; the
	 * entries of "fastcgi", "scgi" and "proxy" in that order.
	 */
	struct config_app *apps;	/* owned */
	size_t		 napps;

	/*
	 * Writers: client certificates (SHA-256 of the DER, lower-case
	 * hex) that may upload posts over Titan and read /drafts/.  None:
	 * Titan is off (53) and drafts are 51 for everyone.
	 */
	char		**titan_writers; /* owned */
	size_t		 ntitan_writers;
	size_t		 titan_max_size; /* bytes of one upload; 1 MiB */

	/* Certificate zones (struct config_zone), in the file's order. */
	struct config_zone *zones;	/* owned */
	size_t		 nzones;

	/*
	 * User capsules: ~user/<userdirs>/ of each local user whose UID
	 * is in [userdirs_uid_min, userdirs_uid_max] is served at
	 * /~user/ (core/userdir.h); NULL: off.
	 */
	char		*userdirs;	/* owned: "public_gemini", or NULL */
	unsigned	 userdirs_uid_min; /* default 1000 */
	unsigned	 userdirs_uid_max; /* default 60000 */

	/*
	 * Set only in the view of one user's capsule (net/generation.c),
	 * never by the file.  base starts every path the site writes into
	 * links and redirects ("/~user"; NULL: nothing), and every file
	 * read or served from the capsule must be owner_uid's and
	 * writable by nobody else when owned is 1.
	 */
	const char	*base;
	int		 owned;
	unsigned	 owner_uid;
};

/*
 * The target of an exact (not prefix) rule of "redirects" for path, as
 * written, or NULL; *status (if not NULL) gets its Gemini status then,
 * 31 or 30.  What a request gets is redirect_find()'s (core/redirect.h).
 */
const char	*config_redirect(const struct config *, const char *path,
		    int *status);

/* The port absolute URLs of surface s name: its public port, or its port. */
int		 config_public_port(const struct config *, enum surface s);

/* Hosts served: the top-level one and those of "hosts:". */
size_t		 config_nhosts(const struct config *);
/*
 * c as host i (0: the top-level host) sees it: c's server-wide values,
 * and of the site keys the host's own where its item sets them, the
 * top level's elsewhere; no hosts list.  view borrows every pointer
 * from c, so it lives no longer than c and must never be given to
 * config_free().
 */
void		 config_host_view(const struct config *c, size_t i,
		    struct config *view);
/*
 * The view of the capsule of local user name (uid) at dir, published
 * at base ("/~name") under the host whose view is host: made from
 * nothing, it takes from host only the keys its table marks a user
 * capsule may have (no programs, backends, writers, redirects, links
 * out, static root or mount, user capsules of its own; symbolic links
 * at most inside, no hard links), and the user's name as title and
 * author.  view borrows from host and from the strings given, and
 * lives no longer than any of them.
 */
void		 config_user_view(const struct config *host, const char *dir,
		    unsigned uid, const char *name, const char *base,
		    struct config *view);
/* 1 when any host tells aggregators of new posts ("announce:"). */
int		 config_announces(const struct config *);
/* 1 when any host runs CGI programs ("cgi:" at the top or in a host). */
int		 config_has_cgi(const struct config *);
/*
 * The effective configuration of every host, defaults resolved, as
 * YAML that config_load() reads back to the same configuration:
 * every key at the top level, then each host item with every site key
 * it ends up with.  Appended to out.
 */
void		 config_print(const struct config *c, struct buf *out);

/* Fill c with the defaults; confdir anchors the default paths. */
void	 config_defaults(struct config *c, const char *confdir);

/*
 * Load path into c (defaults first).  Returns 0, or -1 with err set to
 * "PATH:LINE:COL: what is wrong" (NUL-terminated, truncated to errlen).
 * On failure c holds nothing that needs freeing.
 */
int	 config_load(struct config *c, const char *path, char *err,
	    size_t errlen);
/*
 * The same, from len bytes at data (not NUL-terminated).  name plays
 * path's part: it starts every message, becomes c->path, and its
 * directory anchors relative paths; it need not exist.  config_load()
 * reads the file and calls this; the fuzzer calls it directly.
 */
int	 config_load_buffer(struct config *c, const char *name,
	    const char *data, size_t len, char *err, size_t errlen);
/*
 * Set the top-level key of c to value, read as that key's value in the
 * file is (`capsuled serve --title T`: one rule for both): value is a
 * single string, relative paths are taken from the working directory.
 * Returns 0, or -1 with err set to "key: what is wrong" and c as it
 * was.  Not for a key whose value is a list or a mapping.
 */
int	 config_set(struct config *c, const char *key, const char *value,
	    char *err, size_t errlen);
/* Free every string and reset c to all zeros; a zeroed c is fine. */
void	 config_free(struct config *c);

#endif
