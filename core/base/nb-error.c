#include "nb-error.h"

#include <gsl/gsl_errno.h>

G_DEFINE_QUARK (nb-error-quark, nb_error)

void
nb_error_propagate_as (GError **dest, GError *src, NbError code, const char *prefix)
{
  g_return_if_fail (src != NULL);
  g_set_error (dest, NB_ERROR, (gint) code, "%s%s", prefix ? prefix : "", src->message);
  g_error_free (src);
}

/* GSL's default error handler aborts the process; navbench checks every
 * status GSL returns and turns it into a GError (STYLE: "turn it off once").
 * Once, as the library is loaded, for every program that links core (this
 * file is in every one: the error domain): the CLI, the window, the server
 * and the tests alike. */
__attribute__ ((constructor)) static void
nb_gsl_handler_off (void)
{
  gsl_set_error_handler_off ();
}
