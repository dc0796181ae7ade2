/* nb-unc-report.c — the uncertainty of the figures in JSON (see the header) */
#include "nb-unc-report.h"

#include <math.h>
#include <string.h>

void
nb_unc_round_figure (const NbUncFigure *fig, NbUncRounded *out)
{
  int dec = 0, dec_u = 0;

  out->U = nb_unc_round_U (fig->U, &dec);
  out->decimals = dec;
  out->value = nb_unc_round_value (fig->value, dec);
  nb_unc_round_interval (fig->lo, fig->hi, dec, &out->lo, &out->hi);
  /* u: two significant digits, to the nearest (it is not a promise of
   * coverage, U is). */
  if (fig->u > 0.0 && isfinite (fig->u))
    {
      nb_unc_round_U (fig->u, &dec_u);
      out->u = nb_unc_round_value (fig->u, dec_u);
    }
  else
    out->u = fig->u;
}

void
nb_unc_json_figure (NbJsonWriter *w, const NbUncFigure *fig)
{
  NbUncRounded r;

  nb_unc_round_figure (fig, &r);
  nb_json_begin_object (w);
  nb_json_key (w, "u"); nb_json_double (w, r.u);
  nb_json_key (w, "U"); nb_json_double (w, r.U);
  nb_json_key (w, "k"); nb_json_double (w, fig->k);
  nb_json_key (w, "method"); nb_json_string (w, nb_unc_method_name (fig->method));
  nb_json_key (w, "interval");
  nb_json_begin_array (w);
  nb_json_double (w, r.lo);
  nb_json_double (w, r.hi);
  nb_json_end_array (w);
  nb_json_key (w, "mc_u"); nb_json_double (w, fig->mc.u);
  nb_json_key (w, "u_measurement"); nb_json_double (w, fig->u_measurement);
  nb_json_key (w, "u_sampling"); nb_json_double (w, fig->u_sampling);
  nb_json_key (w, "validated"); nb_json_bool (w, fig->validated);
  nb_json_key (w, "mc_trials"); nb_json_int (w, (gint64) fig->mc.trials);
  nb_json_end_object (w);
}

void
nb_unc_json_budget (NbJsonWriter *w, const NbUncBudget *b)
{
  nb_json_key (w, "uncertainty");
  nb_json_begin_object (w);
  for (guint i = 0; i < b->figures->len; i++)
    {
      const NbUncEntry *e = &g_array_index (b->figures, NbUncEntry, i);
      const char *bracket = strchr (e->key, '[');

      if (bracket == NULL)
        {
          nb_json_key (w, e->key);
          nb_unc_json_figure (w, &e->fig);
          continue;
        }
      /* "dm_mm[0]", "dm_mm[1]", … → "dm_mm": [ … ]: the entries of one
       * name are consecutive (the models add them so). */
      {
        g_autofree char *name = g_strndup (e->key, bracket - e->key);
        gsize len = strlen (name);

        nb_json_key (w, name);
        nb_json_begin_array (w);
        for (; i < b->figures->len; i++)
          {
            const NbUncEntry *f = &g_array_index (b->figures, NbUncEntry, i);

            if (strncmp (f->key, name, len) != 0 || f->key[len] != '[')
              break;
            nb_unc_json_figure (w, &f->fig);
          }
        i--;
        nb_json_end_array (w);
      }
    }
  nb_json_end_object (w);
}
