/* nb-record-words.h — the English of the campaign file's records, read in
 * another language
 *
 * A trial's reason ("touched the obstacle: clearance 12.5 mm") and an event
 * log entry's kind ("trial value edited: outcome") are records: stored in
 * English, whatever language the window or the protocol speaks, so that
 * tools and the audit read them the same way (docs/gui.md: "the log keeps
 * the English question").  The formats they are written with are the
 * msgids below, the one place both the writers (core/, protocols/) and the
 * readers (the window, nb_record_*_text) take them from; po/ translates
 * them (reasons as plain msgids, event kinds in context "event").
 *
 * A reader matches the stored text against the formats (literal parts
 * exactly, a conversion as the shortest text that lets the rest match, a
 * number as digits), and writes the translated format with the same
 * arguments: a %s argument that is itself a record or a msgid (the
 * obstacle's name, a map defect's kind) in the language too, a number with
 * the language's decimal sign.  A text no format matches is given back as
 * it is (an operator's own words, a robot's error message); reasons joined
 * with "; " (a map's defects) are read one by one.
 */
#pragma once

#include <glib.h>

#include "nb-catalogue.h"

G_BEGIN_DECLS

/* ----------------------------------------------------- trial reasons -- */

#define NB_REASON_CANCELLED N_("cancelled by the operator")
#define NB_REASON_CANCELLED_SETTLING N_("cancelled by the operator while settling")
#define NB_REASON_TIMEOUT N_("did not settle at the target within the trial timeout")
#define NB_REASON_LOST N_("instrument lost: %s")
#define NB_REASON_LOST_NO_SAMPLE N_("instrument lost: no usable sample for %.1f s")
#define NB_REASON_LOST_NO_DATA N_("no data")
#define NB_REASON_RECORDING_ENDED N_("the instrument's recording ended")
#define NB_REASON_SETTLING_AT N_("while settling at %s: %s")
#define NB_REASON_AT N_("at %s: %s")
#define NB_REASON_TOUCHED N_("touched %s: clearance %.1f mm")
#define NB_REASON_TOUCHED_SEEN N_("touched %s (the operator saw it; measured clearance %.1f mm)")
#define NB_REASON_PG_MISSED N_("PG not reached: stopped %.1f mm and %.2f° from where clause 5 " \
                               "ends, beyond its repeatability (%.1f mm, %.2f°)")
#define NB_REASON_NO_WINDOW N_("no %.3g s window of samples within %.3g s of the arrival")
#define NB_REASON_NOT_SETTLED N_("did not settle within %.3g s of the arrival: the stillest " \
                                 "%.3g s window spread %.3g mm (tolerance %.3g mm)")
/* 10.3: a map defect beyond the accepted range (kind: nb_map_defect_kind_to_string). */
#define NB_REASON_MAP_DEFECT N_("%s on wall %u (%.0f mm)")
#define NB_REASON_MAP_JUDGED N_("defects beyond the accepted range (the operator's judgement)")

/* -------------------------------------------------- event log kinds -- */

#define NB_EVENT_CAMPAIGN_CREATED NC_("event", "campaign created")
#define NB_EVENT_SCHEMA_MIGRATED NC_("event", "schema migrated")
#define NB_EVENT_FIELD_SET NC_("event", "field set")
#define NB_EVENT_PLANNED NC_("event", "planned")
#define NB_EVENT_OUT_OF_SCOPE NC_("event", "out of scope")
#define NB_EVENT_BACK_IN_SCOPE NC_("event", "back in scope")
#define NB_EVENT_CONFIG_ADDED NC_("event", "configuration added")
#define NB_EVENT_TRIAL_RECORDED NC_("event", "trial recorded")
#define NB_EVENT_TRIAL_INCOMPLETE NC_("event", "trial marked incomplete")
#define NB_EVENT_TRIAL_EDITED NC_("event", "trial value edited: %s")
#define NB_EVENT_TRIAL_MEASURED NC_("event", "trial measured")
#define NB_EVENT_IMPORTED NC_("event", "%u trials imported")
#define NB_EVENT_RUN_STARTED NC_("event", "campaign run started")
#define NB_EVENT_RUN_ENDED NC_("event", "campaign run ended")
#define NB_EVENT_PROMPT NC_("event", "operator prompt")
#define NB_EVENT_REGISTRATION NC_("event", "frame registration")
#define NB_EVENT_MAP_CORNERS NC_("event", "map corners found")
#define NB_EVENT_GOAL_TOLERANCE NC_("event", "goal tolerance")
#define NB_EVENT_ISO9283_RUN NC_("event", "ISO 9283 run recorded")
#define NB_EVENT_ISO9283_PLAN NC_("event", "ISO 9283 plan made")

