/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `foldray-cli fold`: front propagation F|∇T| + ψa·∇T = 1 on a 2D or 3D
 * grid, from point sources, a boundary grid or (2D) a horizon polyline;
 * writes T (and the rays and times at the receivers).
 *
 * As in `spr`: every input is checked before the solve, so a usage error
 * costs nothing and names the flag or file at fault, and the outputs are
 * written only once everything is computed, all or none. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli-common.h"
#include "cli-output.h"
#include "fr-array.h"
#include "fr-atomic-file.h"
#include "fr-csv.h"
#include "fr-fold.h"
#include "fr-npy.h"
#include "fr-time-check.h"

#define FOLD_CLI_SHAPE_MAX 1000000L
/* fold.c's bound on a constant speed, just under FLT_MAX. */
#define FOLD_CLI_SPEED_MAX 3.0e38

enum {
  O_SPEED, O_SPEED_CONST, O_SHAPE, O_SPACING, O_ORIGIN, O_PSI_A, O_SOURCE, O_BOUNDARY,
  O_HORIZON, O_METHOD, O_BACKEND, O_PRECISION, O_OUT, O_RECEIVERS, O_RAYS_OUT, O_TIMES_OUT, O_STATS,
  O_COUNT
};

static void
usage (void)
{
  puts ("Usage: foldray-cli fold (--speed F.npy | --speed-const F --shape NX,NZ|NX,NY,NZ)\n"
        "                        --spacing D[,...] [--origin ...] [--psi-a AX,AZ | --psi-a AX,AY,AZ]\n"
        "                        (--source X,Z[,..] ... | --boundary B.npy | --horizon H.csv)\n"
        "                        [--method las|solas] [--backend auto|cpu|cuda]\n"
        "                        [--precision single|double] --out T.npy\n"
        "                        [--receivers R.csv [--rays-out RAYS.csv] [--times-out TIMES.csv]]\n"
        "                        [--stats]\n"
        "       foldray-cli fold --scene S.json [any of the flags above, which override it]\n"
        "\n"
        "Solves F|grad T| + psi_a . grad T = 1 on a 2D grid of shape (nz, nx) or a 3D grid\n"
        "of shape (nz, ny, nx).  Speed 0 marks an impermeable cell; |psi_a| < F wherever\n"
        "F > 0.  Sources may lie anywhere inside the grid.  B.npy has the grid's shape:\n"
        "finite values are fixed start values, NaN elsewhere.  H.csv (2D) is a horizon\n"
        "polyline with the header x,z; the front grows to both sides of it.  --spacing and\n"
        "--origin list x,z (2D) or x,y,z (3D); one spacing stands for all axes.\n"
        "T.npy is float32 unless --precision double; unreached nodes hold +inf.  Rays\n"
        "run from the start to each receiver.  TIMES.csv lists each receiver of R.csv\n"
        "with its time, T linear between the nodes round it (receiver,x,z,t or\n"
        "receiver,x,y,z,t; inf where the front never reaches it; beside an unreached node,\n"
        "T at the nearest node).  --stats prints one JSON object on stdout.\n"
        "A note on stderr says where the times are far less accurate than usual: |psi_a|\n"
        "above 0.95 F, or B.npy values too large for single precision to add a step to.\n"
        "--scene takes the grid and speed (F = 1 where the scene names none), the fold\n"
        "horizon (else the sources), psi_a, method and back end from a scene saved by the\n"
        "app, and with --rays-out or --times-out its fold characteristic points (else its\n"
        "receivers) as the receivers.");
}

typedef struct fold_job {
  /* inputs */
  const char *speed_path, *boundary_path, *horizon_path, *out_path, *receivers_path, *rays_path;
  const char *times_path;
  const char *speed_const_text, *spacing_text;
  double speed_const;
  long shape[3];
  int shape_n;                /* 0 without --shape */
  double spacing[3], origin[3];
  int spacing_n, origin_n, psi_n;
  double psi[3];
  double *sources;            /* 3 per source as given (2 or 3 used) */
  int *source_n;
  size_t nsrc;
  fr_fold_params params;
  bool stats;
  /* loaded and computed */
  int ndim;
  fr_grid grid;
  fr_array speed;
  float *speed_f32;           /* speed's data, or a checked, converted copy */
  bool speed_owned;
  fr_array boundary;
  double *boundary_f64;
  fr_points horizon;
  double *src_flat;           /* ndim per source */
  fr_points receivers;
  fr_fold_result result;
  cli_rays rays;
} fold_job;

