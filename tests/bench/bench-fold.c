/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fold solver benchmark after Gillberg et al. (2014): Ex_A, Ex_C, Ex_D and
 * a 3D fold case (a horizon surface as the boundary), on n³ grids, LAS and
 * SOLAS, single precision unless asked.  For each run: solve time (least
 * of --runs), subdomain sweeps per subdomain, schedules built, passes, and
 * the throughput per core: grid nodes / (seconds · threads).
 * Prints a table and writes CSV.  Models come from data/fold/fold-models.h.
 *
 *   bench-fold [--sizes 84,168] [--cases ex-a,ex-c,ex-d,fold3d] [--methods las,solas]
 *              [--threads N] [--runs N] [--block B] [--double] [CSV]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold-models.h"
#include "fr-device.h"
#include "fr-fold.h"

#define MAX_LIST 16

typedef struct options {
  int sizes[MAX_LIST], nsizes;
  int cases[MAX_LIST], ncases;
  fr_fold_method methods[MAX_LIST];
  int nmethods;
  int threads, runs, block;
  int dbl;
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
      if (end == s || v <= 1)
        return -1;
      out[n++] = (int) v;
      if (*end != ',' && *end != '\0')
        return -1;
      s = *end == ',' ? end + 1 : end;
    }
  return n;
}

static int
parse_names (const char *s, int *out, int is_method)
{
  int n = 0;
  char buf[256], *save = NULL;
  snprintf (buf, sizeof buf, "%s", s);
  for (char *tok = strtok_r (buf, ",", &save); tok != NULL && n < MAX_LIST;
       tok = strtok_r (NULL, ",", &save))
    {
      int found = -1;
      if (is_method)
        {
          fr_fold_method m;
          if (fr_fold_method_from_name (tok, &m) && m != FR_FOLD_METHOD_AUTO)
            found = (int) m;
        }
      else
        for (int k = 0; k < FOLD_MODEL_COUNT; k++)
          if (strcmp (tok, fold_model_names[k]) == 0)
            found = k;
      if (found < 0)
        return -1;
      out[n++] = found;
    }
  return n;
}

static int
parse_args (int argc, char **argv, options *o)
{
  o->sizes[0] = 84, o->sizes[1] = 168, o->nsizes = 2;
  o->cases[0] = FOLD_EX_A, o->cases[1] = FOLD_EX_C, o->cases[2] = FOLD_EX_D;
  o->cases[3] = FOLD_FOLD3D, o->ncases = 4;
  o->methods[0] = FR_FOLD_LAS, o->methods[1] = FR_FOLD_SOLAS, o->nmethods = 2;
  o->runs = 1;
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      int m[MAX_LIST];
      if (strcmp (a, "--sizes") == 0 && v && (o->nsizes = parse_ints (v, o->sizes)) > 0)
        i++;
      else if (strcmp (a, "--cases") == 0 && v && (o->ncases = parse_names (v, o->cases, 0)) > 0)
        i++;
      else if (strcmp (a, "--methods") == 0 && v && (o->nmethods = parse_names (v, m, 1)) > 0)
        {
          for (int k = 0; k < o->nmethods; k++)
            o->methods[k] = (fr_fold_method) m[k];
          i++;
        }
      else if (strcmp (a, "--threads") == 0 && v)
        o->threads = atoi (argv[++i]);
      else if (strcmp (a, "--runs") == 0 && v)
        o->runs = atoi (argv[++i]);
      else if (strcmp (a, "--block") == 0 && v)
        o->block = atoi (argv[++i]);
      else if (strcmp (a, "--double") == 0)
        o->dbl = 1;
      else if (a[0] != '-' && o->csv == NULL)
        o->csv = a;
      else
        {
          fprintf (stderr, "bench-fold: bad argument '%s'\n", a);
          return -1;
        }
    }
  if (o->runs < 1)
    o->runs = 1;
  return 0;
}

