/* geocom-protocol.h — Leica GeoCOM ASCII requests and replies, pure
 *
 * GeoCOM Reference Manual (TPS1200/TS30/TM30 v1.50), "General concepts":
 *   request  %R1Q,<RPC>[,<TrId>]:<P0>,<P1>,…<Term>
 *   reply    %R1P,<RC_COM>[,<TrId>]:<RC>[,<P0>,<P1>,…]<Term>
 * RC_COM is the communication's return code, RC the called function's;
 * parameters are valid only when both are GRC_OK (0) or an RC that the
 * manual calls a warning (1283/1284: measured without full correction /
 * accuracy not guaranteed).  Terminator CR LF.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NB_GEOCOM_MAX_LINE 256
#define NB_GEOCOM_MAX_PARAMS 16

/* The RPCs navbench uses. */
enum {
  NB_GEOCOM_TMC_GET_SIMPLE_MEA = 2108,     /* wait ms, inc mode → Hz, V (rad), slope dist (m) */
  NB_GEOCOM_TMC_GET_SIMPLE_COORD = 2116,   /* wait ms, inc mode → E, N, H (m) */
  NB_GEOCOM_MOT_READ_LOCK_STATUS = 6021,   /* → 0 locked out, 1 locked in, 2 prediction */
};

typedef struct {
  gboolean is_request;
  int rpc;                 /* requests */
  int rc_com, transaction, rc;
  guint n_params;
  double params[NB_GEOCOM_MAX_PARAMS];   /* NAN for non-numeric (quoted) ones */
} NbGeocomMessage;

/* "%R1Q,rpc:params\r\n". */
char       *nb_geocom_request    (int rpc, const char *params);
/* One line, terminator optional.  Errors name what is wrong. */
gboolean    nb_geocom_parse      (const char *line, gsize len, NbGeocomMessage *out,
                                  GError **error);
/* "GRC_TMC_DIST_ERROR: distance measurement not done (no aim, etc.)", or
 * "unknown return code" — never NULL. */
const char *nb_geocom_rc_message (int rc);
/* RC values whose parameters are still valid (warnings). */
gboolean    nb_geocom_rc_usable  (int rc);

G_END_DECLS
