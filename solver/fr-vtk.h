/* SPDX-License-Identifier: GPL-3.0-or-later */
/* VTK XML files for ParaView: grids as ImageData (.vti), rays and horizons
 * as PolyData (.vtp).  Both are written atomically (fr-atomic-file.h).
 *
 * Axes.  VTK's x, y, z are our x, y, z: depth stays on VTK's z axis and keeps
 * its sign, so a 3D grid maps directly and a 2D grid is the y = 0 slab of
 * it (extent "0 nx-1 0 0 0 nz-1", spacing "dx 1 dz", origin "x0 0 z0").  One
 * rule for 2D and 3D means the node order on disk is ours (x fastest, then
 * y, then z: no transpose), and rays written by fr_vtk_write_polylines land
 * exactly on the grid they were traced through.  ParaView draws z upward,
 * so depth appears upside down until the camera is flipped (or a Transform
 * with scale 1 1 -1 is applied).
 *
 * Values.  Node values are VTK point data (our nodes are cell centres, and
 * VTK's image points are exactly those centres).  Arrays are base64 binary
 * with a UInt64 byte-count header, in the host's byte order, which the
 * file's byte_order names: unlike ASCII, binary keeps +inf (an unreached
 * node), -0 and NaN bit for bit.  Numbers in the XML attributes are written
 * with 17 significant digits and a '.' decimal point whatever the locale. */
#pragma once

#include <stddef.h>

#include "fr-status.h"
#include "fr-grid.h"
#include "fr-array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One named array of node values over a grid. */
typedef struct fr_vtk_field {
  const char *name;     /* as ParaView lists it, e.g. "T"; any UTF-8, escaped */
  fr_dtype dtype;       /* FR_F32 or FR_F64: written as Float32 or Float64 */
  const void *data;     /* fr_grid_count (g) values, C order, x fastest */
} fr_vtk_field;

/* Writes a .vti ImageData file of grid g with nfields (>= 1) point-data
 * arrays; the first one is the active scalar.  Names must be non-empty,
 * distinct and free of control characters.  FR_E_INPUT for bad arguments
 * (nothing is created), FR_E_IO when the file cannot be written (nothing is
 * left behind; an existing file at path is kept as it was). */
fr_status fr_vtk_write_image (const char *path, const fr_grid *g,
                              const fr_vtk_field *fields, int nfields, fr_error *err);

/* Writes a .vtp PolyData file with one polyline per input line: line i has
 * npts[i] points, pts[i] holding them interleaved as (x, z) pairs when ndim
 * is 2 or (x, y, z) triples when ndim is 3; a 2D point is written at y = 0.
 * Each polyline carries an Int32 cell-data array named id_name (NULL means
 * "id") holding i, so for rays it is the receiver's number.  A line with no
 * points (say, an unreachable receiver) gets no cell, and the others keep
 * their numbers.  Coordinates must be finite.  Errors as for
 * fr_vtk_write_image. */
fr_status fr_vtk_write_polylines (const char *path, int ndim,
                                  const double *const *pts, const size_t *npts, size_t nlines,
                                  const char *id_name, fr_error *err);

/* One value per line, written as Float64 cell data beside the id array
 * (a folded horizon's level k and time T, for ParaView to colour by). */
typedef struct fr_vtk_line_field {
  const char *name;       /* non-empty, distinct from the id's and the others' */
  const double *values;   /* nlines values; a line without points skips its own */
} fr_vtk_line_field;

/* fr_vtk_write_polylines with nfields more cell-data arrays after the id. */
fr_status fr_vtk_write_polylines_data (const char *path, int ndim,
                                       const double *const *pts, const size_t *npts,
                                       size_t nlines, const char *id_name,
                                       const fr_vtk_line_field *fields, int nfields,
                                       fr_error *err);

#ifdef __cplusplus
}
#endif
