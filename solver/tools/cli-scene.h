/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `--scene S.json` for `spr` and `fold`: the scene becomes the flags it
 * stands for (a rasterised velocity grid, spacing, origin, sources,
 * receivers, radius, back end, ψa, method; for `fold` the scene's starting
 * horizon as a temporary `--horizon` CSV in place of the sources, its
 * characteristic points in place of the receivers, and a
 * constant F as `--speed-const` with `--shape`), and flags given on the
 * command line override the scene's values.  Builds without json-glib answer
 * `--scene` with exit 2. */
#pragma once

/* Runs a subcommand, expanding --scene first when it is given (spr and
 * fold only, once).  The temporary folder (in TMPDIR) is gone when it
 * returns, and also when SIGINT, SIGTERM or SIGHUP ends the process;
 * messages name the scene, never the temporary files. */
int cli_run_with_scene (const char *subcommand, int (*run) (int argc, char **argv),
                        int argc, char **argv);
