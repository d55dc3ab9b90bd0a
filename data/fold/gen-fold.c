/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writes the fold test cases of fold-models.h as files for foldray-cli,
 * plus the 2D fold example (an undulating horizon), and prints the command
 * that solves each.  Needs nothing but libc and libm:
 *
 *   cc -O2 -I data/fold data/fold/gen-fold.c -o gen-fold -lm
 *   ./gen-fold CASE N OUTDIR      CASE: ex-a ex-b ex-c ex-d fold3d fold2d
 *
 * OUTDIR is made if it is missing.
 *
 * 3D grids are N³ nodes (Ex_A spans (10, 13, 9), the others the unit
 * cube); fold2d is a 2D grid of N × N/2 nodes over [0, 2] × [0, 1]. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fold-models.h"

/* A little-endian C-order .npy, format 1.0, of float32 or float64. */
static int
write_npy (const char *path, const void *data, int f64, const size_t *shape, int ndim)
{
  char header[256];
  int len = snprintf (header, sizeof header, "{'descr': '<%s', 'fortran_order': False, 'shape': (",
                      f64 ? "f8" : "f4");
  size_t count = 1;
  for (int i = 0; i < ndim; i++)
    {
      len += snprintf (header + len, sizeof header - (size_t) len, "%zu, ", shape[i]);
      count *= shape[i];
    }
  len += snprintf (header + len, sizeof header - (size_t) len, "), }");
  /* Pad with spaces so that data starts on a 64-byte boundary. */
  int total = 10 + len + 1;
  int pad = (64 - total % 64) % 64;
  FILE *fp = fopen (path, "wb");
  if (fp == NULL)
    {
      fprintf (stderr, "gen-fold: %s: %s\n", path, strerror (errno));
      return -1;
    }
  uint16_t hlen = (uint16_t) (len + pad + 1);
  unsigned char magic[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                              (unsigned char) (hlen & 0xff), (unsigned char) (hlen >> 8) };
  fwrite (magic, 1, 10, fp);
  fwrite (header, 1, (size_t) len, fp);
  for (int i = 0; i < pad; i++)
    fputc (' ', fp);
  fputc ('\n', fp);
  fwrite (data, f64 ? 8 : 4, count, fp);
  if (fclose (fp) != 0)
    {
      fprintf (stderr, "gen-fold: %s: write failed\n", path);
      return -1;
    }
  return 0;
}

static int
fold2d (size_t n, const char *dir)
{
  /* An undulating horizon across [0, 2] × [0, 1], in two layers of speed
   * 1 and 1.5; folded with ψ = 0 and with ψ = (0.35, −0.2). */
  size_t nx = n, nz = n / 2 + 1;
  double h = 2.0 / (double) (nx - 1);
  char path[4096];
  float *F = malloc (nx * nz * sizeof *F);
  if (F == NULL)
    return -1;
  for (size_t iz = 0; iz < nz; iz++)
    for (size_t ix = 0; ix < nx; ix++)
      F[iz * nx + ix] = (double) iz * h > 0.7 ? 1.5f : 1.0f;
  snprintf (path, sizeof path, "%s/fold2d-speed.npy", dir);
  size_t shape[2] = { nz, nx };
  int rc = write_npy (path, F, 0, shape, 2);
  free (F);
  if (rc != 0)
    return -1;
  snprintf (path, sizeof path, "%s/fold2d-horizon.csv", dir);
  FILE *fp = fopen (path, "w");
  if (fp == NULL)
    return -1;
  fprintf (fp, "x,z\n");
  for (int k = 0; k <= 200; k++)
    {
      double x = -0.05 + 2.1 * k / 200.0;
      fprintf (fp, "%.17g,%.17g\n", x, 0.45 + 0.12 * sin (2.5 * M_PI * x) + 0.05 * sin (7.0 * x));
    }
  fclose (fp);
  printf ("foldray-cli fold --speed %s/fold2d-speed.npy --spacing %.17g --horizon %s/fold2d-horizon.csv --out %s/fold2d-T.npy\n",
          dir, h, dir, dir);
  printf ("foldray-cli fold --speed %s/fold2d-speed.npy --spacing %.17g --horizon %s/fold2d-horizon.csv --psi-a 0.35,-0.2 --out %s/fold2d-T-psi.npy\n",
          dir, h, dir, dir);
  return 0;
}

