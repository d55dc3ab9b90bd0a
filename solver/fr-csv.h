/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Point lists as CSV text (CONTRACT.md): receivers `R.csv` (a header `x,z`
 * or `x,y,z`, then one point per line) and rays `RAYS.csv` (a header
 * `receiver,x,z` or `receiver,x,y,z`, then each ray's points from source to
 * receiver), and times at receivers `TIMES.csv` (below).  Numbers are read and written in the C locale whatever the
 * process locale is, with 15 significant digits (a double's decimal precision). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fr-status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest line we read (the newline excluded), and most points in a file:
 * anything beyond is surely not a receiver list. */
#define FR_CSV_MAX_LINE 4096
#define FR_CSV_MAX_POINTS ((size_t) 1 << 24)

typedef struct fr_points {
  int ndim;          /* 2 (x, z) or 3 (x, y, z), as the header says */
  size_t count;
  double *xyz;       /* count·ndim values, point k at xyz[k·ndim]; malloc'ed */
} fr_points;

/* Frees the values and zeroes the struct; safe on a zeroed struct. */
void fr_points_clear (fr_points *p);

/* Reads a receivers file.  Tolerates CRLF, spaces around fields, a UTF-8
 * byte-order mark and blank lines at the end; refuses anything else with
 * FR_E_INPUT and a message like "R.csv: line 7: expected 2 numbers".  The
 * k-th point is on line k + 2.  On failure out is left cleared. */
fr_status fr_csv_read_points (const char *path, fr_points *out, fr_error *err);

/* The same parser on text in memory; `name` prefixes messages. */
fr_status fr_csv_parse_points (const char *name, const char *text, size_t len,
                               fr_points *out, fr_error *err);

typedef struct fr_csv_ray {
  size_t receiver;        /* the receiver's 0-based index in R.csv */
  size_t npoints;
  const double *points;   /* npoints·ndim values, from the source to the receiver */
} fr_csv_ray;

/* Reads a rays file back: its points in out and, for each point, the
 * receiver it belongs to in *receivers (malloc'ed, out->count of them). */
fr_status fr_csv_read_rays (const char *path, fr_points *out, size_t **receivers, fr_error *err);

/* Writes the rays file's header and rows to fp (no flush, no commit), so a
 * caller can put it through an fr_atomic_file it commits when it chooses. */
fr_status fr_csv_write_rays_to (FILE *fp, int ndim, const fr_csv_ray *rays, size_t nrays,
                                fr_error *err);

/* Writes a rays file atomically: all of it or nothing. */
fr_status fr_csv_write_rays (const char *path, int ndim, const fr_csv_ray *rays, size_t nrays,
                             fr_error *err);

/* Writes a receivers file, what fr_csv_read_points reads back: the header
 * `x,z` or `x,y,z` (as p->ndim says), then one point per line.  A point
 * that is not finite is refused with FR_E_INPUT. */
fr_status fr_csv_write_points_to (FILE *fp, const fr_points *p, fr_error *err);

/* Writes a receivers file atomically: all of it or nothing. */
fr_status fr_csv_write_points (const char *path, const fr_points *p, fr_error *err);

/* Writes the first-arrival times at receivers (TIMES.csv): the header
 * `receiver,x,z,t` or `receiver,x,y,z,t`, then one line for each point of
 * rc in its order, t[k] being the time at point k and `inf` where no
 * source reaches it.  With single_precision, t is rounded to float32 (as in
 * a float32 T.npy); each time is written with the fewest digits that read
 * back to it in its precision. */
fr_status fr_csv_write_times_to (FILE *fp, const fr_points *rc, const double *t,
                                 bool single_precision, fr_error *err);

/* Writes a times file atomically: all of it or nothing. */
fr_status fr_csv_write_times (const char *path, const fr_points *rc, const double *t,
                              bool single_precision, fr_error *err);

/* Writes the first-arrival times of shots fired one at a time (a shot
 * gather's times): the header `source,source_x,source_z,receiver,x,z,t`
 * (`source,source_x,source_y,source_z,receiver,x,y,z,t` in 3D), then a
 * line for each receiver of rc in its order, shot by shot in the order of
 * sources; t[s·rc->count + k] is source s's time at receiver k, `inf`
 * where it does not reach it.  Numbers as fr_csv_write_times_to writes
 * them. */
fr_status fr_csv_write_shot_times_to (FILE *fp, const fr_points *sources, const fr_points *rc,
                                      const double *t, bool single_precision, fr_error *err);

/* Writes a shot times file atomically: all of it or nothing. */
fr_status fr_csv_write_shot_times (const char *path, const fr_points *sources,
                                   const fr_points *rc, const double *t, bool single_precision,
                                   fr_error *err);

#ifdef __cplusplus
}
#endif
