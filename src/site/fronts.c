/*
 * fronts.c -- the front end of each surface (fronts.h): one entry each.
 */
#include <string.h>

#include "proto/gemini.h"
#include "proto/gopher.h"
#include "proto/http.h"
#include "proto/finger.h"
#include "proto/nex.h"
#include "proto/spartan.h"
#include "site/fronts.h"
#include "site/gemini_front.h"
#include "site/gopher_front.h"
#include "site/http_front.h"
#include "site/finger_front.h"
#include "site/nex_front.h"
#include "site/spartan_front.h"

_Static_assert(FRONT_INCOMPLETE == GEMINI_INCOMPLETE &&
    FRONT_INCOMPLETE == GOPHER_INCOMPLETE &&
    FRONT_INCOMPLETE == SPARTAN_INCOMPLETE &&
    FRONT_INCOMPLETE == NEX_INCOMPLETE && FRONT_TOO_LONG == NEX_TOO_LONG &&
    FRONT_INCOMPLETE == FINGER_INCOMPLETE &&
    FRONT_TOO_LONG == FINGER_TOO_LONG &&
    FRONT_TOO_LONG == GEMINI_TOO_LONG && FRONT_TOO_LONG == GOPHER_TOO_LONG &&
    FRONT_TOO_LONG == SPARTAN_TOO_LONG &&
    FRONT_INCOMPLETE == HTTP_INCOMPLETE && FRONT_TOO_LONG == HTTP_TOO_LONG,
    "the parsers' end markers are the front ends'");
_Static_assert(GEMINI_REQUEST_MAX <= FRONT_REQUEST_MAX &&
    GOPHER_REQUEST_MAX <= FRONT_REQUEST_MAX &&
    SPARTAN_REQUEST_MAX <= FRONT_REQUEST_MAX &&
    NEX_REQUEST_MAX <= FRONT_REQUEST_MAX &&
    FINGER_REQUEST_MAX <= FRONT_REQUEST_MAX &&
    HTTP_HEAD_MAX <= FRONT_REQUEST_MAX,
    "every request fits the connection's buffer");

const struct front fronts[SURFACE_N] = {
	[SURFACE_GEMINI] = { gemini_request_end, GEMINI_REQUEST_MAX,
	    gemini_front_too_long, gemini_front_slow_down,
	    gemini_front_answer, gemini_front_header },
	[SURFACE_GOPHER] = { gopher_request_end, GOPHER_REQUEST_MAX,
	    gopher_front_too_long, gopher_front_slow_down,
	    gopher_front_answer, gopher_front_header },
	[SURFACE_SPARTAN] = { spartan_request_end, SPARTAN_REQUEST_MAX,
	    spartan_front_too_long, spartan_front_slow_down,
	    spartan_front_answer, spartan_front_header },
	[SURFACE_NEX] = { nex_request_end, NEX_REQUEST_MAX,
	    nex_front_too_long, nex_front_slow_down,
	    nex_front_answer, nex_front_header },
	[SURFACE_FINGER] = { finger_request_end, FINGER_REQUEST_MAX,
	    finger_front_too_long, finger_front_slow_down,
	    finger_front_answer, finger_front_header },
	[SURFACE_HTTP] = { http_request_end, HTTP_HEAD_MAX,
	    http_front_too_long, http_front_slow_down,
	    http_front_answer, http_front_header },
};
