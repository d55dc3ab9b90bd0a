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
cli_check_receiver_flags (const cli_option *receivers, const cli_option *rays_out,
                          const cli_option *times_out, const cli_option *gather_out)
{
  const bool gather = gather_out != NULL && gather_out->count > 0;

  if (receivers->count > 0 && rays_out->count == 0 && times_out->count == 0 && !gather)
    return cli_fail (CLI_EXIT_USAGE, gather_out != NULL
                     ? "--receivers needs --rays-out, --times-out or --gather-out as well"
                     : "--receivers needs --rays-out or --times-out as well");
  if (receivers->count == 0 && (rays_out->count > 0 || times_out->count > 0 || gather))
    return cli_fail (CLI_EXIT_USAGE, "%s needs --receivers as well",
                     rays_out->count > 0 ? "--rays-out"
                     : times_out->count > 0 ? "--times-out" : "--gather-out");
  return CLI_EXIT_OK;
}

int
cli_check_outputs_distinct (const cli_output_paths *paths)
{
  const char *const path[] = { paths->out, paths->rays, paths->times, paths->gather };
  static const char *const flag[] = { "--out", "--rays-out", "--times-out", "--gather-out" };

  for (int a = 0; a < 4; a++)
    for (int b = a + 1; b < 4; b++)
      if (path[a] != NULL && path[b] != NULL && cli_same_file (path[a], path[b]))
        return cli_fail (CLI_EXIT_USAGE, "%s and %s name the same file '%s'", flag[a], flag[b],
                         path[a]);
  return CLI_EXIT_OK;
}

/* Opens out for path and writes a CSV into it with write_fn; reports a
 * failure against flag (opening) or the path (writing). */
static int
stage_csv (fr_atomic_file *out, const char *path, const char *flag,
           fr_status (*write_fn) (FILE *fp, const cli_solution *s, fr_error *err),
           const cli_solution *s)
{
  fr_error err = { 0 };

  if (fr_atomic_open (out, path, &err) != FR_OK)
    return cli_fail_error (&err, flag);
  if (write_fn (out->fp, s, &err) != FR_OK)
    return cli_fail_error (&err, path);
  return CLI_EXIT_OK;
}

static fr_status
write_rays (FILE *fp, const cli_solution *s, fr_error *err)
{
  return fr_csv_write_rays_to (fp, s->ndim, s->at_receivers->ray, s->at_receivers->count, err);
}

static fr_status
write_times (FILE *fp, const cli_solution *s, fr_error *err)
{
  return fr_csv_write_times_to (fp, s->receivers, s->at_receivers->time, !s->double_precision,
                                err);
}

static fr_status
write_gather (FILE *fp, const cli_solution *s, fr_error *err)
{
  return fr_csv_write_shot_times_to (fp, s->sources, s->receivers, s->shot_times,
                                     !s->double_precision, err);
}

