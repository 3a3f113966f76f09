/*
 * files.h -- the files tests build their capsules from: write one
 * (making its parents), make a directory, read one back, remove a
 * tree.  A failure to make a file ends the test binary (exit 2): a
 * test on a half-made capsule proves nothing.
 */
#ifndef CAPSULED_TEST_FILES_H
#define CAPSULED_TEST_FILES_H

#include <stddef.h>
#include <sys/types.h>

int	have_openat2(void);
void	test_path(char *, size_t, const char *, const char *);
void	test_mkdirs(const char *);
void	test_write(const char *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	test_write_mode(const char *, mode_t, const char *, size_t);
void	test_put(const char *, const char *, const char *);
void	test_mkdir(const char *, const char *);
char	*test_read(const char *, const char *);
void	test_rm_tree(const char *);
/* Lines of the file path that have needle; -1 when it cannot be read. */
int	test_count_lines(const char *path, const char *needle);
/*
 * The handed real archive (18F's blog, kept outside the repository: a
 * folder holding posts/), malloc'd: $CAPSULED_CORPUS, else
 * shared/corpus/18f beside the checkout ($CAPSULED_TOP) or one level
 * further up (a worktree); NULL when there is none.
 */
char	*test_corpus_dir(void);

#endif
