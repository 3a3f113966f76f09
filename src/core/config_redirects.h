/*
 * config_redirects.h -- the "redirects" key of the configuration: old
 * paths that moved, by exact path, prefix or pattern, answered 31 or 30
 * (core/redirect.h matches and expands them).
 *
 * config_keys.c's table hands the key's value here; the rules are
 * stored sorted in struct config (redirects, nredirects).
 */
#ifndef CAPSULED_CONFIG_REDIRECTS_H
#define CAPSULED_CONFIG_REDIRECTS_H

#include <yaml.h>

struct cfe;
struct cfe_field;
struct cfe_out;

/* The value of f (first event ev) into the configuration: 0, or -1. */
int	 config_redirects_parse(struct cfe *l, const struct cfe_field *f,
	    yaml_event_t *ev);
/* The rules as f's value, YAML that config_redirects_parse() reads. */
void	 config_redirects_print(struct cfe_out *o, const struct cfe_field *f,
	    const void *base);

#endif