/* ------------------------------------------- messages the window shows -- */

/* Not records: texts the libraries hand to whoever shows them (a motion
 * sequence's log, a link's error), written in English for the CLI and the
 * logs, read in the window's language with nb_record_message_text.  A %s
 * argument is translated only when it is itself one of these messages
 * (a point's name, a URL or a robot's words stay as they are). */

/* A link (drivers/transport, the device's loss watch); %s its name. */
#define NB_MSG_CLOSED_BY_PEER N_("%s: connection closed by the peer")
#define NB_MSG_READ_ERROR N_("%s: read error")
#define NB_MSG_WRITE_TIMED_OUT N_("%s: write timed out")
#define NB_MSG_NO_DATA_FOR N_("%s: no data for %.1f s")

/* A driver setting refused (nb_device_configure, each driver's configure):
 * the driver's name, the key, the keys it has; the key and the value. */
#define NB_MSG_NO_SETTING_OF N_("driver %s has no setting '%s' (%s)")
#define NB_MSG_NO_SETTING N_("driver %s has no setting '%s'")
#define NB_MSG_NOT_NUMBER_IN N_("%s '%s' is not a number in %g–%g")
#define NB_MSG_NOT_NUMBER_MIN N_("%s '%s' is not a number ≥ %g")
#define NB_MSG_NOT_NUMBER N_("%s '%s' is not a number")

/* An ISO 9283 configuration the runner leaves (nb_iso9283_run_plan's
 * word: "left: " and nb_iso9283_rig_lacks's reason). */
#define NB_MSG_ISO9283_LEFT N_("left: %s")
#define NB_MSG_ISO9283_NEEDS_STREAM N_("it needs the tracker's stream during the motion, which " \
                                       "this rig does not give (only the rest poses are measured)")
#define NB_MSG_ISO9283_NEEDS_FORCE N_("it needs a force at the TCP: the motion API drives no " \
                                      "loading device, and a live instrument measures the real arm")
#define NB_MSG_ISO9283_NEEDS_TIMED_PATH N_("it needs the path's joint points timed for the path " \
                                           "velocity, which this robot does not take")

/* nb_sequence_run's log lines and errors (seeds/003: home → waypoints →
 * home; the point's name, its planner and frame as the sequence gives them). */
#define NB_MSG_SEQ_PAUSE N_("pause %.3g s")
#define NB_MSG_SEQ_JOINTS N_("iteration %u/%u point %u/%u %s: MoveToJoints")
#define NB_MSG_SEQ_POSE N_("iteration %u/%u point %u/%u %s: MoveToPose (%s, frame %s)")
#define NB_MSG_SEQ_STOP_LOG N_("stopped before iteration %u/%u point %u/%u; motion stop requested")
#define NB_MSG_SEQ_STOPPED N_("stopped before iteration %u point %u")
#define NB_MSG_SEQ_FAILED_LOG N_("failed: %s; motion stop requested")
#define NB_MSG_SEQ_FAILED N_("iteration %u point %u (%s): %s")
#define NB_MSG_SEQ_DONE_ONE N_("done: %u iteration of %u points")
#define NB_MSG_SEQ_DONE N_("done: %u iterations of %u points")

/* A trial's stored reason in lang (NULL: English, the text itself);
 * NULL for NULL. */
char *nb_record_reason_text (const NbCatalogue *lang, const char *stored);
/* An event's stored kind (its "what") in lang. */
char *nb_record_event_text  (const NbCatalogue *lang, const char *what);
/* One of the messages above in lang (numbers with its decimal sign); a
 * text none matches as it is; NULL for NULL. */
char *nb_record_message_text (const NbCatalogue *lang, const char *text);

G_END_DECLS
