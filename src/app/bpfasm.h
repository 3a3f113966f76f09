/*
 * bpfasm.h -- classic BPF programs written with labels (the seccomp
 * filter of app/sandbox.c).
 *
 * A jump names where it goes by a label, placed later on the
 * instruction it stands for; bpfasm_link() works out every offset once
 * the program is whole.  Classic BPF jumps only forward, by at most 255
 * instructions: a jump that cannot be written so is an error, never a
 * wrong offset.  Knows the instruction format of <linux/filter.h>,
 * nothing of seccomp's policy.  The struct owns its arrays until
 * bpfasm_free().
 */
#ifndef CAPSULED_BPFASM_H
#define CAPSULED_BPFASM_H

#include <stddef.h>
#include <stdint.h>

#include <linux/filter.h>

/* Where a jump goes when it does not: the next instruction. */
#define BPFASM_NEXT	(-1)

struct bpfasm_ref;

struct bpfasm {
	struct sock_filter *insn;	/* owned: the program */
	size_t		 n, cap;
	struct bpfasm_ref *refs;	/* owned: jumps waiting for a label */
	size_t		 nrefs, refcap;
	size_t		*at;		/* owned: each label's instruction */
	size_t		 nlabels, labelcap;
	const char	*err;		/* the first misuse: bpfasm_link() */
};

void	 bpfasm_init(struct bpfasm *);
void	 bpfasm_free(struct bpfasm *);
/* A new label, not yet placed. */
int	 bpfasm_label(struct bpfasm *);
/* Place label on the next instruction written; once only. */
void	 bpfasm_place(struct bpfasm *, int label);
/* A statement (load, ALU, return) with its constant. */
void	 bpfasm_stmt(struct bpfasm *, uint16_t code, uint32_t k);
/* A conditional jump to labels jt and jf (or BPFASM_NEXT). */
void	 bpfasm_jump(struct bpfasm *, uint16_t code, uint32_t k, int jt,
	    int jf);
/*
 * Write every jump's offset.  0, or -1 and *errstr: a label never
 * placed, placed twice or after the last instruction, a jump
 * backwards, one of more than 255 instructions, a program longer than
 * BPF_MAXINSNS.
 */
int	 bpfasm_link(struct bpfasm *, const char **errstr);

#endif
