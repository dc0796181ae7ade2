/* nb-error.h — the one error domain of navbench
 *
 * Codes decide what a front end does with an error: NB_ERROR_INPUT is the
 * user's or a file's or a device's fault (the CLI exits 2), NB_ERROR_FAILED
 * is a runtime failure (exit 1).  NB_ERROR_NOT_FOUND: what was looked up
 * (a configuration, a trial) is not there — a lookup's answer the caller
 * decides about (the CLI exits 2 when the user named it).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NB_ERROR (nb_error_quark ())

typedef enum {
  NB_ERROR_INPUT,   /* bad input: usage, a file's content, a device's frame */
  NB_ERROR_FAILED,  /* a runtime failure: I/O, resources, a device gone */
  NB_ERROR_NOT_FOUND, /* a lookup found nothing of that name */
} NbError;

GQuark nb_error_quark (void);

/* A foreign error (GLib's file errors, GIO's) as one of navbench's codes:
 * a new error in dest with the prefix and src's message; src is freed.
 * The one way to re-type an error (never by writing error->domain). */
void nb_error_propagate_as (GError **dest, GError *src, NbError code, const char *prefix);

G_END_DECLS
