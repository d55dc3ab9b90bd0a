/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `foldray-cli spr`: read a velocity grid, solve, write T (and the rays and
 * times at the receivers).
 *
 * Every input is checked before the solve, so that a usage error costs
 * nothing and names the flag or file at fault; the outputs are written only
 * once everything is computed, and together: either all appear or none
 * (see write_outputs). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli-common.h"
#include "cli-output.h"
#include "fr-array.h"
#include "fr-atomic-file.h"
#include "fr-csv.h"
#include "fr-npy.h"
#include "fr-spr.h"
#include "fr-time-check.h"

/* Largest radius the parser lets through; the library has its own bound. */
#define SPR_CLI_RADIUS_MAX 100000L

enum {
  O_VELOCITY, O_SPACING, O_ORIGIN, O_SOURCE, O_RADIUS, O_BACKEND, O_PRECISION,
  O_OUT, O_RECEIVERS, O_RAYS_OUT, O_TIMES_OUT, O_GATHER_OUT, O_STATS, O_COUNT
};

static void
usage (void)
{
  puts ("Usage: foldray-cli spr --velocity V.npy --spacing D[,DZ] [--origin X0,Z0]\n"
        "                       --source X,Z [--source X,Z ...] --radius R[,RZ]\n"
        "                       [--backend auto|dijkstra|cpu|cuda] [--precision single|double]\n"
        "                       --out T.npy [--receivers R.csv [--rays-out RAYS.csv]\n"
        "                       [--times-out TIMES.csv] [--gather-out GATHER.csv]] [--stats]\n"
        "       foldray-cli spr --scene S.json [any of the flags above, which override it]\n"
        "\n"
        "Shortest-path ray tracing through a 2D velocity grid of shape (nz, nx).\n"
        "Coordinates are in model units; a source must lie on a node, a receiver\n"
        "is snapped to its nearest node.  T.npy is float32 unless --precision double;\n"
        "unreached nodes hold +inf.  Velocities are solved in float32 (a float64 V.npy\n"
        "is rounded to it, about 6e-8 relative); --precision double computes the\n"
        "weights and times in double (dijkstra, the reference, always does, and\n"
        "rounds T to float32 only when writing it).  --stats prints one JSON object\n"
        "on stdout.  TIMES.csv lists each receiver of R.csv with its first-arrival time,\n"
        "T at its node (receiver,x,z,t; inf where no source reaches it).  GATHER.csv\n"
        "fires each --source alone, a solve each, and lists every shot's time at every\n"
        "receiver (source,source_x,source_z,receiver,x,z,t): a shot gather, as a reversed\n"
        "refraction profile is read; T.npy and the rest stay the sources fired together.\n"
        "--scene takes the velocity grid, sources, radius and back end from a scene saved\n"
        "by the app, and with --rays-out, --times-out or --gather-out its receivers.");
}

typedef struct spr_job {
  /* inputs */
  const char *velocity_path, *out_path, *receivers_path, *rays_path, *times_path, *gather_path;
  const char *spacing_text;
  double dx, dz, x0, z0;
  double *sources;          /* 2 per source */
  size_t nsrc;
  fr_spr_params params;
  bool stats;
  /* loaded and computed */
  fr_array velocity;
  float *velocity_f32;      /* velocity's data, or a checked, converted copy */
  bool velocity_owned;
  fr_grid grid;
  fr_points receivers;
  fr_spr_result result;
  cli_rays rays;
  fr_points sources_points; /* the gather's shots: sources as points */
  double *shot_times;       /* with a gather: nsrc × receivers, each source fired alone */
  double gather_ms;         /* the gather's solves */
} spr_job;

static void
spr_job_clear (void *state)
{
  spr_job *job = state;
  free (job->sources);
  if (job->velocity_owned)
    free (job->velocity_f32);
  fr_array_clear (&job->velocity);
  fr_points_clear (&job->receivers);
  fr_spr_result_clear (&job->result);
  cli_rays_clear (&job->rays);
  free (job->shot_times);
}

