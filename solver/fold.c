/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fold solver's entry point: checks every input, builds the start
 * values, picks the back end and method, and fills the result. */
#include "fold-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fr-clock.h"
#include "fr-i18n.h"
#include "fr-device.h"
#include "fr-memory.h"
#include "fr-spr.h"   /* fr_cuda_usable */

void
fr_fold_params_init (fr_fold_params *p)
{
  memset (p, 0, sizeof *p);
  p->speed_const = 1.0;
  p->method = FR_FOLD_METHOD_AUTO;
  p->backend = FR_FOLD_BACKEND_AUTO;
}

void
fold_trace_free (fr_fold_trace *tr)
{
  if (tr == NULL)
    return;
  free (tr->speed);
  free (tr->sources);
  free (tr->horizon);
  free (tr->frozen);
  free (tr);
}

void
fr_fold_result_clear (fr_fold_result *res)
{
  if (res == NULL)
    return;
  free (res->time);
  fold_trace_free (res->trace);
  fr_device_free (res->device_time);
  memset (res, 0, sizeof *res);
}

void *
fr_fold_result_take_device_time (fr_fold_result *res)
{
  if (res == NULL)
    return NULL;
  void *d = res->device_time;
  res->device_time = NULL;
  return d;
}

double
fr_fold_group_speed (double F, const double psi_a[3], const double u[3])
{
  double pu = psi_a[0] * u[0] + psi_a[1] * u[1] + psi_a[2] * u[2];
  double p2 = psi_a[0] * psi_a[0] + psi_a[1] * psi_a[1] + psi_a[2] * psi_a[2];
  return pu + sqrt (pu * pu + F * F - p2);
}

/* |ψ| < F at every node with F > 0 (checked in float's terms too, since
 * c = F² − |ψ|² must stay positive). */
static fr_status
check_psi (const fr_grid *g, const float *speed, const double psi[3], fr_error *err)
{
  const double pn = sqrt (psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2]);
  const size_t n = fr_grid_count (g);
  int bad = 0;

#pragma omp parallel for schedule(static) reduction(|:bad)
  for (size_t i = 0; i < n; i++)
    bad |= speed[i] > 0.0f && !(pn < (double) speed[i]);
  if (!bad)
    return FR_OK;
  for (size_t i = 0; i < n; i++)
    {
      if (!(speed[i] > 0.0f) || pn < (double) speed[i])
        continue;
      size_t ix = i % g->nx, iy = (i / g->nx) % g->ny, iz = i / (g->nx * g->ny);
      if (g->ndim == 3)
        return fr_error_set (err, FR_E_INPUT,
                             "|psi_a| = %g is not below the speed F = %g at node (ix=%zu, iy=%zu, iz=%zu)",
                             pn, (double) speed[i], ix, iy, iz);
      return fr_error_set (err, FR_E_INPUT,
                           "|psi_a| = %g is not below the speed F = %g at node (ix=%zu, iz=%zu)",
                           pn, (double) speed[i], ix, iz);
    }
  return FR_OK;
}

/* The ray tracer's model.  It takes over *speed_owned (set to NULL then)
 * where the solve made it for itself: at 518³ copying it cost more than
 * 0.1 s (tests/bench/RESULTS.md).  A speed grid of the caller's is copied.
 * The frozen nodes' grid is made from the start values: calloc's pages are
 * touched only where a node is frozen. */
