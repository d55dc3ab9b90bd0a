/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SPR benchmark after Monsegny & Agudelo (2013): a vertical velocity
 * gradient from 0.5 km/s at the top to 4 km/s at the bottom, square grids,
 * radii 1 to 6, one source at the top centre.  For each back end: the
 * median (and least) solve time over several runs, the global passes, and
 * the edge evaluations per second; the CPU results are also compared with
 * Dijkstra's where both ran.  Prints a table and writes CSV.
 *
 *   bench-spr [--quick] [--sizes 128,256] [--radii 1,4] [--backends dijkstra,cpu,auto]
 *             [--runs N] [--threads N] [CSV]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fr-spr.h"

#define MAX_LIST 16

typedef struct {
  int sizes[MAX_LIST], nsizes;
  int radii[MAX_LIST], nradii;
  fr_spr_backend backends[MAX_LIST];
  int nbackends;
  int runs, threads;
  const char *csv;
} options;

static int
parse_ints (const char *s, int *out)
{
  int n = 0;
  char *end;
  while (*s != '\0' && n < MAX_LIST)
    {
      long v = strtol (s, &end, 10);
      if (end == s || v <= 0)
        return -1;
      out[n++] = (int) v;
      s = *end == ',' ? end + 1 : end;
      if (*end != ',' && *end != '\0')
        return -1;
    }
  return n;
}

static int
parse_backends (const char *s, fr_spr_backend *out)
{
  int n = 0;
  char buf[256], *save = NULL;
  snprintf (buf, sizeof buf, "%s", s);
  for (char *tok = strtok_r (buf, ",", &save); tok != NULL && n < MAX_LIST;
       tok = strtok_r (NULL, ",", &save))
    if (!fr_spr_backend_from_name (tok, &out[n++]))
      return -1;
  return n;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
usage (void)
{
  fprintf (stderr, "usage: bench-spr [--quick] [--sizes N,..] [--radii R,..] "
                   "[--backends dijkstra,cpu,auto,cuda] [--runs N] [--threads N] [CSV]\n");
}

static bool
parse_options (int argc, char **argv, options *o)
{
  static const int sizes[] = { 128, 256, 512, 1024, 1600 };
  memset (o, 0, sizeof *o);
  memcpy (o->sizes, sizes, sizeof sizes);
  o->nsizes = 5;
  for (int r = 1; r <= 6; r++)
    o->radii[o->nradii++] = r;
  o->backends[0] = FR_SPR_DIJKSTRA;
  o->backends[1] = FR_SPR_CPU;
  o->backends[2] = FR_SPR_AUTO;
  o->nbackends = 3;
  o->runs = 7;
  o->csv = "bench-spr.csv";

  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
      if (strcmp (a, "--quick") == 0)
        {
          o->nsizes = 3;         /* 128, 256, 512 */
          o->nradii = 0;
          o->radii[o->nradii++] = 1;
          o->radii[o->nradii++] = 4;
          o->runs = 3;
        }
      else if (strcmp (a, "--sizes") == 0 && val != NULL)
        {
          if ((o->nsizes = parse_ints (val, o->sizes)) <= 0)
            return false;
          i++;
        }
      else if (strcmp (a, "--radii") == 0 && val != NULL)
        {
          if ((o->nradii = parse_ints (val, o->radii)) <= 0)
            return false;
          i++;
        }
      else if (strcmp (a, "--backends") == 0 && val != NULL)
        {
          if ((o->nbackends = parse_backends (val, o->backends)) <= 0)
            return false;
          i++;
        }
      else if (strcmp (a, "--runs") == 0 && val != NULL)
        {
          o->runs = atoi (val);
          if (o->runs < 1)
            return false;
          i++;
        }
      else if (strcmp (a, "--threads") == 0 && val != NULL)
        {
          o->threads = atoi (val);
          i++;
        }
      else if (a[0] != '-')
        o->csv = a;
      else
        return false;
    }
  return true;
}

