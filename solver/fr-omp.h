/* SPDX-License-Identifier: GPL-3.0-or-later */
/* OpenMP where the build has it, one thread where it does not: the thread
 * queries and the lock that the CPU solvers use, written once, so that a
 * solver file needs no #if of its own for them.  (Without OpenMP the
 * compiler skips the parallel pragmas.) */
#pragma once

#include "foldray-config.h"

#if FOLDRAY_HAVE_OPENMP
#include <omp.h>
#endif

/* Threads that a parallel region would get. */
static inline int
fr_omp_max_threads (void)
{
#if FOLDRAY_HAVE_OPENMP
  return omp_get_max_threads ();
#else
  return 1;
#endif
}

/* Processors available to the program. */
static inline int
fr_omp_procs (void)
{
#if FOLDRAY_HAVE_OPENMP
  return omp_get_num_procs ();
#else
  return 1;
#endif
}

/* The calling thread's number in its team: 0 outside a parallel region. */
static inline int
fr_omp_thread_num (void)
{
#if FOLDRAY_HAVE_OPENMP
  return omp_get_thread_num ();
#else
  return 0;
#endif
}

/* Threads in the calling thread's team: 1 outside a parallel region. */
static inline int
fr_omp_team_size (void)
{
#if FOLDRAY_HAVE_OPENMP
  return omp_get_num_threads ();
#else
  return 1;
#endif
}

/* A lock between the threads of a team (nothing to do with one thread). */
#if FOLDRAY_HAVE_OPENMP
typedef omp_lock_t fr_omp_lock;
#else
typedef int fr_omp_lock;
#endif

static inline void
fr_omp_lock_init (fr_omp_lock *l)
{
#if FOLDRAY_HAVE_OPENMP
  omp_init_lock (l);
#else
  *l = 0;
#endif
}

static inline void
fr_omp_lock_destroy (fr_omp_lock *l)
{
#if FOLDRAY_HAVE_OPENMP
  omp_destroy_lock (l);
#else
  (void) l;
#endif
}

static inline void
fr_omp_lock_set (fr_omp_lock *l)
{
#if FOLDRAY_HAVE_OPENMP
  omp_set_lock (l);
#else
  (void) l;
#endif
}

static inline void
fr_omp_lock_unset (fr_omp_lock *l)
{
#if FOLDRAY_HAVE_OPENMP
  omp_unset_lock (l);
#else
  (void) l;
#endif
}