/* Options to job; every failure here is bad usage (exit 2). */
static int
parse_job (cli_option *o, void *state)
{
  spr_job *job = state;
  static const struct { int id; const char *name; } required[] = {
    { O_VELOCITY, "--velocity" }, { O_SPACING, "--spacing" }, { O_SOURCE, "--source" },
    { O_RADIUS, "--radius" }, { O_OUT, "--out" },
  };
  double v[3];
  long r[2];
  int n, status;

  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
    if (o[required[i].id].count == 0)
      return cli_fail (CLI_EXIT_USAGE, "missing %s (try foldray-cli spr --help)", required[i].name);
  if ((status = cli_check_receiver_flags (&o[O_RECEIVERS], &o[O_RAYS_OUT], &o[O_TIMES_OUT],
                                         &o[O_GATHER_OUT]))
      != CLI_EXIT_OK)
    return status;

  job->velocity_path = cli_value (&o[O_VELOCITY]);
  job->out_path = cli_value (&o[O_OUT]);
  job->receivers_path = cli_value (&o[O_RECEIVERS]);
  job->rays_path = cli_value (&o[O_RAYS_OUT]);
  job->times_path = cli_value (&o[O_TIMES_OUT]);
  job->gather_path = cli_value (&o[O_GATHER_OUT]);
  job->stats = o[O_STATS].count > 0;

  job->spacing_text = cli_value (&o[O_SPACING]);
  if (!cli_parse_numbers ("--spacing", job->spacing_text, v, 1, 2, &n))
    return CLI_EXIT_USAGE;
  job->dx = v[0];
  job->dz = n == 2 ? v[1] : v[0];
  if (job->dx <= 0 || job->dz <= 0)
    return cli_fail (CLI_EXIT_USAGE, "--spacing '%s': spacing must be positive",
                     cli_value (&o[O_SPACING]));

  if (o[O_ORIGIN].count > 0)
    {
      if (!cli_parse_numbers ("--origin", cli_value (&o[O_ORIGIN]), v, 2, 2, &n))
        return CLI_EXIT_USAGE;
      job->x0 = v[0];
      job->z0 = v[1];
    }

  if (!cli_parse_counts ("--radius", cli_value (&o[O_RADIUS]), r, 1, 2, &n, SPR_CLI_RADIUS_MAX))
    return CLI_EXIT_USAGE;
  job->params.rx = (int) r[0];
  job->params.rz = (int) (n == 2 ? r[1] : r[0]);

  job->nsrc = (size_t) o[O_SOURCE].count;
  job->sources = malloc (2 * job->nsrc * sizeof *job->sources);
  if (job->sources == NULL)
    return cli_fail (CLI_EXIT_FAILURE, "out of memory");
  for (size_t s = 0; s < job->nsrc; s++)
    {
      const char *text = o[O_SOURCE].values[s];
      const char *c1 = strchr (text, ','), *c2 = c1 != NULL ? strchr (c1 + 1, ',') : NULL;
      /* Three fields (none empty): a 3D source, said so. */
      if (c2 != NULL && c1 > text && c2 > c1 + 1 && c2[1] != '\0' && strchr (c2 + 1, ',') == NULL)
        return cli_fail (CLI_EXIT_USAGE, "--source '%s': spr is 2D, give X,Z", text);
      if (!cli_parse_numbers ("--source", text, v, 2, 2, &n))
        return CLI_EXIT_USAGE;
      job->sources[2 * s] = v[0];
      job->sources[2 * s + 1] = v[1];
    }

  if (o[O_BACKEND].count > 0
      && !fr_spr_backend_from_name (cli_value (&o[O_BACKEND]), &job->params.backend))
    return cli_fail (CLI_EXIT_USAGE, "--backend '%s': expected auto, dijkstra, cpu or cuda",
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
                                                            job->times_path, job->gather_path });
}

