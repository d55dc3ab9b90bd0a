/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The solver thread: one worker that runs jobs, latest wins.  Submitting
 * a job replaces any queued one and cancels the running one at its next
 * check; results come back to the main context tagged with their job's
 * serial, and only the newest job's result is ever emitted. */
#pragma once

#include <glib-object.h>

#include "fr-job.h"

G_BEGIN_DECLS

/* Runs job in the worker; returns NULL with *cancelled = TRUE when cancel
 * was raised.  fr_job_run is the default. */
typedef FrResult *(*FrSolveFunc) (FrJob           *job,
                                  const fr_cancel *cancel,
                                  gboolean        *cancelled,
                                  gpointer         user_data);

#define FR_TYPE_SOLVER_THREAD (fr_solver_thread_get_type ())

G_DECLARE_FINAL_TYPE (FrSolverThread, fr_solver_thread, FR, SOLVER_THREAD, GObject)

FrSolverThread *fr_solver_thread_new               (void);
void            fr_solver_thread_set_solve_func    (FrSolverThread *self,
                                                    FrSolveFunc     func,
                                                    gpointer        user_data,
                                                    GDestroyNotify  destroy);
guint           fr_solver_thread_submit            (FrSolverThread *self,
                                                    FrJob          *job);
gboolean        fr_solver_thread_is_busy           (FrSolverThread *self);
guint           fr_solver_thread_get_latest_serial (FrSolverThread *self);
guint           fr_solver_thread_get_n_dropped     (FrSolverThread *self);
guint           fr_solver_thread_get_n_cancelled   (FrSolverThread *self);

G_END_DECLS
