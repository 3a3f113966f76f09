/*
 * proto.h -- which protocol a request came by.
 *
 * The lowest place that names the protocols, so that a listener
 * (net/worker.h) and the router (site/router.h) share one enum without
 * the one including the other.  Constants only.
 */
#ifndef CAPSULED_PROTO_H
#define CAPSULED_PROTO_H

enum proto {
	PROTO_GEMINI,
	PROTO_GOPHER,
};

#endif
