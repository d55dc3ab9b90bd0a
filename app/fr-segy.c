/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-segy"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "fr-memory.h"
#include "fr-segy.h"

/* Whether path names a SEG-Y file (.sgy or .segy, in any case). */
gboolean
fr_segy_is_segy_name (const char *path)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  lower = g_ascii_strdown (path, -1);
  return g_str_has_suffix (lower, ".sgy") || g_str_has_suffix (lower, ".segy");
}

#ifdef FOLDRAY_HAVE_SEGYIO
#include <segyio/segy.h>

/* Whether this build reads SEG-Y. */
gboolean
fr_segy_available (void)
{
  return TRUE;
}

static gboolean
segy_failed (GError    **error,
             const char *path,
             const char *what,
             int         code)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("%s: not a readable SEG-Y file (%s, segyio error %d)"), path, what, code);
  return FALSE;
}

/* The CDP X of a trace header with its coordinate scalar applied. */
static double
header_x (const char *header)
{
  int32_t x = 0, scalar = 0;

  segy_get_field (header, SEGY_TR_CDP_X, &x);
  segy_get_field (header, SEGY_TR_SOURCE_GROUP_SCALAR, &scalar);
  if (scalar < 0)
    return (double) x / -scalar;
  if (scalar > 0)
    return (double) x * scalar;
  return x;
}

/* The traces' CDP X (x, from their headers; scalar: the last header's
 * coordinate scalar): TRUE when they step evenly, with the first trace's
 * x in *x0 and the step (negative where x falls) in *dx.  Coordinates are
 * whole multiples of the scalar's unit, so a trace may sit half a unit off
 * the even line (12.5 m stored in metres: 0, 13, 25, 38). */
static gboolean
trace_x (const double *x,
         int           traces,
         int32_t       scalar,
         double       *x0,
         double       *dx)
{
  double unit = 1.0, tolerance;

  if (scalar < 0)
    unit = 1.0 / -(double) scalar;
  else if (scalar > 0)
    unit = scalar;
  *x0 = x[0];
  *dx = (x[traces - 1] - x[0]) / (traces - 1);
  if (!(*dx != 0.0 && isfinite (*dx)))
    return FALSE;
  tolerance = 0.5 * unit + 1e-9 * fabs (*dx);
  for (int t = 1; t < traces - 1; t++)
    if (!(fabs (x[t] - (*x0 + t * *dx)) <= tolerance))
      {
        g_debug ("trace %d at x = %g, not %g: the traces do not step evenly", t, x[t],
                 *x0 + t * *dx);
        return FALSE;
      }
  return TRUE;
}

