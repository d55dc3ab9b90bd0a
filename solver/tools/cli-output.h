/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the solving subcommands (spr, fold) share around a solve: one
 * frame from the options to the report, SIGINT / SIGTERM / SIGHUP cancel the solve,
 * and its outputs are written all or nothing. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "cli-common.h"
#include "fr-atomic-file.h"
#include "fr-cancel.h"
#include "fr-csv.h"
#include "fr-grid.h"
#include "fr-status.h"

/* A solve's outputs, written into temporary files beside their names
 * (fr_atomic_file) and committed together once nothing else can fail, in
 * this order: T, the times at the receivers, the rays, the gather. */
typedef struct cli_outputs {
  fr_atomic_file time, times, rays, gather;
} cli_outputs;

/* A solving subcommand's own steps; job is its state, zeroed by the caller
 * and set up as far as its parse needs. */
typedef struct cli_solve_command {
  void (*usage) (void);
  int (*parse) (cli_option *opts, void *job);   /* the options into the job */
  void (*set_cancel) (void *job, fr_cancel *cancel);
  int (*run) (void *job);      /* every check and load, the solve and the rays */
  int (*write) (void *job, cli_outputs *out);   /* stage the outputs (below) */
  void (*report) (void *job);  /* notes and --stats, after a success */
  void (*clear) (void *job);
} cli_solve_command;

/* Runs a solving subcommand: parses argv against opts (--help prints its
 * usage), then runs it with SIGINT / SIGTERM / SIGHUP raising its cancel flag, stages
 * the outputs unless it was interrupted, reports, commits the outputs once
 * the report reached stdout, and frees the job and the options.  Returns
 * the CLI exit code. */
int cli_run_solve (const cli_solve_command *cmd, int argc, char **argv, cli_option *opts,
                   size_t nopts, void *job);

/* What the outputs are made of: the solve's T on its grid and what was
 * taken at the receivers (cli_trace_receivers); with a gather, each
 * source's shot fired alone, its times at the receivers. */
typedef struct cli_rays cli_rays;
typedef struct cli_solution {
  const fr_grid *grid;
  const double *time;
  bool double_precision;
  int ndim;
  const fr_points *receivers;
  const cli_rays *at_receivers;
  const fr_points *sources;      /* the gather's shots, or NULL */
  const double *shot_times;      /* sources->count × receivers->count, shot by shot */
} cli_solution;

/* Where they go: --out, and --rays-out, --times-out and --gather-out or
 * NULL. */
typedef struct cli_output_paths {
  const char *out, *rays, *times, *gather;
} cli_output_paths;

/* Writes T as float32 (or float64 with double_precision) for paths->out
 * and, where their paths are set, the rays, the times at the receivers
 * and the gather as CSV, into temporary files.  Returns a CLI exit code, having reported
 * any failure and removed what it wrote. */
int cli_stage_outputs (const cli_solution *s, const cli_output_paths *paths, cli_outputs *out);

/* Usage checks shared by the solving subcommands: --receivers goes with
 * --rays-out, --times-out or --gather-out (gather_out NULL where the
 * subcommand has none), and each of those needs it; no two outputs name
 * one file.  Returns a CLI exit code. */
int cli_check_receiver_flags (const cli_option *receivers, const cli_option *rays_out,
                              const cli_option *times_out, const cli_option *gather_out);
int cli_check_outputs_distinct (const cli_output_paths *paths);

/* Flushes every staged file to disk (fr_atomic_prepare), and only then
 * renames them into place in cli_outputs' order: a disk that is full or
 * fails leaves every old file untouched.  If a later rename then fails,
 * the files that earlier ones replaced come back (or the new ones are
 * removed where there was none), so that a failure leaves the files as
 * they were.  Returns a CLI exit code. */
int cli_outputs_commit (cli_outputs *out);

/* Removes the staged files; safe on a zeroed or committed cli_outputs. */
void cli_outputs_abort (cli_outputs *out);

/* What a solve gives at its receivers: the rays, one per receiver that a
 * source reached (traced only when asked), and the time at each receiver
 * (taken only when asked). */
struct cli_rays {
  fr_csv_ray *ray;
  size_t count;
  size_t unreached;           /* receivers whose node T is +inf: no ray, time +inf */
  double *time;               /* one per receiver, or NULL */
  bool traced, timed;         /* what was asked */
};

/* A solver's ray from the receiver at p (ndim coordinates, x first, z
 * last) back to a source, as fr_fold_ray and fr_spr_ray. */
typedef fr_status (*cli_ray_fn) (const void *result, const double *p, double **pts, size_t *n,
                                 fr_error *err);

/* How a receiver's time is read off T: at its nearest node (SPR, whose
 * receivers snap to nodes) or linearly between the nodes round it
 * (fr_grid_sample: a fold's receivers lie anywhere). */
typedef enum {
  CLI_TIME_AT_NODE,
  CLI_TIME_INTERPOLATED,
} cli_time_at;

/* For each receiver of rc, traces its ray when ray is not NULL (none for
 * a receiver whose nearest node in g has no finite time: counted in
 * out->unreached) and takes its time when want_times.  A failure is
 * reported against receivers_path.  Returns a CLI exit code; out holds
 * what was done either way (cli_rays_clear). */
int cli_trace_receivers (const fr_grid *g, const double *time, const fr_points *rc, int ndim,
                         cli_ray_fn ray, const void *result, bool want_times, cli_time_at at,
                         const char *receivers_path, cli_rays *out);

/* A note naming the receivers no source reached, if any, and what that
 * meant for the outputs: "N receiver(s) ... not reached<how>: no ray
 * written for it/them" (and "its/their time written as inf"). */
void cli_note_unreached (const cli_rays *r, const char *how);

void cli_rays_clear (cli_rays *r);
