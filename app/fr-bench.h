/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The interaction benchmarks (`foldray --bench-interaction`): drags a
 * source (with --bench-receiver a receiver) along a scripted path through
 * the same code the pointer uses, and measures the latency from each input
 * event to the first frame that shows a result including it; with
 * --bench-edit (fr-bench-edit.c), drags
 * a node of a drawn model and measures what each move costs the main
 * thread. */
#pragma once

#include "fr-window.h"

G_BEGIN_DECLS

typedef struct
{
  int             size;       /* grid nodes per side */
  FrRadius        radius;
  int             moves;      /* pointer moves, one per timer tick */
  fr_spr_backend  backend;
  const char     *csv_path;   /* NULL: bench-interaction.csv */
  gboolean        fold;       /* drag the ψa arrow's tip in folds mode */
  gboolean        edit;       /* drag an interface node (fr_bench_edit_start) */
  gboolean        receiver;   /* drag a receiver, not the source: rays traced from the
                               * solve kept, none run (fr-kept-solve.h) */
} FrBenchOptions;

void fr_bench_start      (FrWindow             *window,
                          const FrBenchOptions *options);
void fr_bench_edit_start (FrWindow             *window,
                          const FrBenchOptions *options);

G_END_DECLS