static fr_status
make_trace (const fr_grid *g, const float *speed, float **speed_owned, float speed_max,
            const double psi[3], const fr_fold_start *start, double radius,
            const fold_starts *starts, fr_fold_trace **out)
{
  const size_t n = fr_grid_count (g);
  fr_fold_trace *tr = calloc (1, sizeof *tr);

  if (tr == NULL)
    return FR_E_NOMEM;
  tr->grid = *g;
  tr->speed_max = speed_max;
  memcpy (tr->psi, psi, sizeof tr->psi);
  tr->radius = radius;
  if (*speed_owned != NULL)
    {
      tr->speed = *speed_owned;
      *speed_owned = NULL;
    }
  else
    {
      tr->speed = malloc (n * sizeof *tr->speed);
      if (tr->speed == NULL)
        goto nomem;
      /* In parallel: the first touch of a fresh 10⁸-float array is page
       * faults, which one thread takes one by one. */
#pragma omp parallel for schedule(static)
      for (size_t i = 0; i < n; i++)
        tr->speed[i] = speed[i];
    }
  if (start->nsrc > 0)
    {
      size_t m = start->nsrc * (size_t) g->ndim;
      if ((tr->sources = malloc (m * sizeof (double))) == NULL)
        goto nomem;
      memcpy (tr->sources, start->sources, m * sizeof (double));
      tr->nsrc = start->nsrc;
    }
  if (start->horizon != NULL && start->nhorizon > 0)
    {
      if ((tr->horizon = malloc (2 * start->nhorizon * sizeof (double))) == NULL)
        goto nomem;
      memcpy (tr->horizon, start->horizon, 2 * start->nhorizon * sizeof (double));
      tr->nhorizon = start->nhorizon;
    }
  if (starts->any_frozen)
    {
      if ((tr->frozen = calloc (n, 1)) == NULL)
        goto nomem;
      fold_starts_mark_frozen (starts, tr->frozen);
    }
  *out = tr;
  return FR_OK;
nomem:
  fold_trace_free (tr);
  return FR_E_NOMEM;
}

/* What FR_FOLD_METHOD_AUTO means on a back end: the faster method by our
 * measurements (RESULTS.md).  SOLAS, but for 2D on the GPU, where LAS
 * needs fewer sweeps per subdomain in the queue kernel's order (H100,
 * 2048²: 8.5 ms against 10.9; 1024²: 3.8 against 4.1). */
static fr_fold_method
resolve_method (fr_fold_method asked, int ndim, bool gpu)
{
  if (asked != FR_FOLD_METHOD_AUTO)
    return asked;
  return gpu && ndim == 2 ? FR_FOLD_LAS : FR_FOLD_SOLAS;
}

/* The GPU when asked for (or, with auto, when one is usable), else or
 * when it cannot take the solve (no device, the grids do not fit, a CUDA
 * failure) the CPU, saying why in res->notice. */
static fr_status
run_backend (const fr_fold_params *p, fold_problem *pb, fr_fold_result *res, fold_stats *stats,
             fr_error *err)
{
  const int ndim = pb->grid->ndim;

  if (p->backend == FR_FOLD_CUDA || (p->backend == FR_FOLD_BACKEND_AUTO && fr_cuda_usable ()))
    {
      fr_error cuda_err = { 0 };
      pb->block = p->block != 0 ? p->block : fold_cuda_default_block (ndim);
      pb->method = res->method = resolve_method (p->method, ndim, true);
      fr_status st = fold_solve_cuda (pb, res->time, stats,
                                      p->keep_device_time ? &res->device_time : NULL, &cuda_err);
      if (st != FR_E_DEVICE && st != FR_E_UNSUPPORTED)
        {
          if (st != FR_OK && err != NULL)
            *err = cuda_err;
          res->backend = FR_FOLD_CUDA;
          res->block = pb->block;
          return st;
        }
      if (p->backend == FR_FOLD_CUDA || fr_cuda_built ())
        snprintf (res->notice, sizeof res->notice,
                  fr__ ("the CUDA fold back end could not run (%.180s); solved on the CPU"),
                  cuda_err.message);
    }
  pb->block = p->block != 0 ? p->block : (ndim == 3 ? 8 : 32);
  pb->method = res->method = resolve_method (p->method, ndim, false);
  res->backend = FR_FOLD_CPU;
  res->block = pb->block;
  return fold_solve_cpu (pb, res->time, stats, err);
}