static void
fold_job_clear (void *state)
{
  fold_job *job = state;
  free (job->sources);
  free (job->source_n);
  free (job->src_flat);
  if (job->speed_owned)
    free (job->speed_f32);
  fr_array_clear (&job->speed);
  fr_array_clear (&job->boundary);
  free (job->boundary_f64);
  fr_points_clear (&job->horizon);
  fr_points_clear (&job->receivers);
  fr_fold_result_clear (&job->result);
  cli_rays_clear (&job->rays);
}

/* Options to job; every failure here is bad usage (exit 2). */
static int
parse_job (cli_option *o, void *state)
{
  fold_job *job = state;
  double v[3];
  int n, status;

  if (o[O_SPEED].count == 0 && o[O_SPEED_CONST].count == 0)
    return cli_fail (CLI_EXIT_USAGE, "missing --speed or --speed-const (try foldray-cli fold --help)");
  if (o[O_SPEED].count > 0 && o[O_SPEED_CONST].count > 0)
    return cli_fail (CLI_EXIT_USAGE, "--speed and --speed-const exclude each other");
  if (o[O_SPEED_CONST].count > 0 && o[O_SHAPE].count == 0)
    return cli_fail (CLI_EXIT_USAGE, "--speed-const needs --shape NX,NZ or NX,NY,NZ");
  if (o[O_SPEED].count > 0 && o[O_SHAPE].count > 0)
    return cli_fail (CLI_EXIT_USAGE, "--shape goes with --speed-const; --speed takes its shape from the file");
  if (o[O_SPACING].count == 0)
    return cli_fail (CLI_EXIT_USAGE, "missing --spacing (try foldray-cli fold --help)");
  if (o[O_OUT].count == 0)
    return cli_fail (CLI_EXIT_USAGE, "missing --out (try foldray-cli fold --help)");
  if (o[O_SOURCE].count == 0 && o[O_BOUNDARY].count == 0 && o[O_HORIZON].count == 0)
    return cli_fail (CLI_EXIT_USAGE, "missing a start: --source, --boundary or --horizon");
  if ((status = cli_check_receiver_flags (&o[O_RECEIVERS], &o[O_RAYS_OUT], &o[O_TIMES_OUT], NULL))
      != CLI_EXIT_OK)
    return status;

  job->speed_path = cli_value (&o[O_SPEED]);
  job->boundary_path = cli_value (&o[O_BOUNDARY]);
  job->horizon_path = cli_value (&o[O_HORIZON]);
  job->out_path = cli_value (&o[O_OUT]);
  job->receivers_path = cli_value (&o[O_RECEIVERS]);
  job->rays_path = cli_value (&o[O_RAYS_OUT]);
  job->times_path = cli_value (&o[O_TIMES_OUT]);
  job->stats = o[O_STATS].count > 0;

  if (o[O_SPEED_CONST].count > 0)
    {
      const char *text = cli_value (&o[O_SPEED_CONST]);
      if (!cli_parse_numbers ("--speed-const", text, v, 1, 1, &n))
        return CLI_EXIT_USAGE;
      if (!(v[0] > 0.0))
        return cli_fail (CLI_EXIT_USAGE, "--speed-const '%s': the speed must be positive", text);
      /* The solver takes speeds as float32: one that rounds to 0 there
       * would be an obstacle everywhere. */
      if (!((float) v[0] > 0.0f) || v[0] > FOLD_CLI_SPEED_MAX)
        return cli_fail (CLI_EXIT_USAGE, "--speed-const '%s': outside the supported range of "
                         "speeds (%.2g to %.2g, single precision)", text, (double) FLT_TRUE_MIN,
                         FOLD_CLI_SPEED_MAX);
      job->speed_const = v[0];
      job->speed_const_text = text;
      if (!cli_parse_counts ("--shape", cli_value (&o[O_SHAPE]), job->shape, 2, 3, &job->shape_n,
                             FOLD_CLI_SHAPE_MAX))
        return CLI_EXIT_USAGE;
    }
  job->spacing_text = cli_value (&o[O_SPACING]);
  if (!cli_parse_numbers ("--spacing", job->spacing_text, job->spacing, 1, 3, &job->spacing_n))
    return CLI_EXIT_USAGE;
  for (int a = 0; a < job->spacing_n; a++)
    if (!(job->spacing[a] > 0.0))
      return cli_fail (CLI_EXIT_USAGE, "--spacing '%s': spacing must be positive",
                       cli_value (&o[O_SPACING]));
  if (o[O_ORIGIN].count > 0
      && !cli_parse_numbers ("--origin", cli_value (&o[O_ORIGIN]), job->origin, 2, 3, &job->origin_n))
    return CLI_EXIT_USAGE;
  if (o[O_PSI_A].count > 0
      && !cli_parse_numbers ("--psi-a", cli_value (&o[O_PSI_A]), job->psi, 2, 3, &job->psi_n))
    return CLI_EXIT_USAGE;

  job->nsrc = (size_t) o[O_SOURCE].count;
  if (job->nsrc > 0)
    {
      job->sources = calloc (3 * job->nsrc, sizeof *job->sources);
      job->source_n = calloc (job->nsrc, sizeof *job->source_n);
      if (job->sources == NULL || job->source_n == NULL)
        return cli_fail (CLI_EXIT_FAILURE, "out of memory");
    }
  for (size_t s = 0; s < job->nsrc; s++)
    if (!cli_parse_numbers ("--source", o[O_SOURCE].values[s], job->sources + 3 * s, 2, 3,
                            &job->source_n[s]))
      return CLI_EXIT_USAGE;

  if (o[O_METHOD].count > 0)
    {
      const char *m = cli_value (&o[O_METHOD]);
      if (!fr_fold_method_from_name (m, &job->params.method))
        return cli_fail (CLI_EXIT_USAGE, "--method '%s': expected las or solas", m);
    }
  if (o[O_BACKEND].count > 0
      && !fr_fold_backend_from_name (cli_value (&o[O_BACKEND]), &job->params.backend))
    return cli_fail (CLI_EXIT_USAGE, "--backend '%s': expected auto, cpu or cuda",
                     cli_value (&o[O_BACKEND]));
  if (o[O_PRECISION].count > 0)
    {
      const char *p = cli_value (&o[O_PRECISION]);
      if (strcmp (p, "single") == 0)
        job->params.double_precision = false;
      else if (strcmp (p, "double") == 0)
        job->params.double_precision = true;
      else
        return cli_fail (CLI_EXIT_USAGE, "--precision '%s': expected single or double", p);
    }
  return cli_check_outputs_distinct (&(cli_output_paths) { job->out_path, job->rays_path,
                                                            job->times_path });
}

