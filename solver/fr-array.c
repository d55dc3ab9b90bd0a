/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fr-array.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t
fr_array_count (const fr_array *a)
{
  size_t n = 1;

  if (a == NULL || a->ndim < 1 || a->ndim > 3)
    return 0;
  /* Saturate rather than wrap, so a huge shape cannot pass for a small one. */
  for (int i = 0; i < a->ndim; i++)
    {
      if (a->shape[i] == 0)
        return 0;
      n = n > SIZE_MAX / a->shape[i] ? SIZE_MAX : n * a->shape[i];
    }
  return n;
}

void
fr_array_clear (fr_array *a)
{
  if (a == NULL)
    return;
  free (a->data);
  memset (a, 0, sizeof *a);
}

/* Common checks of the converters; *n receives the element count. */
static fr_status
check_source (const fr_array *a, size_t elem_size, size_t *n, fr_error *err)
{
  if (a == NULL || a->ndim < 1 || a->ndim > 3)
    return fr_error_set (err, FR_E_INPUT, "the array has no valid shape");
  if (a->dtype != FR_F32 && a->dtype != FR_F64)
    return fr_error_set (err, FR_E_INPUT, "the array has an unknown dtype (%d)", (int) a->dtype);
  *n = fr_array_count (a);
  if (*n > 0 && a->data == NULL)
    return fr_error_set (err, FR_E_INPUT, "the array has no data");
  if (*n > SIZE_MAX / elem_size)
    return fr_error_set (err, FR_E_NOMEM, "an array of %zu elements does not fit in memory", *n);
  return FR_OK;
}

fr_status
fr_array_to_f32 (const fr_array *a, float **out, fr_error *err)
{
  size_t n = 0;
  float *dst;
  fr_status st;

  if (out == NULL)
    return fr_error_set (err, FR_E_INPUT, "no place for the converted array");
  *out = NULL;
  if ((st = check_source (a, sizeof (float), &n, err)) != FR_OK)
    return st;
  /* At least one byte, so that success always hands back a pointer. */
  dst = malloc (n > 0 ? n * sizeof (float) : 1);
  if (dst == NULL)
    return fr_error_set (err, FR_E_NOMEM, "cannot allocate %zu float32 values", n);
  if (a->dtype == FR_F32)
    {
      if (n > 0)
        memcpy (dst, a->data, n * sizeof (float));
    }
  else
    {
      const double *src = a->data;
      for (size_t i = 0; i < n; i++)
        dst[i] = (float) src[i];
    }
  *out = dst;
  return FR_OK;
}

fr_status
fr_array_to_f64 (const fr_array *a, double **out, fr_error *err)
{
  size_t n = 0;
  double *dst;
  fr_status st;

  if (out == NULL)
    return fr_error_set (err, FR_E_INPUT, "no place for the converted array");
  *out = NULL;
  if ((st = check_source (a, sizeof (double), &n, err)) != FR_OK)
    return st;
  dst = malloc (n > 0 ? n * sizeof (double) : 1);
  if (dst == NULL)
    return fr_error_set (err, FR_E_NOMEM, "cannot allocate %zu float64 values", n);
  if (a->dtype == FR_F64)
    {
      if (n > 0)
        memcpy (dst, a->data, n * sizeof (double));
    }
  else
    {
      const float *src = a->data;
      for (size_t i = 0; i < n; i++)
        dst[i] = src[i];
    }
  *out = dst;
  return FR_OK;
}

fr_status
fr_array_speed_f32 (const fr_array *a, const fr_grid *g, const char *what, float **out,
                    bool *copied, fr_error *err)
{
  size_t n = 0;
  fr_status st;

  if (out == NULL || copied == NULL || g == NULL)
    return fr_error_set (err, FR_E_INPUT, "no grid or no place for the speeds");
  *out = NULL;
  *copied = false;
  if ((st = check_source (a, sizeof (float), &n, err)) != FR_OK)
    return st;
  if (n != fr_grid_count (g))
    return fr_error_set (err, FR_E_INPUT, "%s has %zu values for a grid of %zu nodes", what, n,
                         fr_grid_count (g));
  if (a->dtype == FR_F32)
    {
      if ((st = fr_check_speed_f32 (g, a->data, what, err)) != FR_OK)
        return st;
      *out = a->data;
      return FR_OK;
    }
  if ((st = fr_check_speed_f64 (g, a->data, what, err)) != FR_OK
      || (st = fr_array_to_f32 (a, out, err)) != FR_OK)
    return st;
  *copied = true;
  return FR_OK;
}

fr_status
fr_array_grid_shape (const fr_array *a, fr_grid *g, fr_error *err)
{
  if (a == NULL || g == NULL)
    return fr_error_set (err, FR_E_INPUT, "no array or no grid");
  if (a->ndim != 2 && a->ndim != 3)
    return fr_error_set (err, FR_E_INPUT,
                         "a grid needs a 2D (nz, nx) or 3D (nz, ny, nx) array, not %dD",
                         a->ndim);
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] == 0)
      return fr_error_set (err, FR_E_INPUT, "a grid cannot have an empty axis (shape[%d] = 0)", i);
  g->ndim = a->ndim;
  g->nz = a->shape[0];
  g->ny = a->ndim == 3 ? a->shape[1] : 1;
  g->nx = a->shape[a->ndim - 1];
  return FR_OK;
}

fr_array
fr_array_wrap_grid (const fr_grid *g, fr_dtype dtype, const void *data)
{
  fr_array a = { 0 };

  a.dtype = dtype;
  /* The array never frees a wrapped buffer, so dropping const is safe. */
  a.data = (void *) data;
  if (g->ndim == 3)
    {
      a.ndim = 3;
      a.shape[0] = g->nz;
      a.shape[1] = g->ny;
      a.shape[2] = g->nx;
    }
  else
    {
      a.ndim = 2;
      a.shape[0] = g->nz;
      a.shape[1] = g->nx;
    }
  return a;
}