/* About how many bytes the solve needs at its peak, for the memory check:
 * the speeds (the caller's or a constant's grid), T, the CPU back end's
 * blocked layout (T, speeds and stamps, ghosts included; the CUDA back end
 * falls back to it), its per-subdomain bookkeeping, the ray tracer's copy
 * of the speeds, and a boundary grid with its frozen marks.  The start
 * values' list is left out: it grows with the start set, not the grid. */
static double
solve_bytes (const fr_grid *g, const fr_fold_params *p, const fr_fold_start *start)
{
  const double n = (double) fr_grid_count (g);
  const double esize = p->double_precision ? sizeof (double) : sizeof (float);
  fold_layout L;

  fold_layout_init (&L, g, p->block != 0 ? p->block : (g->ndim == 3 ? 8 : 32));
  double bytes = n * (sizeof (float) + sizeof (double))
                 + (double) L.nblocks * (double) L.bsize * (esize + sizeof (float) + sizeof (uint32_t))
                 + (double) L.nblocks * 64.0;
  if (p->speed != NULL)
    bytes += n * sizeof (float);
  if (start->boundary != NULL)
    bytes += n * (sizeof (double) + 2.0);
  return bytes;
}

/* The speeds' check (fr_check_speed_f32) and their largest value, in one
 * pass: grids of 10⁸ nodes are read at every solve. */
static fr_status
check_speed_max (const fr_grid *g, const float *speed, float *vmax, fr_error *err)
{
  const size_t n = fr_grid_count (g);
  int bad = 0;
  float m = 0.0f;

#pragma omp parallel for schedule(static) reduction(|:bad) reduction(max:m)
  for (size_t i = 0; i < n; i++)
    {
      const float v = speed[i];
      bad |= !(isfinite (v) && v >= 0.0f);
      m = v > m ? v : m;
    }
  *vmax = m;
  return bad ? fr_check_speed_f32 (g, speed, "speed", err) : FR_OK;
}

/* The largest |value| of the finite start values of a boundary grid. */
static double
boundary_max (const fr_grid *g, const double *boundary)
{
  const size_t n = fr_grid_count (g);
  double m = 0.0;

  if (boundary == NULL)
    return 0.0;
#pragma omp parallel for schedule(static) reduction(max:m)
  for (size_t i = 0; i < n; i++)
    if (isfinite (boundary[i]) && fabs (boundary[i]) > m)
      m = fabs (boundary[i]);
  return m;
}

/* The local solver's arithmetic holds products of up to about the sixth
 * power of h·F (spacing × speed): in float, a solve with h·F outside about
 * [1e-7, 3e6] loses its digits (10 % errors at h = 1000 m and F = 6000
 * m/s).  And its times, about h / F a node, must stay inside float's
 * range: at h = 1e-25 and F = 1e25 they rounded to 0 inside the solve, so
 * every node read as a source, and at h = 1e20, F = 1e-20 they became +inf.
 * Outside either window the solve runs in units that bring the spacing and
 * the largest speed near 1: lengths scaled by 2^-a and speeds by 2^-b, so
 * times by 2^(b-a), which are scaled back after (in double, where the
 * output's precision check then sees them).  Powers of two change no
 * rounding, so the times are those of the same model in better units;
 * where both are moderate, a = b = 0 and nothing changes.  A boundary
 * grid's values, scaled by 2^(b-a) too, must stay far inside the solve's
 * precision, or they would become +inf there (a start of 1e9 at h =
 * 1e-30 gave +inf everywhere): where they would not, b - a is cut,
 * keeping a + b (and so h·F).  A step that small beside such a start is
 * below its rounding in any units. */
