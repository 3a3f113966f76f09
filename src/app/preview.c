/*
 * preview.c -- `capsuled serve DIR`: any folder served at once, with no
 * configuration file, for the writer to read as readers will.
 *
 * The configuration is the built-in defaults (core/config.c: localhost,
 * 127.0.0.1 and ::1, Gemini on 1965, Gopher on 7070, live reload on)
 * with DIR as the capsule and the certificate kept in the user's state
 * directory, $XDG_STATE_HOME/capsuled/certs/<hostname>/ (else
 * ~/.local/state/capsuled/...): made on the first run (net/cert.c) and
 * reused after, so a client that pinned it keeps trusting it.
 *
 * What DIR is, is read from what it holds (preview_layout()), by the
 * rule of a capsule (core/capfile.h):
 *   a capsule      index.md, posts/, pages/, series/ or files/ in it
 *   a bare folder  else, when it holds what would be posts in posts/
 *                  (*.md, *.gmi): they are the posts, as if DIR were
 *                  posts/ (config.posts_here)
 *   anything else  served as a capsule with nothing in it yet; a static
 *                  tree mode would be chosen here, the one place that
 *                  decides.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/preview.h"
#include "core/capfile.h"
#include "core/config.h"
#include "core/dirwalk.h"
#include "core/util.h"

/*
 * Entries of DIR looked at, at most: serve run on a home folder by
 * mistake decides from the first ones.
 */
#define PREVIEW_MAX_ENTRIES	100000

/* What preview_layout() has seen of a folder's top. */
struct sniff {
	int	 capsule;		/* a name of a capsule's layout */
	int	 posts;			/* a post, were it posts/ */
};

static enum dirwalk_answer
sniff_entry(void *arg, struct dirwalk_entry *e)
{
	struct sniff	*sn = arg;

	if (e->event != DIRWALK_ENTRY)
		return DIRWALK_NEXT;
	/* index.md, posts/, pages/, series/, files/: by name, as read. */
	if (capfile_entry(CAPFILE_TOP_DIR, e->name, e->type == DIRWALK_DIR,
	    NULL) != CAPFILE_IGNORED) {
		sn->capsule = 1;
		return DIRWALK_STOP;
	}
	/* An HTML page is a post only with front matter: capfile_entry_at. */
	if (capfile_entry_at(e->dfd, CAPFILE_POSTS_DIR, e->name, false,
	    NULL) == CAPFILE_POST)
		sn->posts = 1;
	return DIRWALK_NEXT;
}

enum preview_layout
preview_layout(const char *dir)
{
	struct sniff	 sn = { 0, 0 };
	struct dirwalk	 w = {
		.max_depth = 0,
		.max_entries = PREVIEW_MAX_ENTRIES,
		.fn = sniff_entry,
		.arg = &sn,
	};
	int		 fd;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return PREVIEW_CAPSULE;		/* the server says why */
	(void)dirwalk_run(&w, fd, "", NULL);
	close(fd);
	if (sn.capsule)
		return PREVIEW_CAPSULE;
	return sn.posts ? PREVIEW_BARE : PREVIEW_OTHER;
}

/* mkdir -p path, mode 0700 for what it makes. */
static int
make_dirs(char *path)
{
	char	*p;

	for (p = path + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) == -1 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0700) == -1 && errno != EEXIST ? -1 : 0;
}

char *
preview_state_dir(void)
{
	const char	*s, *home;
	struct passwd	*pw;

	/* XDG: a relative value is invalid, and ignored. */
	if ((s = getenv("XDG_STATE_HOME")) != NULL && s[0] == '/')
		return xasprintf("%s/capsuled", s);
	if ((home = getenv("HOME")) == NULL || home[0] != '/') {
		if ((pw = getpwuid(getuid())) == NULL || pw->pw_dir == NULL)
			return NULL;
		home = pw->pw_dir;
	}
	return xasprintf("%s/.local/state/capsuled", home);
}

const char *
preview_what(const char *dir)
{
	switch (preview_layout(dir)) {
	case PREVIEW_CAPSULE:
		return "a capsule";
	case PREVIEW_BARE:
		return "a folder of posts";
	case PREVIEW_OTHER:
		break;
	}
	return "no posts yet";
}

/*
 * Key of c set from option's value, read as the file's key is: one
 * rule, one wording ("capsuled serve --title: must not be empty").
 */
static int
option(struct config *c, const char *option, const char *key,
    const char *value, char *err, size_t errlen)
{
	char	 why[512];
	size_t	 len = strlen(key);

	if (value == NULL || config_set(c, key, value, why, sizeof(why)) == 0)
		return 0;
	snprintf(err, errlen, "capsuled serve %s: %s", option,
	    strncmp(why, key, len) == 0 && why[len] == ':' ? why + len + 2 :
	    why);
	return -1;
}

int
preview_options(struct config *c, const char *title, const char *charset,
    char *err, size_t errlen)
{
	if (option(c, "--title", "title", title, err, errlen) == -1 ||
	    option(c, "--gopher-charset", "gopher_charset", charset, err,
	    errlen) == -1)
		return -1;
	return 0;
}

int
preview_config(struct config *c, const char *dir, int certs, char *err,
    size_t errlen)
{
	struct stat	 st;
	char		*real, *state;

	config_defaults(c, ".");
	if ((real = realpath(dir, NULL)) == NULL || stat(real, &st) == -1) {
		snprintf(err, errlen, "capsuled serve: %s: %s", dir,
		    strerror(errno));
		free(real);
		config_free(c);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "capsuled serve: %s: not a directory",
		    dir);
		free(real);
		config_free(c);
		return -1;
	}
	free(c->capsule_dir);
	c->capsule_dir = real;
	c->posts_here = preview_layout(real) == PREVIEW_BARE;
	if ((state = preview_state_dir()) == NULL) {
		snprintf(err, errlen, "capsuled serve: no home directory for "
		    "the certificate; set XDG_STATE_HOME");
		config_free(c);
		return -1;
	}
	free(c->cert_dir);
	c->cert_dir = xasprintf("%s/certs/%s", state, c->hostname);
	free(state);
	if (certs && make_dirs(c->cert_dir) == -1) {
		snprintf(err, errlen, "capsuled serve: %s: %s", c->cert_dir,
		    strerror(errno));
		config_free(c);
		return -1;
	}
	return 0;
}