static int
check_paths (const fold_job *job)
{
  static const struct { size_t off; const char *flag; bool input; } paths[] = {
    { offsetof (fold_job, speed_path), "--speed", true },
    { offsetof (fold_job, boundary_path), "--boundary", true },
    { offsetof (fold_job, horizon_path), "--horizon", true },
    { offsetof (fold_job, receivers_path), "--receivers", true },
    { offsetof (fold_job, out_path), "--out", false },
    { offsetof (fold_job, rays_path), "--rays-out", false },
    { offsetof (fold_job, times_path), "--times-out", false },
  };
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
    {
      const char *path = *(const char *const *) ((const char *) job + paths[i].off);
      int status;
      if (path == NULL)
        continue;
      status = paths[i].input ? cli_check_input (paths[i].flag, path)
                              : cli_check_output (paths[i].flag, path);
      if (status != CLI_EXIT_OK)
        return status;
    }
  /* No output may replace an input. */
  for (size_t o = 0; o < sizeof paths / sizeof paths[0]; o++)
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
      {
        const char *out = *(const char *const *) ((const char *) job + paths[o].off);
        const char *in = *(const char *const *) ((const char *) job + paths[i].off);
        int status;

        if (!paths[o].input && paths[i].input
            && (status = cli_check_not_input (paths[o].flag, out, paths[i].flag, in)) != CLI_EXIT_OK)
          return status;
      }
  return CLI_EXIT_OK;
}

