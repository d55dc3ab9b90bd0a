/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Status codes and error messages shared by every libfoldray entry point.
 * The library never prints or exits: it returns a status and fills an
 * fr_error that the caller may show. */
#pragma once

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fr_status {
  FR_OK = 0,
  FR_E_INPUT,        /* bad input: a file's content, a parameter, a position */
  FR_E_IO,           /* the system refused a read or write */
  FR_E_NOMEM,        /* host memory exhausted */
  FR_E_CANCELLED,    /* the caller's cancel flag was raised */
  FR_E_UNSUPPORTED,  /* not built in (e.g. CUDA) or not implemented for this case */
  FR_E_DEVICE,       /* GPU failure: no device, out of device memory, launch error */
} fr_status;

#define FR_ERROR_MAX 512

typedef struct fr_error {
  fr_status code;
  char message[FR_ERROR_MAX];
} fr_error;

/* Records code and a printf-style message in err (which may be NULL) and
 * returns code, so that `return fr_error_set (err, FR_E_INPUT, ...)` reads well. */
fr_status fr_error_set (fr_error *err, fr_status code, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

/* Prefixes an existing message with context, e.g. the file name. */
fr_status fr_error_prefix (fr_error *err, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

void fr_error_clear (fr_error *err);

/* A short English name of a status, for logs ("bad input", ...). */
const char *fr_status_name (fr_status status);

#ifdef __cplusplus
}
#endif