int
main (int argc, char **argv)
{
  options o = { 0 };
  FILE *csv = NULL;

  if (parse_args (argc, argv, &o) != 0)
    return 2;
  if (o.csv && (csv = fopen (o.csv, "w")) == NULL)
    {
      perror (o.csv);
      return 1;
    }
  int threads = o.threads > 0 ? o.threads : fr_cpu_threads ();
  printf ("# fold benchmark: %d thread%s, %s precision, block %d (0: default)\n", threads,
          threads == 1 ? "" : "s", o.dbl ? "double" : "single", o.block);
  printf ("%-7s %5s %-6s %10s %9s %9s %7s %8s %14s %9s\n", "case", "n", "method", "ms", "sweeps/sd",
          "schedules", "passes", "subdoms", "Mnode/s/core", "T max");
  if (csv)
    fprintf (csv, "case,n,method,precision,threads,block,ms,sweeps_per_subdomain,schedules,passes,"
                  "subdomains,mnodes_per_s_per_core\n");

  for (int ci = 0; ci < o.ncases; ci++)
    for (int si = 0; si < o.nsizes; si++)
      {
        fold_model m;
        size_t n = (size_t) o.sizes[si];
        if (fold_model_make (&m, (fold_model_id) o.cases[ci], n, malloc) != 0)
          {
            fprintf (stderr, "bench-fold: out of memory\n");
            return 1;
          }
        fr_grid g = fr_grid_3d (n, n, n, m.d[0], m.d[1], m.d[2], 0, 0, 0);
        double flat[13 * 3];
        for (int k = 0; k < m.nsrc; k++)
          memcpy (flat + 3 * k, m.src[k], sizeof m.src[k]);
        fr_fold_start st = { .sources = m.nsrc ? flat : NULL, .nsrc = (size_t) m.nsrc,
                             .boundary = m.boundary };
        for (int mi = 0; mi < o.nmethods; mi++)
          {
            fr_fold_params p;
            fr_fold_result res = { 0 };
            fr_error err = { 0 };
            double best = INFINITY;
            fr_fold_params_init (&p);
            p.speed = m.speed;
            p.speed_const = m.speed_const > 0 ? m.speed_const : 1.0;
            memcpy (p.psi_a, m.psi, sizeof p.psi_a);
            p.method = o.methods[mi];
            p.threads = o.threads;
            p.block = o.block;
            p.double_precision = o.dbl;
            for (int r = 0; r < o.runs; r++)
              {
                fr_fold_result_clear (&res);
                if (fr_fold_solve (&g, &st, &p, &res, &err) != FR_OK)
                  {
                    fprintf (stderr, "bench-fold: %s: %s\n", fold_model_names[o.cases[ci]], err.message);
                    return 1;
                  }
                best = fmin (best, res.solve_ms);
              }
            double tmax = 0.0;
            for (size_t i = 0; i < fr_grid_count (&g); i++)
              if (isfinite (res.time[i]))
                tmax = fmax (tmax, res.time[i]);
            double spsd = (double) res.subdomain_sweeps / (double) res.subdomains;
            double thr = (double) fr_grid_count (&g) / (best * 1e-3) / res.threads / 1e6;
            printf ("%-7s %5zu %-6s %10.1f %9.2f %9ld %7ld %8zu %14.3f %9.4f\n",
                    fold_model_names[o.cases[ci]], n, fr_fold_method_name (res.method), best, spsd,
                    res.schedules, res.iterations, res.subdomains, thr, tmax);
            fflush (stdout);
            if (csv)
              fprintf (csv, "%s,%zu,%s,%s,%d,%d,%.3f,%.4f,%ld,%ld,%zu,%.4f\n",
                       fold_model_names[o.cases[ci]], n, fr_fold_method_name (res.method),
                       o.dbl ? "double" : "single", res.threads, res.block, best, spsd, res.schedules,
                       res.iterations, res.subdomains, thr);
            fr_fold_result_clear (&res);
          }
        free (m.speed);
        free (m.boundary);
      }
  if (csv)
    fclose (csv);
  return 0;
}
