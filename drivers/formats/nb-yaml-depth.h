/* nb-yaml-depth.h — a bound on YAML nesting, checked while libyaml reads
 *
 * libyaml's scanner looks at every open simple key for each token, and the
 * readers join the keys of the path for each scalar: both cost the depth,
 * so a document nested n deep takes time n² (a 400 KB map description:
 * 97 s; a 200 KB robot file: 24 s).  navbench's YAML files are a few levels
 * deep; deeper than NB_YAML_MAX_DEPTH is refused as soon as it is reached,
 * which keeps every read linear.
 */
#pragma once

#include <glib.h>
#include <yaml.h>

G_BEGIN_DECLS

#define NB_YAML_MAX_DEPTH 64

/* Reads text's events once; FALSE with NB_ERROR_INPUT "PATH:LINE: …" when
 * it is not YAML or nests deeper than NB_YAML_MAX_DEPTH. */
gboolean nb_yaml_check_depth (const char *path, const char *text, gsize len, GError **error);

/* The error for an event at depth > NB_YAML_MAX_DEPTH. */
void     nb_yaml_set_depth_error (GError **error, const char *path, const yaml_event_t *event);

G_END_DECLS