/* Reads a SEG-Y velocity model (IBM or IEEE 4-byte samples). */
gboolean
fr_segy_read (const char  *path,
              fr_grid     *grid,
              gboolean    *has_spacing,
              GBytes     **values,
              GError     **error)
{
  char bin[SEGY_BINARY_HEADER_SIZE];
  segy_file *fp;
  int samples, format, trsize, traces = 0, rc, interval = 0;
  int32_t delay0 = 0, trace_interval = 0, scalar = 0;
  int interval_trace = 0;     /* the first trace giving trace_interval */
  gboolean even_x, intervals_disagree;
  long trace0;
  double x0 = 0.0, dx = 0.0;
  float *v = NULL, *trace = NULL;
  double *x = NULL;           /* each trace's CDP X */
  fr_grid g;
  fr_error err = { 0 };
  gboolean ok = FALSE;
  g_autofree char *shown = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  /* Messages name the file as a dialog can show it (a Latin-1 name
   * went in as its bytes). */
  shown = g_filename_display_name (path);

  *has_spacing = FALSE;
  if ((fp = segy_open (path, "rb")) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: cannot be opened"), shown);
      return FALSE;
    }
  if ((rc = segy_binheader (fp, bin)) != SEGY_OK)
    {
      segy_failed (error, shown, "binary header", rc);
      goto out;
    }
  /* Counts and intervals are unsigned 16-bit fields, read signed. */
  samples = segy_samples (bin);
  if (samples < 0)
    samples += 65536;
  format = segy_format (bin);
  trace0 = segy_trace0 (bin);
  /* SEG-Y rev 2 allows little-endian files; their format code reads
   * byte-swapped here (1280 for 5). */
  if (format != SEGY_IBM_FLOAT_4_BYTE && format != SEGY_IEEE_FLOAT_4_BYTE &&
      (format & 0xff) == 0 && (format >> 8) >= 1 && (format >> 8) <= 16)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s: little-endian SEG-Y is not supported (only big-endian files)"), shown);
      goto out;
    }
  if (format != SEGY_IBM_FLOAT_4_BYTE && format != SEGY_IEEE_FLOAT_4_BYTE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s: sample format %d is not supported (only 4-byte IBM or IEEE floats)"),
                   shown, format);
      goto out;
    }
  if (samples < 1 || trace0 < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: not a readable SEG-Y file (the binary header gives %d samples per trace)"),
                   shown, samples);
      goto out;
    }
  segy_set_format (fp, format);
  trsize = segy_trsize (format, samples);
  if ((rc = segy_traces (fp, &traces, trace0, trsize)) == SEGY_TRACE_SIZE_MISMATCH)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: the traces after the headers are not a whole number of traces of %d "
                     "samples (the last one is cut short, or the traces differ in length)"),
                   shown, samples);
      goto out;
    }
  if (rc != SEGY_OK)
    {
      segy_failed (error, shown, "trace count", rc);
      goto out;
    }
  if (traces < 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: the SEG-Y file has no traces"),
                   shown);
      goto out;
    }

  g = fr_grid_2d ((size_t) traces, (size_t) samples, 1.0, 1.0, 0.0, 0.0);
  /* As the .npy reader asks: Linux overcommits, and a survey larger than
   * the memory this process may use would be read until the OOM killer
   * ended it (or, under ulimit -v, fail half-way). */
  {
    g_autofree char *what = g_strdup_printf (_("%s: reading %d traces of %d samples"), shown,
                                             traces, samples);

    if (fr_memory_check ((double) fr_grid_count (&g) * sizeof (float), what, &err) != FR_OK)
      {
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, err.message);
        goto out;
      }
  }
  v = g_try_new (float, fr_grid_count (&g));
  trace = g_new (float, samples);
  x = g_new (double, traces);
  if (v == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, _("%s: too large"), shown);
      goto out;
    }
  for (int t = 0; t < traces; t++)
    {
      char header[SEGY_TRACE_HEADER_SIZE];
      int32_t count = 0, delay = 0, dt = 0;

      if ((rc = segy_traceheader (fp, t, header, trace0, trsize)) != SEGY_OK ||
          (rc = segy_readtrace (fp, t, trace, trace0, trsize)) != SEGY_OK ||
          (rc = segy_to_native (format, samples, trace)) != SEGY_OK)
        {
          segy_failed (error, shown, "trace", rc);
          goto out;
        }
      /* A grid needs traces of one length that start at one depth: read
       * at the binary header's length, a longer or shorter trace shifts
       * every later one by its difference. */
      x[t] = header_x (header);
      segy_get_field (header, SEGY_TR_SOURCE_GROUP_SCALAR, &scalar);
      segy_get_field (header, SEGY_TR_SAMPLE_COUNT, &count);
      segy_get_field (header, SEGY_TR_DELAY_REC_TIME, &delay);
      segy_get_field (header, SEGY_TR_SAMPLE_INTER, &dt);
      if (count < 0)
        count += 65536;
      if (dt < 0)
        dt += 65536;
      if (count != 0 && count != samples)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("%s: trace %d has %d samples where the binary header gives %d: traces "
                         "of different lengths are not supported"), shown, t + 1, (int) count,
                       samples);
          goto out;
        }
      /* One dz for the grid: the traces that give an interval give one. */
      if (dt != 0 && trace_interval == 0)
        trace_interval = dt, interval_trace = t;
      else if (dt != 0 && dt != trace_interval)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("%s: trace %d has a sample interval of %d where trace %d has %d: traces "
                         "sampled at different intervals are not supported"),
                       shown, t + 1, (int) dt, interval_trace + 1, (int) trace_interval);
          goto out;
        }
      if (t == 0)
        delay0 = delay;
      else if (delay != delay0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("%s: trace %d starts at %d where the first starts at %d (delay recording "
                         "time): traces that start at different depths are not supported"),
                       shown, t + 1, (int) delay, (int) delay0);
          goto out;
        }
      for (int s = 0; s < samples; s++)
        v[fr_grid_index (&g, (size_t) t, 0, (size_t) s)] = trace[s];
    }
  if (fr_check_speed_f32 (&g, v, "velocity", &err) != FR_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", shown, err.message);
      goto out;
    }

  /* Spacing: CDP X stepping evenly, and a sample interval: the trace
   * headers' (the first that gives one), else the binary header's.  Where
   * both give one and they differ, the file does not say which is right: the
   * caller asks, offering the trace headers'.  The first sample lies at
   * the delay recording time (in milliseconds: the interval's
   * microseconds / 1000).  Traces in falling x are turned round, so that
   * x grows with ix. */
  segy_get_bfield (bin, SEGY_BIN_INTERVAL, &interval);
  if (interval < 0)
    interval += 65536;
  intervals_disagree = trace_interval > 0 && interval > 0 && interval != trace_interval;
  if (intervals_disagree)
    g_debug ("%s: sample interval %d in the binary header, %d in the trace headers", shown,
             interval, (int) trace_interval);
  if (trace_interval > 0)
    interval = trace_interval;
  even_x = traces >= 2 && trace_x (x, traces, scalar, &x0, &dx);
  if (even_x && dx < 0)
    {
      for (size_t iz = 0; iz < g.nz; iz++)
        for (size_t a = 0, b = g.nx - 1; a < b; a++, b--)
          {
            float t = v[fr_grid_index (&g, a, 0, iz)];

            v[fr_grid_index (&g, a, 0, iz)] = v[fr_grid_index (&g, b, 0, iz)];
            v[fr_grid_index (&g, b, 0, iz)] = t;
          }
      x0 += dx * (traces - 1);
      dx = -dx;
    }
  /* What the headers give even where they do not give it all: the caller
   * that asks for the rest offers these. */
  g = fr_grid_2d (g.nx, g.nz, even_x ? dx : 1.0, interval > 0 ? interval / 1000.0 : 1.0,
                  even_x ? x0 : 0.0, (double) delay0);
  if (fr_grid_check (&g, NULL) != FR_OK)
    g = fr_grid_2d (g.nx, g.nz, 1.0, 1.0, 0.0, 0.0);
  else
    *has_spacing = even_x && interval > 0 && !intervals_disagree;
  *grid = g;
  *values = g_bytes_new_take (g_steal_pointer (&v), fr_grid_count (&g) * sizeof (float));
  ok = TRUE;

out:
  g_free (v);
  g_free (trace);
  g_free (x);
  segy_close (fp);
  return ok;
}

#else /* !FOLDRAY_HAVE_SEGYIO */

gboolean
fr_segy_available (void)
{
  return FALSE;
}

gboolean
fr_segy_read (const char  *path,
              fr_grid     *grid,
              gboolean    *has_spacing,
              GBytes     **values,
              GError     **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               _("%s: this build of Foldray cannot read SEG-Y (built without segyio)"), path);
  return FALSE;
}

#endif