static void
unit_exponents (const fr_grid *g, float vmax, const double *boundary, bool double_precision,
                int *a, int *b)
{
  double h = fmax (g->dx, g->dz);

  if (g->ndim == 3)
    h = fmax (h, g->dy);
  const double hf = h * (double) vmax, step = h / (double) vmax;
  *a = *b = 0;
  /* Measured: 2D and 3D lose digits from about 3e6 up and below about
   * 1e-7 (fold-units); the windows keep a margin. */
  if (!(hf > 0.0) || !isfinite (hf) || !isfinite (step)
      || (hf >= 0x1p-20 && hf <= 0x1p19 && step >= 0x1p-60 && step <= 0x1p60))
    return;
  *a = (int) lround (log2 (h));
  *b = (int) lround (log2 ((double) vmax));
  const int start_exp_max = double_precision ? 512 : 64;
  const double start_max = boundary_max (g, boundary);
  if (start_max > 0.0)
    {
      const int over = ilogb (start_max) + (*b - *a) - start_exp_max;
      if (over > 0)
        {
          const int k = (over + 1) / 2;
          *a += k;
          *b -= k;
        }
    }
}

/* The model in the solve's units (unit_exponents): the grid, the start
 * (sources and horizon in lengths, the boundary's values in times), the
 * speeds and ψa.  Pointers the caller's where nothing is scaled; *_owned
 * are freed by scaled_model_free. */
typedef struct scaled_model {
  fr_grid grid;
  fr_fold_start start;
  const float *speed;
  double psi[3];
  double *sources, *horizon, *boundary;
  float *speed_owned;
} scaled_model;

static fr_status
scale_units (const fr_grid *g, const fr_fold_start *start, const float *speed,
             const double psi[3], int a, int b, scaled_model *out, fr_error *err)
{
  const size_t n = fr_grid_count (g);

  memset (out, 0, sizeof *out);
  out->grid = *g;
  out->start = *start;
  out->speed = speed;
  for (int k = 0; k < 3; k++)
    out->psi[k] = ldexp (psi[k], -b);
  if (a == 0 && b == 0)
    return FR_OK;
  out->grid.dx = ldexp (g->dx, -a);
  out->grid.dy = ldexp (g->dy, -a);
  out->grid.dz = ldexp (g->dz, -a);
  out->grid.x0 = ldexp (g->x0, -a);
  out->grid.y0 = ldexp (g->y0, -a);
  out->grid.z0 = ldexp (g->z0, -a);
  const size_t ns = start->sources != NULL ? start->nsrc * (size_t) g->ndim : 0;
  const size_t nh = start->horizon != NULL ? 2 * start->nhorizon : 0;
  if ((ns > 0 && (out->sources = malloc (ns * sizeof (double))) == NULL)
      || (nh > 0 && (out->horizon = malloc (nh * sizeof (double))) == NULL)
      || (start->boundary != NULL && (out->boundary = malloc (n * sizeof (double))) == NULL)
      || (b != 0 && (out->speed_owned = malloc (n * sizeof (float))) == NULL))
    return fr_error_set (err, FR_E_NOMEM, "out of memory for the model in the solve's units");
  for (size_t i = 0; i < ns; i++)
    out->sources[i] = ldexp (start->sources[i], -a);
  for (size_t i = 0; i < nh; i++)
    out->horizon[i] = ldexp (start->horizon[i], -a);
  if (out->boundary != NULL)
    {
#pragma omp parallel for schedule(static)
      for (size_t i = 0; i < n; i++)
        out->boundary[i] = ldexp (start->boundary[i], b - a);
    }
  if (out->speed_owned != NULL)
    {
#pragma omp parallel for schedule(static)
      for (size_t i = 0; i < n; i++)
        out->speed_owned[i] = ldexpf (speed[i], -b);
      out->speed = out->speed_owned;
    }
  if (ns > 0)
    out->start.sources = out->sources;
  if (nh > 0)
    out->start.horizon = out->horizon;
  if (out->boundary != NULL)
    out->start.boundary = out->boundary;
  return FR_OK;
}

static void
scaled_model_free (scaled_model *s)
{
  free (s->sources);
  free (s->horizon);
  free (s->boundary);
  free (s->speed_owned);
}

