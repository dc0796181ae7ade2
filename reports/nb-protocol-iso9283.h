/* nb-protocol-iso9283.h — the ISO 9283 section of the test protocol, in English or Russian
 *
 * The pose test (7.2) of the clause 6 cube: the test conditions (cube,
 * measurement plane, poses, cycles, speed, load, robot and measurement),
 * the table of AP and RP per pose, and the orientation table, with the
 * terms of ISO 9283:1998 and of ГОСТ Р ИСО 9283-2003 («точность
 * позиционирования», «повторяемость позиционирования» …).  The words are
 * msgids in the context "iso9283" of the catalogue the ISO 18646-2 protocol
 * uses (po/ru.po); every function takes the language's NbCatalogue (NULL:
 * English), like the rest of reports/.  The PDF's own words are
 * nb_protocol_report_pdf_words's.
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-campaign-iso9283.h"
#include "nb-catalogue.h"
#include "nb-document.h"
#include "nb-iso9283.h"
#include "nb-pdf.h"

G_BEGIN_DECLS

typedef struct {
  const char *config;           /* the run's configuration name; NULL: none */
  const char *robot;            /* "sim" or the motion API's URL */
  const char *measurement;      /* how the poses were measured */
  double edge_mm;
  guint plane;
  double centre_mm[3];
  double speed_pct;
  const char *load;             /* "rated" or "10%" */
  guint cycles;
  NbPose6 command[5];
  NbIso9283Pose result[5];
} NbIso9283PoseSection;

/* The pose run's section (7.2): its conditions and the two tables.  level:
 * of the section's headings (1, or 2 under the heading of ISO 9283 in
 * ISO 18646-2's protocol), here and below. */
gboolean nb_protocol_iso9283_add_pose (NbDocument *doc, const NbCatalogue *lang, guint level,
                                       const NbIso9283PoseSection *section, GError **error);
/* The ISO 9283 plan of a campaign file: the plan's table (configuration,
 * speed, load, cycles recorded of the standard's, state or the reason it is
 * out of scope), then per characteristic (clause module, registry order)
 * and configuration its conditions and its figures, recomputed from the
 * stored cycles, in the words of ISO 9283 or ГОСТ Р ИСО 9283. */
gboolean nb_protocol_iso9283_add_plan (NbDocument *doc, const NbCatalogue *lang, guint level,
                                       NbCampaign *campaign, GError **error);
/* A stored pose run's section, its figures computed again from the stored
 * poses (7.2). */
gboolean nb_protocol_iso9283_add_run (NbDocument *doc, const NbCatalogue *lang, guint level,
                                      const NbIso9283StoredRun *run, GError **error);
/* Everything ISO 9283 of a campaign file: every stored pose run, then the
 * plan (nothing when the file has neither); the ISO 18646-2 protocol
 * (nb_protocol_report_build, headed: a heading with this section's title
 * first) and `campaign run --standard iso9283 --report` both write it. */
gboolean nb_protocol_iso9283_add_campaign (NbDocument *doc, const NbCatalogue *lang,
                                           NbCampaign *campaign, gboolean headed,
                                           GError **error);
/* A stored measurement in the language: the simulated tracker's words
 * (nb_iso9283_sim_measurement) translated, any other (a live instrument's "DRIVER URL") as it is. */
const char *nb_protocol_iso9283_measurement (const char *stored, const NbCatalogue *lang);
/* The robot of a pose run in the language: the simulated arm or the served
 * one (its URL is added by the caller). */
const char *nb_protocol_iso9283_robot (gboolean served, const NbCatalogue *lang);
/* The document's title in the language. */
const char *nb_protocol_iso9283_title (const NbCatalogue *lang);

G_END_DECLS
