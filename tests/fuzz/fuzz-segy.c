/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for the SEG-Y reader: any bytes, as a file (a memfd)
 * given to fr_segy_read (what the app's Open, Import and a scene's
 * background read), must give either a grid whose values fill it and pass
 * the velocity check, or a refusal with a message in UTF-8: never a crash, a leak,
 * a hang or undefined behaviour. */
#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fr-grid.h"
#include "fr-segy.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static int fd = -1;
  char path[64];
  fr_grid g;
  gboolean has_spacing = FALSE;
  GBytes *values = NULL;
  GError *error = NULL;

  if (fd < 0 && (fd = memfd_create ("fuzz.sgy", 0)) < 0)
    __builtin_trap ();
  if (ftruncate (fd, 0) != 0 || pwrite (fd, data, size, 0) != (ssize_t) size)
    __builtin_trap ();
  snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  if (fr_segy_read (path, &g, &has_spacing, &values, &error))
    {
      gsize n = 0;
      const float *v = g_bytes_get_data (values, &n);

      if (error != NULL || fr_grid_check (&g, NULL) != FR_OK || g.ndim != 2
          || n != fr_grid_count (&g) * sizeof (float) || n > size)
        __builtin_trap ();
      for (size_t i = 0; i < fr_grid_count (&g); i++)
        if (!(v[i] >= 0.0f) || !isfinite (v[i]))
          __builtin_trap ();
      g_bytes_unref (values);
    }
  else if (error == NULL || error->message == NULL || strstr (error->message, path) == NULL
           || !g_utf8_validate (error->message, -1, NULL))
    __builtin_trap ();
  g_clear_error (&error);
  return 0;
}
