/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The SPR entry point: checks every input once, builds the stencils, picks
 * a back end (CUDA, else the fastest CPU path) and times the solve. */
#include "spr-private.h"
#include "fr-clock.h"
#include "fr-i18n.h"
#include "fr-memory.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
fr_spr_params_init (fr_spr_params *p)
{
  memset (p, 0, sizeof *p);
  p->rx = 4;
  p->rz = 4;
  p->full_neighbourhood = false;
  p->weights = FR_WEIGHTS_AUTO;
  p->backend = FR_SPR_AUTO;
  p->double_precision = false;
  p->threads = 0;
  p->cancel = NULL;
}

static const char *const backend_names[] = {
  [FR_SPR_AUTO] = "auto",
  [FR_SPR_DIJKSTRA] = "dijkstra",
  [FR_SPR_CPU] = "cpu",
  [FR_SPR_CUDA] = "cuda",
};

bool
fr_spr_backend_from_name (const char *name, fr_spr_backend *out)
{
  if (name == NULL)
    return false;
  for (size_t i = 0; i < sizeof backend_names / sizeof backend_names[0]; i++)
    if (strcmp (name, backend_names[i]) == 0)
      {
        if (out != NULL)
          *out = (fr_spr_backend) i;
        return true;
      }
  return false;
}

const char *
fr_spr_backend_name (fr_spr_backend b)
{
  if ((unsigned) b < sizeof backend_names / sizeof backend_names[0])
    return backend_names[b];
  return "unknown";
}

void
fr_spr_result_clear (fr_spr_result *res)
{
  if (res == NULL)
    return;
  free (res->time);
  free (res->pred);
  fr_spr_device_free (res->device_time);
  spr_ray_context_free (res->ray_context);
  memset (res, 0, sizeof *res);
}

void *
fr_spr_result_take_device_time (fr_spr_result *res)
{
  void *p;

  if (res == NULL)
    return NULL;
  p = res->device_time;
  res->device_time = NULL;
  return p;
}

/* The radius along an axis of n nodes that gives the same graph as r: an
 * offset of n or more nodes never has both ends inside the grid, so its
 * edges are all absent (CONTRACT.md).  At least 1, which the stencils and
 * every back end take: on an axis of one node, its offsets all leave the
 * grid. */
static int
clamp_radius (int r, size_t n)
{
  if (n < 2)
    return 1;
  return (size_t) r > n - 1 ? (int) (n - 1) : r;
}

/* Checks the parameters and gives the radius to use in *rx, *rz. */
static fr_status
check_params (const fr_grid *g, const fr_spr_params *p, int *rx, int *rz, fr_error *err)
{
  if (p->rx < 1 || p->rz < 1)
    return fr_error_set (err, FR_E_INPUT, "radius must be at least 1 (got %d,%d)", p->rx, p->rz);
  *rx = clamp_radius (p->rx, g->nx);
  *rz = clamp_radius (p->rz, g->nz);
  if (*rx > FR_SPR_RADIUS_MAX || *rz > FR_SPR_RADIUS_MAX)
    return fr_error_set (err, FR_E_INPUT, "radius %d,%d is too large (at most %d)",
                         p->rx, p->rz, FR_SPR_RADIUS_MAX);
  if ((unsigned) p->backend > FR_SPR_CUDA)
    return fr_error_set (err, FR_E_INPUT, "unknown SPR back end %d", (int) p->backend);
  if ((unsigned) p->weights > FR_WEIGHTS_TABLE)
    return fr_error_set (err, FR_E_INPUT, "unknown weight mode %d", (int) p->weights);
  if (p->threads < 0)
    return fr_error_set (err, FR_E_INPUT, "thread count must not be negative (got %d)",
                         p->threads);
  return FR_OK;
}

/* Finds the node of every source; a source must lie on a node and not in an
 * obstacle cell. */