/* Grid from the speed file or --shape, then spacing and origin. */
static int
build_grid (fold_job *job)
{
  fr_error err = { 0 };
  size_t nx, ny = 1, nz;

  if (job->speed_path != NULL)
    {
      const fr_array *a = &job->speed;
      if (fr_npy_read (job->speed_path, &job->speed, &err) != FR_OK)
        return cli_fail_error (&err, job->speed_path);
      if (a->ndim != 2 && a->ndim != 3)
        return cli_fail (CLI_EXIT_USAGE, "%s: fold needs a 2D (nz, nx) or 3D (nz, ny, nx) speed grid; "
                         "this one has %d dimension%s", job->speed_path, a->ndim, a->ndim == 1 ? "" : "s");
      job->ndim = a->ndim;
      nz = a->shape[0];
      ny = a->ndim == 3 ? a->shape[1] : 1;
      nx = a->shape[a->ndim - 1];
    }
  else
    {
      job->ndim = job->shape_n;
      nx = (size_t) job->shape[0];
      ny = job->ndim == 3 ? (size_t) job->shape[1] : 1;
      nz = (size_t) job->shape[job->ndim - 1];
    }

  const int nd = job->ndim;
  if (job->spacing_n != 1 && job->spacing_n != nd)
    return cli_fail (CLI_EXIT_USAGE, "--spacing: give one spacing or %d (%s) for this %dD grid",
                     nd, nd == 3 ? "x,y,z" : "x,z", nd);
  if (job->origin_n != 0 && job->origin_n != nd)
    return cli_fail (CLI_EXIT_USAGE, "--origin: give %d numbers (%s) for this %dD grid", nd,
                     nd == 3 ? "x,y,z" : "x,z", nd);
  if (job->psi_n != 0 && job->psi_n != nd)
    return cli_fail (CLI_EXIT_USAGE, "--psi-a: give %d components (%s) for this %dD grid", nd,
                     nd == 3 ? "AX,AY,AZ" : "AX,AZ", nd);
  double d[3] = { 0, 0, 0 }, o[3] = { 0, 0, 0 };
  for (int a = 0; a < nd; a++)
    {
      d[a] = job->spacing_n == 1 ? job->spacing[0] : job->spacing[a];
      if (job->origin_n)
        o[a] = job->origin[a];
    }
  if (nd == 3)
    job->grid = fr_grid_3d (nx, ny, nz, d[0], d[1], d[2], o[0], o[1], o[2]);
  else
    job->grid = fr_grid_2d (nx, nz, d[0], d[1], o[0], o[1]);
  if (fr_grid_check (&job->grid, &err) != FR_OK)
    return cli_fail_error (&err, cli_grid_context (&err, job->speed_path ? job->speed_path
                                                                         : "--shape"));

  job->params.psi_a[0] = job->psi[0];
  job->params.psi_a[1] = nd == 3 ? job->psi[1] : 0.0;
  job->params.psi_a[2] = nd == 3 ? job->psi[2] : job->psi[1];

  if (job->speed_path != NULL)
    {
      /* float64 is checked before it is narrowed to the solver's float32. */
      if (fr_array_speed_f32 (&job->speed, &job->grid, job->speed_path, &job->speed_f32,
                              &job->speed_owned, &err) != FR_OK)
        return cli_fail_error (&err, job->speed_path);
      job->params.speed = job->speed_f32;
    }
  else
    job->params.speed_const = job->speed_const;
  return CLI_EXIT_OK;
}

/* A start value that float32 cannot hold would be written as +inf, the
 * mark of an unreached node. */
