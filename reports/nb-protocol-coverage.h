/* nb-protocol-coverage.h — the configurations the standard prescribes and
 * those the campaign tested (see nb-protocol-coverage.c) */
#pragma once

#include "nb-campaign.h"
#include "nb-catalogue.h"
#include "nb-document.h"

G_BEGIN_DECLS

/* A table of every prescribed configuration with the campaign's
 * configurations that tested it, the untested ones flagged with the
 * laboratory's reason (method.exclusions), else listed as missing. */
void nb_protocol_coverage (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc);

G_END_DECLS
