/* geocom-protocol.c — GeoCOM ASCII (see geocom-protocol.h) */
#include "geocom-protocol.h"

#include "nb-error.h"
#include "nb-number.h"

#include <math.h>
#include <string.h>

char *
nb_geocom_request (int rpc, const char *params)
{
  return g_strdup_printf ("%%R1Q,%d:%s\r\n", rpc, params ? params : "");
}

static gboolean
parse_int (const char *p, gsize n, int *out)
{
  gboolean negative = n > 0 && p[0] == '-';
  guint v;

  if (negative)
    {
      p++;
      n--;
    }
  if (n == 0 || n > 9 || !nb_parse_uint (p, n, &v))
    return FALSE;
  *out = negative ? -(int) v : (int) v;
  return TRUE;
}

gboolean
nb_geocom_parse (const char *line, gsize len, NbGeocomMessage *out, GError **error)
{
  const char *colon, *p, *end;
  const char *head_fields[3];
  gsize head_lens[3];
  guint n_head = 0;

  memset (out, 0, sizeof *out);
  while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n'))
    len--;
  if (len < 6 || memcmp (line, "%R1", 3) != 0 || (line[3] != 'P' && line[3] != 'Q') ||
      line[4] != ',')
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "not a GeoCOM ASCII message (%%R1P or %%R1Q)");
      return FALSE;
    }
  out->is_request = line[3] == 'Q';
  end = line + len;
  colon = memchr (line, ':', len);
  if (colon == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "GeoCOM message without ':'");
      return FALSE;
    }
  /* Header: RPC or RC_COM, then the optional transaction id. */
  for (p = line + 5; p <= colon && n_head < 3;)
    {
      const char *comma = memchr (p, ',', (gsize) (colon - p));
      const char *stop = comma ? comma : colon;

      head_fields[n_head] = p;
      head_lens[n_head++] = (gsize) (stop - p);
      p = stop + 1;
      if (comma == NULL)
        break;
    }
  if (n_head < 1 || n_head > 2 || !parse_int (head_fields[0], head_lens[0],
                                              out->is_request ? &out->rpc : &out->rc_com) ||
      (n_head == 2 && !parse_int (head_fields[1], head_lens[1], &out->transaction)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "GeoCOM header '%.*s' is not %s[,TrId]",
                   (int) MIN ((gsize) (colon - line), (gsize) 40), line,
                   out->is_request ? "%R1Q,RPC" : "%R1P,RC_COM");
      return FALSE;
    }
  if (out->is_request)
    return TRUE;

  /* Body: RC, then the parameters. */
  p = colon + 1;
  for (guint i = 0; p <= end; i++)
    {
      const char *comma = memchr (p, ',', (gsize) (end - p));
      const char *stop = comma ? comma : end;
      gsize n = (gsize) (stop - p);

      if (i == 0)
        {
          if (!parse_int (p, n, &out->rc))
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "GeoCOM return code '%.*s' is not an "
                           "integer", (int) MIN (n, (gsize) 20), p);
              return FALSE;
            }
        }
      else
        {
          if (out->n_params == NB_GEOCOM_MAX_PARAMS)
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "GeoCOM reply with more than %d "
                           "parameters", NB_GEOCOM_MAX_PARAMS);
              return FALSE;
            }
          if (n >= 2 && p[0] == '\'' && p[n - 1] == '\'')
            out->params[out->n_params++] = NAN;   /* a byte or string value */
          else if (!nb_parse_double (p, n, &out->params[out->n_params++]))
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "GeoCOM parameter %u '%.*s' is not a "
                           "number", i, (int) MIN (n, (gsize) 20), p);
              return FALSE;
            }
        }
      if (comma == NULL)
        break;
      p = comma + 1;
    }
  return TRUE;
}

gboolean
nb_geocom_rc_usable (int rc)
{
  return rc == 0 || rc == 1283 || rc == 1284;
}

/* The return codes a tracking station gives, with the manual's meaning
 * (GeoCOM Reference Manual v1.50, appendix "Return codes"). */
