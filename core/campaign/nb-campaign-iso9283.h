/* nb-campaign-iso9283.h — ISO 9283 pose test runs in the campaign file
 *
 * One run is one configuration of the pose test (7.2; speed and load as
 * 100/50/10 % rated speed, rated/10 % load): the cube it used, the five
 * command poses and every attained pose (cycle, pose), written in one
 * transaction and logged as an event.  Tables iso9283_run and iso9283_pose
 * (schema 3); ISO 18646-2's config and trial tables are untouched.
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-iso9283.h"

G_BEGIN_DECLS

typedef struct {
  char *config;                 /* the run's name, unique in the campaign */
  char *robot;                  /* "sim" or the motion API's URL */
  char *measurement;
  double speed_pct;
  char *load;                   /* "rated" or "10%" */
  guint plane;
  double edge_mm;
  double centre_mm[3];
  guint cycles;
  NbPose6 command[5];
  GArray *attained[5];          /* of NbPose6, in cycle order */
} NbIso9283StoredRun;

void       nb_iso9283_stored_run_free (NbIso9283StoredRun *run);

/* NB_ERROR_INPUT when the name is taken or empty. */
gboolean   nb_campaign_iso9283_add_run (NbCampaign *campaign, const NbIso9283StoredRun *run,
                                        GError **error);
/* Of NbIso9283StoredRun*, in the order they were added. */
GPtrArray *nb_campaign_iso9283_runs    (NbCampaign *campaign, GError **error);

/* ------------------------------------------------ the plan (schema 5) -- */

/* One configuration of the ISO 9283 plan: a characteristic (the clause
 * module's key, protocols/clauses/nb-clause-9283.h) at a speed and load,
 * with the standard's count of cycles (6.9) and its scope. */
typedef struct {
  char *characteristic;         /* "pose", "vap", "distance", … */
  char *config;                 /* unique in the file: "pose-rated-100" */
  double speed_pct;             /* 100, 50, 10 */
  char *load;                   /* "rated" or "10%" */
  guint cycles;
  double duration_s;            /* drift (7.6): the run's length; NaN otherwise */
  gboolean in_scope;
  char *reason;                 /* out of scope: why */
} NbIso9283PlanEntry;

void     nb_iso9283_plan_entry_clear (NbIso9283PlanEntry *entry);
/* Appends entries (one transaction, logged); NB_ERROR_INPUT when a name is taken. */
gboolean nb_campaign_iso9283_plan_add  (NbCampaign *campaign, const NbIso9283PlanEntry *entries,
                                        guint n, GError **error);
/* Of NbIso9283PlanEntry (cleared with the array), in plan order. */
GArray  *nb_campaign_iso9283_plan_list (NbCampaign *campaign, GError **error);
/* Out of scope with a reason, or back in; logged.  NB_ERROR_INPUT when the
 * plan has no such configuration. */
gboolean nb_campaign_iso9283_plan_set_scope (NbCampaign *campaign, const char *config,
                                             gboolean in_scope, const char *reason,
                                             GError **error);

/* One measured cycle of a configuration: the command (packed as the clause
 * module lays it out) and what was measured (attained poses, or a stream). */
typedef struct {
  char *config;
  guint cycle;                  /* from 1 */
  char *robot;                  /* "sim" or the motion API's URL */
  char *measurement;
  char *setup;                  /* JSON: the cube, the load in kg, the band, … */
  double t_s;                   /* the robot's clock when the cycle ended; NaN unknown */
  GArray *command;              /* of double */
  GArray *data;                 /* of double */
} NbIso9283Trial;

void     nb_iso9283_trial_free (NbIso9283Trial *trial);
/* One transaction: the cycle is recorded whole or not at all.
 * NB_ERROR_INPUT when the configuration is not planned or the cycle exists. */
gboolean nb_campaign_iso9283_add_trial (NbCampaign *campaign, const NbIso9283Trial *trial,
                                        GError **error);
/* How many cycles a configuration has recorded. */
gboolean nb_campaign_iso9283_count_trials (NbCampaign *campaign, const char *config, guint *n,
                                           GError **error);
/* Of NbIso9283Trial*, in cycle order; config NULL: all, in plan order. */
GPtrArray *nb_campaign_iso9283_trials  (NbCampaign *campaign, const char *config,
                                        GError **error);

G_END_DECLS