fr_status
fr_fold_solve (const fr_grid *g, const fr_fold_start *start, const fr_fold_params *p,
               fr_fold_result *res, fr_error *err)
{
  fr_status st;
  float *speed_owned = NULL;
  fold_starts starts = { 0 };
  scaled_model sc = { 0 };
  float vmax = 0.0f;
  double psi[3];

  if (g == NULL || start == NULL || p == NULL || res == NULL)
    return fr_error_set (err, FR_E_INPUT, "fr_fold_solve: a required argument is NULL");
  memset (res, 0, sizeof *res);
  if ((st = fr_grid_check (g, err)) != FR_OK)
    return st;
  const size_t n = fr_grid_count (g);

  if (p->backend != FR_FOLD_BACKEND_AUTO && p->backend != FR_FOLD_CPU && p->backend != FR_FOLD_CUDA)
    return fr_error_set (err, FR_E_INPUT, "unknown fold back end %d", (int) p->backend);
  if (p->method != FR_FOLD_METHOD_AUTO && p->method != FR_FOLD_LAS && p->method != FR_FOLD_SOLAS)
    return fr_error_set (err, FR_E_INPUT, "unknown fold method %d", (int) p->method);
  if (p->block != 0 && (p->block < 2 || p->block > FOLD_BLOCK_MAX))
    return fr_error_set (err, FR_E_INPUT, "subdomain size %d is outside 2..%d", p->block,
                         FOLD_BLOCK_MAX);
  if (p->threads < 0 || p->threads > 1024)
    return fr_error_set (err, FR_E_INPUT, "thread count %d is outside 0..1024", p->threads);
  if (!isfinite (p->source_radius))
    return fr_error_set (err, FR_E_INPUT, "source radius must be finite");

  psi[0] = p->psi_a[0];
  psi[1] = g->ndim == 3 ? p->psi_a[1] : 0.0;
  psi[2] = p->psi_a[2];
  if (!isfinite (psi[0]) || !isfinite (psi[1]) || !isfinite (psi[2]))
    return fr_error_set (err, FR_E_INPUT, "psi_a must be finite");
  if (start->nsrc > 0 && start->sources == NULL)
    return fr_error_set (err, FR_E_INPUT, "%zu sources announced but none given", start->nsrc);

  /* Before anything is allocated: Linux overcommits, so a solve too large
   * for the machine would start, then be killed without a word. */
  char what[96];
  if (g->ndim == 3)
    snprintf (what, sizeof what, fr__ ("a %zu x %zu x %zu fold solve"), g->nx, g->ny, g->nz);
  else
    snprintf (what, sizeof what, fr__ ("a %zu x %zu fold solve"), g->nx, g->nz);
  if ((st = fr_memory_check (solve_bytes (g, p, start), what, err)) != FR_OK)
    return st;

  const float *speed = p->speed;
  if (speed == NULL)
    {
      if (!isfinite (p->speed_const) || !(p->speed_const > 0.0) || p->speed_const > 3.0e38)
        return fr_error_set (err, FR_E_INPUT, "constant speed must be finite and > 0, not %g",
                             p->speed_const);
      if ((speed_owned = malloc (n * sizeof *speed_owned)) == NULL)
        return fr_error_set (err, FR_E_NOMEM, "out of memory for %zu speeds", n);
#pragma omp parallel for schedule(static)
      for (size_t i = 0; i < n; i++)
        speed_owned[i] = (float) p->speed_const;
      speed = speed_owned;
    }
  if (speed_owned != NULL)
    vmax = (float) p->speed_const;
  else if ((st = check_speed_max (g, speed, &vmax, err)) != FR_OK)
    goto out;
  if ((st = check_psi (g, speed, psi, err)) != FR_OK)
    goto out;
  int a, b;
  unit_exponents (g, vmax, start->boundary, p->double_precision, &a, &b);
  if ((st = scale_units (g, start, speed, psi, a, b, &sc, err)) != FR_OK)
    goto out;
  const fr_grid *gs = &sc.grid;   /* the solve's units */

  res->grid = *g;
  res->double_precision = p->double_precision;

  res->time = malloc (n * sizeof *res->time);
  if (res->time == NULL)
    {
      st = fr_error_set (err, FR_E_NOMEM, "out of memory for a grid of %zu nodes", n);
      goto out;
    }

  double t_start = fr_clock_ms ();
  double radius = fold_source_radius (gs, p->source_radius > 0.0 ? ldexp (p->source_radius, -a)
                                                                 : p->source_radius);
  if ((st = fold_init_start (gs, sc.speed, sc.psi, &sc.start, radius, &starts, err)) != FR_OK)
    {
      /* The same failure in the user's units, for a message in them. */
      if (a != 0 || b != 0)
        {
          fold_starts again = { 0 };
          fr_error_clear (err);
          st = fold_init_start (g, speed, psi, start, ldexp (radius, a), &again, err);
          fold_starts_free (&again);
        }
      goto out;
    }
  res->start_ms = fr_clock_ms () - t_start;

  fold_problem pb = {
    .grid = gs,
    .speed = sc.speed,
    .psi = { sc.psi[0], sc.psi[1], sc.psi[2] },
    .start = starts,
    .method = p->method,        /* resolved by run_backend */
    .threads = p->threads,
    .double_precision = p->double_precision,
    .cancel = p->cancel,
  };
  fold_stats stats;
  if ((st = run_backend (p, &pb, res, &stats, err)) != FR_OK)
    goto out;
  if (a != 0 || b != 0)
    {
#pragma omp parallel for schedule(static)
      for (size_t i = 0; i < n; i++)
        res->time[i] = ldexp (res->time[i], a - b);
      /* The device's copy is in the solve's units: the caller draws from
       * the host's instead. */
      fr_device_free (res->device_time);
      res->device_time = NULL;
    }
  res->solve_ms = fr_clock_ms () - t_start;
  res->iterations = stats.iterations;
  res->schedules = stats.schedules;
  res->subdomain_sweeps = stats.sweeps;
  res->subdomains = stats.subdomains;
  res->threads = stats.threads;
  res->host_round_trips = stats.round_trips;
  res->device_ms = stats.device_ms;
  res->setup_ms = stats.setup_ms;
  res->results_ms = stats.results_ms;

  if (make_trace (g, speed, &speed_owned, vmax, psi, start, ldexp (radius, a), &starts, &res->trace)
      != FR_OK)
    st = fr_error_set (err, FR_E_NOMEM, "out of memory for the ray tracer's copy of the model");

out:
  free (speed_owned);
  fold_starts_free (&starts);
  scaled_model_free (&sc);
  if (st != FR_OK)
    {
      free (res->time);
      res->time = NULL;
    }
  return st;
}