static int
check_boundary_range (const fold_job *job)
{
  const fr_grid *g = &job->grid;
  const double *b = job->boundary_f64;

  if (job->params.double_precision)
    return CLI_EXIT_OK;
  for (size_t i = 0; i < fr_grid_count (g); i++)
    {
      if (!isfinite (b[i]) || isfinite ((float) b[i]))
        continue;
      size_t ix = i % g->nx, iy = (i / g->nx) % g->ny, iz = i / (g->nx * g->ny);
      char node[96];
      if (g->ndim == 3)
        snprintf (node, sizeof node, "ix=%zu, iy=%zu, iz=%zu", ix, iy, iz);
      else
        snprintf (node, sizeof node, "ix=%zu, iz=%zu", ix, iz);
      return cli_fail (CLI_EXIT_USAGE, "%s holds %g at node (%s), beyond single precision's "
                       "range (largest %.2g): use --precision double", job->boundary_path, b[i],
                       node, (double) FLT_MAX);
    }
  return CLI_EXIT_OK;
}

static void
grid_extent (const fr_grid *g, char *buf, size_t size)
{
  if (g->ndim == 3)
    snprintf (buf, size, "x from %g to %g, y from %g to %g, z from %g to %g", g->x0,
              g->x0 + (double) (g->nx - 1) * g->dx, g->y0, g->y0 + (double) (g->ny - 1) * g->dy,
              g->z0, g->z0 + (double) (g->nz - 1) * g->dz);
  else
    snprintf (buf, size, "x from %g to %g, z from %g to %g", g->x0,
              g->x0 + (double) (g->nx - 1) * g->dx, g->z0, g->z0 + (double) (g->nz - 1) * g->dz);
}

