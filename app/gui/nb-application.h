/* nb-application.h — the navbench AdwApplication (org.navbench.Navbench)
 *
 * Actions (app.*): quit (Ctrl+Q: each window is closed as by its close
 * button, so a window with a run asks first), about, preferences (Ctrl+,),
 * help (F1).  The accelerators of the windows' actions are set here too.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define NB_APPLICATION_ID "org.navbench.Navbench"
#define NB_TYPE_APPLICATION (nb_application_get_type ())
G_DECLARE_FINAL_TYPE (NbApplication, nb_application, NB, APPLICATION, AdwApplication)

/* flags are added to G_APPLICATION_HANDLES_OPEN (tests pass NON_UNIQUE). */
NbApplication *nb_application_new (GApplicationFlags flags);
GSettings     *nb_application_get_settings (NbApplication *app);

G_END_DECLS
