/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The temporary folder through which `--scene` hands the subcommand its
 * grid, receivers and horizon (cli-scene.c), removed on every way out:
 * from cli_scratch_begin to cli_scratch_end, SIGINT, SIGTERM and SIGHUP
 * remove it and then take their usual course (a signal ignored from the
 * start stays ignored).  Only with json-glib (FOLDRAY_HAVE_SCENE). */
#pragma once

#include <stdbool.h>

#include <glib.h>

enum { SCRATCH_VELOCITY, SCRATCH_RECEIVERS, SCRATCH_HORIZON, N_SCRATCH };

/* Makes the folder (under TMPDIR); signals are caught from now on. */
bool cli_scratch_begin (GError **error);

/* The files are whole: from now on a signal removes them at once (one
 * that came while they were written acts now). */
void cli_scratch_ready (void);

/* Removes the folder and gives the signals back; one that came meanwhile
 * then takes its course. */
void cli_scratch_end (void);

/* The folder ("" before cli_scratch_begin) and the path of file which. */
const char *cli_scratch_dir (void);
const char *cli_scratch_file (int which);

/* A file in memory (not in the folder) for the subcommand's stderr; -1
 * when none could be made. */
int cli_scratch_capture (void);
