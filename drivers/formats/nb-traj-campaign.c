#include "nb-traj-campaign.h"

#include "nb-campaign.h"
#include "nb-error.h"
#include "nb-number.h"

#include <math.h>
#include <string.h>

typedef struct {
  NbTraj *traj;
  const char *spec;
  guint64 n;
  gboolean headings;            /* every sample so far had one */
} Collect;

static gboolean
collect (const NbTrackSample *s, gsize n, gpointer user_data, GError **error)
{
  Collect *c = user_data;

  for (gsize i = 0; i < n; i++, c->n++)
    {
      double p[3] = { s[i].x_mm / 1000.0, s[i].y_mm / 1000.0, 0.0 };
      double half = isfinite (s[i].theta_deg) ? s[i].theta_deg * G_PI / 360.0 : 0.0;
      double q[4] = { cos (half), 0.0, 0.0, sin (half) };     /* w, x, y, z */

      if (!isfinite (s[i].t_s) || (c->traj->n > 0 && !(s[i].t_s > c->traj->t[c->traj->n - 1])))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s: sample %" G_GUINT64_FORMAT ": time %g s does not follow the one "
                       "before (stamps must be strictly increasing)", c->spec, c->n + 1,
                       s[i].t_s);
          return FALSE;
        }
      c->headings = c->headings && isfinite (s[i].theta_deg);
      nb_traj_append (c->traj, s[i].t_s, p, q);
    }
  return TRUE;
}

NbTraj *
nb_traj_read_campaign (const char *spec, GError **error)
{
  const char *colon = strrchr (spec, ':');
  g_autofree char *path = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autoptr (NbTraj) traj = NULL;
  guint id;
  Collect c;

  if (colon == NULL || !nb_parse_uint (colon + 1, strlen (colon + 1), &id) || id == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: a campaign track is F.nbc:TRIAL_ID (campaign info --trials)", spec);
      return NULL;
    }
  path = g_strndup (spec, (gsize) (colon - spec));
  if ((campaign = nb_campaign_open (path, NB_CAMPAIGN_OPEN_READ_ONLY, error)) == NULL)
    return NULL;
  traj = nb_traj_new (1024);
  c = (Collect) { traj, spec, 0, TRUE };
  if (!nb_campaign_foreach_samples (campaign, id, collect, &c, error))
    return NULL;
  if (traj->n == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: trial %u has no samples", spec, id);
      return NULL;
    }
  traj->has_orientation = c.headings;
  return g_steal_pointer (&traj);
}