/* mkdir -p: OUTDIR and its parents, as the README's /tmp/fold needs. */
static int
make_dirs (const char *dir)
{
  char buf[4096];
  size_t len = strlen (dir);

  if (len == 0 || len >= sizeof buf)
    {
      fprintf (stderr, "gen-fold: bad OUTDIR '%s'\n", dir);
      return -1;
    }
  memcpy (buf, dir, len + 1);
  for (size_t i = 1; i <= len; i++)
    if (buf[i] == '/' || buf[i] == '\0')
      {
        char c = buf[i];

        buf[i] = '\0';
        if (mkdir (buf, 0777) != 0 && errno != EEXIST)
          {
            fprintf (stderr, "gen-fold: %s: %s\n", buf, strerror (errno));
            return -1;
          }
        buf[i] = c;
      }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: gen-fold CASE N OUTDIR   (CASE: ex-a ex-b ex-c ex-d fold3d fold2d)\n");
      return 2;
    }
  long nl = strtol (argv[2], NULL, 10);
  if (nl < 8 || nl > 2048)
    {
      fprintf (stderr, "gen-fold: N must be 8..2048\n");
      return 2;
    }
  size_t n = (size_t) nl;
  const char *dir = argv[3];
  int id = -1;
  for (int k = 0; k < FOLD_MODEL_COUNT; k++)
    if (strcmp (argv[1], fold_model_names[k]) == 0)
      id = k;
  if (id < 0 && strcmp (argv[1], "fold2d") != 0)
    {
      fprintf (stderr, "gen-fold: unknown case '%s'\n", argv[1]);
      return 2;
    }
  if (make_dirs (dir) != 0)
    return 1;
  if (id < 0)
    return fold2d (n, dir) == 0 ? 0 : 1;

  fold_model m;
  if (fold_model_make (&m, (fold_model_id) id, n, malloc) != 0)
    {
      fprintf (stderr, "gen-fold: out of memory\n");
      return 1;
    }
  size_t shape[3] = { n, n, n };
  char path[4096], speed_arg[4200] = "", start[8192] = "";
  if (m.speed != NULL)
    {
      snprintf (path, sizeof path, "%s/%s-speed.npy", dir, argv[1]);
      if (write_npy (path, m.speed, 0, shape, 3) != 0)
        return 1;
      snprintf (speed_arg, sizeof speed_arg, "--speed %s", path);
    }
  else
    snprintf (speed_arg, sizeof speed_arg, "--speed-const %g --shape %zu,%zu,%zu", m.speed_const, n, n, n);
  if (m.boundary != NULL)
    {
      snprintf (path, sizeof path, "%s/%s-boundary.npy", dir, argv[1]);
      if (write_npy (path, m.boundary, 1, shape, 3) != 0)
        return 1;
      snprintf (start, sizeof start, "--boundary %s", path);
    }
  for (int k = 0; k < m.nsrc; k++)
    {
      size_t len = strlen (start);
      snprintf (start + len, sizeof start - len, "%s--source %.17g,%.17g,%.17g", len ? " " : "",
                m.src[k][0], m.src[k][1], m.src[k][2]);
    }
  printf ("foldray-cli fold %s --spacing %.17g,%.17g,%.17g --psi-a %g,%g,%g %s --out %s/%s-T.npy\n",
          speed_arg, m.d[0], m.d[1], m.d[2], m.psi[0], m.psi[1], m.psi[2], start, dir, argv[1]);
  free (m.speed);
  free (m.boundary);
  return 0;
}
