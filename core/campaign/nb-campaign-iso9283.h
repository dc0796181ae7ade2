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

G_END_DECLS