/* Files exist and the outputs' folders take files, before any work. */
static int
check_paths (const spr_job *job)
{
  int status;

  if ((status = cli_check_input ("--velocity", job->velocity_path)) != CLI_EXIT_OK)
    return status;
  if (job->receivers_path != NULL
      && (status = cli_check_input ("--receivers", job->receivers_path)) != CLI_EXIT_OK)
    return status;
  if ((status = cli_check_output ("--out", job->out_path)) != CLI_EXIT_OK)
    return status;
  if (job->rays_path != NULL
      && (status = cli_check_output ("--rays-out", job->rays_path)) != CLI_EXIT_OK)
    return status;
  if (job->times_path != NULL
      && (status = cli_check_output ("--times-out", job->times_path)) != CLI_EXIT_OK)
    return status;
  if (job->gather_path != NULL
      && (status = cli_check_output ("--gather-out", job->gather_path)) != CLI_EXIT_OK)
    return status;
  for (int o = 0; o < 4; o++)
    {
      static const char *const flags[] = { "--out", "--rays-out", "--times-out", "--gather-out" };
      const char *const outs[] = { job->out_path, job->rays_path, job->times_path, job->gather_path };
      const char *flag = flags[o], *out = outs[o];

      if ((status = cli_check_not_input (flag, out, "--velocity", job->velocity_path)) != CLI_EXIT_OK
          || (status = cli_check_not_input (flag, out, "--receivers", job->receivers_path))
               != CLI_EXIT_OK)
        return status;
    }
  return CLI_EXIT_OK;
}

static int
load_velocity (spr_job *job)
{
  fr_error err = { 0 };
  const fr_array *a = &job->velocity;
  const char *path = job->velocity_path;

  if (fr_npy_read (path, &job->velocity, &err) != FR_OK)
    return cli_fail_error (&err, path);
  if (a->ndim == 3)
    return cli_fail (CLI_EXIT_USAGE, "%s: spr needs a 2D velocity grid (nz, nx); this one is 3D "
                     "(%zu, %zu, %zu)", path, a->shape[0], a->shape[1], a->shape[2]);
  if (a->ndim != 2)
    return cli_fail (CLI_EXIT_USAGE, "%s: spr needs a 2D velocity grid (nz, nx); this one has "
                     "%d dimension%s", path, a->ndim, a->ndim == 1 ? "" : "s");

  job->grid = fr_grid_2d (a->shape[1], a->shape[0], job->dx, job->dz, job->x0, job->z0);
  if (fr_grid_check (&job->grid, &err) != FR_OK)
    return cli_fail_error (&err, cli_grid_context (&err, path));

  /* Named after the file, so the message points at what to fix; float64
   * is checked before it is narrowed to the solver's float32. */
  if (fr_array_speed_f32 (a, &job->grid, path, &job->velocity_f32, &job->velocity_owned, &err)
      != FR_OK)
    return cli_fail_error (&err, path);
  return CLI_EXIT_OK;
}

static void
grid_extent (const fr_grid *g, char *buf, size_t size)
{
  snprintf (buf, size, "x from %g to %g, z from %g to %g", g->x0,
            g->x0 + (double) (g->nx - 1) * g->dx, g->z0, g->z0 + (double) (g->nz - 1) * g->dz);
}

/* Geometry the library would also refuse, reported here with the flag. */
static int
check_geometry (spr_job *job)
{
  const fr_grid *g = &job->grid;
  char extent[160];
  fr_error err = { 0 };

  grid_extent (g, extent, sizeof extent);
  for (size_t s = 0; s < job->nsrc; s++)
    {
      double x = job->sources[2 * s], z = job->sources[2 * s + 1];
      size_t ix, iz;
      if (!fr_grid_contains (g, x, 0.0, z))
        return cli_fail (CLI_EXIT_USAGE, "--source %.15g,%.15g lies outside the grid (%s)", x, z, extent);
      if (!fr_grid_exact_node (g, x, 0.0, z, &ix, NULL, &iz))
        {
          fr_grid_nearest_node (g, x, 0.0, z, &ix, NULL, &iz);
          return cli_fail (CLI_EXIT_USAGE, "--source %.15g,%.15g is not on a grid node (nearest: %.15g,%.15g)",
                           x, z, g->x0 + (double) ix * g->dx, g->z0 + (double) iz * g->dz);
        }
    }
  if (job->receivers_path == NULL)
    return CLI_EXIT_OK;
  if (fr_csv_read_points (job->receivers_path, &job->receivers, &err) != FR_OK)
    return cli_fail_error (&err, job->receivers_path);
  if (job->receivers.ndim != 2)
    return cli_fail (CLI_EXIT_USAGE, "%s: line 1: spr is 2D; expected the header x,z",
                     job->receivers_path);
  for (size_t k = 0; k < job->receivers.count; k++)
    {
      double x = job->receivers.xyz[2 * k], z = job->receivers.xyz[2 * k + 1];
      if (!fr_grid_contains (g, x, 0.0, z))
        return cli_fail (CLI_EXIT_USAGE, "%s: line %zu: receiver %.15g,%.15g lies outside the grid (%s)",
                         job->receivers_path, k + 2, x, z, extent);
    }
  return CLI_EXIT_OK;
}

