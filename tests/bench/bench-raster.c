/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rasterisation benchmark: how long the app waits for a model edit's new
 * velocity grid (fr_raster_fill, cell averages of layers and obstacles)
 * on square grids over a 3 × 2 domain.  Three models after the bundled
 * scenes: three layers with gradients under kinked interfaces, a maze of
 * fifteen walls, and the layers with a salt body and two lenses; and the
 * layers again with the syncline digitised as an interpreter picks it,
 * 4001 nodes with a rough, jittered trace ("picked"), and with all three
 * interfaces so picked, each at its own positions in x ("picked3").  Prints
 * the median and least time of several fills and writes CSV.
 *
 *   bench-raster [--sizes 500,1000,2000,3000] [--runs N] [CSV]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fr-clock.h"
#include "fr-omp.h"
#include "fr-raster.h"

#define MAX_SIZES 16

/* Three layers: a flat top, a syncline of 16 nodes, a dipping base. */
static double sync_x[16], sync_z[16];
static const double flat_x[2] = { 0.0, 3.0 }, flat_z[2] = { 0.0, 0.0 };
static const double dip_x[2] = { 0.0, 3.0 }, dip_z[2] = { 1.2, 1.55 };
static fr_raster_layer layers[3];

/* The syncline picked at 4001 nodes, every 0.75 thousandths of the width;
 * the flat top and the dipping base picked too, a third and two thirds of
 * a step further on, with roughness of their own. */
#define PICKS 4001
static double pick_x[PICKS], pick_z[PICKS], top_x[PICKS], top_z[PICKS], base_x[PICKS], base_z[PICKS];
static fr_raster_layer picked[3], picked3[3];

/* Fifteen walls, 0.04 wide, alternately from the top and the bottom. */
static double wall_x[15][4], wall_z[15][4];
static fr_raster_obstacle walls[15];

/* A salt body and two permeable lenses. */
static const double salt_x[7] = { 1.2, 1.5, 1.85, 1.95, 1.7, 1.35, 1.1 };
static const double salt_z[7] = { 0.55, 0.4, 0.5, 0.95, 1.3, 1.25, 0.9 };
static const double lens_x[2][4] = { { 0.3, 0.7, 0.75, 0.35 }, { 2.3, 2.75, 2.7, 2.25 } };
static const double lens_z[2][4] = { { 0.9, 0.85, 0.95, 1.0 }, { 1.3, 1.35, 1.45, 1.4 } };
static fr_raster_obstacle salt[3];

static void
build_models (void)
{
  for (int i = 0; i < 16; i++)
    {
      sync_x[i] = 0.2 * i;
      sync_z[i] = 0.37 + 0.28 * sin (3.141592653589793 * i / 15.0);
    }
  layers[0] = (fr_raster_layer) { flat_x, flat_z, 2, 1.8, 0.3, 0.0 };
  layers[1] = (fr_raster_layer) { sync_x, sync_z, 16, 2.6, 0.2, 0.0 };
  layers[2] = (fr_raster_layer) { dip_x, dip_z, 2, 3.4, 0.1, 0.05 };

  /* Roughness of a few thousandths, and a deterministic jitter (a linear
   * congruential sequence) so that every run rasterises the same model. */
  {
    unsigned lcg = 12345u;

    for (int i = 0; i < PICKS; i++)
      {
        double x = 3.0 * i / (PICKS - 1);

        double shift = i > 0 && i < PICKS - 1 ? 0.25e-3 : 0.0;

        lcg = lcg * 1103515245u + 12345u;
        pick_x[i] = x;
        pick_z[i] = 0.37 + 0.28 * sin (3.141592653589793 * x / 3.0) + 0.004 * sin (97.0 * x)
                    + 0.002 * ((lcg >> 16 & 0x7fff) / 32767.0 - 0.5);
        top_x[i] = x + shift;
        top_z[i] = 0.002 * sin (61.0 * x);
        base_x[i] = x + 2.0 * shift;
        base_z[i] = 1.2 + 0.35 * x / 3.0 + 0.003 * sin (83.0 * x);
      }
  }
  picked[0] = layers[0];
  picked[1] = (fr_raster_layer) { pick_x, pick_z, PICKS, 2.6, 0.2, 0.0 };
  picked[2] = layers[2];
  picked3[0] = (fr_raster_layer) { top_x, top_z, PICKS, 1.8, 0.3, 0.0 };
  picked3[1] = picked[1];
  picked3[2] = (fr_raster_layer) { base_x, base_z, PICKS, 3.4, 0.1, 0.05 };

  for (int k = 0; k < 15; k++)
    {
      double x = 0.15 + 0.18 * k, top = k % 2 ? 0.0 : 0.6, bottom = k % 2 ? 1.4 : 2.0;
      const double xs[4] = { x, x + 0.04, x + 0.04, x }, zs[4] = { top, top, bottom, bottom };

      memcpy (wall_x[k], xs, sizeof xs);
      memcpy (wall_z[k], zs, sizeof zs);
      walls[k] = (fr_raster_obstacle) { wall_x[k], wall_z[k], 4, 0.0 };
    }

  salt[0] = (fr_raster_obstacle) { salt_x, salt_z, 7, 4.5 };
  salt[1] = (fr_raster_obstacle) { lens_x[0], lens_z[0], 4, 1.2 };
  salt[2] = (fr_raster_obstacle) { lens_x[1], lens_z[1], 4, 0.0 };
}

