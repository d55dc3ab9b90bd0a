/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for the scene file reader: any bytes given to
 * fr_scene_doc_parse (what fr_scene_doc_load, the app's Open and
 * foldray-cli --scene read through) must give either a scene or a refusal
 * with a message, never a crash, a leak or a hang.  A scene it accepts must
 * write back (fr_scene_doc_to_json) as text that it accepts again, and, on
 * a grid of up to FUZZ_RASTER_NODES nodes, rasterise (what the app and the
 * CLI do next) into velocities none of which is negative, or be refused with
 * a message.  A gradient of 1e38 overflows a float to inf (and inf - inf is
 * NaN): the solvers' input check refuses those, and foldray-cli --scene says
 * which members to check, so they are not faults here.
 * Relative background paths start from a scratch folder holding a small
 * valid grid.npy and grid.sgy, so that backgrounds are read too. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fr-array.h"
#include "fr-grid.h"
#include "fr-npy.h"
#include "fr-scene-file.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Larger grids are not rasterised here: the time goes into the parser. */
#define FUZZ_RASTER_NODES 4096

static char *base_dir;

/* A 3 x 2 float32 .npy (shape (nz, nx) = (2, 3)), velocities 1 to 6,
 * written as the app writes grids. */
static void
write_npy (const char *path)
{
  static const float v[6] = { 1, 2, 3, 4, 5, 6 };
  fr_grid g = fr_grid_2d (3, 2, 1.0, 1.0, 0.0, 0.0);
  fr_array a = fr_array_wrap_grid (&g, FR_F32, v);

  if (fr_npy_write (path, &a, NULL) != FR_OK)
    __builtin_trap ();
}

static void
put_be16 (guint8 *p, int v)
{
  p[0] = (guint8) ((v >> 8) & 0xff);
  p[1] = (guint8) (v & 0xff);
}

static void
put_be32 (guint8 *p, guint32 v)
{
  p[0] = (guint8) (v >> 24);
  p[1] = (guint8) (v >> 16);
  p[2] = (guint8) (v >> 8);
  p[3] = (guint8) v;
}

/* 3 traces of 2 IEEE samples, CDP X 0, 10, 20, interval 5000. */
static void
write_segy (const char *path)
{
  enum { NX = 3, NZ = 2, TR = 240 + 4 * NZ };
  guint8 buf[3600 + NX * TR];

  memset (buf, 0, sizeof buf);
  memset (buf, ' ', 3200);
  put_be16 (buf + 3200 + 16, 5000);
  put_be16 (buf + 3200 + 20, NZ);
  put_be16 (buf + 3200 + 24, 5);
  for (int t = 0; t < NX; t++)
    {
      guint8 *h = buf + 3600 + t * TR;

      put_be16 (h + 114, NZ);
      put_be32 (h + 180, (guint32) (10 * t));
      for (int s = 0; s < NZ; s++)
        {
          float f = 1.5f + (float) (t + s);
          guint32 u;

          memcpy (&u, &f, 4);
          put_be32 (h + 240 + 4 * s, u);
        }
    }
  g_file_set_contents (path, (const char *) buf, sizeof buf, NULL);
}

/* The scratch folder goes when the fuzzer exits, not one left per run. */
static void
remove_base_dir (void)
{
  static const char *const names[] = { "grid.npy", "grid.sgy" };

  for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (base_dir, names[i], NULL);

      g_unlink (path);
    }
  g_rmdir (base_dir);
}

static void
setup (void)
{
  g_autofree char *npy = NULL, *sgy = NULL;

  base_dir = g_dir_make_tmp ("fuzz-scene-XXXXXX", NULL);
  g_assert (base_dir != NULL);
  npy = g_build_filename (base_dir, "grid.npy", NULL);
  sgy = g_build_filename (base_dir, "grid.sgy", NULL);
  write_npy (npy);
  write_segy (sgy);
  atexit (remove_base_dir);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FrSceneDoc) doc = NULL;

  if (base_dir == NULL)
    setup ();
  doc = fr_scene_doc_parse ((const char *) data, (gssize) size, "fuzz.json", base_dir, &error);
  if (doc == NULL)
    {
      /* A refusal names the scene and says why, in UTF-8 (a dialog shows it). */
      if (error == NULL || error->domain != FR_SCENE_FILE_ERROR || error->message == NULL ||
          !g_str_has_prefix (error->message, "fuzz.json: ") ||
          !g_utf8_validate (error->message, -1, NULL))
        __builtin_trap ();
      return 0;
    }
  if (error != NULL)
    __builtin_trap ();

  /* What was accepted writes back as a scene that reads again. */
  {
    g_autofree char *json = fr_scene_doc_to_json (doc, base_dir);
    g_autoptr(GError) again_error = NULL;
    g_autoptr(FrSceneDoc) again = NULL;

    if (json == NULL)
      __builtin_trap ();
    again = fr_scene_doc_parse (json, -1, "again.json", base_dir, &again_error);
    if (again == NULL)
      {
        fprintf (stderr, "accepted, but its own text is refused: %s\n%s\n", again_error->message,
                 json);
        __builtin_trap ();
      }
  }

  if (fr_grid_count (&doc->model->grid) <= FUZZ_RASTER_NODES)
    {
      g_autoptr(GError) raster_error = NULL;
      g_autofree char *warning = NULL;
      g_autoptr(GBytes) v = fr_model_rasterise (doc->model, &warning, &raster_error);

      if (v == NULL && (raster_error == NULL || raster_error->message[0] == '\0' ||
                        !g_utf8_validate (raster_error->message, -1, NULL)))
        __builtin_trap ();
      if (v != NULL)
        {
          gsize n = 0;
          const float *f = g_bytes_get_data (v, &n);

          if (n != fr_grid_count (&doc->model->grid) * sizeof (float))
            __builtin_trap ();
          for (gsize i = 0; i < n / sizeof (float); i++)
            if (f[i] < 0.0f)
              {
                fprintf (stderr, "rasterised to %g at node %zu\n", (double) f[i], (size_t) i);
                __builtin_trap ();
              }
        }
    }
  return 0;
}
