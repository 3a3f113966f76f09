/*
 * fronts.h -- the front end of each surface of core/surface.h, as a
 * table the connection (net/conn.c) reads: adding a surface is one
 * entry here and its front end (docs/design.md, "Adding a surface").
 * What an entry is, is front.h's.
 */
#ifndef CAPSULED_FRONTS_H
#define CAPSULED_FRONTS_H

#include "core/surface.h"
#include "site/front.h"

extern const struct front fronts[SURFACE_N];

#endif