int
cli_stage_outputs (const cli_solution *s, const cli_output_paths *paths, cli_outputs *out)
{
  const fr_grid *g = s->grid;
  size_t n = fr_grid_count (g);
  float *t32 = NULL;
  fr_array t;
  fr_error err = { 0 };
  fr_status st;
  int status;

  *out = (cli_outputs) { 0 };
  if ((paths->rays != NULL
       && (status = stage_csv (&out->rays, paths->rays, "--rays-out", write_rays, s)) != CLI_EXIT_OK)
      || (paths->times != NULL
          && (status = stage_csv (&out->times, paths->times, "--times-out", write_times, s))
               != CLI_EXIT_OK)
      || (paths->gather != NULL
          && (status = stage_csv (&out->gather, paths->gather, "--gather-out", write_gather, s))
               != CLI_EXIT_OK))
    {
      cli_outputs_abort (out);
      return status;
    }

  if (s->double_precision)
    t = fr_array_wrap_grid (g, FR_F64, s->time);
  else
    {
      t32 = malloc (n * sizeof *t32);
      if (t32 == NULL)
        {
          cli_outputs_abort (out);
          return cli_fail (CLI_EXIT_FAILURE, "out of memory");
        }
      for (size_t i = 0; i < n; i++)
        t32[i] = (float) s->time[i];
      t = fr_array_wrap_grid (g, FR_F32, t32);
    }
  st = fr_atomic_open (&out->time, paths->out, &err);
  if (st == FR_OK)
    st = fr_npy_write_to (out->time.fp, paths->out, &t, &err);
  free (t32);
  if (st != FR_OK)
    {
      cli_outputs_abort (out);
      /* Whatever the library says, failing to write an output is exit 1. */
      err.code = err.code == FR_E_NOMEM ? FR_E_NOMEM : FR_E_IO;
      return cli_fail_error (&err, paths->out);
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
  fr_atomic_file *const file[] = { &out->time, &out->times, &out->rays, &out->gather };
  enum { NFILES = sizeof file / sizeof file[0] };
  char *path[NFILES] = { NULL }, *old[NFILES] = { NULL };
  bool staged[NFILES];
  fr_error err = { 0 };
  int status = CLI_EXIT_OK, last = -1, failed = -1;

  /* Every step that may fail for want of space (flush, fsync, close) is
   * taken for every file before any replaces its old file: a failure
   * there leaves every old file untouched.  (It closes the stream.) */
  for (int k = 0; k < NFILES; k++)
    if ((staged[k] = file[k]->fp != NULL))
      {
        if (fr_atomic_prepare (file[k], &err) != FR_OK)
          {
            cli_outputs_abort (out);
            return cli_fail_error (&err, NULL);
          }
        last = k;
      }
  /* The files that a later rename's failure would take back: each one
   * but the last keeps the file it replaces until all are in. */
  for (int k = 0; k < last; k++)
    if (staged[k] && (path[k] = strdup (file[k]->path)) != NULL)
      old[k] = keep_old (path[k]);
  for (int k = 0; k <= last && failed < 0; k++)
    if (staged[k] && fr_atomic_commit (file[k], &err) != FR_OK)
      failed = k;
  if (failed >= 0)
    {
      /* A part of the outputs would be worse than none: the old files
       * come back, or where there was none (or no second name), the new
       * ones go. */
      for (int k = 0; k < failed; k++)
        {
          if (path[k] == NULL)
            continue;
          if (old[k] != NULL && rename (old[k], path[k]) == 0)
            {
              free (old[k]);
              old[k] = NULL;
            }
          else
            unlink (path[k]);
        }
      status = cli_fail_error (&err, NULL);
    }
  for (int k = 0; k < NFILES; k++)
    {
      if (old[k] != NULL)
        unlink (old[k]);
      free (old[k]);
      free (path[k]);
    }
  cli_outputs_abort (out);
  return status;
}

void
cli_outputs_abort (cli_outputs *out)
{
  fr_atomic_abort (&out->time);
  fr_atomic_abort (&out->times);
  fr_atomic_abort (&out->rays);
  fr_atomic_abort (&out->gather);
}

int
cli_trace_receivers (const fr_grid *g, const double *time, const fr_points *rc, int ndim,
                     cli_ray_fn ray, const void *result, bool want_times, cli_time_at at,
                     const char *receivers_path, cli_rays *out)
{
  out->traced = ray != NULL;
  out->timed = want_times;
  if (rc->count == 0)
    return CLI_EXIT_OK;
  if ((ray != NULL && (out->ray = calloc (rc->count, sizeof *out->ray)) == NULL)
      || (want_times && (out->time = calloc (rc->count, sizeof *out->time)) == NULL))
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
      const double t_node = time[fr_grid_index (g, ix, ndim == 3 ? iy : 0, iz)];
      if (want_times)
        out->time[k] = at == CLI_TIME_AT_NODE ? t_node
                                              : fr_grid_sample (g, time, p[0], y, p[ndim - 1]);
      if (!isfinite (t_node))
        {
          out->unreached++;
          continue;
        }
      if (ray == NULL)
        continue;
      if (ray (result, p, &pts, &n, &err) != FR_OK)
        return cli_fail_error (&err, receivers_path);
      out->ray[out->count++] = (fr_csv_ray) { .receiver = k, .npoints = n, .points = pts };
    }
  return CLI_EXIT_OK;
}

void
cli_note_unreached (const cli_rays *r, const char *how)
{
  const bool one = r->unreached == 1;

  if (r->unreached == 0)
    return;
  if (r->traced && r->timed)
    cli_note ("%zu receiver%s not reached%s: no ray written for %s, %s time written as inf",
              r->unreached, one ? " is" : "s are", how, one ? "it" : "them", one ? "its" : "their");
  else if (r->traced)
    cli_note ("%zu receiver%s not reached%s: no ray written for %s", r->unreached,
              one ? " is" : "s are", how, one ? "it" : "them");
  else if (r->timed)
    cli_note ("%zu receiver%s not reached%s: %s time written as inf", r->unreached,
              one ? " is" : "s are", how, one ? "its" : "their");
}

void
cli_rays_clear (cli_rays *r)
{
  for (size_t i = 0; i < r->count; i++)
    free ((double *) r->ray[i].points);
  free (r->ray);
  free (r->time);
  *r = (cli_rays) { 0 };
}
