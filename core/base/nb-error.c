#include "nb-error.h"

G_DEFINE_QUARK (nb-error-quark, nb_error)

void
nb_error_propagate_as (GError **dest, GError *src, NbError code, const char *prefix)
{
  g_return_if_fail (src != NULL);
  g_set_error (dest, NB_ERROR, (gint) code, "%s%s", prefix ? prefix : "", src->message);
  g_error_free (src);
}
