/*
 * replay.c -- main() for a fuzz harness built without libFuzzer: feed
 * every file of tests/fuzz/seeds/NAME/ (NAME from -DFUZZ_NAME) to
 * LLVMFuzzerTestOneInput() once.
 *
 * The Makefile builds one of these per harness into BUILD/tests/
 * test_seeds_NAME, so `make test` and `make asan` replay every seed,
 * and with them every input that once crashed a target (the crash-*
 * seeds): a bug found by fuzzing stays a test.  A harness aborts on a
 * broken contract, ASan and UBSan on memory errors and undefined
 * behaviour; either way this program dies and the suite counts a
 * failure.  Otherwise it prints "N passed, 0 failed".
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "harness.h"

#ifndef FUZZ_NAME
#error "build with -DFUZZ_NAME='\"name\"'"
#endif

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
cmp(const void *a, const void *b)
{
	return strcmp(((const struct harness_test *)a)->name,
	    ((const struct harness_test *)b)->name);
}

/*
 * Each seed is a check named by its file: `test_seeds_url ok` replays
 * tests/fuzz/seeds/url/ok alone, --list lists them.
 */
int
main(int argc, char **argv)
{
	const char		*top = getenv("CAPSULED_TOP");
	char			 dir[1024], path[1300], *data;
	struct harness_test	*seeds = NULL;
	struct dirent		*de;
	size_t			 n = 0, i, len;
	DIR			*d;

	snprintf(dir, sizeof(dir), "%s/tests/fuzz/seeds/%s",
	    top != NULL ? top : ".", FUZZ_NAME);
	if ((d = opendir(dir)) == NULL) {
		perror(dir);
		printf("0 passed, 1 failed\n");
		return 1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		seeds = xreallocarray(seeds, n + 1, sizeof(*seeds));
		seeds[n].name = xstrdup(de->d_name);
		seeds[n++].fn = NULL;
	}
	closedir(d);
	qsort(seeds, n, sizeof(*seeds), cmp);
	harness_init(argc, argv, seeds, n);
	for (i = 0; i < n; i++) {
		if (!harness_selected(seeds[i].name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, seeds[i].name);
		if ((data = util_read_file(path, SIZE_MAX, &len)) == NULL) {
			perror(path);
			harness_failed++;
			continue;
		}
		/* Name it first: a crash then says which seed it was. */
		fprintf(stderr, "%s: %s\n", FUZZ_NAME, seeds[i].name);
		(void)LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		free(data);
		harness_passed++;
	}
	for (i = 0; i < n; i++)
		free((char *)seeds[i].name);
	free(seeds);
	return harness_done();
}
