/* nb-instrument-page.h — the Instrument page: the measurement system live,
 * and the frame registration
 *
 * Source: the simulator (driver sim), a serial port of libserialport's list
 * (nb_transport_list_serial_ports, refreshed on demand) or a URL (tcp://,
 * udp://, or a recording replayed at its recorded pace), with an instrument
 * driver of the registry (nb_driver_list).  Connect makes an NbDevice and
 * starts it (the link opens in its worker); the page drains its events on
 * the main loop every 50 ms and shows the state (connecting, connected,
 * lost — reconnecting, ended, failed), the sample rate, the quality and the
 * latest position; a loss is shown, and toasted, as the event comes.
 *
 * Registration: points entered or imported (nb_reference_points_read),
 * fitted (nb_registration_fit: residual per point, RMS, maximum, yaw) and
 * stored in the campaign (nb_registration_store, in the window's I/O queue).
 *
 * Named widgets: "instrument-source" (0 simulator, 1 serial port, 2 URL),
 * "instrument-driver", "instrument-port", "instrument-refresh",
 * "instrument-baud", "instrument-url", "instrument-settings" (the driver's
 * KEY=VALUE settings, as acquire --set), "instrument-connect",
 * "instrument-disconnect", "instrument-state", "instrument-rate",
 * "instrument-quality", "instrument-position", "instrument-samples",
 * "registration-import", "registration-points" (a row per point, its
 * residual label named "residual-NAME"), "registration-fit",
 * "registration-store", "registration-result", "registration-stored",
 * "point-name", "point-instrument-x", …, "point-add".
 */
#pragma once

#include <adwaita.h>

#include "nb-device.h"
#include "nb-io-queue.h"

G_BEGIN_DECLS

typedef enum {
  NB_LINK_DISCONNECTED,
  NB_LINK_CONNECTING,
  NB_LINK_CONNECTED,
  NB_LINK_LOST,                 /* reconnecting */
  NB_LINK_ENDED,                /* a recording is over */
  NB_LINK_FAILED,
} NbLinkState;

typedef enum {
  NB_SOURCE_SIMULATOR,
  NB_SOURCE_SERIAL,
  NB_SOURCE_URL,
} NbInstrumentSource;

#define NB_TYPE_INSTRUMENT_PAGE (nb_instrument_page_get_type ())
G_DECLARE_FINAL_TYPE (NbInstrumentPage, nb_instrument_page, NB, INSTRUMENT_PAGE, AdwBin)

GtkWidget  *nb_instrument_page_new (NbIoQueue *queue);
/* Where the registration is stored; NULL: none. */
void        nb_instrument_page_set_campaign (NbInstrumentPage *page, const char *path);

/* What Connect and Disconnect do. */
void        nb_instrument_page_connect    (NbInstrumentPage *page);
void        nb_instrument_page_disconnect (NbInstrumentPage *page);
NbLinkState nb_instrument_page_get_state  (NbInstrumentPage *page);
/* The device connected (started), or NULL; "device-changed" is emitted when
 * Connect starts one and when Disconnect stops it.  The window hands it to
 * the Run page (nb_trials_page_set_device). */
NbDevice   *nb_instrument_page_get_device (NbInstrumentPage *page);
/* While lent a run's worker reads the device's events: the page does not
 * drain them (the state says "Measuring the run") and refuses to
 * disconnect; given back, it shows the instrument live again. */
void        nb_instrument_page_set_lent  (NbInstrumentPage *page, gboolean lent);
gboolean    nb_instrument_page_get_lent  (NbInstrumentPage *page);
guint64     nb_instrument_page_get_samples (NbInstrumentPage *page);
/* Selects a driver of the registry by name in the Protocol row. */
gboolean    nb_instrument_page_select_driver (NbInstrumentPage *page, const char *name);
/* Lists the serial ports again (what Refresh does); how many there are. */
guint       nb_instrument_page_refresh_ports (NbInstrumentPage *page);

/* Reads the points of a survey CSV (what Import does), replacing those
 * shown; FALSE with the reader's error (also toasted). */
gboolean    nb_instrument_page_import_points (NbInstrumentPage *page, const char *path,
                                              GError **error);
/* Fits the points shown (what Fit does); FALSE with the fit's error. */
gboolean    nb_instrument_page_fit (NbInstrumentPage *page, GError **error);
/* Stores the fit (what Store does); "registration-stored" (gboolean ok)
 * follows when the store has answered. */
void        nb_instrument_page_store (NbInstrumentPage *page);
guint       nb_instrument_page_get_n_points (NbInstrumentPage *page);

G_END_DECLS
