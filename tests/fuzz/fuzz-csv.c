/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for the CSV readers: receivers and horizons (`x,z`,
 * `x,y,z`, fr_csv_parse_points, the parser fr_csv_read_points runs, which
 * foldray-cli --receivers/--horizon and the app's Load CSV… and Import
 * Receivers use) and rays files (fr_csv_read_rays, through a memfd).  The
 * first byte picks the reader; any bytes must give either points (finite,
 * whole, as many as the lines) or a refusal with a message in UTF-8 (the
 * app shows it in a dialog), never a crash, a leak or a hang. */
#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fr-csv.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check (fr_status st, const fr_points *p, const size_t *receivers, const fr_error *err, size_t size)
{
  if (st == FR_OK)
    {
      if ((p->ndim != 2 && p->ndim != 3) || (p->count > 0 && p->xyz == NULL)
          || p->count > FR_CSV_MAX_POINTS || p->count > size)
        __builtin_trap ();
      for (size_t i = 0; i < p->count * (size_t) p->ndim; i++)
        if (!isfinite (p->xyz[i]))
          __builtin_trap ();
      if (receivers != NULL)
        for (size_t i = 0; i < p->count; i++)
          (void) *(volatile const size_t *) &receivers[i];
    }
  else if (p->xyz != NULL || p->count != 0 || receivers != NULL || err->code != st
           || err->message[0] == '\0' || memchr (err->message, '\0', sizeof err->message) == NULL
           || !g_utf8_validate (err->message, -1, NULL))
    __builtin_trap ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static int fd = -1;
  fr_points p;
  fr_error err = { 0 };
  fr_status st;

  if (size < 1)
    return 0;
  if ((data[0] & 1) == 0)
    {
      /* Exactly the bytes after the selector, no terminating NUL. */
      st = fr_csv_parse_points ("fuzz.csv", (const char *) data + 1, size - 1, &p, &err);
      check (st, &p, NULL, &err, size);
    }
  else
    {
      char path[64];
      size_t *receivers = NULL;

      if (fd < 0 && (fd = memfd_create ("fuzz-rays.csv", 0)) < 0)
        __builtin_trap ();
      if (ftruncate (fd, 0) != 0 || pwrite (fd, data + 1, size - 1, 0) != (ssize_t) (size - 1))
        __builtin_trap ();
      snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
      st = fr_csv_read_rays (path, &p, &receivers, &err);
      check (st, &p, receivers, &err, size);
      free (receivers);
    }
  fr_points_clear (&p);
  return 0;
}
