/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA SPR back end on Monsegny & Agudelo's experiment (the model of
 * bench-spr.c: vertical gradient 0.5 -> 4 km/s, spacing 10 m, one source at
 * the top centre, edge reduction, single precision), against dijkstra and
 * cpu in the same run on the same machine.
 *
 * For cuda: one warm-up solve (context, module load), then the median over
 * --runs of the device time (events: slowness, weights, passes, unpadding)
 * and of the whole back-end call (allocations and copies included).  With
 * --variants, each design choice is measured on its own.
 *
 *   bench-spr-cuda [--sizes 128,256] [--radii 1,6] [--backends dijkstra,cpu,cuda]
 *                  [--runs N] [--dijkstra-max N] [--variants [--phases]] [--delta S] [CSV]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fr-device.h"
#include "fr-spr.h"
#include "spr-cuda-tune.h"
#include "spr-private.h"

#define MAX_LIST 16
#define MAX_VARIANTS 72   /* --variants: room for every variant listed in main */

typedef struct {
  int sizes[MAX_LIST], nsizes;
  int radii[MAX_LIST], nradii;
  bool dijkstra, cpu, cuda;
  int runs, dijkstra_max;
  bool variants;
  bool phases;
  double delta;
  int map, sweep;
  const char *only;
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
      if (*end != ',' && *end != '\0')
        return -1;
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

static double
median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, cmp_double);
  return v[n / 2];
}

typedef struct {
  const char *name;
  spr_cuda_tune tune;
  fr_spr_weights weights;
} variant;

/* Runs the cuda back end `runs` times after one warm-up; medians in *rep. */
static int
run_cuda (const fr_grid *g, const float *v, size_t src, const spr_stencils *st, int r,
          const spr_cuda_tune *tune, fr_spr_weights weights, int runs, fr_spr_result *res,
          spr_cuda_report *rep)
{
  fr_spr_params p;
  spr_problem pb;
  double dev[64], tot[64], pas[64];
  fr_error err = { 0 };

  fr_spr_params_init (&p);
  p.rx = p.rz = r;
  p.weights = weights;
  p.backend = FR_SPR_CUDA;
  pb = (spr_problem) { g, v, &src, 1, &p, st };
  if (runs > 64)
    runs = 64;
  for (int k = -1; k < runs; k++)
    {
      if (spr_cuda_solve_ex (&pb, tune, res, rep, &err) != FR_OK)
        {
          fprintf (stderr, "bench-spr-cuda: %s\n", err.message);
          return -1;
        }
      if (k >= 0)
        {
          dev[k] = rep->device_ms;
          tot[k] = rep->total_ms;
          pas[k] = rep->passes_ms;
        }
    }
  rep->device_ms = median (dev, runs);
  rep->total_ms = median (tot, runs);
  rep->passes_ms = median (pas, runs);
  return 0;
}

static double
max_rel (const double *ref, const double *got, size_t n)
{
  double m = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      if (isinf (ref[i]) != isinf (got[i]))
        return INFINITY;
      if (isfinite (ref[i]) && ref[i] > 0.0)
        m = fmax (m, fabs (got[i] - ref[i]) / ref[i]);
    }
  return m;
}

