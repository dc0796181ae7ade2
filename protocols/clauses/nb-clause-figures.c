#include "nb-clause-figures.h"

void
nb_clause_json_pose (NbJsonWriter *w, const NbPoseResult *res)
{
  nb_json_key (w, "n"); nb_json_int (w, (gint64) res->n);
  nb_json_key (w, "barycentre_x_mm"); nb_json_double (w, res->barycentre_x_mm);
  nb_json_key (w, "barycentre_y_mm"); nb_json_double (w, res->barycentre_y_mm);
  nb_json_key (w, "mean_theta_deg"); nb_json_double (w, res->mean_theta_deg);
  nb_json_key (w, "ap_mm"); nb_json_double (w, res->ap_mm);
  nb_json_key (w, "ao_deg"); nb_json_double (w, res->ao_deg);
  nb_json_key (w, "l_mean_mm"); nb_json_double (w, res->l_mean_mm);
  nb_json_key (w, "s_l_mm"); nb_json_double (w, res->s_l_mm);
  nb_json_key (w, "rp_mm"); nb_json_double (w, res->rp_mm);
  nb_json_key (w, "s_o_deg"); nb_json_double (w, res->s_o_deg);
  nb_json_key (w, "ro_deg"); nb_json_double (w, res->ro_deg);
}

static void
json_tally (NbJsonWriter *w, const NbDetectionTally *tally)
{
  nb_json_key (w, "placements"); nb_json_int (w, tally->placements);
  nb_json_key (w, "detected"); nb_json_int (w, tally->detected);
  nb_json_key (w, "mean_error_pct"); nb_json_double (w, nb_detection_tally_mean_error_pct (tally));
  nb_json_key (w, "mean_accuracy_pct");
  nb_json_double (w, nb_detection_tally_mean_accuracy_pct (tally));
}

void
nb_clause_json_detection (NbJsonWriter *w, const NbDetectionResult *res)
{
  json_tally (w, &res->all);
  nb_json_key (w, "obstacles");
  nb_json_begin_array (w);
  for (guint i = 0; i < res->obstacles->len; i++)
    {
      const NbObstacleTally *o = &g_array_index (res->obstacles, NbObstacleTally, i);

      nb_json_begin_object (w);
      nb_json_key (w, "obstacle"); nb_json_string (w, o->obstacle);
      json_tally (w, &o->tally);
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
}

void
nb_clause_json_avoidance (NbJsonWriter *w, const NbAvoidanceResult *res)
{
  nb_json_key (w, "passed"); nb_json_bool (w, res->passed);
  nb_json_key (w, "t0_s"); nb_json_double (w, res->t0_s);
  nb_json_key (w, "t1_s"); nb_json_double (w, res->t1_s);
  nb_json_key (w, "delay_ratio"); nb_json_double (w, res->delay_ratio);
}

void
nb_clause_json_path (NbJsonWriter *w, const NbPathResult *res, guint64 samples,
                  const char *const *labels, const double *d_mm, guint n)
{
  nb_json_key (w, "n"); nb_json_int (w, (gint64) res->n);
  nb_json_key (w, "samples"); nb_json_int (w, (gint64) samples);
  nb_json_key (w, "trials");
  nb_json_begin_array (w);
  for (guint i = 0; i < n; i++)
    nb_json_string (w, labels[i]);
  nb_json_end_array (w);
  nb_json_key (w, "deviations_mm");
  nb_json_begin_array (w);
  for (guint i = 0; i < n; i++)
    nb_json_double (w, d_mm[i]);
  nb_json_end_array (w);
  nb_json_key (w, "max_mm"); nb_json_double (w, res->max_mm);
  nb_json_key (w, "mean_mm"); nb_json_double (w, res->mean_mm);
  nb_json_key (w, "mean_abs_mm"); nb_json_double (w, res->mean_abs_mm);
  nb_json_key (w, "std_mm"); nb_json_double (w, res->std_mm);
}

void
nb_clause_json_passage (NbJsonWriter *w, const NbPassageResult *res)
{
  nb_json_key (w, "passed"); nb_json_bool (w, res->passed);
  nb_json_key (w, "mean_time_s"); nb_json_double (w, res->mean_time_s);
  nb_json_key (w, "failed_trials"); nb_json_int (w, res->failed_trials);
}

void
nb_clause_json_mapping (NbJsonWriter *w, const guint *trials, const double *dm_mm,
                        const double *heading_deg, guint n, double accuracy_mm)
{
  nb_json_key (w, "trials");
  nb_json_begin_array (w);
  for (guint i = 0; i < n; i++)
    {
      nb_json_begin_object (w);
      nb_json_key (w, "trial"); nb_json_int (w, trials[i]);
      nb_json_key (w, "dm_mm"); nb_json_double (w, dm_mm[i]);
      if (heading_deg != NULL)
        {
          nb_json_key (w, "heading_deg"); nb_json_double (w, heading_deg[i]);
        }
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
  nb_json_key (w, "accuracy_mm"); nb_json_double (w, accuracy_mm);
}
