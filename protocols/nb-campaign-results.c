#include "nb-campaign-results.h"

#include "nb-error.h"

gboolean
nb_campaign_trial_counts (guint clause, const NbCampaignTrial *t)
{
  return t->outcome == NB_TRIAL_OK ||
         ((clause == 7 || clause == 9) && t->outcome == NB_TRIAL_FAILED);
}



void
nb_config_result_clear (gpointer p)
{
  NbConfigResult *r = p;

  g_free (r->config);
  g_free (r->error);
  if (r->detection.obstacles != NULL)
    nb_detection_result_clear (&r->detection);
  g_clear_pointer (&r->path_run, nb_path_run_free);
  g_clear_pointer (&r->d_mm, g_free);
  g_clear_pointer (&r->values, g_array_unref);
  g_clear_pointer (&r->numbers, g_array_unref);
}

typedef struct {
  NbPathRun *run;
  const char *label;
  gboolean first;
} PathPush;

static gboolean
push_path_block (const NbTrackSample *s, gsize n, gpointer user_data, GError **error)
{
  PathPush *p = user_data;

  for (gsize i = 0; i < n; i++)
    {
      nb_path_run_push (p->run, p->label, p->first, 0, s[i].x_mm, s[i].y_mm);
      p->first = FALSE;
    }
  return TRUE;
}

/* Computes r's figures from the counted trials; a failure of the figures
 * (too few trials, no sample on the segment) goes into r->error, a failure to
 * read the file into error. */
gboolean
nb_config_result_compute (NbCampaign *campaign, const NbCampaignConfig *c, NbConfigResult *r,
                          GError **error)
{
  g_autoptr (GArray) all = nb_campaign_list_trials (campaign, c->id, error);
  g_autoptr (GArray) trials = g_array_new (FALSE, FALSE, sizeof (NbCampaignTrial *));
  g_autoptr (GError) figures = NULL;

  r->clause = c->clause;
  r->config = g_strdup (c->name);
  if (all == NULL)
    return FALSE;
  for (guint i = 0; i < all->len; i++)
    {
      NbCampaignTrial *t = &g_array_index (all, NbCampaignTrial, i);

      if (nb_campaign_trial_counts (c->clause, t))
        g_array_append_val (trials, t);
    }
#define TRIAL(i) g_array_index (trials, NbCampaignTrial *, i)

  switch (c->clause)
    {
    case 5:
      {
        g_autofree NbPose *attained = g_new (NbPose, MAX (trials->len, 1));

        for (guint i = 0; i < trials->len; i++)
          attained[i] = TRIAL (i)->attained;
        nb_metrics_pose (&c->command, attained, trials->len, &r->pose, &figures);
        break;
      }
    case 6:
      nb_detection_result_init (&r->detection);
      for (guint i = 0; i < trials->len; i++)
        {
          NbCampaignTrial *t = TRIAL (i);

          nb_detection_result_add (&r->detection, t->label ? t->label : "", t->true_mm,
                                   t->detected, t->measured_mm);
        }
      if (trials->len == 0)
        g_set_error (&figures, NB_ERROR, NB_ERROR_INPUT, "no placements recorded");
      break;
    case 7:
    case 9:
      {
        g_autoptr (GArray) baseline = g_array_new (FALSE, FALSE, sizeof (NbTimedTrial));
        g_autoptr (GArray) timed = g_array_new (FALSE, FALSE, sizeof (NbTimedTrial));

        for (guint i = 0; i < trials->len; i++)
          {
            NbCampaignTrial *t = TRIAL (i);
            NbTimedTrial tt = { t->number, t->time_s, t->outcome == NB_TRIAL_OK };

            g_array_append_val (g_strcmp0 (t->kind, "baseline") == 0 ? baseline : timed, tt);
          }
        if (c->clause == 7)
          nb_metrics_avoidance ((NbTimedTrial *) baseline->data, baseline->len,
                                (NbTimedTrial *) timed->data, timed->len, &r->avoidance,
                                &figures);
        else
          nb_metrics_passage ((NbTimedTrial *) timed->data, timed->len, &r->passage, &figures);
        break;
      }
    case 8:
      {
        NbSegment segment;

        if (!nb_segment_init (&segment, c->from_mm[0], c->from_mm[1], c->to_mm[0], c->to_mm[1],
                              &figures))
          break;
        r->path_run = nb_path_run_new (&segment);
        for (guint i = 0; i < trials->len; i++)
          {
            NbCampaignTrial *t = TRIAL (i);
            g_autofree char *label = t->label ? g_strdup (t->label) : g_strdup_printf ("%u", t->seq);
            PathPush push = { r->path_run, label, TRUE };

            if (!nb_campaign_foreach_samples (campaign, t->id, push_path_block, &push, error))
              return FALSE;
            if (push.first)
              {
                g_set_error (&figures, NB_ERROR, NB_ERROR_INPUT, "trial '%s' has no samples",
                             label);
                break;
              }
          }
        if (figures == NULL)
          r->d_mm = nb_path_run_finish (r->path_run, NULL, &r->path, &figures);
        break;
      }
    case 10:
      {
        r->values = g_array_new (FALSE, FALSE, sizeof (double));
        r->numbers = g_array_new (FALSE, FALSE, sizeof (guint));
        r->accuracy_mm = 0.0;
        for (guint i = 0; i < trials->len; i++)
          {
            NbCampaignTrial *t = TRIAL (i);
            double dm = nb_metrics_dm ((const double (*)[2]) c->truth_mm,
                                       (const double (*)[2]) t->corners_mm);

            g_array_append_val (r->values, dm);
            g_array_append_val (r->numbers, t->number);
            /* 10.3: the mapping accuracy is the largest Dm of the trials. */
            r->accuracy_mm = MAX (r->accuracy_mm, dm);
          }
        if (trials->len == 0)
          g_set_error (&figures, NB_ERROR, NB_ERROR_INPUT, "no trials recorded");
        break;
      }
    }
#undef TRIAL
  if (figures != NULL)
    r->error = g_strdup (figures->message);
  return TRUE;
}

