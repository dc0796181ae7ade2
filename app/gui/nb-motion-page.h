/* nb-motion-page.h — the Motion page: a motion sequence on the simulated arm
 * or the motion stack, a skill plan checked and run on the simulated cobot
 *
 * The functions navbench-cli's `sequence run` and `plan check|run` use
 * (core/motion/nb-sequence.h, nb-plan.h; the simulated iiwa 7 and cobot of
 * drivers/robots/sim): the sequence runs in a thread, its log lines come as
 * they happen, Stop (the window's Esc too) is honoured before the next
 * point with a motion stop; a plan is checked (every violation with its
 * line) and, without errors, run with its trace shown.
 *
 * Named widgets (nb_window_lookup): "motion-page", "motion-sequence-file",
 * "motion-robot" (simulated arm, motion stack), "motion-url",
 * "motion-iterations", "motion-real-time", "motion-start", "motion-stop",
 * "motion-status", "motion-log", "plan-file", "plan-mode", "plan-check",
 * "plan-run", "plan-status", "plan-output".
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define NB_TYPE_MOTION_PAGE (nb_motion_page_get_type ())
G_DECLARE_FINAL_TYPE (NbMotionPage, nb_motion_page, NB, MOTION_PAGE, GtkWidget)

GtkWidget *nb_motion_page_new (void);

void       nb_motion_page_set_sequence_file (NbMotionPage *page, const char *path);
/* Start and Stop (Stop: also the window's win.stop). */
void       nb_motion_page_start (NbMotionPage *page);
void       nb_motion_page_stop  (NbMotionPage *page);
gboolean   nb_motion_page_is_running (NbMotionPage *page);
/* The log so far (owned by the caller). */
char      *nb_motion_page_get_log (NbMotionPage *page);

void       nb_motion_page_set_plan_file (NbMotionPage *page, const char *path);
/* Check and Run: TRUE when the plan has no error (and, run, ended). */
gboolean   nb_motion_page_check_plan (NbMotionPage *page);
gboolean   nb_motion_page_run_plan   (NbMotionPage *page);
char      *nb_motion_page_get_plan_output (NbMotionPage *page);

/* Signals: "log-line" (const char *line), "sequence-finished" (gboolean ok),
 * "notify::running". */

G_END_DECLS
