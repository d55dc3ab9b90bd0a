/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shots fired one at a time (FrJob.shot >= 0): each source solved alone,
 * every shot's arrival times at the receivers kept (FrShots), and T and
 * the rays of the shot shown as the result's own, so that everything that
 * reads one T reads that shot's.  Every shot's T is kept too, where memory
 * allows, and a job takes a shot whose source has not moved from the last
 * result's shots instead of solving it again (the window's
 * fr_shot_job_reuse): another source selected shows its shot at once, and
 * a source dragged solves only its own shot. */
#pragma once

#include "fr-job.h"

G_BEGIN_DECLS

/* The largest sum of the shots' T fields kept for showing or reusing a
 * shot without solving; beyond it every shot is solved each time. */
#define FR_SHOT_FIELDS_MAX_BYTES ((gsize) 256 << 20)

/* Every shot of a solve, shot by shot in the order of the sources.
 * Refcounted and never changed once made: results, and the jobs that take
 * shots from them, share it. */
typedef struct _FrShots
{
  guint      n;             /* shots: one per source */
  double    *sources;       /* 2·n: each shot's source x, z */
  guint      n_receivers;   /* those of the job that made them */
  float     *times;         /* n × n_receivers first-arrival times: T at each receiver's
                             * node, +inf where unreached */
  GPtrArray *rays;          /* n GPtrArray, per receiver a GArray of double x, z */
  GPtrArray *fields;        /* n GBytes of nx·nz float T, or NULL: not kept (memory) */
  char      *backend;       /* the back end that solved the last of them */
} FrShots;

FrShots  *fr_shots_ref             (FrShots         *shots);
void      fr_shots_unref           (FrShots         *shots);

FrResult *fr_shot_job_run          (FrJob           *job,
                                    const fr_cancel *cancel,
                                    gboolean        *cancelled);
gboolean  fr_shot_job_reuse        (FrJob           *job,
                                    FrResult        *solved);
guint     fr_shot_job_n_kept       (const FrJob     *job);
gboolean  fr_shot_job_reuses_solve (const FrJob     *job);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FrShots, fr_shots_unref)

G_END_DECLS
