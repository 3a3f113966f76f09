/*
 * bpfasm.c -- classic BPF with labels (bpfasm.h).
 *
 * Instructions and jumps are recorded as they are written; a jump's
 * offsets stay 0 until bpfasm_link() knows where each label landed.
 * Owns its three arrays; knows nothing of what the program filters.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/bpfasm.h"
#include "core/util.h"

#define UNPLACED	SIZE_MAX

/* A jump's field that waits for a label. */
struct bpfasm_ref {
	size_t	 insn;		/* the jump */
	int	 label;
	int	 jf;		/* 1: its jf, 0: its jt */
};

void
bpfasm_init(struct bpfasm *p)
{
	memset(p, 0, sizeof(*p));
}

void
bpfasm_free(struct bpfasm *p)
{
	free(p->insn);
	free(p->refs);
	free(p->at);
	memset(p, 0, sizeof(*p));
}

int
bpfasm_label(struct bpfasm *p)
{
	if (p->nlabels == p->labelcap) {
		p->labelcap = p->labelcap ? p->labelcap * 2 : 64;
		p->at = xreallocarray(p->at, p->labelcap, sizeof(*p->at));
	}
	p->at[p->nlabels] = UNPLACED;
	return (int)p->nlabels++;
}

void
bpfasm_place(struct bpfasm *p, int label)
{
	if (label < 0 || (size_t)label >= p->nlabels)
		p->err = "a label that was never made";
	else if (p->at[label] != UNPLACED)
		p->err = "a label placed twice";
	else
		p->at[label] = p->n;
}

static void
add(struct bpfasm *p, uint16_t code, uint32_t k)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 256;
		p->insn = xreallocarray(p->insn, p->cap, sizeof(*p->insn));
	}
	p->insn[p->n].code = code;
	p->insn[p->n].jt = 0;
	p->insn[p->n].jf = 0;
	p->insn[p->n].k = k;
	p->n++;
}

static void
refer(struct bpfasm *p, int label, int jf)
{
	if (label == BPFASM_NEXT)
		return;			/* offset 0, as add() left it */
	if (p->nrefs == p->refcap) {
		p->refcap = p->refcap ? p->refcap * 2 : 256;
		p->refs = xreallocarray(p->refs, p->refcap, sizeof(*p->refs));
	}
	p->refs[p->nrefs].insn = p->n - 1;
	p->refs[p->nrefs].label = label;
	p->refs[p->nrefs].jf = jf;
	p->nrefs++;
}

void
bpfasm_stmt(struct bpfasm *p, uint16_t code, uint32_t k)
{
	add(p, code, k);
}

void
bpfasm_jump(struct bpfasm *p, uint16_t code, uint32_t k, int jt, int jf)
{
	add(p, code, k);
	refer(p, jt, 0);
	refer(p, jf, 1);
}

int
bpfasm_link(struct bpfasm *p, const char **errstr)
{
	const struct bpfasm_ref	*r;
	size_t			 i, to, off;

	if (p->err == NULL && p->n > BPF_MAXINSNS)
		p->err = "a program longer than BPF_MAXINSNS";
	for (i = 0; i < p->nrefs && p->err == NULL; i++) {
		r = &p->refs[i];
		if (r->label < 0 || (size_t)r->label >= p->nlabels ||
		    (to = p->at[r->label]) == UNPLACED) {
			p->err = "a jump to a label never placed";
			break;
		}
		if (to >= p->n) {
			p->err = "a label after the last instruction";
			break;
		}
		/* A jump goes from the instruction after it, forward. */
		if (to <= r->insn) {
			p->err = "a jump backwards";
			break;
		}
		if ((off = to - r->insn - 1) > UINT8_MAX) {
			p->err = "a jump of more than 255 instructions";
			break;
		}
		if (r->jf)
			p->insn[r->insn].jf = (uint8_t)off;
		else
			p->insn[r->insn].jt = (uint8_t)off;
	}
	if (p->err != NULL) {
		*errstr = p->err;
		return -1;
	}
	return 0;
}
