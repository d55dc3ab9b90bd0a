/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shots fired one at a time (FrJob.shot >= 0): each source solved alone,
 * every shot's arrival times at the receivers kept, and T and the rays of
 * the shot shown as the result's own, so that everything that reads one T
 * reads that shot's.  Every shot's T and rays are kept too, where memory
 * allows, and a job that only shows another shot of the same solves (the
 * user selected another source) takes them from that result instead of
 * solving again. */
#pragma once

#include "fr-job.h"

G_BEGIN_DECLS

/* The largest sum of the shots' T fields a result keeps for showing
 * another shot without solving; beyond it a new shot shown is solved. */
#define FR_SHOT_FIELDS_MAX_BYTES ((gsize) 256 << 20)

FrResult *fr_shot_job_run          (FrJob           *job,
                                    const fr_cancel *cancel,
                                    gboolean        *cancelled);
gboolean  fr_shot_job_reuse        (FrJob           *job,
                                    FrResult        *solved);
gboolean  fr_shot_job_reuses_solve (const FrJob     *job);

G_END_DECLS
