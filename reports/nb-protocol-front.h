/* nb-protocol-front.h — what a test report states besides the clauses' figures
 *
 * The items ISO/IEC 17025:2017 7.8.2 and 7.8.3 ask of every test report (the
 * laboratory, the customer, the item and its condition, the dates, the
 * method and its deviations, the authorised signatory, the revision) and the
 * conditions of ISO 18646-2 clause 4, each a campaign field; one table of
 * them (nb_protocol_items) says which are required, so the report flags a
 * blank one in place and `report --check` lists it.
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-catalogue.h"
#include "nb-document.h"

G_BEGIN_DECLS

typedef enum {
  NB_ITEM_FRONT,          /* the title page (ISO/IEC 17025 7.8.2.1) */
  NB_ITEM_CLAUSE_4,       /* the table of clause 4 */
  NB_ITEM_SIGNATORY,      /* the authorisation at the end */
} NbItemPlace;

typedef struct {
  const char *key;        /* the campaign field */
  const char *label;      /* N_(): the protocol's words */
  const char *reference;  /* where it is asked for: "ISO/IEC 17025 7.8.2.1 b", "4.1" */
  gboolean required;
  NbItemPlace place;
} NbProtocolItem;

const NbProtocolItem *nb_protocol_items (guint *n);

/* The value of a field as the protocol prints it in its language (indoor,
 * yes, an interval of dates), or NULL when unset. */
char *nb_protocol_item_value (NbCampaign *campaign, const NbCatalogue *lang, const char *key);
/* The same of a value the field had (the audit trail's). */
char *nb_protocol_value_text (const NbCatalogue *lang, const char *key, const char *value);

/* Records a required item left blank: the protocol says so in place and
 * `report --check` lists it. */
void  nb_protocol_missing (NbDocument *doc, const NbCatalogue *lang, const char *label,
                           const char *reference);

/* The title page: identifier, laboratory, customer, item, dates, method. */
void  nb_protocol_front_matter (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc);
/* Clause 4: the robot, the conditions, the measurement system; *outdoor when
 * annex A applies. */
void  nb_protocol_clause_4 (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc,
                            double lu_mm, gboolean *outdoor);
/* The statement of 7.8.2.1 l, the authorised signatory and the marked end. */
void  nb_protocol_back_matter (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc);

G_END_DECLS
