/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the solving subcommands (spr, fold) share around a solve: SIGINT /
 * SIGTERM cancel it, and its outputs are written all or nothing. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "fr-cancel.h"
#include "fr-csv.h"
#include "fr-grid.h"

/* Installs SIGINT and SIGTERM handlers that raise the returned flag (an
 * interrupted run stops between passes and leaves no file behind).
 * Returns NULL when out of memory; pair with cli_interrupt_remove. */
fr_cancel *cli_interrupt_install (void);

/* Restores the previous handlers and frees the flag. */
void cli_interrupt_remove (void);

/* Writes T as float32 (or float64 with double_precision) to out_path and,
 * when rays_path is set, the rays as CSV, so that a failure of either leaves
 * neither file behind: the rays go to a temporary file first, T is written
 * atomically, and the rays are committed only after T succeeded (T is
 * removed if that commit fails).  Returns a CLI exit code, having reported
 * any failure. */
int cli_write_time_and_rays (const fr_grid *g, const double *time, bool double_precision,
                             const char *out_path, const char *rays_path, int ndim,
                             const fr_csv_ray *rays, size_t nrays);
