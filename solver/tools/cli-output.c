/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-output.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli-common.h"
#include "fr-array.h"
#include "fr-atomic-file.h"
#include "fr-npy.h"

/* Raising the flag is one lock-free atomic store, which is
 * async-signal-safe. */
static fr_cancel *interrupt_flag;
static struct sigaction old_int, old_term;

static void
on_signal (int sig)
{
  (void) sig;
  if (interrupt_flag != NULL)
    fr_cancel_raise (interrupt_flag);
}

fr_cancel *
cli_interrupt_install (void)
{
  struct sigaction sa = { 0 };

  interrupt_flag = fr_cancel_new ();
  if (interrupt_flag == NULL)
    return NULL;
  sa.sa_handler = on_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, &old_int);
  sigaction (SIGTERM, &sa, &old_term);
  return interrupt_flag;
}

void
cli_interrupt_remove (void)
{
  if (interrupt_flag == NULL)
    return;
  sigaction (SIGINT, &old_int, NULL);
  sigaction (SIGTERM, &old_term, NULL);
  fr_cancel_free (interrupt_flag);
  interrupt_flag = NULL;
}

int
cli_run_solve (const cli_solve_command *cmd, int argc, char **argv, cli_option *opts,
               size_t nopts, void *job)
{
  bool help = false;
  int status = cli_parse_options (argc, argv, 1, opts, nopts, &help);

  if (status == CLI_EXIT_OK && help)
    cmd->usage ();
  else if (status == CLI_EXIT_OK)
    status = cmd->parse (opts, job);
  if (status == CLI_EXIT_OK && !help)
    {
      fr_cancel *cancel = cli_interrupt_install ();
      if (cancel == NULL)
        status = cli_fail (CLI_EXIT_FAILURE, "out of memory");
      else
        {
          cmd->set_cancel (job, cancel);
          status = cmd->run (job);
          /* Past this point an interrupt no longer cancels anything. */
          if (status == CLI_EXIT_OK)
            status = fr_cancel_raised (cancel) ? cli_fail (CLI_EXIT_FAILURE, "interrupted")
                                               : cmd->write (job);
          cli_interrupt_remove ();
          cmd->set_cancel (job, NULL);
          if (status == CLI_EXIT_OK)
            cmd->report (job);
        }
    }
  cmd->clear (job);
  cli_options_clear (opts, nopts);
  return status;
}

int
cli_write_time_and_rays (const fr_grid *g, const double *time, bool double_precision,
                         const char *out_path, const char *rays_path, int ndim,
                         const fr_csv_ray *rays, size_t nrays)
{
  size_t n = fr_grid_count (g);
  fr_atomic_file rays_file = { 0 };
  float *t32 = NULL;
  fr_array t;
  fr_error err = { 0 };
  fr_status st;

  if (rays_path != NULL)
    {
      if (fr_atomic_open (&rays_file, rays_path, &err) != FR_OK)
        return cli_fail_error (&err, "--rays-out");
      if (fr_csv_write_rays_to (rays_file.fp, ndim, rays, nrays, &err) != FR_OK)
        {
          fr_atomic_abort (&rays_file);
          return cli_fail_error (&err, rays_path);
        }
    }

  if (double_precision)
    t = fr_array_wrap_grid (g, FR_F64, time);
  else
    {
      t32 = malloc (n * sizeof *t32);
      if (t32 == NULL)
        {
          fr_atomic_abort (&rays_file);
          return cli_fail (CLI_EXIT_FAILURE, "out of memory");
        }
      for (size_t i = 0; i < n; i++)
        t32[i] = (float) time[i];
      t = fr_array_wrap_grid (g, FR_F32, t32);
    }
  st = fr_npy_write (out_path, &t, &err);
  free (t32);
  if (st != FR_OK)
    {
      fr_atomic_abort (&rays_file);
      /* Whatever the library says, failing to write an output is exit 1. */
      err.code = err.code == FR_E_NOMEM ? FR_E_NOMEM : FR_E_IO;
      return cli_fail_error (&err, out_path);
    }

  if (rays_path != NULL && fr_atomic_commit (&rays_file, &err) != FR_OK)
    {
      fr_atomic_abort (&rays_file);
      unlink (out_path);
      return cli_fail_error (&err, rays_path);
    }
  return CLI_EXIT_OK;
}

int
cli_trace_rays (const fr_grid *g, const double *time, const fr_points *rc, int ndim,
                cli_ray_fn ray, const void *result, const char *receivers_path, cli_rays *out)
{
  if (rc->count == 0)
    return CLI_EXIT_OK;
  out->ray = calloc (rc->count, sizeof *out->ray);
  if (out->ray == NULL)
    return cli_fail (CLI_EXIT_FAILURE, "out of memory");
  for (size_t k = 0; k < rc->count; k++)
    {
      const double *p = rc->xyz + k * (size_t) ndim;
      const double y = ndim == 3 ? p[1] : 0.0;
      size_t ix, iy = 0, iz;
      double *pts;
      size_t n;
      fr_error err = { 0 };

      if (!fr_grid_nearest_node (g, p[0], y, p[ndim - 1], &ix, &iy, &iz))
        return cli_fail (CLI_EXIT_FAILURE, "receiver %zu: lost its node", k);
      if (!isfinite (time[fr_grid_index (g, ix, ndim == 3 ? iy : 0, iz)]))
        {
          out->unreached++;
          continue;
        }
      if (ray (result, p, &pts, &n, &err) != FR_OK)
        return cli_fail_error (&err, receivers_path);
      out->ray[out->count++] = (fr_csv_ray) { .receiver = k, .npoints = n, .points = pts };
    }
  return CLI_EXIT_OK;
}

void
cli_note_unreached (const cli_rays *r, const char *how)
{
  if (r->unreached > 0)
    cli_note ("%zu receiver%s not reached%s: no ray written for %s", r->unreached,
              r->unreached == 1 ? " is" : "s are", how, r->unreached == 1 ? "it" : "them");
}

void
cli_rays_clear (cli_rays *r)
{
  for (size_t i = 0; i < r->count; i++)
    free ((double *) r->ray[i].points);
  free (r->ray);
  *r = (cli_rays) { 0 };
}