/* Sources, boundary, horizon and receivers against the grid. */
static int
load_starts (fold_job *job)
{
  const fr_grid *g = &job->grid;
  const int nd = job->ndim;
  char extent[200];
  fr_error err = { 0 };

  grid_extent (g, extent, sizeof extent);
  if (job->nsrc > 0)
    {
      job->src_flat = malloc (job->nsrc * (size_t) nd * sizeof *job->src_flat);
      if (job->src_flat == NULL)
        return cli_fail (CLI_EXIT_FAILURE, "out of memory");
    }
  for (size_t s = 0; s < job->nsrc; s++)
    {
      const double *v = job->sources + 3 * s;
      if (job->source_n[s] != nd)
        return cli_fail (CLI_EXIT_USAGE, "--source %g,%g%s: this %dD grid needs %s", v[0], v[1],
                         job->source_n[s] == 3 ? ",..." : "", nd, nd == 3 ? "X,Y,Z" : "X,Z");
      double x = v[0], y = nd == 3 ? v[1] : 0.0, z = v[nd - 1];
      if (!fr_grid_contains (g, x, y, z))
        {
          if (nd == 3)
            return cli_fail (CLI_EXIT_USAGE, "--source %.15g,%.15g,%.15g lies outside the grid (%s)", x, y, z, extent);
          return cli_fail (CLI_EXIT_USAGE, "--source %.15g,%.15g lies outside the grid (%s)", x, z, extent);
        }
      for (int a = 0; a < nd; a++)
        job->src_flat[s * (size_t) nd + (size_t) a] = v[a];
    }

  if (job->boundary_path != NULL)
    {
      const fr_array *b = &job->boundary;
      if (fr_npy_read (job->boundary_path, &job->boundary, &err) != FR_OK)
        return cli_fail_error (&err, job->boundary_path);
      bool same = b->ndim == nd && b->shape[0] == g->nz
                  && (nd == 2 ? b->shape[1] == g->nx : b->shape[1] == g->ny && b->shape[2] == g->nx);
      if (!same)
        {
          /* Both shapes, in numpy's order, so that the fix can be seen. */
          char has[96], want[96];
          if (b->ndim == 3)
            snprintf (has, sizeof has, "(%zu, %zu, %zu)", b->shape[0], b->shape[1], b->shape[2]);
          else if (b->ndim == 2)
            snprintf (has, sizeof has, "(%zu, %zu)", b->shape[0], b->shape[1]);
          else
            snprintf (has, sizeof has, "(%zu,)", b->shape[0]);
          if (nd == 3)
            snprintf (want, sizeof want, "(%zu, %zu, %zu)", g->nz, g->ny, g->nx);
          else
            snprintf (want, sizeof want, "(%zu, %zu)", g->nz, g->nx);
          return cli_fail (CLI_EXIT_USAGE, "%s: its shape %s differs from the grid's %s (%s)",
                           job->boundary_path, has, want, nd == 3 ? "nz, ny, nx" : "nz, nx");
        }
      if (fr_array_to_f64 (b, &job->boundary_f64, &err) != FR_OK)
        return cli_fail_error (&err, job->boundary_path);
      int status = check_boundary_range (job);
      if (status != CLI_EXIT_OK)
        return status;
    }

  if (job->horizon_path != NULL)
    {
      if (nd != 2)
        return cli_fail (CLI_EXIT_USAGE, "--horizon is for 2D grids; give a 3D start surface with --boundary");
      if (fr_csv_read_points (job->horizon_path, &job->horizon, &err) != FR_OK)
        return cli_fail_error (&err, job->horizon_path);
      if (job->horizon.ndim != 2)
        return cli_fail (CLI_EXIT_USAGE, "%s: line 1: a horizon is 2D; expected the header x,z",
                         job->horizon_path);
      if (job->horizon.count < 2)
        return cli_fail (CLI_EXIT_USAGE, "%s: a horizon needs at least 2 points", job->horizon_path);
    }

  if (job->receivers_path == NULL)
    return CLI_EXIT_OK;
  if (fr_csv_read_points (job->receivers_path, &job->receivers, &err) != FR_OK)
    return cli_fail_error (&err, job->receivers_path);
  if (job->receivers.ndim != nd)
    return cli_fail (CLI_EXIT_USAGE, "%s: line 1: this grid is %dD; expected the header %s",
                     job->receivers_path, nd, nd == 3 ? "x,y,z" : "x,z");
  for (size_t k = 0; k < job->receivers.count; k++)
    {
      const double *p = job->receivers.xyz + k * (size_t) nd;
      if (!fr_grid_contains (g, p[0], nd == 3 ? p[1] : 0.0, p[nd - 1]))
        {
          /* The receiver itself, as spr names it. */
          if (nd == 3)
            return cli_fail (CLI_EXIT_USAGE, "%s: line %zu: receiver %.15g,%.15g,%.15g lies outside "
                             "the grid (%s)", job->receivers_path, k + 2, p[0], p[1], p[2], extent);
          return cli_fail (CLI_EXIT_USAGE, "%s: line %zu: receiver %.15g,%.15g lies outside the grid "
                           "(%s)", job->receivers_path, k + 2, p[0], p[1], extent);
        }
    }
  return CLI_EXIT_OK;
}

static int
solve (fold_job *job)
{
  fr_error err = { 0 };
  const char *context = NULL;
  fr_fold_start st = {
    .sources = job->src_flat,
    .nsrc = job->nsrc,
    .boundary = job->boundary_f64,
    .horizon = job->horizon_path ? job->horizon.xyz : NULL,
    .nhorizon = job->horizon_path ? job->horizon.count : 0,
  };

  if (fr_fold_solve (&job->grid, &st, &job->params, &job->result, &err) == FR_OK)
    return CLI_EXIT_OK;
  /* Name the flag or file at fault. */
  if (strstr (err.message, "psi_a") != NULL)
    context = "--psi-a";
  else if (strstr (err.message, "source") != NULL)
    context = "--source";
  else if (strstr (err.message, "boundary") != NULL)
    context = job->boundary_path;
  else if (strstr (err.message, "horizon") != NULL)
    context = job->horizon_path;
  else if (strstr (err.message, "speed") != NULL)
    context = job->speed_path ? job->speed_path : "--speed-const";
  else if (err.code == FR_E_UNSUPPORTED || err.code == FR_E_DEVICE)
    context = "--backend";
  return cli_fail_error (&err, context);
}

/* Times beyond the output precision would be written as +inf, which
 * means unreached: refused, outside the timed solve.  A constant speed
 * leaves every node free. */