int
main (int argc, char **argv)
{
  options o = { .sizes = { 128, 256, 512, 1024, 1600 }, .nsizes = 5,
                .radii = { 1, 2, 3, 4, 5, 6 }, .nradii = 6,
                .dijkstra = true, .cpu = true, .cuda = true, .runs = 7,
                .dijkstra_max = 1 << 30, .csv = "bench-spr-cuda.csv" };
  fr_device_info dev;
  int ndev = 0;
  char why[128] = "";
  FILE *csv;

  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
      if (strcmp (a, "--sizes") == 0 && val != NULL)
        o.nsizes = parse_ints (argv[++i], o.sizes);
      else if (strcmp (a, "--radii") == 0 && val != NULL)
        o.nradii = parse_ints (argv[++i], o.radii);
      else if (strcmp (a, "--runs") == 0 && val != NULL)
        o.runs = atoi (argv[++i]);
      else if (strcmp (a, "--dijkstra-max") == 0 && val != NULL)
        o.dijkstra_max = atoi (argv[++i]);
      else if (strcmp (a, "--variants") == 0)
        o.variants = true;
      else if (strcmp (a, "--phases") == 0)
        o.phases = true;
      else if (strcmp (a, "--delta") == 0 && val != NULL)
        o.delta = atof (argv[++i]);
      else if (strcmp (a, "--map") == 0 && val != NULL)
        o.map = atoi (argv[++i]);
      else if (strcmp (a, "--sweep") == 0 && val != NULL)
        o.sweep = atoi (argv[++i]);
      else if (strcmp (a, "--only") == 0 && val != NULL)
        o.only = argv[++i];
      else if (strcmp (a, "--backends") == 0 && val != NULL)
        {
          val = argv[++i];
          o.dijkstra = strstr (val, "dijkstra") != NULL;
          o.cpu = strstr (val, "cpu") != NULL;
          o.cuda = strstr (val, "cuda") != NULL;
        }
      else if (a[0] != '-')
        o.csv = a;
      else
        {
          fprintf (stderr, "usage: bench-spr-cuda [--sizes N,..] [--radii R,..] "
                           "[--backends dijkstra,cpu,cuda] [--runs N] [--dijkstra-max N] "
                           "[--variants [--only NAME,..] [--phases]] [--delta S] [--map N] [--sweep N] "
                           "[CSV]\n");
          return 2;
        }
    }
  if (o.nsizes <= 0 || o.nradii <= 0 || o.runs <= 0)
    {
      fprintf (stderr, "bench-spr-cuda: bad list or count\n");
      return 2;
    }
  fr_cuda_devices (&dev, 1, &ndev, why, sizeof why);
  if (ndev == 0)
    {
      printf ("bench-spr-cuda: %s; nothing to measure\n", why);
      return 0;
    }
  csv = fopen (o.csv, "w");
  if (csv == NULL)
    {
      perror (o.csv);
      return 1;
    }
  printf ("SPR on %s (%zu MiB, %d SMs), %d host threads: gradient 0.5->4 km/s, dx 10 m, "
          "source top centre, edge reduction, float\n", dev.name, dev.memory_bytes >> 20,
          dev.multiprocessors, fr_cpu_threads ());
  fprintf (csv, "size,radius,variant,dev_ms,call_ms,passes_ms,passes,launches,nw,tile,"
                "edges,edges_per_s,dijkstra_ms,cpu_ms,speedup_dijkstra,speedup_cpu,"
                "max_rel_vs_dijkstra\n");
  if (!o.variants)
    printf ("%5s %2s %9s %9s %6s %9s %10s %9s %9s %9s %8s\n", "size", "R", "dev ms", "call ms",
            "passes", "edges/s", "dijk ms", "cpu ms", "x dijk", "x cpu", "max rel");
  else
    printf ("%5s %2s %-13s %9s %9s %9s %6s %6s %7s %7s %4s %9s %7s\n", "size", "R", "variant",
            "dev ms", "call ms", "pass ms", "passes", "raises", "activ", "launch", "nw",
            "edges/s", "sweeps");

  for (int si = 0; si < o.nsizes; si++)
    {
      const int n = o.sizes[si];
      const double d = 0.01;
      fr_grid g = fr_grid_2d ((size_t) n, (size_t) n, d, d, 0.0, 0.0);
      const size_t nn = (size_t) n * (size_t) n;
      float *v = malloc (nn * sizeof *v);
      double src_xz[2] = { (double) (n / 2) * d, 0.0 };
      size_t src = (size_t) (n / 2);
      fr_spr_result res = { 0 };

      res.time = malloc (nn * sizeof (double));
      res.pred = malloc (nn * sizeof (int32_t));
      res.grid = g;
      if (v == NULL || res.time == NULL || res.pred == NULL)
        return 1;
      for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
          v[(size_t) j * (size_t) n + (size_t) i] = (float) (0.5 + 3.5 * j / (double) (n - 1));

      for (int ri = 0; ri < o.nradii; ri++)
        {
          const int r = o.radii[ri];
          spr_stencils st;
          fr_error err = { 0 };
          double dijk_ms = NAN, cpu_ms = NAN, mrel = NAN;
          double *ref = NULL;
          spr_cuda_report rep;
          spr_cuda_tune t;

          if (spr_stencils_build (&st, r, r, d, d, false, &err) != FR_OK)
            {
              fprintf (stderr, "bench-spr-cuda: %s\n", err.message);
              return 1;
            }
          if (o.variants)
            {
              variant vs[MAX_VARIANTS];
              int nv = 0;
              for (int k = 0; k < MAX_VARIANTS; k++)
                {
                  spr_cuda_tune_init (&vs[k].tune);
                  vs[k].weights = FR_WEIGHTS_AUTO;
                }
              vs[nv++].name = "default";
              vs[nv].name = "early-exit";
              vs[nv++].tune.schedule = SPR_CUDA_EARLY_EXIT;
              vs[nv].name = "inner=1";
              vs[nv++].tune.inner_max = 1;
              vs[nv].name = "inner=4";
              vs[nv++].tune.inner_max = 4;
              vs[nv].name = "on-the-fly";
              vs[nv++].weights = FR_WEIGHTS_ON_THE_FLY;
              vs[nv].name = "table";
              vs[nv++].weights = FR_WEIGHTS_TABLE;
              {
                /* Both weight sources under both bookkeepings. */
                static const struct { const char *name; int map; fr_spr_weights w; } mw[] = {
                  { "wide-fly", SPR_CUDA_MAP_WIDE, FR_WEIGHTS_ON_THE_FLY },
                  { "wide-table", SPR_CUDA_MAP_WIDE, FR_WEIGHTS_TABLE },
                  { "async-fly", SPR_CUDA_MAP_ASYNC, FR_WEIGHTS_ON_THE_FLY },
                  { "async-table", SPR_CUDA_MAP_ASYNC, FR_WEIGHTS_TABLE },
                };
                for (size_t a = 0; a < sizeof mw / sizeof mw[0]; a++)
                  {
                    vs[nv].name = mw[a].name;
                    vs[nv].tune.map = mw[a].map;
                    vs[nv++].weights = mw[a].w;
                  }
              }
              vs[nv].name = "row-scan";
              vs[nv++].tune.row_scan = true;
              vs[nv].name = "delta=1";
              vs[nv++].tune.delta_scale = 1.0;
              vs[nv].name = "delta=4";
              vs[nv++].tune.delta_scale = 4.0;
              vs[nv].name = "delta=inf";
              vs[nv++].tune.delta_scale = -1.0;
              vs[nv].name = "launch/pass";
              vs[nv++].tune.batch = 1;
              vs[nv].name = "pinned";
              vs[nv++].tune.pinned = true;
              vs[nv].name = "generic";
              vs[nv++].tune.force_generic = true;
              vs[nv].name = "scan";
              vs[nv++].tune.map = SPR_CUDA_MAP_SCAN;
              vs[nv].name = "wide";
              vs[nv++].tune.map = SPR_CUDA_MAP_WIDE;
              vs[nv].name = "inplace";
              vs[nv++].tune.sweep = SPR_CUDA_SWEEP_INPLACE;
              vs[nv].name = "jacobi";
              vs[nv++].tune.sweep = SPR_CUDA_SWEEP_JACOBI;
              vs[nv].name = "wide+ip";
              vs[nv].tune.map = SPR_CUDA_MAP_WIDE;
              vs[nv++].tune.sweep = SPR_CUDA_SWEEP_INPLACE;
              vs[nv].name = "wide-d1";
              vs[nv].tune.map = SPR_CUDA_MAP_WIDE;
              vs[nv++].tune.delta_scale = 1.0;
              vs[nv].name = "wide-d4";
              vs[nv].tune.map = SPR_CUDA_MAP_WIDE;
              vs[nv++].tune.delta_scale = 4.0;
              vs[nv].name = "wide+ip-d1";
              vs[nv].tune.map = SPR_CUDA_MAP_WIDE;
              vs[nv].tune.sweep = SPR_CUDA_SWEEP_INPLACE;
              vs[nv++].tune.delta_scale = 1.0;
              vs[nv].name = "wide+ip-d4";
              vs[nv].tune.map = SPR_CUDA_MAP_WIDE;
              vs[nv].tune.sweep = SPR_CUDA_SWEEP_INPLACE;
              vs[nv++].tune.delta_scale = 4.0;
              vs[nv].name = "wide+ip-i16";
              vs[nv].tune.map = SPR_CUDA_MAP_WIDE;
              vs[nv].tune.sweep = SPR_CUDA_SWEEP_INPLACE;
              vs[nv++].tune.inner_max = 16;
              vs[nv].name = "wide+ip-i256";
              vs[nv].tune.map = SPR_CUDA_MAP_WIDE;
              vs[nv].tune.sweep = SPR_CUDA_SWEEP_INPLACE;
              vs[nv++].tune.inner_max = 256;
              vs[nv].name = "legacy";   /* the first design: SCAN map, cap 64 */
              vs[nv].tune.map = SPR_CUDA_MAP_SCAN;
              vs[nv++].tune.inner_max = 64;
              {
                static const int caps[] = { 8, 12, 16, 24, 32, 64 };
                static const char *cnames[] = { "wide-i8", "wide-i12", "wide-i16", "wide-i24",
                                                "wide-i32", "wide-i64" };
                for (int c = 0; c < 6; c++)
                  {
                    vs[nv].name = cnames[c];
                    vs[nv].tune.map = SPR_CUDA_MAP_WIDE;
                    vs[nv++].tune.inner_max = caps[c];
                  }
              }
              vs[nv].name = "wide-d4-i16";
              vs[nv].tune.map = SPR_CUDA_MAP_WIDE;
              vs[nv].tune.delta_scale = 4.0;
              vs[nv++].tune.inner_max = 16;
              vs[nv].name = "wide-d3-i12";
              vs[nv].tune.map = SPR_CUDA_MAP_WIDE;
              vs[nv].tune.delta_scale = 3.0;
              vs[nv++].tune.inner_max = 12;
              vs[nv].name = "wide-dinf";
              vs[nv].tune.map = SPR_CUDA_MAP_WIDE;
              vs[nv++].tune.delta_scale = -1.0;
              {
                /* The asynchronous queue (no grid barrier), with its knobs. */
                static const struct {
                  const char *name;
                  double delta;
                  int cap, sweep;
                  double raise;
                } as[] = {
                  { "async", 0.0, 0, 0, 0.0 },        { "async-d1", 1.0, 0, 0, 0.0 },
                  { "async-d4", 4.0, 0, 0, 0.0 },     { "async-d8", 8.0, 0, 0, 0.0 },
                  { "async-d16", 16.0, 0, 0, 0.0 },   { "async-dinf", -1.0, 0, 0, 0.0 },
                  { "async-i8", 0.0, 8, 0, 0.0 },     { "async-i32", 0.0, 32, 0, 0.0 },
                  { "async-d8-i32", 8.0, 32, 0, 0.0 },
                  { "async+ip", 0.0, 0, SPR_CUDA_SWEEP_INPLACE, 0.0 },
                  /* raising the bucket bound early while blocks are idle */
                  { "async-r0", 0.0, 0, 0, -1.0 },    { "async-r25", 0.0, 0, 0, 0.25 },
                  { "async-r50", 0.0, 0, 0, 0.5 },    { "async-r100", 0.0, 0, 0, 1.0 },
                  { "async-d2-r50", 2.0, 0, 0, 0.5 }, { "async-d2-r100", 2.0, 0, 0, 1.0 },
                  { "async-d4-r50", 4.0, 0, 0, 0.5 }, { "async-d4-r100", 4.0, 0, 0, 1.0 },
                  { "async-d16-r50", 16.0, 0, 0, 0.5 },
                  { "async-r50-i32", 0.0, 32, 0, 0.5 }, { "async-r50-i8", 0.0, 8, 0, 0.5 },
                  { "async-r50-ip", 0.0, 0, SPR_CUDA_SWEEP_INPLACE, 0.5 },
                  { "async-r50-scan", 0.0, 0, 0, 0.5 },
                  { "async-d12-r50", 12.0, 0, 0, 0.5 }, { "async-d12-r100", 12.0, 0, 0, 1.0 },
                  { "async-d16-r100", 16.0, 0, 0, 1.0 },
                };
                for (size_t a = 0; a < sizeof as / sizeof as[0]; a++)
                  {
                    vs[nv].name = as[a].name;
                    vs[nv].tune.map = SPR_CUDA_MAP_ASYNC;
                    vs[nv].tune.delta_scale = as[a].delta;
                    vs[nv].tune.inner_max = as[a].cap;
                    vs[nv].tune.raise_below = as[a].raise;
                    vs[nv].tune.row_scan = strstr (as[a].name, "-scan") != NULL;
                    vs[nv++].tune.sweep = as[a].sweep;
                  }
              }
              for (int k = 0; k < nv; k++)
                {
                  int runs = o.runs;
                  if (o.only != NULL)
                    {
                      /* whole names in a comma-separated list */
                      const char *q = o.only;
                      size_t len = strlen (vs[k].name);
                      bool hit = false;
                      while (q != NULL && *q != '\0')
                        {
                          const char *e = strchr (q, ',');
                          size_t ql = e != NULL ? (size_t) (e - q) : strlen (q);
                          if (ql == len && strncmp (q, vs[k].name, len) == 0)
                            hit = true;
                          q = e != NULL ? e + 1 : NULL;
                        }
                      if (!hit)
                        continue;
                    }
                  if (strcmp (vs[k].name, "inner=1") == 0 || strcmp (vs[k].name, "generic") == 0
                      || strcmp (vs[k].name, "inner=4") == 0)
                    runs = runs < 3 ? runs : 3;
                  if (run_cuda (&g, v, src, &st, r, &vs[k].tune, vs[k].weights, runs, &res,
                                &rep) != 0)
                    return 1;
                  const double eps = (double) res.edges_relaxed / (rep.device_ms * 1e-3);
                  printf ("%5d %2d %-13s %9.3f %9.3f %9.3f %6ld %6ld %7ld %7d %4d %9.3g %7.1f\n",
                          n, r, vs[k].name, rep.device_ms, rep.total_ms, rep.passes_ms,
                          rep.passes, rep.raises, rep.activations, rep.launches, rep.nw, eps,
                          (double) res.edges_relaxed / ((double) n * n * st.noffsets));
                  fprintf (csv, "%d,%d,%s,%.4f,%.4f,%.4f,%ld,%d,%d,%dx%d,%llu,%.4g,,,,,\n", n, r,
                           vs[k].name, rep.device_ms, rep.total_ms, rep.passes_ms, rep.passes,
                           rep.launches, rep.nw, rep.tile_x, rep.tile_z,
                           (unsigned long long) res.edges_relaxed, eps);
                  if (o.phases)
                    {
                      /* One more solve with the phase timers (their atomics
                       * cost a little, so not in the timed runs). */
                      spr_cuda_tune tp = vs[k].tune;
                      spr_cuda_report pr;
                      tp.phases = true;
                      if (run_cuda (&g, v, src, &st, r, &tp, vs[k].weights, 1, &res, &pr) != 0)
                        return 1;
                      printf ("         phases, ms per block: other %.3f  load %.3f  first %.3f  "
                              "iterate %.3f  finish %.3f  wake %.3f  (device %.3f)\n",
                              pr.phase_ms[0], pr.phase_ms[1], pr.phase_ms[2], pr.phase_ms[3],
                              pr.phase_ms[4], pr.phase_ms[5], pr.device_ms);
                      /* Where the call's time beyond the device goes (one solve). */
                      printf ("         host, ms: set-up %.3f (allocations, uploads, launches)  "
                              "copies back %.3f  whole call %.3f\n",
                              pr.setup_ms, pr.download_ms, pr.total_ms);
                    }
                  fflush (stdout);
                }
              spr_stencils_clear (&st);
              continue;
            }

          if (o.dijkstra && n <= o.dijkstra_max)
            {
              fr_spr_params p;
              fr_spr_result dr;
              fr_spr_params_init (&p);
              p.rx = p.rz = r;
              p.backend = FR_SPR_DIJKSTRA;
              if (fr_spr_solve (&g, v, src_xz, 1, &p, &dr, &err) != FR_OK)
                {
                  fprintf (stderr, "bench-spr-cuda: %s\n", err.message);
                  return 1;
                }
              dijk_ms = dr.solve_ms;
              ref = dr.time;
              dr.time = NULL;
              fr_spr_result_clear (&dr);
            }
          if (o.cpu)
            {
              double ms[8];
              int runs = n >= 1024 ? 2 : 3;
              for (int k = 0; k < runs; k++)
                {
                  fr_spr_params p;
                  fr_spr_result cr;
                  fr_spr_params_init (&p);
                  p.rx = p.rz = r;
                  p.backend = FR_SPR_CPU;
                  if (fr_spr_solve (&g, v, src_xz, 1, &p, &cr, &err) != FR_OK)
                    {
                      fprintf (stderr, "bench-spr-cuda: %s\n", err.message);
                      return 1;
                    }
                  ms[k] = cr.solve_ms;
                  fr_spr_result_clear (&cr);
                }
              cpu_ms = median (ms, runs);
            }
          if (o.cuda)
            {
              spr_cuda_tune_init (&t);
              t.delta_scale = o.delta;
              t.map = o.map;
              t.sweep = o.sweep;
              if (run_cuda (&g, v, src, &st, r, &t, FR_WEIGHTS_AUTO, o.runs, &res, &rep) != 0)
                return 1;
              if (ref != NULL)
                mrel = max_rel (ref, res.time, nn);
              const double eps = (double) res.edges_relaxed / (rep.device_ms * 1e-3);
              printf ("%5d %2d %9.3f %9.3f %6ld %9.3g %10.1f %9.2f %9.0f %9.1f %8.1e\n", n, r,
                      rep.device_ms, rep.total_ms, rep.passes, eps, dijk_ms, cpu_ms,
                      dijk_ms / rep.device_ms, cpu_ms / rep.device_ms, mrel);
              fprintf (csv, "%d,%d,default,%.4f,%.4f,%.4f,%ld,%d,%d,%dx%d,%llu,%.4g,%.3f,%.3f,"
                            "%.1f,%.2f,%.3g\n", n, r, rep.device_ms, rep.total_ms,
                       rep.passes_ms, rep.passes, rep.launches, rep.nw, rep.tile_x, rep.tile_z,
                       (unsigned long long) res.edges_relaxed, eps, dijk_ms, cpu_ms,
                       dijk_ms / rep.device_ms, cpu_ms / rep.device_ms, mrel);
              fflush (stdout);
              fflush (csv);
            }
          free (ref);
          spr_stencils_clear (&st);
        }
      free (res.time);
      free (res.pred);
      free (v);
    }
  fclose (csv);
  return 0;
}
