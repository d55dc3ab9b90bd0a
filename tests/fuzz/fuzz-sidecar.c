/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for a .npy grid's sidecar reader: any bytes, written
 * as the sidecar grid.json beside a small valid grid.npy and read through
 * fr_scene_file_read_grid (what the app's Open, Import and a scene's .npy
 * background read), must give either the grid at the sidecar's spacing and
 * origin (one whose times a double holds), or a refusal that names the sidecar, in UTF-8 (a dialog shows
 * it): never a crash, a leak, a hang or undefined behaviour.  Each input
 * is read twice, beside grid.npy and beside a grid named in Latin-1
 * (gr\xe9d.npy, as a file system may hold): both reads must agree. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fr-array.h"
#include "fr-grid.h"
#include "fr-npy.h"
#include "fr-scene-file.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

enum { NX = 3, NZ = 2 };

/* The grid and its sidecar, by a UTF-8 name and by a Latin-1 one. */
typedef struct
{
  char *npy, *json, *shown;
} Place;

static char *base_dir;
static Place places[2];

/* A 3 x 2 float32 .npy (shape (nz, nx) = (2, 3)), velocities 1 to 6,
 * written as the app writes grids. */
static void
write_npy (const char *path)
{
  static const float v[NX * NZ] = { 1, 2, 3, 4, 5, 6 };
  fr_grid g = fr_grid_2d (NX, NZ, 1.0, 1.0, 0.0, 0.0);
  fr_array a = fr_array_wrap_grid (&g, FR_F32, v);

  if (fr_npy_write (path, &a, NULL) != FR_OK)
    __builtin_trap ();
}

/* The scratch folder goes when the fuzzer exits, not one left per run. */
static void
remove_base_dir (void)
{
  for (size_t i = 0; i < G_N_ELEMENTS (places); i++)
    {
      g_unlink (places[i].json);
      g_unlink (places[i].npy);
    }
  g_rmdir (base_dir);
}

static void
setup (void)
{
  static const char *const stems[2] = { "grid", "gr\xe9" "d" };

  base_dir = g_dir_make_tmp ("fuzz-sidecar-XXXXXX", NULL);
  if (base_dir == NULL)
    __builtin_trap ();
  for (size_t i = 0; i < G_N_ELEMENTS (places); i++)
    {
      g_autofree char *npy = g_strconcat (stems[i], ".npy", NULL);
      g_autofree char *json = g_strconcat (stems[i], ".json", NULL);

      places[i].npy = g_build_filename (base_dir, npy, NULL);
      places[i].json = g_build_filename (base_dir, json, NULL);
      places[i].shown = g_filename_display_name (places[i].json);
      write_npy (places[i].npy);
    }
  atexit (remove_base_dir);
}

/* Reads data as place's sidecar; FALSE where it is refused, as it must be. */
static gboolean
read_at (const Place   *place,
         const uint8_t *data,
         size_t         size,
         fr_grid       *g)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) values = NULL;
  gboolean has_spacing = FALSE;
  FILE *f;

  /* Written in place (no rename per input): the reader only opens it. */
  f = fopen (place->json, "wb");
  if (f == NULL || fwrite (data, 1, size, f) != size || fclose (f) != 0)
    __builtin_trap ();

  if (fr_scene_file_read_grid (place->npy, "npy", g, &has_spacing, &values, &error))
    {
      gsize n = 0;
      const float *v = g_bytes_get_data (values, &n);

      /* A sidecar read places the grid it came with, values untouched. */
      if (error != NULL || !has_spacing || fr_grid_check (g, NULL) != FR_OK || g->ndim != 2
          || g->nx != NX || g->nz != NZ || !isfinite (g->dx) || !isfinite (g->dz)
          || !(g->dx > 0.0) || !(g->dz > 0.0) || !isfinite (g->x0) || !isfinite (g->z0)
          || n != NX * NZ * sizeof (float))
        __builtin_trap ();
      /* Nor a spacing whose times no solve could hold (1e-320 was read,
       * and the solve refused it). */
      if (fr_check_time_scale (g, v, true, NULL) != FR_OK)
        __builtin_trap ();
      for (int i = 0; i < NX * NZ; i++)
        if (v[i] != 1.0f + (float) i)
          __builtin_trap ();
      return TRUE;
    }
  /* A refusal names the sidecar (not the grid) and says why, in UTF-8. */
  if (error == NULL || error->message == NULL || error->message[0] == '\0'
      || !g_utf8_validate (error->message, -1, NULL) || strstr (error->message, place->shown) == NULL
      || values != NULL)
    {
      if (error != NULL)
        {
          g_autofree char *shown = g_strescape (error->message, NULL);

          fprintf (stderr, "refused with: %s\n", shown);
        }
      __builtin_trap ();
    }
  return FALSE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fr_grid g[2];
  gboolean ok[2];

  if (base_dir == NULL)
    setup ();
  for (size_t i = 0; i < G_N_ELEMENTS (places); i++)
    ok[i] = read_at (&places[i], data, size, &g[i]);
  /* The grid's name changes nothing but the message. */
  if (ok[0] != ok[1] || (ok[0] && memcmp (&g[0], &g[1], sizeof g[0]) != 0))
    __builtin_trap ();
  return 0;
}