static int
solve (spr_job *job)
{
  fr_error err = { 0 };
  const char *context = NULL;
  char both[512];

  if (fr_spr_solve (&job->grid, job->velocity_f32, job->sources, job->nsrc, &job->params,
                    &job->result, &err) == FR_OK)
    return CLI_EXIT_OK;
  /* Most input faults were caught above; name the flag for the rest.  A
   * time scale out of range is the spacing's and the velocities' at once. */
  snprintf (both, sizeof both, "--spacing %s and %s", job->spacing_text, job->velocity_path);
  if (strstr (err.message, "with velocities up to") != NULL)
    context = both;
  else if (strstr (err.message, "radius") != NULL)
    context = "--radius";
  else if (strstr (err.message, "source") != NULL)
    context = "--source";
  else if (strstr (err.message, "spacing") != NULL)
    context = "--spacing";
  else if (err.code == FR_E_UNSUPPORTED || err.code == FR_E_DEVICE)
    context = "--backend";
  return cli_fail_error (&err, context);
}

/* Times beyond the output precision would be written as +inf, which
 * means unreached: refused, outside the timed solve. */
static int
check_times (const spr_job *job)
{
  fr_error err = { 0 };

  if (fr_time_check_range (&job->grid, job->result.time, job->velocity_f32,
                           !job->params.double_precision, &err) == FR_OK)
    return CLI_EXIT_OK;
  return cli_fail_time_range (&err, job->spacing_text, job->velocity_path,
                              job->params.double_precision);
}

/* The gather: each source fired alone, its T at every receiver's node
 * (as --times-out reads it) into job->shot_times.  One source is its
 * own shot: the solve made already.  Each shot's T is checked as the
 * main one is (a shot alone reaches later than the sources together). */
static int
solve_gather (spr_job *job)
{
  const size_t nrc = job->receivers.count;
  fr_spr_result shot = { 0 };
  fr_error err = { 0 };
  int status = CLI_EXIT_OK;

  job->sources_points = (fr_points) { .ndim = 2, .count = job->nsrc, .xyz = job->sources };
  job->shot_times = malloc ((job->nsrc * nrc > 0 ? job->nsrc * nrc : 1) * sizeof *job->shot_times);
  if (job->shot_times == NULL)
    return cli_fail (CLI_EXIT_FAILURE, "out of memory");
  for (size_t s = 0; s < job->nsrc && status == CLI_EXIT_OK; s++)
    {
      const fr_spr_result *res = &job->result;

      if (job->nsrc > 1)
        {
          if (fr_spr_solve (&job->grid, job->velocity_f32, job->sources + 2 * s, 1, &job->params,
                            &shot, &err) != FR_OK)
            {
              status = cli_fail_error (&err, "--gather-out");
              break;
            }
          if (fr_time_check_range (&job->grid, shot.time, job->velocity_f32,
                                   !job->params.double_precision, &err) != FR_OK)
            {
              status = cli_fail_time_range (&err, job->spacing_text, job->velocity_path,
                                            job->params.double_precision);
              break;
            }
          job->gather_ms += shot.solve_ms;
          res = &shot;
        }
      for (size_t k = 0; k < nrc; k++)
        {
          const double *p = job->receivers.xyz + 2 * k;
          size_t ix, iz;

          if (!fr_grid_nearest_node (&job->grid, p[0], 0.0, p[1], &ix, NULL, &iz))
            {
              status = cli_fail (CLI_EXIT_FAILURE, "receiver %zu: lost its node", k);
              break;
            }
          job->shot_times[s * nrc + k] = res->time[fr_grid_index (&job->grid, ix, 0, iz)];
        }
      fr_spr_result_clear (&shot);
    }
  fr_spr_result_clear (&shot);
  return status;
}

/* fr_spr_ray as cli_trace_receivers takes it: a receiver no source reaches
 * (walled in by obstacles) has T = +inf and gets no ray. */
