/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A dense C-order array of float32 or float64, as read from or written to
 * disk.  Shapes follow NumPy: (nz, nx) in 2D, (nz, ny, nx) in 3D. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "fr-status.h"
#include "fr-grid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fr_dtype {
  FR_F32,
  FR_F64,
} fr_dtype;

typedef struct fr_array {
  int ndim;           /* 1 to 3 */
  size_t shape[3];    /* NumPy order: slowest axis first */
  fr_dtype dtype;
  void *data;         /* malloc'ed; owned by the array */
} fr_array;

size_t fr_array_count (const fr_array *a);

/* Frees the data and zeroes the struct; safe on a zeroed array. */
void fr_array_clear (fr_array *a);

/* A copy of the values as float32 (rounded) or float64, malloc'ed.  The
 * narrowing is unchecked: what float32 cannot hold becomes 0 or ±inf (fine
 * for times; a speed grid goes through fr_array_speed_f32). */
fr_status fr_array_to_f32 (const fr_array *a, float **out, fr_error *err);
fr_status fr_array_to_f64 (const fr_array *a, double **out, fr_error *err);

/* A velocity or speed array on grid g (same node count) as the solvers
 * take it, float32, checked as fr-grid.h's speed checks say; a float64
 * array is checked before it is narrowed (fr_check_speed_f64).  *out is
 * a's own data for a float32 array (*copied false), else a malloc'ed
 * copy (*copied true).  Messages name `what`. */
fr_status fr_array_speed_f32 (const fr_array *a, const fr_grid *g, const char *what, float **out,
                              bool *copied, fr_error *err);

/* Fills g's sizes from the array's shape (ndim 2 or 3); spacing and origin
 * are left as they are. */
fr_status fr_array_grid_shape (const fr_array *a, fr_grid *g, fr_error *err);

/* Wraps an existing buffer (not copied, not owned) for writing. */
fr_array fr_array_wrap_grid (const fr_grid *g, fr_dtype dtype, const void *data);

#ifdef __cplusplus
}
#endif
