/* nb-toasts.h — showing a toast so that closing it cannot crash the window
 *
 * libadwaita 1.2's overlay frees a toast's record when the toast's hide
 * animation ends; a show animation still playing then ends later in the
 * same frame and its "done" handler reads the freed record (fixed upstream
 * in 1.3, commit 1674ebc9 "toast-overlay: Prevent show_done from firing
 * after hide_done"; Debian 12 has 1.2.2).  GTK runs the tick callbacks
 * added last first, so whenever a toast is dismissed during its show
 * (300 ms; 500 ms when it replaces one) and no frame is drawn before both
 * animations are due — its × clicked as it appears on a loaded machine, or
 * dismissed from code right after it was added — the window reads freed
 * memory (a segfault under MALLOC_PERTURB_, heap-use-after-free under
 * ASan; /gui-setup/toast-close).
 *
 * nb_toasts_add shows the toast as adw_toast_overlay_add_toast does, and
 * holds back a dismissal (the ×, the timeout, code) that comes while the
 * toast may still be in its show animation: the dismissal goes through
 * once a frame NB_TOASTS_SHOW_US after the toast was shown has been drawn,
 * when its show animation has ended. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* libadwaita 1.2's longest show animation (REPLACE_DURATION) and a margin
 * for the frame clock's smoothing of the time it starts at. */
#define NB_TOASTS_SHOW_US (600 * G_TIME_SPAN_MILLISECOND)

/* Shows toast (transfer full, as adw_toast_overlay_add_toast) on overlay;
 * toasts of normal priority only (they are shown in the order added). */
void nb_toasts_add (AdwToastOverlay *overlay, AdwToast *toast);

G_END_DECLS