static fr_status
locate_sources (const fr_grid *g, const float *velocity, const double *src_xz, size_t nsrc,
                size_t *nodes, fr_error *err)
{
  for (size_t s = 0; s < nsrc; s++)
    {
      double x = src_xz[2 * s], z = src_xz[2 * s + 1];
      size_t ix, iz;

      if (!fr_grid_contains (g, x, 0.0, z))
        return fr_error_set (err, FR_E_INPUT, "source at (%.15g, %.15g) is outside the grid", x, z);
      if (!fr_grid_exact_node (g, x, 0.0, z, &ix, NULL, &iz))
        return fr_error_set (err, FR_E_INPUT,
                             "source at (%.15g, %.15g) is not on a grid node (SPR sources must be)",
                             x, z);
      nodes[s] = fr_grid_index (g, ix, 0, iz);
      if (velocity[nodes[s]] == 0.0f)
        return fr_error_set (err, FR_E_INPUT,
                             fr__ ("source at (%.15g, %.15g) lies inside an obstacle (velocity 0)"),
                             x, z);
    }
  return FR_OK;
}

/* About how many bytes the solve needs: the caller's velocity, the
 * result (with its copy of the velocity for the rays), and the back end's
 * own arrays (the CPU one's for auto and cuda too, since either may run
 * on the CPU). */
static double
solve_bytes (const spr_problem *pb)
{
  const double n = (double) fr_grid_count (pb->grid);
  const spr_stencils *st = pb->stencils;
  double bytes = n * (2 * sizeof (float) + sizeof (double) + sizeof (int32_t))
                 + (double) pb->nsrc * sizeof (size_t)
                 + (double) st->noffsets * (sizeof (spr_offset)
                                            + (st->rx + st->rz + 1.0) * sizeof (spr_cell));

  if (pb->params->backend == FR_SPR_DIJKSTRA)
    return bytes + n * (sizeof (double) + 1.0 + 2.0 * sizeof (int32_t));
  return bytes + spr_cpu_bytes (pb);
}

/* Solves on the CPU as `auto` does: the back end spr_cpu_pick names, and
 * Dijkstra where the tiled one gives up (spr_solve_cpu_auto). */
static fr_status
run_cpu_auto (const spr_problem *pb, fr_spr_backend *backend, fr_spr_result *res,
              fr_error *err)
{
  bool gave_up = false;
  fr_status status;

  *backend = spr_cpu_pick (pb);
  if (*backend != FR_SPR_CPU)
    return *backend == FR_SPR_DIJKSTRA ? spr_solve_dijkstra (pb, res, err)
                                       : fr_error_set (err, FR_E_INPUT, "no SPR back end chosen");
  status = spr_solve_cpu_auto (pb, &gave_up, res, err);
  if (status != FR_OK || !gave_up)
    return status;
  *backend = FR_SPR_DIJKSTRA;
  return spr_solve_dijkstra (pb, res, err);
}

/* Runs the explicitly named back end; a CUDA request that the machine
 * cannot serve (no CUDA in this build, no device, a device failure) runs
 * on the CPU and says why in res->notice, as fold does.  A request CUDA
 * refuses (FR_E_UNSUPPORTED in a CUDA build: double precision, too many
 * cells) stays an error: the caller asked for something CUDA does not do. */
static fr_status
run_named (const spr_problem *pb, fr_spr_backend *backend, fr_spr_result *res, fr_error *err)
{
  fr_error cuda_err = { 0 };
  fr_status status;

  switch (*backend)
    {
    case FR_SPR_DIJKSTRA:
      return spr_solve_dijkstra (pb, res, err);
    case FR_SPR_CPU:
      return spr_solve_cpu (pb, res, err);
    case FR_SPR_CUDA:
      status = spr_solve_cuda (pb, res, &cuda_err);
      if (status != FR_E_DEVICE && (status != FR_E_UNSUPPORTED || fr_cuda_built ()))
        {
          if (status != FR_OK && err != NULL)
            *err = cuda_err;
          return status;
        }
      snprintf (res->notice, sizeof res->notice,
                fr__ ("the CUDA SPR back end could not run (%.180s); solved on the CPU"),
                cuda_err.message);
      return run_cpu_auto (pb, backend, res, err);
    case FR_SPR_AUTO:
    default:
      return fr_error_set (err, FR_E_INPUT, "no SPR back end chosen");
    }
}

