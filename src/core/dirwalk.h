/*
 * dirwalk.h -- the one walk of a directory tree: beneath a directory
 * descriptor, following no symbolic link, within a depth and an entry
 * budget, each folder's entries in name order when asked.
 *
 * Every folder below the top is opened beneath its parent's descriptor
 * (openat with O_DIRECTORY | O_NOFOLLOW), so that one swapped for a link
 * after it was listed leads nowhere: nothing outside the top is read,
 * whatever is renamed meanwhile.  A symbolic link is handed out as one
 * and never followed (core/fsafe.h decides where a link of a served
 * path may lead).  A name that starts with '.' is never handed out:
 * hidden files, "." and "..".  An entry's type is what readdir(3) says,
 * or lstat(2) when it says nothing.  fts(3) and nftw(3) walk by path
 * names from a path, not beneath a descriptor, so a rename during their
 * walk can lead them out of the tree.
 *
 * The caller says what each entry is (core/capfile.h, for a capsule)
 * and whether a folder is gone into; the walk does the I/O and keeps
 * the budgets.  Knows the file system; nothing of capsules.  The walk
 * owns every descriptor it opens and closes each before it returns;
 * what it hands out is borrowed until the call back returns.
 */
#ifndef CAPSULED_DIRWALK_H
#define CAPSULED_DIRWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

enum dirwalk_type {
	DIRWALK_FILE,		/* a regular file */
	DIRWALK_DIR,		/* a directory itself, not a link to one */
	DIRWALK_LINK,		/* a symbolic link: never followed */
	DIRWALK_OTHER,		/* a FIFO, socket or device, or gone */
};

/* Why the call back is called (fts(3)'s fts_info, in our words). */
enum dirwalk_event {
	DIRWALK_ENTRY,		/* an entry of a folder; DIRWALK_ENTER on a
				   DIRWALK_DIR goes into it */
	DIRWALK_IN,		/* a folder gone into, open at fd: its
				   entries follow unless DIRWALK_SKIP */
	DIRWALK_OUT,		/* a folder gone into is done */
	DIRWALK_DEEP,		/* a folder asked for, deeper than
				   max_depth: not opened */
	DIRWALK_FAIL,		/* a folder that could not be opened or
				   read: err says why */
	DIRWALK_FULL,		/* max_entries handed out: the walk ends
				   here, in the folder path names */
};

enum dirwalk_answer {
	DIRWALK_NEXT,		/* go on (a folder is not gone into) */
	DIRWALK_ENTER,		/* DIRWALK_ENTRY of a folder: go into it */
	DIRWALK_SKIP,		/* DIRWALK_IN: read none of it */
	DIRWALK_STOP,		/* end the walk now */
};

struct dirwalk_entry {
	enum dirwalk_event event;
	enum dirwalk_type type;
	const char	*name;		/* in its folder */
	const char	*path;		/* from the top, after dirwalk_run()'s
					   path and a '/': "2019/x.md" */
	int		 dfd;		/* the folder it is in */
	int		 fd;		/* DIRWALK_IN: the folder itself */
	int		 depth;		/* 1 in the top folder, 2 below... */
	int		 err;		/* DIRWALK_FAIL: an errno */
	/*
	 * The caller's, per folder: what DIRWALK_IN left here is handed
	 * back with each of that folder's entries and with its
	 * DIRWALK_OUT; the top folder's is dirwalk_run()'s data.
	 */
	void		*data;
	struct stat	 st;		/* dirwalk_stat()'s */
	bool		 stated;
};

typedef enum dirwalk_answer (*dirwalk_fn)(void *arg, struct dirwalk_entry *);

struct dirwalk {
	int		 max_depth;	/* levels of folders below the top
					   gone into, at most */
	size_t		 max_entries;	/* entries handed out, at most */
	bool		 sorted;	/* each folder's entries by name */
	dirwalk_fn	 fn;
	void		*arg;
	size_t		 nentries;	/* handed out so far */
	bool		 full;		/* max_entries was reached */
};

/*
 * Walk the folder open at fd (the caller's: left open), whose entries'
 * paths start with path ("" for none).  Entries are handed out depth
 * first: a folder gone into is read before the next entry of its
 * parent.  0, or -1 with errno when the top folder cannot be read.
 * w->nentries and w->full say how far it went.
 */
int		 dirwalk_run(struct dirwalk *w, int fd, const char *path,
		    void *data);
/*
 * The entry's lstat(2), taken beneath its folder (no link followed)
 * once and kept in e->st: NULL when it is gone.
 */
const struct stat *dirwalk_stat(struct dirwalk_entry *e);

#endif
