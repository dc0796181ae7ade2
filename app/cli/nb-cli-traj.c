/* navbench-cli compute ape|rpe — trajectory error against ground truth
 *
 * What labs use evo for (evo_ape, evo_rpe), with evo's definitions so the
 * figures compare one to one (core/nb-traj-error.h), in linear time: the
 * association is a merge of the two sorted series, the median a selection.
 * Every pose that is not evaluated is counted with its reason; the fitted
 * or given alignment is printed.
 */
#include "nb-cli.h"

#include "nb-error.h"
#include "nb-json-writer.h"
#include "nb-number.h"
#include "nb-plot-traj.h"
#include "nb-traj-align.h"
#include "nb-traj-assoc.h"
#include "nb-traj-error.h"
#include "nb-traj-eval.h"
#include "nb-traj-campaign.h"
#include "nb-tum-reader.h"

#include <math.h>
#include <string.h>

typedef struct {
  gboolean rpe;
  char *ref_path, *est_path, *format, *align, *transform, *relation, *plot;
  char *t_max_diff, *t_offset, *max_gap, *delta, *delta_unit;
  gboolean interpolate, json, all_pairs, pairs_from_reference;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->ref_path), g_free (o->est_path), g_free (o->format), g_free (o->align);
  g_free (o->transform), g_free (o->relation), g_free (o->plot), g_free (o->t_max_diff);
  g_free (o->t_offset), g_free (o->max_gap), g_free (o->delta), g_free (o->delta_unit);
}

static gboolean
option_double (const char *option, const char *text, double fallback, double *out,
               GError **error)
{
  if (text == NULL)
    {
      *out = fallback;
      return TRUE;
    }
  if (!nb_parse_double (text, strlen (text), out))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--%s: '%s' is not a finite number",
                   option, text);
      return FALSE;
    }
  return TRUE;
}

static NbTraj *
read_traj (const char *option, const char *path, NbTrajFormat format, NbTrajReadFlags flags,
           GPtrArray *warnings, GError **error)
{
  NbTrajReadInfo info;
  NbTraj *traj;

  if (path == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--%s FILE is required", option);
      return NULL;
    }
  /* campaign:F.nbc:TRIAL_ID — a trial's track from the campaign store. */
  if (g_str_has_prefix (path, "campaign:"))
    return nb_traj_read_campaign (path + strlen ("campaign:"), error);
  traj = nb_traj_read_path_with (path, format, flags, &info, error);
  if (traj != NULL && info.n_normalised > 0)
    g_ptr_array_add (warnings,
                     g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": %u quaternion%s off unit norm "
                                      "by up to %.3g (more than %g) normalised; first here",
                                      path, info.first_normalised_line, info.n_normalised,
                                      info.n_normalised == 1 ? "" : "s", info.worst_norm_dev,
                                      NB_QUAT_NORM_WARN));
  return traj;
}

typedef struct {
  const char *option, *path;
  NbTrajFormat format;
  NbTrajReadFlags flags;
  GPtrArray *warnings;
  NbTraj *traj;
  GError *error;
} TrajJob;

static gpointer
read_traj_job (gpointer data)
{
  TrajJob *j = data;

  j->traj = read_traj (j->option, j->path, j->format, j->flags, j->warnings, &j->error);
  return NULL;
}

/* Both tracks at once, the estimate on a thread of its own: reading and
 * parsing the two files is most of a large compute ape (issue 20).  Errors
 * and warnings come out in the order ref, est, as when read one by one. */