static int
check_times (const fold_job *job)
{
  fr_error err = { 0 };
  char speeds[64];

  if (fr_time_check_range (&job->grid, job->result.time, job->params.speed,
                           !job->params.double_precision, &err) == FR_OK)
    return CLI_EXIT_OK;
  if (job->speed_path == NULL)
    snprintf (speeds, sizeof speeds, "--speed-const %s", job->speed_const_text);
  return cli_fail_time_range (&err, job->spacing_text,
                              job->speed_path != NULL ? job->speed_path : speeds,
                              job->params.double_precision);
}

/* fr_fold_ray as cli_trace_receivers takes it. */
static fr_status
fold_ray (const void *result, const double *p, double **pts, size_t *n, fr_error *err)
{
  return fr_fold_ray (result, p, pts, n, err);
}

/* All or nothing: see cli-output.h. */
static int
write_outputs (void *state, cli_outputs *out)
{
  fold_job *job = state;

  const cli_solution solution = {
    &job->grid, job->result.time, job->params.double_precision, job->ndim, &job->receivers,
    &job->rays,
  };

  return cli_stage_outputs (&solution,
                            &(cli_output_paths) { job->out_path, job->rays_path, job->times_path },
                            out);
}

static void
print_stats (const fold_job *job)
{
  const fr_fold_result *r = &job->result;
  const fr_grid *g = &job->grid;

  printf ("{\"backend\": \"%s\", \"solve_ms\": %.3f, \"iterations\": %ld, \"method\": \"%s\", "
          "\"schedules\": %ld, \"subdomain_sweeps\": %llu, \"subdomains\": %zu, "
          "\"sweeps_per_subdomain\": %.3f, \"block\": %d, \"threads\": %d, "
          "\"device_ms\": %.3f, \"host_round_trips\": %ld, \"start_ms\": %.3f, "
          "\"setup_ms\": %.3f, \"results_ms\": %.3f, ",
          fr_fold_backend_name (r->backend), r->solve_ms, r->iterations,
          fr_fold_method_name (r->method), r->schedules, (unsigned long long) r->subdomain_sweeps,
          r->subdomains, r->subdomains ? (double) r->subdomain_sweeps / (double) r->subdomains : 0.0,
          r->block, r->threads, r->device_ms, r->host_round_trips, r->start_ms, r->setup_ms,
          r->results_ms);
  if (g->ndim == 3)
    printf ("\"grid\": [%zu, %zu, %zu], ", g->nx, g->ny, g->nz);
  else
    printf ("\"grid\": [%zu, %zu], ", g->nx, g->nz);
  printf ("\"precision\": \"%s\", \"sources\": %zu, \"receivers\": %zu, \"notice\": ",
          r->double_precision ? "double" : "single", job->nsrc, job->receivers.count);
  cli_json_string (stdout, r->notice);
  fputs ("}\n", stdout);
}

/* The steps of cli_run_solve. */
static void
fold_set_cancel (void *job, fr_cancel *cancel)
{
  ((fold_job *) job)->params.cancel = cancel;
}

static int
fold_run (void *v)
{
  fold_job *job = v;
  int status;

  if ((status = check_paths (job)) == CLI_EXIT_OK
      && (status = build_grid (job)) == CLI_EXIT_OK
      && (status = load_starts (job)) == CLI_EXIT_OK
      && (status = solve (job)) == CLI_EXIT_OK
      && (status = check_times (job)) == CLI_EXIT_OK)
    status = cli_trace_receivers (&job->grid, job->result.time, &job->receivers, job->ndim,
                                  job->rays_path != NULL ? fold_ray : NULL, &job->result,
                                  job->times_path != NULL, CLI_TIME_INTERPOLATED,
                                  job->receivers_path, &job->rays);
  return status;
}

/* What the numbers cannot show: where the solve was well posed but its
 * times are far less accurate than usual, a note that says why. */
