/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How a grid's nodes lie in a GL texture (see fr-grid-texture.h). */
#include "fr-grid-texture.h"

/* GL through epoxy in the application, through the system headers in the
 * EGL tests. */
#ifdef FR_GL_EPOXY
#include <epoxy/gl.h>
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#endif

static size_t
ceil_div (size_t a, size_t b)
{
  return a / b + (a % b != 0);
}

void
fr_grid_texture_layout (size_t nx, size_t nz, int largest, fr_grid_texture *lay)
{
  const size_t side = largest <= 0 ? 16384
                      : largest > FR_GRID_TEXTURE_MAX_SIDE ? FR_GRID_TEXTURE_MAX_SIDE
                      : (size_t) largest;
  size_t stride = 1, n[2];

  nx = nx > 0 ? nx : 1;
  nz = nz > 0 ? nz : 1;
  /* The least stride whose nodes fill at most side² texels (the product
   * cannot overflow: a grid's node count fits in memory). */
  while (ceil_div (nx, stride) > (side * side) / ceil_div (nz, stride))
    stride++;
  n[0] = ceil_div (nx, stride);
  n[1] = ceil_div (nz, stride);
  lay->stride = (int) stride;
  lay->nodes[0] = (int) n[0];
  lay->nodes[1] = (int) n[1];
  lay->count = n[0] * n[1];
  if (n[0] <= side && n[1] <= side)
    {
      /* The grid itself: texel (ix, iz) is node (ix, iz). */
      lay->width = (int) n[0];
      lay->height = (int) n[1];
    }
  else
    {
      lay->width = (int) side;
      lay->height = (int) ceil_div (lay->count, side);
    }
}

void
fr_grid_texture_upload (const fr_grid_texture *lay, uintptr_t pixels)
{
  const size_t width = (size_t) lay->width;
  const size_t rows = lay->count / width, rest = lay->count % width;

  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  if (rows > 0)
    glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, (GLsizei) width, (GLsizei) rows, GL_RED, GL_FLOAT,
                     (const void *) pixels);
  if (rest > 0)
    glTexSubImage2D (GL_TEXTURE_2D, 0, 0, (GLint) rows, (GLsizei) rest, 1, GL_RED, GL_FLOAT,
                     (const void *) (pixels + rows * width * sizeof (float)));
}
