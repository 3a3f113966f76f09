/*
 * slow_trees.c -- tests/e2e/e2e_trees.c with the figures of issue 32
 * (make test-slow): a listing of 20,000 .gmi files with their titles
 * asked for by four clients while a small file is fetched, whose every
 * fetch, the slowest too, stays under 50 ms; and the include bomb read
 * by 40 slow readers, VmHWM under 60 MB.  Built from the same source,
 * so the two cannot drift apart.
 */
#define TREES_FILES	20000
#define TREES_SPREAD	1
#include "../e2e/e2e_trees.c"
