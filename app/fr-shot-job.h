/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shots fired one at a time (FrJob.shot >= 0): each source solved alone,
 * every shot's arrival times at the receivers and rays kept (FrShots), and
 * T and the rays of the shot shown as the result's own, so that everything
 * that reads one T reads that shot's.  Each shot's solve is taken from the
 * last result where its source has not moved (fr_job_reuse_solves,
 * fr-kept-solve.h): another source selected shows its shot at once, and a
 * source dragged solves only its own shot. */
#pragma once

#include "fr-job.h"

G_BEGIN_DECLS

/* Every shot of a solve, shot by shot in the order of the sources, as a
 * result shows them.  Refcounted and never changed once made. */
typedef struct _FrShots
{
  guint      n;             /* shots: one per source */
  double    *sources;       /* 2·n: each shot's source x, z */
  guint      n_receivers;   /* those of the job that made them */
  float     *times;         /* n × n_receivers first-arrival times: T at each receiver's
                             * node, +inf where unreached */
  GPtrArray *rays;          /* n GPtrArray, per receiver a GArray of double x, z */
} FrShots;

FrShots  *fr_shots_ref             (FrShots         *shots);
void      fr_shots_unref           (FrShots         *shots);

FrResult *fr_shot_job_run          (FrJob           *job,
                                    const fr_cancel *cancel,
                                    gboolean        *cancelled);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FrShots, fr_shots_unref)

G_END_DECLS
