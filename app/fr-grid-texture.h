/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How a grid's nodes lie in a GL texture: the canvas's velocity and
 * traveltime textures, read by shaders/field.frag.glsl (texel_of), and the
 * CUDA–GL interop's upload.
 *
 * The nodes go in row after row, x fastest, wrapped at the texture's width.
 * A grid that fits the GL's largest texture is the texture itself; a longer
 * line (a seismic line of 20 000 traces) or a deeper one spans several
 * texture rows per grid row, every node still its own texel.  Only past
 * largest² nodes does the texture hold every stride-th node along both
 * axes.
 *
 * Plain C over GL, no GTK, so that tests/gpu shares it with the app. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Past this the shader's node index (an int) could overflow: the layout
 * keeps width × height within 2^30. */
#define FR_GRID_TEXTURE_MAX_SIDE 32768

typedef struct
{
  int    stride;     /* nodes per texel along x and along z: 1 up to largest² nodes */
  int    nodes[2];   /* the nodes the texture holds along x and z */
  int    width;      /* the texture's size in texels */
  int    height;
  size_t count;      /* nodes[0] · nodes[1], the texels that hold a node */
} fr_grid_texture;

/* The layout of an nx × nz grid in textures of at most largest texels a
 * side (GL_MAX_TEXTURE_SIZE; <= 0 means 16384). */
void fr_grid_texture_layout (size_t nx, size_t nz, int largest, fr_grid_texture *lay);

/* The texel of node (ix, iz) of the nodes the texture holds (the grid's
 * node (ix·stride, iz·stride)), as the shader finds it. */
static inline void
fr_grid_texture_texel (const fr_grid_texture *lay, int ix, int iz, int *tx, int *ty)
{
  const size_t k = (size_t) iz * (size_t) lay->nodes[0] + (size_t) ix;

  *tx = (int) (k % (size_t) lay->width);
  *ty = (int) (k / (size_t) lay->width);
}

/* Uploads lay->count floats into the texture bound to GL_TEXTURE_2D, which
 * must be lay->width × lay->height R32F: the whole texture rows, then the
 * partial last one.  pixels is a host address, or an offset into the bound
 * GL_PIXEL_UNPACK_BUFFER (0 for its start), as glTexSubImage2D takes it. */
void fr_grid_texture_upload (const fr_grid_texture *lay, uintptr_t pixels);

#ifdef __cplusplus
}
#endif
