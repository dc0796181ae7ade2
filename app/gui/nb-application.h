/* nb-application.h — the navbench GtkApplication (org.navbench.Navbench) */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define NB_APPLICATION_ID "org.navbench.Navbench"
#define NB_TYPE_APPLICATION (nb_application_get_type ())
G_DECLARE_FINAL_TYPE (NbApplication, nb_application, NB, APPLICATION, GtkApplication)

/* flags are added to G_APPLICATION_HANDLES_OPEN (tests pass NON_UNIQUE). */
NbApplication *nb_application_new (GApplicationFlags flags);

G_END_DECLS