static void
note_accuracy (const fold_job *job)
{
  const fr_grid *g = &job->grid;
  const size_t n = fr_grid_count (g);
  const double psi = sqrt (job->params.psi_a[0] * job->params.psi_a[0]
                           + job->params.psi_a[1] * job->params.psi_a[1]
                           + job->params.psi_a[2] * job->params.psi_a[2]);
  double f_min = job->speed_const, f_max = job->speed_const, h = fmin (g->dx, g->dz);

  if (g->ndim == 3)
    h = fmin (h, g->dy);
  if (job->speed_f32 != NULL)
    {
      f_min = INFINITY, f_max = 0.0;
      for (size_t i = 0; i < n; i++)
        if (job->speed_f32[i] > 0.0f)
          {
            f_min = fmin (f_min, job->speed_f32[i]);
            f_max = fmax (f_max, job->speed_f32[i]);
          }
    }
  /* The first-order stencil's error grows like F / (F - |psi_a|)
   * (tens of percent at |psi_a| = 0.999 F on a 161² grid). */
  if (psi > 0.95 * f_min && isfinite (f_min))
    cli_note ("|psi_a| = %.3g reaches %.4g of the speed F = %.3g: this scheme's error grows like "
              "F / (F - |psi_a|), here %.0f times its size without anisotropy; keep |psi_a| at "
              "most 0.95 F, as the app does, or refine the grid", psi, psi / f_min, f_min,
              f_min / (f_min - psi));
  /* A start value so large that float32 cannot resolve one node's step on
   * top of it: the steps are rounded away (88 % of the range lost with
   * starts at 1e5 and steps of 0.003). */
  if (job->boundary_f64 != NULL && !job->params.double_precision && f_max > 0.0)
    {
      const double step = h / (f_max + psi);
      double b_max = 0.0;

      for (size_t i = 0; i < n; i++)
        if (isfinite (job->boundary_f64[i]))
          b_max = fmax (b_max, fabs (job->boundary_f64[i]));
      const double ulp = b_max * FLT_EPSILON;
      if (ulp >= step)
        cli_note ("%s starts at up to %g, where single precision keeps times only to about %.2g, "
                  "%.2g times one node's step (%.2g): use --precision double", job->boundary_path,
                  b_max, ulp, ulp / step, step);
      else if (ulp > 0.01 * step)
        cli_note ("%s starts at up to %g, where single precision keeps times only to about %.2g, "
                  "%.0f %% of one node's step (%.2g): use --precision double", job->boundary_path,
                  b_max, ulp, 100.0 * ulp / step, step);
    }
}

static void
fold_report (void *v)
{
  const fold_job *job = v;

  if (job->result.notice[0])
    cli_note ("%s", job->result.notice);
  note_accuracy (job);
  cli_note_unreached (&job->rays, "");
  if (job->stats)
    print_stats (job);
}

int
cli_fold (int argc, char **argv)
{
  static const cli_solve_command cmd = {
    usage, parse_job, fold_set_cancel, fold_run, write_outputs, fold_report, fold_job_clear,
  };
  cli_option opts[O_COUNT] = {
    [O_SPEED] = { "--speed", true, false },
    [O_SPEED_CONST] = { "--speed-const", true, false },
    [O_SHAPE] = { "--shape", true, false },
    [O_SPACING] = { "--spacing", true, false },
    [O_ORIGIN] = { "--origin", true, false },
    [O_PSI_A] = { "--psi-a", true, false },
    [O_SOURCE] = { "--source", true, true },
    [O_BOUNDARY] = { "--boundary", true, false },
    [O_HORIZON] = { "--horizon", true, false },
    [O_METHOD] = { "--method", true, false },
    [O_BACKEND] = { "--backend", true, false },
    [O_PRECISION] = { "--precision", true, false },
    [O_OUT] = { "--out", true, false },
    [O_RECEIVERS] = { "--receivers", true, false },
    [O_RAYS_OUT] = { "--rays-out", true, false },
    [O_TIMES_OUT] = { "--times-out", true, false },
    [O_STATS] = { "--stats", false, false },
  };
  fold_job job = { 0 };

  fr_fold_params_init (&job.params);
  return cli_run_solve (&cmd, argc, argv, opts, O_COUNT, &job);
}
