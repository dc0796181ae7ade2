/* nb-protocol-conditions.h — the conditions in force when each trial was recorded
 *
 * ISO/IEC 17025:2017 7.8.3.1 a asks a test report for "the specific test
 * conditions, such as environmental conditions", and ISO 18646-2 has each
 * clause's protocol state its conditions (4.2–4.4; 5.5, 8.4, 10.4: the
 * surface's friction beside the figures).  The conditions are campaign
 * fields (conditions.*), every change of one in the audit trail ("field
 * set"), and every trial has its own "trial recorded" event: a trial is tied
 * to the value of each condition last set before that event.  Decided: an
 * imported trial's conditions are those in force when it was imported (the
 * file holds no time of measurement); a condition first stated after a trial
 * was recorded is printed as not stated for it, flagged.
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-catalogue.h"
#include "nb-document.h"

G_BEGIN_DECLS

/* After a clause's section: one sentence when every trial of its
 * configurations was recorded under the conditions clause 4 prints (the
 * current fields), else a table of each configuration's trials (in the
 * order recorded) grouped by the conditions in force, each value checked
 * against its range (not outdoors). */
void nb_protocol_trial_conditions (NbCampaign *campaign, const NbCatalogue *lang,
                                   NbDocument *doc, guint clause,
                                   GArray *configs /* of NbCampaignConfig */, gboolean outdoor);

G_END_DECLS
