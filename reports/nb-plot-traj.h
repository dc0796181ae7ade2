/* nb-plot-traj.h — a trajectory error plot (PNG, cairo)
 *
 * The top view (x, y in metres, equal scales) of the reference as a grey
 * line and of the estimate coloured by its error, with a colour bar in the
 * error's unit: what evo_ape/evo_rpe --plot_mode xy show.
 */
#pragma once

#include "nb-traj.h"

G_BEGIN_DECLS

/* value[k] is the error of the segment from estimate pose k − 1 to k, NaN
 * where there is none (drawn grey).  title on top;
 * value_label under the colour bar, with its unit, e.g. "APE trans (m)". */
gboolean nb_plot_traj_png (const char *path, const NbTraj *ref, const NbTraj *est,
                           const double *value, const char *title, const char *value_label,
                           GError **error);

/* Drops cairo's and fontconfig's process-wide font caches.  For a command-line tool at exit
 * only (leak checkers then see no font data left behind); never while any
 * other cairo object is alive, so never in the GUI. */
void     nb_plot_release_caches (void);

G_END_DECLS