fr_status
fr_spr_solve (const fr_grid *g, const float *velocity,
              const double *src_xz, size_t nsrc,
              const fr_spr_params *params, fr_spr_result *res, fr_error *err)
{
  fr_spr_params defaults;
  spr_stencils st = { 0 };
  size_t *src_nodes = NULL;
  size_t n;
  spr_problem pb;
  fr_spr_backend backend;
  fr_status status;
  bool ran = false;
  double t0, stencils_ms;
  int rx = 0, rz = 0;
  char what[96];

  if (res == NULL)
    return fr_error_set (err, FR_E_INPUT, "no result to fill");
  memset (res, 0, sizeof *res);
  if (params == NULL)
    {
      fr_spr_params_init (&defaults);
      params = &defaults;
    }
  if (g == NULL || velocity == NULL)
    return fr_error_set (err, FR_E_INPUT, "no grid or no velocity given");
  if ((status = fr_grid_check (g, err)) != FR_OK)
    return status;
  if (g->ndim != 2)
    return fr_error_set (err, FR_E_INPUT, "SPR works on 2D grids (this one has %d dimensions)",
                         g->ndim);
  if ((status = check_params (g, params, &rx, &rz, err)) != FR_OK)
    return status;
  if (nsrc == 0 || src_xz == NULL)
    return fr_error_set (err, FR_E_INPUT, "SPR needs at least one source");
  if (fr_cancel_raised (params->cancel))
    return fr_error_set (err, FR_E_CANCELLED, "the solve was cancelled");

  /* The stencils first (they depend on the radius and spacing alone): the
   * memory check needs their size, and it comes before anything touches
   * the grids. */
  t0 = fr_clock_ms ();
  if ((status = spr_stencils_build (&st, rx, rz, g->dx, g->dz,
                                    params->full_neighbourhood, err)) != FR_OK)
    return status;
  stencils_ms = fr_clock_ms () - t0;
  pb = (spr_problem) {
    .grid = g, .velocity = velocity, .sources = NULL, .nsrc = nsrc,
    .params = params, .stencils = &st,
  };
  /* Translators: the subject of "… needs about N GB of memory". */
  snprintf (what, sizeof what, fr__ ("a %zu x %zu SPR solve"), g->nx, g->nz);
  if ((status = fr_memory_check (solve_bytes (&pb), what, err)) != FR_OK)
    goto fail;
  if ((status = fr_check_speed_f32 (g, velocity, "velocity", err)) != FR_OK)
    goto fail;
  if ((status = fr_check_time_scale (g, velocity, params->double_precision, err)) != FR_OK)
    goto fail;

  n = fr_grid_count (g);
  src_nodes = malloc (nsrc * sizeof *src_nodes);
  res->time = malloc (n * sizeof *res->time);
  res->pred = malloc (n * sizeof *res->pred);
  if (src_nodes == NULL || res->time == NULL || res->pred == NULL)
    {
      status = fr_error_set (err, FR_E_NOMEM, "out of memory for %s", what);
      goto fail;
    }
  if ((status = locate_sources (g, velocity, src_xz, nsrc, src_nodes, err)) != FR_OK)
    goto fail;
  res->grid = *g;
  pb.sources = src_nodes;

  t0 = fr_clock_ms () - stencils_ms;
  backend = params->backend;
  if (backend == FR_SPR_AUTO)
    {
      if (fr_cuda_usable ())
        {
          fr_error cuda_err = { 0 };
          status = spr_solve_cuda (&pb, res, &cuda_err);
          if (status != FR_E_DEVICE && status != FR_E_UNSUPPORTED)
            {
              backend = FR_SPR_CUDA;
              ran = true;
              if (status != FR_OK && err != NULL)
                *err = cuda_err;
            }
          else
            snprintf (res->notice, sizeof res->notice, fr__ ("CUDA failed (%.200s); solved on the CPU"),
                      cuda_err.message);
        }
      /* No device is what auto's CPU is for (CONTRACT.md), as for fold:
       * no notice, where every solve on such a machine said so. */
      if (!ran)
        {
          status = run_cpu_auto (&pb, &backend, res, err);
          ran = true;
        }
    }

  if (!ran)
    status = run_named (&pb, &backend, res, err);
  res->backend = backend;
  res->rx = rx, res->rz = rz;
  res->solve_ms = fr_clock_ms () - t0;
  if (status != FR_OK)
    goto fail;
  /* After the clock: the rays' copy is not the solve's work. */
  if ((status = spr_ray_context_new (g, velocity, &st, &res->ray_context, err)) != FR_OK)
    goto fail;
  spr_stencils_clear (&st);
  free (src_nodes);
  return FR_OK;

fail:
  spr_stencils_clear (&st);
  free (src_nodes);
  fr_spr_result_clear (res);
  return status;
}
