/*
 * test_bpfasm.c -- app/bpfasm.c: a jump lands on the instruction its
 * label was placed on, whatever comes between; what classic BPF cannot
 * say (a jump backwards, one of more than 255 instructions, a label
 * never placed or placed twice) is refused at link time, never written
 * as a wrong offset.
 */
#include <string.h>

#include "app/bpfasm.h"
#include "harness.h"

#define RET_K(p, k)	bpfasm_stmt(p, BPF_RET | BPF_K, k)
#define JEQ(p, k, t, f)	bpfasm_jump(p, BPF_JMP | BPF_JEQ | BPF_K, k, t, f)

/* Where insn i's jt (or jf) goes: the index it lands on. */
static size_t
target(const struct bpfasm *p, size_t i, int jf)
{
	return i + 1 + (jf ? p->insn[i].jf : p->insn[i].jt);
}

static void
test_offsets(void)
{
	struct bpfasm	 p;
	const char	*err = NULL;
	int		 a, b;
	size_t		 j1, j2, at_a, at_b, k;

	bpfasm_init(&p);
	a = bpfasm_label(&p);
	b = bpfasm_label(&p);
	JEQ(&p, 1, a, BPFASM_NEXT);
	j1 = p.n - 1;
	JEQ(&p, 2, b, a);
	j2 = p.n - 1;
	for (k = 0; k < 10; k++)
		RET_K(&p, 100 + (uint32_t)k);
	at_b = p.n;
	bpfasm_place(&p, b);
	RET_K(&p, 7);
	at_a = p.n;
	bpfasm_place(&p, a);
	RET_K(&p, 8);
	INT_EQ(bpfasm_link(&p, &err), 0, "linked");
	INT_EQ(target(&p, j1, 0), at_a, "jt to a");
	INT_EQ(p.insn[j1].jf, 0, "BPFASM_NEXT: offset 0");
	INT_EQ(target(&p, j2, 0), at_b, "jt to b");
	INT_EQ(target(&p, j2, 1), at_a, "jf to a");
	INT_EQ(p.insn[at_a].k, 8, "a is the instruction placed after it");
	INT_EQ(p.insn[at_b].k, 7, "b too");
	bpfasm_free(&p);
}

/* A jump over gap instructions to a label: linked or refused. */
static int
jump_over(size_t gap, const char **err)
{
	struct bpfasm	 p;
	size_t		 k;
	int		 l, rv;

	bpfasm_init(&p);
	l = bpfasm_label(&p);
	JEQ(&p, 0, l, BPFASM_NEXT);
	for (k = 0; k < gap; k++)
		RET_K(&p, 0);
	bpfasm_place(&p, l);
	RET_K(&p, 1);
	rv = bpfasm_link(&p, err);
	if (rv == 0 && target(&p, 0, 0) != gap + 1)
		rv = -2;
	bpfasm_free(&p);
	return rv;
}

static void
test_refused(void)
{
	struct bpfasm	 p;
	const char	*err = NULL;
	int		 l;

	INT_EQ(jump_over(255, &err), 0, "a jump of 255 instructions");
	INT_EQ(jump_over(256, &err), -1, "a jump of 256 is refused");
	HAS(err, "255", "saying why");

	bpfasm_init(&p);
	l = bpfasm_label(&p);
	JEQ(&p, 0, l, BPFASM_NEXT);
	RET_K(&p, 0);
	INT_EQ(bpfasm_link(&p, &err), -1, "a label never placed");
	HAS(err, "never placed", "saying why");
	bpfasm_free(&p);

	bpfasm_init(&p);
	l = bpfasm_label(&p);
	bpfasm_place(&p, l);
	RET_K(&p, 0);
	JEQ(&p, 0, l, BPFASM_NEXT);
	RET_K(&p, 0);
	INT_EQ(bpfasm_link(&p, &err), -1, "a jump backwards");
	HAS(err, "backwards", "saying why");
	bpfasm_free(&p);

	bpfasm_init(&p);
	l = bpfasm_label(&p);
	JEQ(&p, 0, l, BPFASM_NEXT);
	RET_K(&p, 0);
	bpfasm_place(&p, l);
	INT_EQ(bpfasm_link(&p, &err), -1, "a label on no instruction");
	HAS(err, "after the last", "saying why");
	bpfasm_free(&p);

	bpfasm_init(&p);
	l = bpfasm_label(&p);
	JEQ(&p, 0, l, BPFASM_NEXT);
	bpfasm_place(&p, l);
	bpfasm_place(&p, l);
	RET_K(&p, 0);
	INT_EQ(bpfasm_link(&p, &err), -1, "a label placed twice");
	HAS(err, "twice", "saying why");
	bpfasm_free(&p);
}

static const struct harness_test tests[] = {
	TEST(test_offsets),
	TEST(test_refused),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
