/* nb-figure-rows.h — what the Run and Trials pages show alike
 *
 * A trial's outcome in words; a configuration's figures as the protocol's
 * table states them — read from the clause module's JSON
 * (nb_config_result_json: one place for the keys and their values), each a
 * row of a grid, "title, unit" beside the value; and the drop-downs' items,
 * labels that can ellipsize with the whole text as their tooltip.
 */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "nb-campaign-results.h"

G_BEGIN_DECLS

/* The outcome as the window words it (ok, failed, aborted, …). */
const char *nb_outcome_text (NbTrialOutcome outcome);

/* The configuration's figures as the protocol's JSON (an object; free with
 * json_node_unref), or NULL when r gives none. */
JsonNode *nb_figures_json (const NbConfigResult *r);

/* A figure's row title: "title, unit", or the title (unit NULL); both in
 * the window's language already. */
char *nb_figure_title (const char *title, const char *unit);

/* A figure's row of grid: its name on the left, wrapping at name_chars
 * characters; its value on the right in numeric figures. */
void nb_figure_row_attach (GtkGrid *grid, int row, GtkWidget *name, GtkWidget *value,
                           int name_chars);

/* A drop-down's items: labels with their text as tooltip; width_chars > 0
 * ellipsizes them to between width_chars and max_chars (a drop-down's
 * button), 0 shows them whole (its popup). */
GtkListItemFactory *nb_label_item_factory_new (int width_chars, int max_chars);

G_END_DECLS
