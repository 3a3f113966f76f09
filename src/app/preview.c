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
 * What DIR is, is read from what it holds (preview_layout()):
 *   a capsule      index.md, posts/, pages/, series/ or files/ in it
 *   a bare folder  else, when it holds *.md or *.gmi files: they are
 *                  the posts, as if DIR were posts/ (config.posts_here)
 *   anything else  served as a capsule with nothing in it yet; a static
 *                  tree mode would be chosen here, the one place that
 *                  decides.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/preview.h"
#include "content/archive.h"
#include "core/config.h"
#include "core/util.h"

static const char *const capsule_names[] = {
	"index.md", "posts", "pages", "series", "files"
};

enum preview_layout
preview_layout(const char *dir)
{
	struct dirent	*de;
	DIR		*d;
	size_t		 i;
	int		 posts = 0;

	if ((d = opendir(dir)) == NULL)
		return PREVIEW_CAPSULE;		/* the server says why */
	while ((de = readdir(d)) != NULL) {
		for (i = 0; i < nitems(capsule_names); i++)
			if (strcmp(de->d_name, capsule_names[i]) == 0) {
				closedir(d);
				return PREVIEW_CAPSULE;
			}
		if (de->d_name[0] != '.' && (archive_md_name(de->d_name) ||
		    archive_gmi_name(de->d_name)))
			posts = 1;
	}
	closedir(d);
	return posts ? PREVIEW_BARE : PREVIEW_OTHER;
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

int
preview_config(struct config *c, const char *dir, char *err, size_t errlen)
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
	if (make_dirs(c->cert_dir) == -1) {
		snprintf(err, errlen, "capsuled serve: %s: %s", c->cert_dir,
		    strerror(errno));
		config_free(c);
		return -1;
	}
	return 0;
}