bool
fr_fold_method_from_name (const char *name, fr_fold_method *out)
{
  if (name == NULL)
    return false;
  if (strcmp (name, "auto") == 0)
    *out = FR_FOLD_METHOD_AUTO;
  else if (strcmp (name, "las") == 0)
    *out = FR_FOLD_LAS;
  else if (strcmp (name, "solas") == 0)
    *out = FR_FOLD_SOLAS;
  else
    return false;
  return true;
}

const char *
fr_fold_method_name (fr_fold_method m)
{
  switch (m)
    {
    case FR_FOLD_LAS:
      return "las";
    case FR_FOLD_SOLAS:
      return "solas";
    case FR_FOLD_METHOD_AUTO:
    default:
      return "auto";
    }
}

bool
fr_fold_backend_from_name (const char *name, fr_fold_backend *out)
{
  if (name == NULL)
    return false;
  if (strcmp (name, "auto") == 0)
    *out = FR_FOLD_BACKEND_AUTO;
  else if (strcmp (name, "cpu") == 0)
    *out = FR_FOLD_CPU;
  else if (strcmp (name, "cuda") == 0)
    *out = FR_FOLD_CUDA;
  else
    return false;
  return true;
}

const char *
fr_fold_backend_name (fr_fold_backend b)
{
  switch (b)
    {
    case FR_FOLD_CPU:
      return "cpu";
    case FR_FOLD_CUDA:
      return "cuda";
    case FR_FOLD_BACKEND_AUTO:
    default:
      return "auto";
    }
}