static gboolean
read_both (const char *ref_path, const char *est_path, NbTrajFormat format,
           NbTrajReadFlags flags, GPtrArray *warnings, NbTraj **ref, NbTraj **est,
           GError **error)
{
  TrajJob jobs[2] = {
    { "ref", ref_path, format, flags, g_ptr_array_new_with_free_func (g_free), NULL, NULL },
    { "est", est_path, format, flags, g_ptr_array_new_with_free_func (g_free), NULL, NULL },
  };
  GThread *thread = g_thread_try_new ("read-est", read_traj_job, &jobs[1], NULL);
  gboolean ok;

  read_traj_job (&jobs[0]);
  if (thread != NULL)
    g_thread_join (thread);
  else
    read_traj_job (&jobs[1]);
  for (int k = 0; k < 2; k++)
    {
      for (guint i = 0; i < jobs[k].warnings->len; i++)
        g_ptr_array_add (warnings, g_strdup (jobs[k].warnings->pdata[i]));
      g_ptr_array_unref (jobs[k].warnings);
    }
  ok = jobs[0].traj != NULL && jobs[1].traj != NULL;
  if (!ok)
    {
      g_propagate_error (error, jobs[0].error != NULL ? jobs[0].error : jobs[1].error);
      g_clear_error (jobs[0].error != NULL ? &jobs[1].error : &jobs[0].error);
      g_clear_pointer (&jobs[0].traj, nb_traj_free);
      g_clear_pointer (&jobs[1].traj, nb_traj_free);
    }
  *ref = jobs[0].traj;
  *est = jobs[1].traj;
  return ok;
}

static void
json_drops (NbJsonWriter *w, const char *key, const NbDropCount *c, gboolean interpolated)
{
  nb_json_key (w, key);
  nb_json_begin_object (w);
  nb_json_key (w, "total"); nb_json_int (w, nb_drop_count_total (c));
  nb_json_key (w, "before_overlap"); nb_json_int (w, c->before);
  nb_json_key (w, "after_overlap"); nb_json_int (w, c->after);
  nb_json_key (w, interpolated ? "in_reference_gap" : "no_partner_within_t_max_diff");
  nb_json_int (w, c->inside);
  nb_json_end_object (w);
}

static void
json_matrix_row (NbJsonWriter *w, const double *row, guint n)
{
  nb_json_begin_array (w);
  for (guint i = 0; i < n; i++)
    nb_json_double (w, row[i]);
  nb_json_end_array (w);
}

static char *
drops_text (const NbDropCount *c, gboolean interpolated, double t_max_diff)
{
  return g_strdup_printf ("%u (%u before the overlap, %u after it, %u %s)",
                          nb_drop_count_total (c), c->before, c->after, c->inside,
                          interpolated ? "in reference gaps"
                                       : "without a partner within --t-max-diff");
}