static fr_status
spr_ray (const void *result, const double *p, double **pts, size_t *n, fr_error *err)
{
  return fr_spr_ray (result, p[0], p[1], pts, n, err);
}

/* All or nothing (cli-output.h); an older T.npy that a failed run replaced
 * is gone then, which is the price of not keeping a backup. */
static int
write_outputs (void *state, cli_outputs *out)
{
  spr_job *job = state;

  const cli_solution solution = {
    &job->grid, job->result.time, job->params.double_precision, 2, &job->receivers, &job->rays,
    &job->sources_points, job->shot_times,
  };

  return cli_stage_outputs (&solution,
                            &(cli_output_paths) { job->out_path, job->rays_path, job->times_path,
                                                  job->gather_path },
                            out);
}

static void
print_stats (const spr_job *job)
{
  const fr_spr_result *r = &job->result;

  printf ("{\"backend\": \"%s\", \"solve_ms\": %.3f, \"iterations\": %ld, "
          "\"edges_relaxed\": %llu, \"grid\": [%zu, %zu], \"radius\": [%d, %d], "
          "\"precision\": \"%s\", \"sources\": %zu, \"receivers\": %zu, ",
          fr_spr_backend_name (r->backend), r->solve_ms, r->iterations,
          (unsigned long long) r->edges_relaxed, job->grid.nx, job->grid.nz,
          r->rx, r->rz, job->params.double_precision ? "double" : "single",
          job->nsrc, job->receivers.count);
  /* With a gather, the shots solved for it (none more with one source)
   * and their time, beside the solve of the sources together. */
  if (job->gather_path != NULL)
    printf ("\"gather_shots\": %zu, \"gather_solve_ms\": %.3f, ", job->nsrc, job->gather_ms);
  fputs ("\"notice\": ", stdout);
  cli_json_string (stdout, r->notice);
  fputs ("}\n", stdout);
}

/* The steps of cli_run_solve. */
static void
spr_set_cancel (void *job, fr_cancel *cancel)
{
  ((spr_job *) job)->params.cancel = cancel;
}

static int
spr_run (void *v)
{
  spr_job *job = v;
  int status;

  if ((status = check_paths (job)) == CLI_EXIT_OK
      && (status = load_velocity (job)) == CLI_EXIT_OK
      && (status = check_geometry (job)) == CLI_EXIT_OK
      && (status = solve (job)) == CLI_EXIT_OK
      && (status = check_times (job)) == CLI_EXIT_OK)
    status = cli_trace_receivers (&job->grid, job->result.time, &job->receivers, 2,
                                  job->rays_path != NULL ? spr_ray : NULL, &job->result,
                                  job->times_path != NULL, CLI_TIME_AT_NODE, job->receivers_path,
                                  &job->rays);
  if (status == CLI_EXIT_OK && job->gather_path != NULL)
    status = solve_gather (job);
  return status;
}

static void
spr_report (void *v)
{
  const spr_job *job = v;

  if (job->result.notice[0])
    cli_note ("%s", job->result.notice);
  cli_note_unreached (&job->rays, " by any source");
  if (job->stats)
    print_stats (job);
}

int
cli_spr (int argc, char **argv)
{
  static const cli_solve_command cmd = {
    usage, parse_job, spr_set_cancel, spr_run, write_outputs, spr_report, spr_job_clear,
  };
  cli_option opts[O_COUNT] = {
    [O_VELOCITY] = { "--velocity", true, false },
    [O_SPACING] = { "--spacing", true, false },
    [O_ORIGIN] = { "--origin", true, false },
    [O_SOURCE] = { "--source", true, true },
    [O_RADIUS] = { "--radius", true, false },
    [O_BACKEND] = { "--backend", true, false },
    [O_PRECISION] = { "--precision", true, false },
    [O_OUT] = { "--out", true, false },
    [O_RECEIVERS] = { "--receivers", true, false },
    [O_RAYS_OUT] = { "--rays-out", true, false },
    [O_TIMES_OUT] = { "--times-out", true, false },
    [O_GATHER_OUT] = { "--gather-out", true, false },
    [O_STATS] = { "--stats", false, false },
  };
  spr_job job = { 0 };

  fr_spr_params_init (&job.params);
  return cli_run_solve (&cmd, argc, argv, opts, O_COUNT, &job);
}