static const struct { int rc; const char *text; } rc_table[] = {
  { 0, "GRC_OK: function successfully completed" },
  { 1, "GRC_UNDEFINED: unknown error, result unspecified" },
  { 2, "GRC_IVPARAM: invalid parameter" },
  { 3, "GRC_IVRESULT: invalid result" },
  { 4, "GRC_FATAL: fatal error" },
  { 5, "GRC_NOT_IMPL: not implemented" },
  { 6, "GRC_TIME_OUT: function execution timed out" },
  { 7, "GRC_SET_INCOMPL: parameter setup for subsystem is incomplete" },
  { 8, "GRC_ABORT: function execution has been aborted" },
  { 9, "GRC_NOMEMORY: not enough memory" },
  { 10, "GRC_NOTINIT: subsystem not initialised" },
  { 12, "GRC_SHUT_DOWN: subsystem is down" },
  { 13, "GRC_SYSBUSY: system busy" },
  { 14, "GRC_HWFAILURE: hardware failure" },
  { 16, "GRC_LOW_POWER: insufficient power supply" },
  { 18, "GRC_BATT_EMPTY: battery empty" },
  { 21, "GRC_OUT_OF_TEMP: out of temperature range" },
  { 22, "GRC_INSTRUMENT_TILT: instrument tilting out of range" },
  { 25, "GRC_SLEEP_MODE: instrument in sleep mode" },
  { 1283, "GRC_TMC_NO_FULL_CORRECTION: measured without full correction (warning)" },
  { 1284, "GRC_TMC_ACCURACY_GUARANTEE: accuracy not guaranteed (warning)" },
  { 1285, "GRC_TMC_ANGLE_OK: only the angles are valid" },
  { 1288, "GRC_TMC_ANGLE_NOT_FULL_CORR: only angles, without full correction" },
  { 1289, "GRC_TMC_ANGLE_NO_ACC_GUARANTY: only angles, accuracy not guaranteed" },
  { 1290, "GRC_TMC_ANGLE_ERROR: no angle measurement" },
  { 1291, "GRC_TMC_DIST_PPM: wrong PPM or MM setting on the EDM" },
  { 1292, "GRC_TMC_DIST_ERROR: distance measurement not done (no aim, etc.)" },
  { 1293, "GRC_TMC_BUSY: system busy, no measurement done" },
  { 1294, "GRC_TMC_SIGNAL_ERROR: no signal on the EDM" },
  { 1792, "GRC_MOT_UNREADY: motorisation not ready" },
  { 1793, "GRC_MOT_BUSY: motorisation handling another task" },
  { 1799, "GRC_MOT_NOT_LOCK: motorisation not in tracking mode" },
  { 3077, "GRC_COM_TIMEDOUT: request timed out" },
  { 3078, "GRC_COM_WRONG_FORMAT: packet format error" },
  { 3081, "GRC_COM_PROC_UNAVAIL: unknown RPC" },
  { 3108, "GRC_COM_SRVR_IS_SLEEPING: the instrument is asleep" },
  { 3109, "GRC_COM_SRVR_IS_OFF: the instrument has shut down" },
  { 8704, "GRC_AUT_TIMEOUT: position not reached" },
  { 8706, "GRC_AUT_ANGLE_ERROR: angle measurement error" },
  { 8707, "GRC_AUT_MOTOR_ERROR: motorisation error" },
  { 8708, "GRC_AUT_INCACC: position not exactly reached" },
  { 8709, "GRC_AUT_DEV_ERROR: deviation measurement error" },
  { 8710, "GRC_AUT_NO_TARGET: no target detected" },
  { 8711, "GRC_AUT_MULTIPLE_TARGETS: multiple targets detected" },
  { 8712, "GRC_AUT_BAD_ENVIRONMENT: bad environment conditions" },
  { 8713, "GRC_AUT_DETECTOR_ERROR: error in target acquisition" },
  { 8714, "GRC_AUT_NOT_ENABLED: target acquisition not enabled" },
  { 8716, "GRC_AUT_ACCURACY: target position not exactly reached" },
};

const char *
nb_geocom_rc_message (int rc)
{
  for (guint i = 0; i < G_N_ELEMENTS (rc_table); i++)
    if (rc_table[i].rc == rc)
      return rc_table[i].text;
  return "unknown return code";
}
