/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How a grid's nodes lie in the canvas's textures (app/fr-grid-texture.c):
 * every node its own texel, in bounds and apart from every other, up to
 * the GL's largest texture squared; the grid itself where it fits one
 * texture; texels in the order of the upload's rows; and the least stride
 * only past largest² nodes.  A line of 20 000 traces was drawn from every
 * other trace. */
#include <glib.h>

#include "fr-grid-texture.h"

static size_t
ceil_div (size_t a, size_t b)
{
  return (a + b - 1) / b;
}

/* Every property of the layout of an nx × nz grid, checked node by node. */
static void
check_layout (size_t nx, size_t nz, int largest)
{
  const size_t side = (size_t) largest;
  fr_grid_texture lay;
  guint8 *taken;

  fr_grid_texture_layout (nx, nz, largest, &lay);

  /* The least stride whose nodes fit side² texels. */
  g_assert_cmpint (lay.stride, >=, 1);
  g_assert_cmpuint (ceil_div (nx, lay.stride) * ceil_div (nz, lay.stride), <=, side * side);
  if (lay.stride > 1)
    g_assert_cmpuint (ceil_div (nx, lay.stride - 1) * ceil_div (nz, lay.stride - 1), >, side * side);
  g_assert_cmpint (lay.nodes[0], ==, (int) ceil_div (nx, lay.stride));
  g_assert_cmpint (lay.nodes[1], ==, (int) ceil_div (nz, lay.stride));
  g_assert_cmpuint (lay.count, ==, (size_t) lay.nodes[0] * (size_t) lay.nodes[1]);

  /* A texture GL takes, with no row left empty. */
  g_assert_cmpint (lay.width, >=, 1);
  g_assert_cmpint (lay.height, >=, 1);
  g_assert_cmpint (lay.width, <=, largest);
  g_assert_cmpint (lay.height, <=, largest);
  g_assert_cmpuint (lay.count, <=, (size_t) lay.width * (size_t) lay.height);
  g_assert_cmpuint (lay.count, >, (size_t) lay.width * (size_t) (lay.height - 1));

  /* The grid itself where it fits. */
  if (nx <= side && nz <= side)
    {
      g_assert_cmpint (lay.stride, ==, 1);
      g_assert_cmpint (lay.width, ==, (int) nx);
      g_assert_cmpint (lay.height, ==, (int) nz);
    }

  /* Each node its own texel, in the order the upload writes them: row
   * after row of the texture's width. */
  taken = g_malloc0 ((size_t) lay.width * (size_t) lay.height);
  for (int iz = 0; iz < lay.nodes[1]; iz++)
    for (int ix = 0; ix < lay.nodes[0]; ix++)
      {
        const size_t k = (size_t) iz * (size_t) lay.nodes[0] + (size_t) ix;
        int tx, ty;

        fr_grid_texture_texel (&lay, ix, iz, &tx, &ty);
        g_assert_cmpint (tx, >=, 0);
        g_assert_cmpint (tx, <, lay.width);
        g_assert_cmpint (ty, >=, 0);
        g_assert_cmpint (ty, <, lay.height);
        g_assert_cmpuint ((size_t) ty * (size_t) lay.width + (size_t) tx, ==, k);
        g_assert_false (taken[(size_t) ty * (size_t) lay.width + (size_t) tx]);
        taken[(size_t) ty * (size_t) lay.width + (size_t) tx] = 1;
        if (nx <= side && nz <= side)
          {
            g_assert_cmpint (tx, ==, ix);
            g_assert_cmpint (ty, ==, iz);
          }
      }
  g_free (taken);
}

/* Every small grid against every small texture: the grid itself, lines
 * longer or deeper than a texture, and grids past largest² nodes. */
static void
test_small_grids (void)
{
  for (int largest = 1; largest <= 9; largest++)
    for (size_t nx = 1; nx <= 40; nx++)
      for (size_t nz = 1; nz <= 40; nz++)
        check_layout (nx, nz, largest);
}

/* The seismic line the canvas could not draw whole: 20 000 traces on
 * llvmpipe's 16384, every trace its own texel in 49 texture rows; the same
 * line standing up; the largest grid that fits, and one node more. */
static void
test_long_lines (void)
{
  fr_grid_texture lay;

  check_layout (20000, 40, 16384);
  fr_grid_texture_layout (20000, 40, 16384, &lay);
  g_assert_cmpint (lay.stride, ==, 1);
  g_assert_cmpint (lay.width, ==, 16384);
  g_assert_cmpint (lay.height, ==, 49);

  check_layout (40, 20000, 16384);
  check_layout (301, 151, 16384);
  check_layout (16384, 16384, 16384);

  fr_grid_texture_layout (16384, 16385, 16384, &lay);
  g_assert_cmpint (lay.stride, ==, 2);
  g_assert_cmpint (lay.nodes[0], ==, 8192);
  g_assert_cmpint (lay.nodes[1], ==, 8193);

  /* GL_MAX_TEXTURE_SIZE unknown (0): 16384; beyond 32768 the shader's int
   * index could overflow, so the layout keeps to 32768. */
  fr_grid_texture_layout (20000, 40, 0, &lay);
  g_assert_cmpint (lay.width, ==, 16384);
  fr_grid_texture_layout (100000, 40, 65536, &lay);
  g_assert_cmpint (lay.width, ==, FR_GRID_TEXTURE_MAX_SIDE);
  g_assert_cmpint (lay.height, <=, FR_GRID_TEXTURE_MAX_SIDE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/grid-texture/small-grids", test_small_grids);
  g_test_add_func ("/app/grid-texture/long-lines", test_long_lines);
  return g_test_run ();
}