static int
run (gboolean rpe, int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) local = NULL;
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (NbTraj) ref = NULL, est = NULL;
  g_autoptr (NbTrajEvaluation) ev = NULL;
  g_autofree char *transform_text = NULL;
  Options o = { rpe };
  GOptionEntry entries[] = {
    { "ref", 0, 0, G_OPTION_ARG_FILENAME, &o.ref_path, "the reference (ground truth)", "FILE" },
    { "est", 0, 0, G_OPTION_ARG_FILENAME, &o.est_path, "the estimate (odometry, SLAM)", "FILE" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &o.format, "auto (default), tum or csv", "F" },
    { "align", 0, 0, G_OPTION_ARG_STRING, &o.align,
      "none (default), se3, se2, sim3 (se3 with scale) or origin", "KIND" },
    { "transform", 0, 0, G_OPTION_ARG_FILENAME, &o.transform,
      "apply this rigid transform to the estimate instead of a fit", "FILE" },
    { "relation", 0, 0, G_OPTION_ARG_STRING, &o.relation,
      "trans (default), rot_part, full, angle_deg, angle_rad, xy, yaw_deg", "R" },
    { "t-max-diff", 0, 0, G_OPTION_ARG_STRING, &o.t_max_diff,
      "largest stamp difference of a pair, s (default 0.01)", "S" },
    { "t-offset", 0, 0, G_OPTION_ARG_STRING, &o.t_offset,
      "added to the estimate's stamps, s (default 0)", "S" },
    { "interpolate", 0, 0, G_OPTION_ARG_NONE, &o.interpolate,
      "interpolate the reference at the estimate's stamps (slerp)", NULL },
    { "max-gap", 0, 0, G_OPTION_ARG_STRING, &o.max_gap,
      "with --interpolate: longest reference interval to interpolate over, s (default 0.25)",
      "S" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "one JSON object on stdout", NULL },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &o.plot,
      "draw the estimate coloured by error over the reference", "OUT.png" },
    { NULL }
  };
  GOptionEntry rpe_entries[] = {
    { "delta", 0, 0, G_OPTION_ARG_STRING, &o.delta, "the pair distance (default 1)", "N" },
    { "delta-unit", 0, 0, G_OPTION_ARG_STRING, &o.delta_unit,
      "frames (default) or m (path travelled)", "U" },
    { "all-pairs", 0, 0, G_OPTION_ARG_NONE, &o.all_pairs,
      "every pair (i, i + delta) instead of consecutive ones (frames only)", NULL },
    { "pairs-from-reference", 0, 0, G_OPTION_ARG_NONE, &o.pairs_from_reference,
      "choose pairs along the reference's path, not the estimate's", NULL },
    { NULL }
  };
  NbTrajFormat format = NB_TRAJ_FORMAT_AUTO;
  NbAlignKind align = NB_ALIGN_NONE;
  NbRelation rel = NB_REL_TRANS;
  NbDeltaUnit delta_unit = NB_DELTA_FRAMES;
  NbTrajEvalOptions eo;
  NbAssocReport assoc;
  NbErrorStats st;
  NbSim3 x;
  double t_max_diff, t_offset, max_gap, delta;
  guint n_err, n_ref, n_est;

  g_option_context_set_summary (context, rpe ?
    "Relative pose error (RPE) of an estimated trajectory against its reference,\n"
    "as evo_rpe defines it: E = (Q_i⁻¹Q_j)⁻¹(P_i⁻¹P_j) over pose pairs (i, j) delta\n"
    "frames or delta metres of path apart." :
    "Absolute pose error (APE) of an estimated trajectory against its reference,\n"
    "as evo_ape defines it: E = P_est⁻¹·P_ref for each pair of poses matched in time.");
  g_option_context_set_description (context,
    "Files: TUM ('t x y z qx qy qz qw': s, m, unit quaternion) or a navbench CSV track\n"
    "(header t_s, x_mm, y_mm [, z_mm] [, qx, qy, qz, qw | theta_deg]); the format is\n"
    "recognised by the header. Stamps must be strictly increasing.\n\n"
    "Association: the nearest stamp within --t-max-diff (evo's rule, linear time), or\n"
    "--interpolate. Poses not evaluated are counted with their reason.\n\n"
    "--transform FILE: 3 rows of 3 numbers (planar [R t; 0 0 1]) or 4 rows of 4\n"
    "([R t; 0 0 0 1]), metres; maps estimate coordinates to reference ones.\n\n"
    "Statistics as evo: rmse, mean, median, std (population), min, max, sse.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (rpe)
    g_option_context_add_main_entries (context, rpe_entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !option_double ("t-max-diff", o.t_max_diff, 0.01, &t_max_diff, &error) ||
      !option_double ("t-offset", o.t_offset, 0.0, &t_offset, &error) ||
      !option_double ("max-gap", o.max_gap, 0.25, &max_gap, &error) ||
      !option_double ("delta", o.delta, 1.0, &delta, &error))
    goto fail;
  if (!(t_max_diff >= 0.0) || !(max_gap > 0.0))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--%s must be %s",
                   t_max_diff >= 0.0 ? "max-gap" : "t-max-diff",
                   t_max_diff >= 0.0 ? "positive" : "zero or positive");
      goto fail;
    }
  if (o.format != NULL)
    {
      if (g_str_equal (o.format, "tum"))
        format = NB_TRAJ_FORMAT_TUM;
      else if (g_str_equal (o.format, "csv"))
        format = NB_TRAJ_FORMAT_CSV;
      else if (!g_str_equal (o.format, "auto"))
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                       "--format '%s': expected auto, tum or csv", o.format);
          goto fail;
        }
    }
  if (o.align != NULL && !nb_align_kind_from_string (o.align, &align))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "--align '%s': expected none, se3, se2, sim3 or origin", o.align);
      goto fail;
    }
  if (o.relation != NULL && !nb_relation_from_string (o.relation, &rel))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "--relation '%s': expected trans, rot_part, full, angle_deg, angle_rad, xy "
                   "or yaw_deg", o.relation);
      goto fail;
    }
  if (o.delta_unit != NULL)
    {
      if (g_str_equal (o.delta_unit, "frames") || g_str_equal (o.delta_unit, "f"))
        delta_unit = NB_DELTA_FRAMES;
      else if (g_str_equal (o.delta_unit, "m"))
        delta_unit = NB_DELTA_METRES;
      else
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                       "--delta-unit '%s': expected frames or m", o.delta_unit);
          goto fail;
        }
    }
  if (o.transform != NULL)
    {
      gsize len;

      if (align != NB_ALIGN_NONE)
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                       "--transform and --align %s: a given transform replaces the fit; give "
                       "one of them", o.align);
          goto fail;
        }
      if (!g_file_get_contents (o.transform, &transform_text, &len, &local))
        {
          nb_error_propagate_as (&error, g_steal_pointer (&local), NB_ERROR_INPUT, "--transform: ");
          goto fail;
        }
      if (!nb_sim3_parse (o.transform, transform_text, &x, &error))
        goto fail;
      align = NB_ALIGN_GIVEN;
    }

  nb_traj_eval_options_init (&eo);
  eo.rpe = rpe;
  eo.relation = rel;
  eo.align = align;
  eo.transform = x;
  eo.interpolate = o.interpolate;
  eo.t_max_diff_s = t_max_diff;
  eo.t_offset_s = t_offset;
  eo.max_gap_s = max_gap;
  eo.delta = delta;
  eo.delta_unit = delta_unit;
  eo.all_pairs = o.all_pairs;
  eo.pairs_from_reference = o.pairs_from_reference;
  eo.ref_name = o.ref_path;
  eo.est_name = o.est_path;
  /* Positions alone when nothing reads the orientations: half the memory
   * of a million poses (they are still read and checked). */
  if (!read_both (o.ref_path, o.est_path, format,
                  nb_traj_eval_needs_orientations (&eo) ? NB_TRAJ_READ_ALL : NB_TRAJ_READ_POSITIONS,
                  warnings, &ref, &est, &error))
    goto fail;
  if (nb_relation_uses_rotation (rel) && (!ref->has_orientation || !est->has_orientation))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: a track without orientation columns: --relation %s needs them (trans "
                   "and xy do not)", ref->has_orientation ? o.est_path : o.ref_path,
                   nb_relation_name (rel));
      goto fail;
    }
  if (align == NB_ALIGN_ORIGIN && (!ref->has_orientation || !est->has_orientation))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: --align origin needs the orientations, which this track lacks",
                   ref->has_orientation ? o.est_path : o.ref_path);
      goto fail;
    }
  if ((ev = nb_traj_evaluate (g_steal_pointer (&ref), g_steal_pointer (&est), &eo,
                              &error)) == NULL)
    goto fail;
  x = ev->alignment;
  st = ev->stats;
  assoc = ev->assoc;
  n_ref = ev->n_ref, n_est = ev->n_est, n_err = ev->n_err;

  if (o.plot != NULL)
    {
      g_autofree double *value = nb_traj_evaluation_per_pose (ev);
      g_autofree char *title = NULL, *label = NULL;
      const char *unit = nb_relation_unit (rel);
      gboolean ok;

      title = g_strdup_printf ("%s w.r.t. %s — align %s — rmse %.4g%s%s", rpe ? "RPE" : "APE",
                               nb_relation_title (rel), nb_align_kind_name (align), st.rmse,
                               *unit ? " " : "", unit);
      label = g_strdup_printf ("%s %s%s%s%s", rpe ? "RPE" : "APE", nb_relation_name (rel),
                               *unit ? " (" : "", unit, *unit ? ")" : "");
      ok = nb_plot_traj_png (o.plot, ev->ref, ev->est, value, title, label, &error);
      /* The CLI draws one plot and exits. */
      nb_plot_release_caches ();
      if (!ok)
        goto fail;
    }

  for (guint i = 0; i < warnings->len; i++)
    g_printerr ("navbench-cli: warning: %s\n", (char *) warnings->pdata[i]);

  {
    gboolean interp = assoc.interpolated;
    guint n_dropped = nb_drop_count_total (&assoc.est_dropped);
    const char *unit = nb_relation_unit (rel);
    g_autofree char *text = NULL;
    g_autoptr (GError) werr = NULL;

    if (o.json)
      {
        g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

        nb_json_begin_object (w);
        nb_json_key (w, "metric"); nb_json_string (w, rpe ? "rpe" : "ape");
        nb_json_key (w, "relation"); nb_json_string (w, nb_relation_name (rel));
        nb_json_key (w, "unit"); nb_json_string (w, unit);
        nb_json_key (w, "rmse"); nb_json_double (w, st.rmse);
        nb_json_key (w, "mean"); nb_json_double (w, st.mean);
        nb_json_key (w, "median"); nb_json_double (w, st.median);
        nb_json_key (w, "std"); nb_json_double (w, st.std);
        nb_json_key (w, "min"); nb_json_double (w, st.min);
        nb_json_key (w, "max"); nb_json_double (w, st.max);
        nb_json_key (w, "sse"); nb_json_double (w, st.sse);
        nb_json_key (w, "n_errors"); nb_json_int (w, st.n);
        nb_json_key (w, "n_matched"); nb_json_int (w, assoc.n_matched);
        nb_json_key (w, "n_dropped"); nb_json_int (w, n_dropped);
        nb_json_key (w, "association");
        nb_json_begin_object (w);
        nb_json_key (w, "method"); nb_json_string (w, interp ? "interpolate" : "nearest");
        if (interp)
          {
            nb_json_key (w, "max_gap_s"); nb_json_double (w, assoc.max_gap_s);
          }
        else
          {
            nb_json_key (w, "t_max_diff_s"); nb_json_double (w, assoc.t_max_diff_s);
          }
        nb_json_key (w, "t_offset_s"); nb_json_double (w, assoc.t_offset_s);
        nb_json_key (w, "n_ref"); nb_json_int (w, assoc.n_ref);
        nb_json_key (w, "n_est"); nb_json_int (w, assoc.n_est);
        nb_json_key (w, "n_matched"); nb_json_int (w, assoc.n_matched);
        json_drops (w, "est_dropped", &assoc.est_dropped, interp);
        if (!interp)
          {
            json_drops (w, "ref_unused", &assoc.ref_unused, FALSE);
            nb_json_key (w, "n_reused"); nb_json_int (w, assoc.n_reused);
            nb_json_key (w, "max_abs_dt_s"); nb_json_double (w, assoc.max_abs_dt_s);
          }
        nb_json_end_object (w);
        nb_json_key (w, "alignment");
        nb_json_begin_object (w);
        nb_json_key (w, "kind"); nb_json_string (w, nb_align_kind_name (align));
        if (o.transform != NULL)
          {
            nb_json_key (w, "file"); nb_json_string (w, o.transform);
          }
        nb_json_key (w, "rotation");
        nb_json_begin_array (w);
        for (int a = 0; a < 3; a++)
          json_matrix_row (w, x.r + 3 * a, 3);
        nb_json_end_array (w);
        nb_json_key (w, "translation_m"); json_matrix_row (w, x.t, 3);
        nb_json_key (w, "scale"); nb_json_double (w, x.s);
        nb_json_end_object (w);
        if (rpe)
          {
            nb_json_key (w, "delta"); nb_json_double (w, delta);
            nb_json_key (w, "delta_unit");
            nb_json_string (w, delta_unit == NB_DELTA_FRAMES ? "frames" : "m");
            nb_json_key (w, "all_pairs"); nb_json_bool (w, o.all_pairs);
            nb_json_key (w, "pairs_from");
            nb_json_string (w, o.pairs_from_reference ? "reference" : "estimate");
          }
        nb_json_key (w, "warnings");
        nb_json_begin_array (w);
        for (guint i = 0; i < warnings->len; i++)
          nb_json_string (w, warnings->pdata[i]);
        nb_json_end_array (w);
        nb_json_end_object (w);
        text = nb_json_writer_finish (g_steal_pointer (&w));
      }
    else
      {
        GString *s = g_string_new (NULL);
        g_autofree char *ed = drops_text (&assoc.est_dropped, interp, t_max_diff);
        const char *names[] = { "rmse", "mean", "median", "std", "min", "max", "sse" };
        double values[] = { st.rmse, st.mean, st.median, st.std, st.min, st.max, st.sse };

        g_string_append_printf (s, "%s w.r.t. %s%s%s%s\n", rpe ? "RPE" : "APE",
                                nb_relation_title (rel), *unit ? " (" : "", unit,
                                *unit ? ")" : "");
        if (rpe)
          g_string_append_printf (s, "pairs: %u, delta %g %s, %s, along the %s\n", n_err,
                                  delta, delta_unit == NB_DELTA_FRAMES ? "frames" : "m",
                                  o.all_pairs ? "all pairs" : "consecutive pairs",
                                  o.pairs_from_reference ? "reference" : "estimate");
        g_string_append_printf (s, "reference %s: %u poses; estimate %s: %u poses\n",
                                o.ref_path, n_ref, o.est_path, n_est);
        if (interp)
          g_string_append_printf (s, "association: reference interpolated at the estimate "
                                  "stamps (offset %g s, max gap %g s): %u matched\n",
                                  t_offset, max_gap, assoc.n_matched);
        else
          {
            g_autofree char *ru = drops_text (&assoc.ref_unused, FALSE, t_max_diff);

            g_string_append_printf (s, "association: nearest stamp within %g s (offset %g s): "
                                    "%u matched, largest |dt| %.3g s, %u sharing a pose\n",
                                    t_max_diff, t_offset, assoc.n_matched, assoc.max_abs_dt_s,
                                    assoc.n_reused);
            g_string_append_printf (s, "reference poses unused: %s\n", ru);
          }
        g_string_append_printf (s, "estimate poses dropped: %s\n", ed);
        g_string_append_printf (s, "alignment %s%s%s: rotation [%.9g %.9g %.9g; %.9g %.9g %.9g;"
                                " %.9g %.9g %.9g], translation [%.9g %.9g %.9g] m, scale %.9g\n",
                                nb_align_kind_name (align), o.transform ? " from " : "",
                                o.transform ? o.transform : "", x.r[0], x.r[1], x.r[2], x.r[3],
                                x.r[4], x.r[5], x.r[6], x.r[7], x.r[8], x.t[0], x.t[1], x.t[2],
                                x.s);
        g_string_append_printf (s, "%10s  %u\n", "n", st.n);
        for (guint i = 0; i < G_N_ELEMENTS (names); i++)
          g_string_append_printf (s, "%10s  %.6g\n", names[i], values[i]);
        text = g_string_free (s, FALSE);
      }
    options_clear (&o);
    if (!nb_cli_write (text, &werr))
      return nb_cli_report_error (werr);
    return NB_EXIT_OK;
  }

fail:
  options_clear (&o);
  return nb_cli_report_error (error);
}

int
nb_cli_compute_ape (int argc, char **argv)
{
  return run (FALSE, argc, argv);
}

int
nb_cli_compute_rpe (int argc, char **argv)
{
  return run (TRUE, argc, argv);
}
