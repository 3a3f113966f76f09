/*
 * surface.c -- the surfaces a capsule is served on (surface.h).
 */
#include "core/surface.h"

const struct surface_info surfaces[SURFACE_N] = {
	[SURFACE_GEMINI] = { "gemini", "Gemini", 1965, 1965, 1, 1,
	    FORMAT_GEMTEXT,
	    SURFACE_CERTS | SURFACE_UPLOADS | SURFACE_APPS | SURFACE_INPUT |
	    SURFACE_NAMED },
	[SURFACE_GOPHER] = { "gopher", "Gopher", 7070, 70, 0, 0, FORMAT_GOPHER,
	    0 },
	/* Port 300 by convention: off unless "spartan_port" says. */
	[SURFACE_SPARTAN] = { "spartan", "Spartan", 0, 300, 0, 0,
	    FORMAT_GEMTEXT, SURFACE_NAMED },
	/* Port 1900 by convention: off unless "nex_port" says. */
	[SURFACE_NEX] = { "nex", "Nex", 0, 1900, 0, 0, FORMAT_NEX, 0 },
	/* Port 79 by convention: off unless "finger_port" says. */
	[SURFACE_FINGER] = { "finger", "Finger", 0, 79, 0, 0, FORMAT_TEXT, 0 },
	/* The web view: off unless "http_port" says; behind a TLS front. */
	[SURFACE_HTTP] = { "http", "Web", 0, 80, 0, 0, FORMAT_HTML, 0 },
};

int
format_menus(enum format f)
{
	switch (f) {
	case FORMAT_GEMTEXT:
	case FORMAT_TEXT:
	case FORMAT_HTML:
		return 0;
	case FORMAT_GOPHER:
	case FORMAT_NEX:
		break;
	}
	return 1;
}