int
main (int argc, char **argv)
{
  options o;
  FILE *csv;

  if (!parse_options (argc, argv, &o))
    {
      usage ();
      return 2;
    }
  csv = fopen (o.csv, "w");
  if (csv == NULL)
    {
      perror (o.csv);
      return 1;
    }
  fprintf (csv, "size,radius,backend,ran,threads,runs,ms_median,ms_min,iterations,"
                "edges_relaxed,edges_per_s,max_rel_vs_dijkstra\n");
  {
    double load[3] = { 0 };
    getloadavg (load, 3);
    printf ("SPR benchmark: vertical gradient 0.5 -> 4 km/s, spacing 10 m, source at the top "
            "centre, edge reduction on, single precision; %s; threads %s; load average %.2f "
            "%.2f %.2f (the CPU back end takes fewer threads than cores when they are busy)\n",
            fr_cuda_usable () ? "CUDA device present" : "no CUDA device",
            o.threads > 0 ? "as asked" : "automatic", load[0], load[1], load[2]);
  }
  printf ("%6s %3s %-9s %-9s %10s %10s %8s %12s %10s\n", "size", "R", "backend", "ran",
          "median ms", "min ms", "passes", "edges/s", "vs dijk");

  for (int si = 0; si < o.nsizes; si++)
    {
      const int n = o.sizes[si];
      const double d = 0.01;    /* km */
      fr_grid g = fr_grid_2d ((size_t) n, (size_t) n, d, d, 0.0, 0.0);
      float *v = malloc ((size_t) n * (size_t) n * sizeof *v);
      double src[2] = { (double) (n / 2) * d, 0.0 };

      if (v == NULL)
        return 1;
      for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
          v[(size_t) j * (size_t) n + (size_t) i] = (float) (0.5 + 3.5 * j / (double) (n - 1));

      for (int ri = 0; ri < o.nradii; ri++)
        {
          double *ref = NULL;
          for (int bi = 0; bi < o.nbackends; bi++)
            {
              fr_spr_params p;
              fr_spr_result res;
              fr_error err = { 0 };
              double ms[64], maxrel = NAN;
              /* Dijkstra on big grids takes seconds: fewer runs there. */
              int runs = o.runs;
              if (o.backends[bi] == FR_SPR_DIJKSTRA && n >= 1024)
                runs = runs < 2 ? runs : 2;
              if (runs > 64)
                runs = 64;

              fr_spr_params_init (&p);
              p.rx = p.rz = o.radii[ri];
              p.backend = o.backends[bi];
              p.threads = o.threads;
              for (int r = 0; r < runs; r++)
                {
                  if (fr_spr_solve (&g, v, src, 1, &p, &res, &err) != FR_OK)
                    {
                      fprintf (stderr, "bench-spr: %s\n", err.message);
                      return 1;
                    }
                  ms[r] = res.solve_ms;
                  if (r + 1 < runs)
                    fr_spr_result_clear (&res);
                }
              qsort (ms, (size_t) runs, sizeof ms[0], cmp_double);
              if (res.backend == FR_SPR_DIJKSTRA && ref == NULL)
                {
                  ref = res.time;
                  res.time = NULL;
                }
              else if (ref != NULL)
                {
                  maxrel = 0.0;
                  for (size_t i = 0; i < (size_t) n * (size_t) n; i++)
                    if (ref[i] > 0.0 && isfinite (ref[i]))
                      maxrel = fmax (maxrel, fabs (res.time[i] - ref[i]) / ref[i]);
                }
              {
                double med = ms[runs / 2], eps = (double) res.edges_relaxed / (med * 1e-3);
                printf ("%6d %3d %-9s %-9s %10.2f %10.2f %8ld %12.3g %10.2g\n", n, p.rx,
                        fr_spr_backend_name (o.backends[bi]), fr_spr_backend_name (res.backend),
                        med, ms[0], res.iterations, eps, maxrel);
                fprintf (csv, "%d,%d,%s,%s,%d,%d,%.3f,%.3f,%ld,%llu,%.4g,%.3g\n", n, p.rx,
                         fr_spr_backend_name (o.backends[bi]), fr_spr_backend_name (res.backend),
                         o.threads, runs, med, ms[0], res.iterations,
                         (unsigned long long) res.edges_relaxed, eps, maxrel);
                fflush (stdout);
              }
              fr_spr_result_clear (&res);
            }
          free (ref);
        }
      free (v);
    }
  fclose (csv);
  printf ("CSV written to %s\n", o.csv);
  return 0;
}
