/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fr-status.h"

#include <stdio.h>
#include <string.h>

fr_status
fr_error_set (fr_error *err, fr_status code, const char *fmt, ...)
{
  if (err != NULL)
    {
      va_list ap;
      err->code = code;
      va_start (ap, fmt);
      vsnprintf (err->message, sizeof err->message, fmt, ap);
      va_end (ap);
    }
  return code;
}

fr_status
fr_error_prefix (fr_error *err, const char *fmt, ...)
{
  char prefix[FR_ERROR_MAX];
  char old[FR_ERROR_MAX];
  va_list ap;

  if (err == NULL)
    return FR_OK;
  va_start (ap, fmt);
  vsnprintf (prefix, sizeof prefix, fmt, ap);
  va_end (ap);
  memcpy (old, err->message, sizeof old);
  /* Prefix, then as much of the old message as fits: cut, never overrun
   * (written out rather than as snprintf's "%s%s", whose cut the
   * compiler warns about). */
  const size_t room = sizeof err->message - 1;
  const size_t np = strnlen (prefix, room);
  const size_t no = strnlen (old, room - np);
  memcpy (err->message, prefix, np);
  memcpy (err->message + np, old, no);
  err->message[np + no] = '\0';
  return err->code;
}

void
fr_error_clear (fr_error *err)
{
  if (err != NULL)
    {
      err->code = FR_OK;
      err->message[0] = '\0';
    }
}

const char *
fr_status_name (fr_status status)
{
  switch (status)
    {
    case FR_OK: return "ok";
    case FR_E_INPUT: return "bad input";
    case FR_E_IO: return "input/output error";
    case FR_E_NOMEM: return "out of memory";
    case FR_E_CANCELLED: return "cancelled";
    case FR_E_UNSUPPORTED: return "not supported";
    case FR_E_DEVICE: return "device error";
    default: return "unknown error";
    }
}
