/* nmea-protocol.h — NMEA 0183 framing and parsing, pure functions over bytes
 *
 * nb_nmea_parse() decodes one sentence; NbNmeaLexer cuts a byte stream
 * (serial, TCP, a recording) into sentences with a fixed buffer, skipping
 * garbage and binary and resynchronising on the next '$' (gpsd's packet.c
 * is the model).  Nothing here allocates.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* NMEA 0183 allows 82 characters; real receivers (high-precision GGA,
 * proprietary sentences) send longer ones, so the buffer is generous. */
#define NB_NMEA_MAX_SENTENCE 256

typedef enum {
  NB_NMEA_OTHER = 0,   /* valid, checksummed, but not one navbench uses */
  NB_NMEA_GGA,
  NB_NMEA_GLL,
  NB_NMEA_GNS,
  NB_NMEA_RMC,
  NB_NMEA_GST,
  NB_NMEA_GSA,
  NB_NMEA_HDT,
  NB_NMEA_THS,
  NB_NMEA_VTG,
  NB_NMEA_ZDA,
} NbNmeaSentence;

/* Which fields of NbNmeaFix a sentence set. */
enum {
  NB_NMEA_HAS_TIME = 1 << 0,
  NB_NMEA_HAS_DATE = 1 << 1,
  NB_NMEA_HAS_POSITION = 1 << 2,   /* lat/lon present and the sentence says valid */
  NB_NMEA_HAS_ALTITUDE = 1 << 3,
  NB_NMEA_HAS_QUALITY = 1 << 4,
  NB_NMEA_HAS_SATELLITES = 1 << 5,
  NB_NMEA_HAS_HDOP = 1 << 6,
  NB_NMEA_HAS_GST = 1 << 7,
  NB_NMEA_HAS_DOP = 1 << 8,        /* GSA pdop/vdop and fix mode */
  NB_NMEA_HAS_HEADING = 1 << 9,
  NB_NMEA_HAS_SPEED = 1 << 10,
  NB_NMEA_HAS_COURSE = 1 << 11,
  NB_NMEA_HAS_GEOID = 1 << 12,
};

typedef struct {
  NbNmeaSentence sentence;
  char talker[3];          /* "GP", "GN", … ("P" for proprietary) */
  char type[6];            /* "GGA", … */
  guint32 has;

  double time_s;           /* UTC seconds of the day */
  int year, month, day;
  double lat_deg, lon_deg;
  double alt_msl_m, geoid_sep_m;
  int quality;             /* GGA quality 0–8 (also derived from RMC/GLL/GNS modes) */
  gboolean valid;          /* the sentence claims a valid fix */
  int satellites;
  double hdop, pdop, vdop;
  int fix_mode;            /* GSA: 1 none, 2 2-D, 3 3-D */
  double gst_rms_m, gst_major_m, gst_minor_m, gst_orient_deg;
  double gst_lat_m, gst_lon_m, gst_alt_m;
  double heading_deg;      /* HDT / THS true heading */
  double speed_mps, course_deg;
  char mode;               /* FAA mode indicator (A, D, E, F, R, N, …), 0 if none */
} NbNmeaFix;

/* Decodes one sentence: '$' (or '!') up to and excluding CR/LF (trailing CR
 * LF are tolerated).  The checksum must be present and right.  Unknown but
 * well-formed sentences succeed with sentence = NB_NMEA_OTHER.  Errors are
 * NB_ERROR_INPUT and name the field. */
gboolean nb_nmea_parse (const char *line, gsize len, NbNmeaFix *out, GError **error);

/* Quality number (GGA 0–8) → NbFixType (nb-sample.h) as an int, so this
 * header stays free of core types. */
int nb_nmea_quality_to_fix (int quality);

/* A field's last text and the value it gave (the parser's; see
 * NbNmeaLexer.memo). */
typedef struct {
  guint8 n;                /* 0: empty */
  char hemi;               /* a position's N/S or E/W */
  char text[22];
  double value;
} NbNmeaFieldMemo;

enum { NB_NMEA_MEMO_TIME, NB_NMEA_MEMO_LAT, NB_NMEA_MEMO_LON, NB_NMEA_MEMOS };

typedef struct {
  char buf[NB_NMEA_MAX_SENTENCE];
  /* The sentences of one epoch repeat its time and position (RMC's are
   * GGA's): the sentences the lexer reads where they lie take a field
   * whose text is the last one's value instead of converting it again
   * (private to the parser). */
  NbNmeaFieldMemo memo[NB_NMEA_MEMOS];
  gsize len;
  int state;
  guint64 skipped;         /* bytes thrown away resynchronising */
  guint64 overflows;       /* sentences longer than the buffer */
  guint64 newlines;        /* line feeds seen so far */
  guint64 sentence_line;   /* 1-based line where the sentence being cut began */
} NbNmeaLexer;

typedef void (*NbNmeaLineFunc) (const char *line, gsize len, gpointer user_data);

void nb_nmea_lexer_init (NbNmeaLexer *lexer);
/* Calls func for every complete candidate sentence ('$' … before CR/LF,
 * printable ASCII only) in data; keeps a partial one for the next call.
 * Lines starting with '#' are comments (recording headers). */
void nb_nmea_lexer_feed (NbNmeaLexer *lexer, const guint8 *data, gsize len, NbNmeaLineFunc func,
                         gpointer user_data);
/* The end of the stream: a sentence still being cut (no line end yet) is
 * passed to func, as a recording's last line may lack its line feed. */
void nb_nmea_lexer_finish (NbNmeaLexer *lexer, NbNmeaLineFunc func, gpointer user_data);

/* A sentence's fix (error NULL), or the error that refused it (fix NULL);
 * the lexer's sentence_line is the line where it began. */
typedef void (*NbNmeaFixFunc) (const NbNmeaFix *fix, const GError *error, gpointer user_data);

/* The lexer and the parser as one: calls func with each candidate
 * sentence's fix or error, as nb_nmea_parse would give it for the line
 * nb_nmea_lexer_feed cuts.  A sentence whole in data is read once where it
 * lies (checked, checksummed and cut in one scan of its bytes, its fields
 * converted there once the checksum is right); one cut by the end of data,
 * and one with an error, is cut and parsed as a line. */
void nb_nmea_lexer_feed_fixes (NbNmeaLexer *lexer, const guint8 *data, gsize len,
                               NbNmeaFixFunc func, gpointer user_data);
void nb_nmea_lexer_finish_fixes (NbNmeaLexer *lexer, NbNmeaFixFunc func, gpointer user_data);

/* A true heading (clockwise from north, degrees) as a yaw counter-clockwise
 * from east, in (−180°, 180°]; NAN stays NAN. */
double nb_nmea_heading_to_enu_deg (double true_heading_deg);

G_END_DECLS
