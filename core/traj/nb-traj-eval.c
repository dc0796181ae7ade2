#include "nb-traj-eval.h"

#include "nb-error.h"

#include <math.h>
#include <string.h>

void
nb_traj_eval_options_init (NbTrajEvalOptions *o)
{
  memset (o, 0, sizeof *o);
  o->relation = NB_REL_TRANS;
  o->align = NB_ALIGN_NONE;
  nb_sim3_identity (&o->transform);
  o->t_max_diff_s = 0.01;
  o->max_gap_s = 0.25;
  o->delta = 1.0;
  o->delta_unit = NB_DELTA_FRAMES;
  o->ref_name = "reference";
  o->est_name = "estimate";
}

gboolean
nb_traj_eval_needs_orientations (const NbTrajEvalOptions *o)
{
  return o->rpe || nb_relation_uses_rotation (o->relation) || o->interpolate || o->align == NB_ALIGN_ORIGIN;
}

void
nb_traj_evaluation_free (NbTrajEvaluation *e)
{
  if (e == NULL)
    return;
  g_clear_pointer (&e->ref, nb_traj_free);
  g_clear_pointer (&e->est, nb_traj_free);
  g_clear_pointer (&e->pairs, g_array_unref);
  g_free (e->err);
  g_free (e);
}

NbTrajEvaluation *
nb_traj_evaluate (NbTraj *ref_in, NbTraj *est_in, const NbTrajEvalOptions *o, GError **error)
{
  g_autoptr (NbTraj) ref = ref_in, est = est_in;
  g_autoptr (NbTrajEvaluation) e = g_new0 (NbTrajEvaluation, 1);

  if (nb_relation_uses_rotation (o->relation) && (!ref->has_orientation || !est->has_orientation))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: a track without orientation columns: --relation %s needs them (trans "
                   "and xy do not)", ref->has_orientation ? o->est_name : o->ref_name,
                   nb_relation_name (o->relation));
      return NULL;
    }
  if (o->align == NB_ALIGN_ORIGIN && (!ref->has_orientation || !est->has_orientation))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: --align origin needs the orientations, which this track lacks",
                   ref->has_orientation ? o->est_name : o->ref_name);
      return NULL;
    }
  /* Tracks read for their positions alone serve only what needs no more. */
  g_return_val_if_fail ((ref->q != NULL && est->q != NULL) ||
                        !nb_traj_eval_needs_orientations (o), NULL);
  e->n_ref = ref->n, e->n_est = est->n;
  if (o->interpolate)
    {
      if (!nb_traj_interpolate (ref, est, o->max_gap_s, o->t_offset_s, &e->ref, &e->est,
                                &e->assoc, error))
        return NULL;
    }
  else
    {
      /* In place: a million poses are not copied. */
      if (!nb_traj_associate_in_place (ref, est, o->t_max_diff_s, o->t_offset_s, &e->assoc,
                                       error))
        return NULL;
      e->ref = g_steal_pointer (&ref);
      e->est = g_steal_pointer (&est);
    }

  switch (o->align)
    {
    case NB_ALIGN_NONE:
      nb_sim3_identity (&e->alignment);
      break;
    case NB_ALIGN_SE3:
    case NB_ALIGN_SE2:
    case NB_ALIGN_SIM3:
      if (!nb_traj_umeyama (e->ref, e->est, o->align, &e->alignment, error))
        return NULL;
      break;
    case NB_ALIGN_ORIGIN:
      nb_traj_origin (e->ref, e->est, &e->alignment);
      break;
    case NB_ALIGN_GIVEN:
      e->alignment = o->transform;
      break;
    }
  if (o->align != NB_ALIGN_NONE)
    nb_traj_transform (e->est, &e->alignment);

  if (o->rpe)
    {
      e->pairs = nb_traj_rpe_pairs (o->pairs_from_reference ? e->ref : e->est, o->delta,
                                    o->delta_unit, o->all_pairs, error);
      if (e->pairs == NULL)
        return NULL;
      e->n_err = e->pairs->len;
      e->err = g_new (double, MAX (e->n_err, 1));
      nb_traj_rpe (e->ref, e->est, (NbPosePair *) e->pairs->data, e->n_err, o->relation, e->err);
    }
  else
    {
      e->n_err = e->est->n;
      e->err = g_new (double, MAX (e->n_err, 1));
      nb_traj_ape (e->ref, e->est, o->relation, e->err);
    }
  nb_error_stats (e->err, e->n_err, &e->stats);
  return g_steal_pointer (&e);
}

double *
nb_traj_evaluation_per_pose (const NbTrajEvaluation *e)
{
  double *value = g_new (double, MAX (e->est->n, 1));

  if (e->pairs == NULL)
    {
      memcpy (value, e->err, e->n_err * sizeof (double));
      return value;
    }
  for (guint k = 0; k < e->est->n; k++)
    value[k] = NAN;
  /* Each pair's error colours the stretch of path it spans. */
  for (guint k = 0; k < e->n_err; k++)
    {
      NbPosePair pr = g_array_index (e->pairs, NbPosePair, k);

      for (guint i = pr.i + 1; i <= pr.j; i++)
        value[i] = e->err[k];
    }
  return value;
}
