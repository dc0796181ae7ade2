#include "nb-error.h"

G_DEFINE_QUARK (nb-error-quark, nb_error)
