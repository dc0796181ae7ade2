#include "nb-clause-results.h"

#include <math.h>

#include "nb-error.h"

/* ------------------------------------------------------------------ 6 -- */

static void
obstacle_tally_clear (gpointer p)
{
  g_free (((NbObstacleTally *) p)->obstacle);
}

void
nb_detection_result_init (NbDetectionResult *r)
{
  r->all = (NbDetectionTally) NB_DETECTION_TALLY_INIT;
  r->obstacles = g_array_new (FALSE, FALSE, sizeof (NbObstacleTally));
  g_array_set_clear_func (r->obstacles, obstacle_tally_clear);
  /* Keys are the names owned by the array's elements. */
  r->index = g_hash_table_new (g_str_hash, g_str_equal);
}

void
nb_detection_result_clear (NbDetectionResult *r)
{
  g_clear_pointer (&r->index, g_hash_table_unref);
  g_clear_pointer (&r->obstacles, g_array_unref);
}

void
nb_detection_result_add (NbDetectionResult *r, const char *obstacle, double true_mm,
                         gboolean detected, double measured_mm)
{
  gpointer found;
  NbObstacleTally *o;

  if (g_hash_table_lookup_extended (r->index, obstacle, NULL, &found))
    o = &g_array_index (r->obstacles, NbObstacleTally, GPOINTER_TO_UINT (found));
  else
    {
      NbObstacleTally fresh = { g_strdup (obstacle), NB_DETECTION_TALLY_INIT };

      g_array_append_val (r->obstacles, fresh);
      o = &g_array_index (r->obstacles, NbObstacleTally, r->obstacles->len - 1);
      g_hash_table_insert (r->index, o->obstacle, GUINT_TO_POINTER (r->obstacles->len - 1));
    }
  nb_detection_tally_add (&o->tally, true_mm, detected, measured_mm);
  nb_detection_tally_add (&r->all, true_mm, detected, measured_mm);
}

/* ------------------------------------------------------------------ 8 -- */

struct _NbPathRun {
  NbSegment segment;
  GArray *trials;               /* of NbPathRunTrial */
  GHashTable *index;            /* label → index in trials */
  guint current;
  guint64 samples;
};

static void
path_trial_clear (gpointer p)
{
  g_free (((NbPathRunTrial *) p)->label);
}

NbPathRun *
nb_path_run_new (const NbSegment *segment)
{
  NbPathRun *run = g_new0 (NbPathRun, 1);

  run->segment = *segment;
  run->trials = g_array_new (FALSE, FALSE, sizeof (NbPathRunTrial));
  g_array_set_clear_func (run->trials, path_trial_clear);
  run->index = g_hash_table_new (g_str_hash, g_str_equal);
  return run;
}

void
nb_path_run_free (NbPathRun *run)
{
  if (run == NULL)
    return;
  g_hash_table_unref (run->index);
  g_array_unref (run->trials);
  g_free (run);
}

void
nb_path_run_push (NbPathRun *run, const char *label, gboolean new_run, guint64 line,
                  double x_mm, double y_mm)
{
  if (new_run || run->trials->len == 0)
    {
      gpointer found;

      if (g_hash_table_lookup_extended (run->index, label, NULL, &found))
        run->current = GPOINTER_TO_UINT (found);
      else
        {
          NbPathRunTrial t = { g_strdup (label), line };

          nb_path_trial_init (&t.acc);
          g_array_append_val (run->trials, t);
          run->current = run->trials->len - 1;
          /* The array may move, the labels do not. */
          g_hash_table_insert (run->index, t.label, GUINT_TO_POINTER (run->current));
        }
    }
  nb_path_trial_push (&g_array_index (run->trials, NbPathRunTrial, run->current).acc,
                      &run->segment, x_mm, y_mm);
  run->samples++;
}

guint
nb_path_run_n_trials (const NbPathRun *run)
{
  return run->trials->len;
}

const NbPathRunTrial *
nb_path_run_trial (const NbPathRun *run, guint i)
{
  return &g_array_index (run->trials, NbPathRunTrial, i);
}

guint64
nb_path_run_samples (const NbPathRun *run)
{
  return run->samples;
}

double *
nb_path_run_finish (NbPathRun *run, const char *where, NbPathResult *result, GError **error)
{
  g_autofree double *d = g_new (double, MAX (run->trials->len, 1));

  for (guint i = 0; i < run->trials->len; i++)
    {
      NbPathRunTrial *t = &g_array_index (run->trials, NbPathRunTrial, i);

      if (t->acc.n_on_segment == 0)
        {
          g_autofree char *prefix = where ? g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": ", where,
                                                             t->first_line)
                                          : g_strdup ("");

          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%strial '%s': none of its %" G_GUINT64_FORMAT
                       " samples projects onto the segment P0→P1", prefix, t->label,
                       t->acc.n_samples);
          return NULL;
        }
      d[i] = t->acc.d_mm;
    }
  if (!nb_metrics_path (d, run->trials->len, result, error))
    return NULL;
  return g_steal_pointer (&d);
}

/* ----------------------------------------------------------------- 10 -- */

double
nb_mapping_accuracy_mm (const double *dm_mm, const gboolean *ok, guint n, guint *first)
{
  guint run = 0;

  if (first != NULL)
    *first = G_MAXUINT;
  for (guint i = 0; i < n; i++)
    {
      run = ok == NULL || ok[i] ? run + 1 : 0;
      if (run == NB_MAPPING_CONSECUTIVE)
        {
          guint start = i + 1 - NB_MAPPING_CONSECUTIVE;
          double accuracy = dm_mm[start];

          for (guint k = start + 1; k <= i; k++)
            accuracy = MAX (accuracy, dm_mm[k]);
          if (first != NULL)
            *first = start;
          return accuracy;
        }
    }
  return NAN;
}