typedef struct
{
  const char *name;
  fr_raster_model model;
} Case;

static int
parse_sizes (const char *s, int *out)
{
  int n = 0;

  while (*s != '\0' && n < MAX_SIZES)
    {
      char *end;
      long v = strtol (s, &end, 10);

      if (end == s || v < 2 || v > 20000 || (*end != ',' && *end != '\0'))
        return -1;
      out[n++] = (int) v;
      s = *end == ',' ? end + 1 : end;
    }
  return n;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  int sizes[MAX_SIZES] = { 500, 1000, 2000, 3000 }, n_sizes = 4, runs = 3;
  const char *csv_path = NULL;
  FILE *csv = NULL;
  Case cases[5];

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--sizes") == 0 && i + 1 < argc)
        {
          if ((n_sizes = parse_sizes (argv[++i], sizes)) <= 0)
            {
              fprintf (stderr, "bench-raster: --sizes takes sizes from 2 to 20000, like 500,1000\n");
              return 2;
            }
        }
      else if (strcmp (argv[i], "--runs") == 0 && i + 1 < argc)
        {
          runs = atoi (argv[++i]);
          if (runs < 1 || runs > 100)
            {
              fprintf (stderr, "bench-raster: --runs takes 1 to 100\n");
              return 2;
            }
        }
      else if (argv[i][0] != '-' && csv_path == NULL)
        csv_path = argv[i];
      else
        {
          fprintf (stderr, "usage: bench-raster [--sizes 500,1000] [--runs N] [CSV]\n");
          return 2;
        }
    }

  build_models ();
  cases[0] = (Case) { "layers", { .layers = layers, .n_layers = 3, .default_velocity = 1.0 } };
  cases[1] = (Case) { "maze", { .layers = layers, .n_layers = 1, .obstacles = walls,
                                .n_obstacles = 15, .default_velocity = 1.0 } };
  cases[2] = (Case) { "salt", { .layers = layers, .n_layers = 3, .obstacles = salt,
                                .n_obstacles = 3, .default_velocity = 1.0 } };
  cases[3] = (Case) { "picked", { .layers = picked, .n_layers = 3, .default_velocity = 1.0 } };
  cases[4] = (Case) { "picked3", { .layers = picked3, .n_layers = 3, .default_velocity = 1.0 } };

  if (csv_path != NULL && (csv = fopen (csv_path, "w")) == NULL)
    {
      perror (csv_path);
      return 1;
    }
  if (csv != NULL)
    fprintf (csv, "model,nx,nz,threads,runs,median_s,least_s,cells_per_s\n");
  printf ("rasterisation, %d threads, %d runs each\n", fr_omp_max_threads (), runs);
  printf ("%-8s %11s %10s %10s %14s\n", "model", "grid", "median s", "least s", "cells/s");

  for (int si = 0; si < n_sizes; si++)
    {
      size_t nx = (size_t) sizes[si], nz = (size_t) (2 * (sizes[si] - 1) / 3 + 1);
      fr_grid g = fr_grid_2d (nx, nz, 3.0 / (nx - 1), 3.0 / (nx - 1), 0.0, 0.0);
      float *out = malloc (nx * nz * sizeof *out);
      double *t = malloc ((size_t) runs * sizeof *t);

      if (out == NULL || t == NULL)
        {
          fprintf (stderr, "bench-raster: out of memory at %zu × %zu\n", nx, nz);
          return 1;
        }
      for (int c = 0; c < 5; c++)
        {
          fr_error err = { 0 };

          for (int r = 0; r < runs; r++)
            {
              double t0 = fr_clock_ms ();

              if (fr_raster_fill (&cases[c].model, &g, out, &err) != FR_OK)
                {
                  fprintf (stderr, "bench-raster: %s: %s\n", cases[c].name, err.message);
                  return 1;
                }
              t[r] = 1e-3 * (fr_clock_ms () - t0);
            }
          qsort (t, (size_t) runs, sizeof *t, cmp_double);
          printf ("%-8s %5zu × %-4zu %10.3f %10.3f %14.3g\n", cases[c].name, nx, nz, t[runs / 2],
                  t[0], (double) (nx * nz) / t[runs / 2]);
          if (csv != NULL)
            fprintf (csv, "%s,%zu,%zu,%d,%d,%.6f,%.6f,%.6g\n", cases[c].name, nx, nz,
                     fr_omp_max_threads (), runs, t[runs / 2], t[0], (double) (nx * nz) / t[runs / 2]);
        }
      free (out);
      free (t);
    }
  if (csv != NULL && fclose (csv) != 0)
    {
      perror (csv_path);
      return 1;
    }
  return 0;
}
