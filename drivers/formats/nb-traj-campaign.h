/* nb-traj-campaign.h — a trial's track from the campaign store, as a trajectory
 *
 * For `compute ape|rpe`: the raw samples of one trial (t_s, x_mm, y_mm,
 * theta_deg) in metres with the heading as a rotation about z; a track
 * without headings is position-only. */
#pragma once

#include <glib.h>

#include "nb-traj.h"

G_BEGIN_DECLS

/* spec: "F.nbc:TRIAL_ID" (the trial's id, as `campaign info --trials` shows). */
NbTraj *nb_traj_read_campaign (const char *spec, GError **error);

G_END_DECLS
