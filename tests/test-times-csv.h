/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads a TIMES.csv (`foldray-cli --times-out`, the app's Arrival Times
 * export) as a user's script would: split at commas, numbers read by
 * g_ascii_strtod, "inf" for a receiver no source reaches; nothing of
 * libfoldray's own reader.  Asserts the header and that the receivers
 * are numbered from 0 in order. */
#pragma once

#include <glib.h>

/* One row: the receiver's coordinates as written (x, z or x, y, z) and t. */
typedef struct test_time_row {
  double xyz[3];
  double t;
} test_time_row;

static inline GArray *
test_read_times (const char *path, int ndim)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (test_time_row));
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (text, "\n"));
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, ndim == 2 ? "receiver,x,z,t" : "receiver,x,y,z,t");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], ",", -1);
      test_time_row row = { { 0 }, 0 };
      char *end;

      g_assert_cmpuint (g_strv_length (f), ==, (guint) ndim + 2);
      g_assert_cmpuint (g_ascii_strtoull (f[0], &end, 10), ==, i - 1);
      g_assert_true (*end == '\0');
      for (int c = 0; c < ndim; c++)
        {
          row.xyz[c] = g_ascii_strtod (f[c + 1], &end);
          g_assert_true (*end == '\0');
        }
      row.t = g_ascii_strtod (f[ndim + 1], &end);
      g_assert_true (*end == '\0');
      g_array_append_val (rows, row);
    }
  return rows;
}
