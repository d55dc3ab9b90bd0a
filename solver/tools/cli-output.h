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
 * (fr_atomic_file) and committed together once nothing else can fail. */
typedef struct cli_outputs {
  fr_atomic_file time, rays;
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

/* Writes T as float32 (or float64 with double_precision) for out_path and,
 * when rays_path is set, the rays as CSV for it, into temporary files.
 * Returns a CLI exit code, having reported any failure and removed what it
 * wrote. */
int cli_stage_time_and_rays (const fr_grid *g, const double *time, bool double_precision,
                             const char *out_path, const char *rays_path, int ndim,
                             const fr_csv_ray *rays, size_t nrays, cli_outputs *out);

/* Flushes both staged files to disk (fr_atomic_prepare), and only then
 * renames them into place, T first: a disk that is full or fails leaves
 * both old files untouched.  If the rays' rename then fails, the T that
 * was there before comes back (or the new one is removed), so that a
 * failure leaves the files as they were.  Returns a CLI exit code. */
int cli_outputs_commit (cli_outputs *out);

/* Removes the staged files; safe on a zeroed or committed cli_outputs. */
void cli_outputs_abort (cli_outputs *out);

/* The rays of a solve, one per receiver that a source reached. */
typedef struct cli_rays {
  fr_csv_ray *ray;
  size_t count;
  size_t unreached;           /* receivers whose node T is +inf: no ray */
} cli_rays;

/* A solver's ray from the receiver at p (ndim coordinates, x first, z
 * last) back to a source, as fr_fold_ray and fr_spr_ray. */
typedef fr_status (*cli_ray_fn) (const void *result, const double *p, double **pts, size_t *n,
                                 fr_error *err);

/* Traces one ray per receiver of rc whose nearest node in g has a finite
 * time; the others are counted in out->unreached.  A failure is reported
 * against receivers_path.  Returns a CLI exit code; out holds what was
 * traced either way (cli_rays_clear). */
int cli_trace_rays (const fr_grid *g, const double *time, const fr_points *rc, int ndim,
                    cli_ray_fn ray, const void *result, const char *receivers_path,
                    cli_rays *out);

/* A note naming the receivers no ray was written for, if any: "N
 * receiver(s) ... not reached<how>: no ray written for it/them". */
void cli_note_unreached (const cli_rays *r, const char *how);

void cli_rays_clear (cli_rays *r);
