/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-common.h"
#include "cli-interrupt.h"
#include "fr-array.h"
#include "fr-atomic-file.h"
#include "fr-npy.h"

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
          cli_outputs out = { 0 };

          cmd->set_cancel (job, cancel);
          status = cmd->run (job);
          if (status == CLI_EXIT_OK)
            status = fr_cancel_raised (cancel) ? cli_fail (CLI_EXIT_FAILURE, "interrupted")
                                               : cmd->write (job, &out);
          cmd->set_cancel (job, NULL);
          /* The report (--stats) is output too: the files are committed
           * only once it reached stdout.  The handlers stay until the
           * files are committed or removed: a signal while the report
           * waits on a full pipe, or before the commit, removes them and
           * exits 1 instead of killing us with the temporary files left. */
          if (status == CLI_EXIT_OK)
            {
              cmd->report (job);
              if (fflush (stdout) != 0 || ferror (stdout))
                status = fr_cancel_raised (cancel)
                           ? cli_fail (CLI_EXIT_FAILURE, "interrupted")
                           : cli_fail (CLI_EXIT_FAILURE,
                                       "standard output: cannot write the report: %s",
                                       strerror (errno));
            }
          if (status == CLI_EXIT_OK && fr_cancel_raised (cancel))
            status = cli_fail (CLI_EXIT_FAILURE, "interrupted");
          /* A signal during the commit (fsync, rename) waits for it. */
          if (status == CLI_EXIT_OK)
            status = cli_outputs_commit (&out);
          else
            cli_outputs_abort (&out);
          cli_interrupt_remove ();
        }
    }
  cmd->clear (job);
  cli_options_clear (opts, nopts);
  return status;
}

int
cli_stage_time_and_rays (const fr_grid *g, const double *time, bool double_precision,
                         const char *out_path, const char *rays_path, int ndim,
                         const fr_csv_ray *rays, size_t nrays, cli_outputs *out)
{
  size_t n = fr_grid_count (g);
  float *t32 = NULL;
  fr_array t;
  fr_error err = { 0 };
  fr_status st;

  *out = (cli_outputs) { 0 };
  if (rays_path != NULL)
    {
      if (fr_atomic_open (&out->rays, rays_path, &err) != FR_OK)
        return cli_fail_error (&err, "--rays-out");
      if (fr_csv_write_rays_to (out->rays.fp, ndim, rays, nrays, &err) != FR_OK)
        {
          cli_outputs_abort (out);
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
          cli_outputs_abort (out);
          return cli_fail (CLI_EXIT_FAILURE, "out of memory");
        }
      for (size_t i = 0; i < n; i++)
        t32[i] = (float) time[i];
      t = fr_array_wrap_grid (g, FR_F32, t32);
    }
  st = fr_atomic_open (&out->time, out_path, &err);
  if (st == FR_OK)
    st = fr_npy_write_to (out->time.fp, out_path, &t, &err);
  free (t32);
  if (st != FR_OK)
    {
      cli_outputs_abort (out);
      /* Whatever the library says, failing to write an output is exit 1. */
      err.code = err.code == FR_E_NOMEM ? FR_E_NOMEM : FR_E_IO;
      return cli_fail_error (&err, out_path);
    }
  return CLI_EXIT_OK;
}

/* A second name, beside it, for the plain file at path, so that a commit
 * that must be undone can put it back; NULL when there is none, or when
 * the file system takes no hard links (the undo can then only remove). */
static char *
keep_old (const char *path)
{
  const char *slash = strrchr (path, '/');
  const int dir_len = slash != NULL ? (int) (slash - path + 1) : 0;
  const size_t size = strlen (path) + 16;
  struct stat st;
  char *keep;

  if (lstat (path, &st) != 0 || !S_ISREG (st.st_mode) || (keep = malloc (size)) == NULL)
    return NULL;
  for (int attempt = 0; attempt < 8; attempt++)
    {
      /* mkstemp finds a free name; link then needs it free again. */
      snprintf (keep, size, "%.*s.%s.old-XXXXXX", dir_len, path, path + dir_len);
      int fd = mkstemp (keep);
      if (fd < 0)
        break;
      close (fd);
      unlink (keep);
      if (link (path, keep) == 0)
        return keep;
      if (errno != EEXIST)
        break;
    }
  free (keep);
  return NULL;
}

int
cli_outputs_commit (cli_outputs *out)
{
  fr_error err = { 0 };
  const bool time_staged = out->time.fp != NULL, rays_staged = out->rays.fp != NULL;
  char *time_path = NULL;
  char *old_time = NULL;
  int status = CLI_EXIT_OK;

  /* Every step that may fail for want of space (flush, fsync, close) is
   * taken for both files before either replaces its old file: a failure
   * there leaves both old files untouched. */
  if ((time_staged && fr_atomic_prepare (&out->time, &err) != FR_OK)
      || (rays_staged && fr_atomic_prepare (&out->rays, &err) != FR_OK))
    {
      cli_outputs_abort (out);
      return cli_fail_error (&err, NULL);
    }
  time_path = time_staged ? strdup (out->time.path) : NULL;
  /* Where both go, the T they replace is kept until the rays are in. */
  old_time = time_staged && rays_staged && time_path != NULL ? keep_old (time_path) : NULL;
  if (time_staged && fr_atomic_commit (&out->time, &err) != FR_OK)
    status = cli_fail_error (&err, NULL);
  else if (rays_staged && fr_atomic_commit (&out->rays, &err) != FR_OK)
    {
      /* T alone would be half of the outputs: the old T comes back, or
       * where there was none (or no second name), the new one goes. */
      if (old_time != NULL && rename (old_time, time_path) == 0)
        {
          free (old_time);
          old_time = NULL;
        }
      else if (time_path != NULL)
        unlink (time_path);
      status = cli_fail_error (&err, NULL);
    }
  if (old_time != NULL)
    unlink (old_time);
  cli_outputs_abort (out);
  free (old_time);
  free (time_path);
  return status;
}

void
cli_outputs_abort (cli_outputs *out)
{
  fr_atomic_abort (&out->time);
  fr_atomic_abort (&out->rays);
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
