/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-output.h"

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
