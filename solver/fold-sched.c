/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LAS and SOLAS: which subdomains are solved, in what order, by which
 * thread (Gillberg, Bruaset, Hjelle & Sourouri 2014).
 *
 * State per subdomain: an active flag and an activation value SD (the
 * least time among the values that activated it: where the new
 * information starts), both guarded by the subdomain's compute lock.
 *
 * A schedule is a list of active subdomains.  A pass solves each listed
 * subdomain that is still active, in parallel (dynamic OpenMP loop):
 *   lock S; take its flag; one PMM sweep; S stays active (SD = least new
 *   value) only when one of its inner nodes changed; unlock S;
 *   then, one direction at a time (faces, then edges, corners), lock the
 *   neighbour N, lower N's ghost copies from S's inner nodes, and activate N
 *   when one was lowered (SD_N = min(SD_N, least lowered value)); unlock N.
 * No thread ever holds two locks, so there is no deadlock, and a subdomain
 * is never read while a neighbour writes its ghosts.  Ghosts written during
 * a pass are seen by subdomains solved later in the same pass.
 *
 * A schedule is passed over again while more than 1/64 of it stays active;
 * then a new one is built from all active subdomains:
 *   LAS:   all of them;
 *   SOLAS: those with SD < Av + 0.4·max(0, Av − oldAv), Av the mean SD of the
 *          active subdomains and oldAv the previous schedule's; at least
 *          MinAct (the MinAct least SD) so that every thread has work.
 * The solve ends when no subdomain is active. */
#include "foldray-config.h"
#include "fold-private.h"
#include "fr-omp.h"

#include <stdlib.h>
#include <string.h>

typedef struct fold_state {
  const fold_layout *L;
  const fold_stencil *st;
  const fold_ops *ops;
  char *T;                    /* nblocks·bsize REALs */
  const float *F;
  fr_omp_lock *locks;
  uint8_t *active;
  double *sd;
  uint32_t *stamp;            /* nblocks·bsize: when each value last changed */
  uint32_t *counter;          /* per subdomain: sub-sweeps run so far */
  int ndirs;
  int dirs[26][3];            /* neighbour directions: faces first, then edges, corners */
} fold_state;

/* Solves subdomain k once and shares its boundary; returns 1 when swept. */
static int
solve_one (fold_state *s, size_t k)
{
  const fold_layout *L = s->L;
  char *Tk = s->T + k * L->bsize * s->ops->esize;
  double minchg;
  bool changed;

  fr_omp_lock_set (&s->locks[k]);
  if (!s->active[k])
    {
      fr_omp_lock_unset (&s->locks[k]);
      return 0;
    }
  s->active[k] = 0;
  s->sd[k] = INFINITY;
  changed = s->ops->sweep (s->st, L, Tk, s->F + k * L->bsize, s->stamp + k * L->bsize,
                           &s->counter[k], &minchg);
  if (changed)
    {
      s->active[k] = 1;
      s->sd[k] = minchg;
    }
  fr_omp_lock_unset (&s->locks[k]);

  if (!changed)
    return 1;
  /* Only this thread writes S's inner nodes now (S sits once in a
   * schedule), so reading them unlocked is safe. */
  size_t bx = k % L->nb[0], by = (k / L->nb[0]) % L->nb[1], bz = k / (L->nb[0] * L->nb[1]);
  for (int d = 0; d < s->ndirs; d++)
    {
      const int *dir = s->dirs[d];
      ptrdiff_t nk = fold_block_id (L, (ptrdiff_t) bx + dir[0], (ptrdiff_t) by + dir[1],
                                    (ptrdiff_t) bz + dir[2]);
      if (nk < 0)
        continue;
      double minlow;
      fr_omp_lock_set (&s->locks[nk]);
      /* Stamped so that every direction of N's next sweep sees it. */
      if (s->ops->push (L, Tk, s->T + (size_t) nk * L->bsize * s->ops->esize,
                        s->stamp + (size_t) nk * L->bsize, s->counter[nk] + 1, dir, &minlow))
        {
          s->active[nk] = 1;
          if (minlow < s->sd[nk])
            s->sd[nk] = minlow;
        }
      fr_omp_lock_unset (&s->locks[nk]);
    }
  return 1;
}

typedef struct sd_item {
  double sd;
  size_t k;
} sd_item;

static int
cmp_sd (const void *a, const void *b)
{
  const sd_item *x = a, *y = b;
  if (x->sd < y->sd)
    return -1;
  if (x->sd > y->sd)
    return 1;
  return x->k < y->k ? -1 : (x->k > y->k);
}

fr_status
fold_solve_cpu (const fold_problem *pb, double *out, fold_stats *stats, fr_error *err)
{
  fold_layout L;
  fold_stencil st;
  fold_state s = { 0 };
  fr_status status = FR_OK;
  const fr_grid *g = pb->grid;
  int threads = pb->threads;

  fold_layout_init (&L, g, pb->block);
  fold_stencil_build (&st, &L, g, pb->psi);
  if (!FOLDRAY_HAVE_OPENMP)
    threads = 1;              /* a request for more cannot be met */
  else if (threads <= 0)
    threads = fr_omp_max_threads ();
  memset (stats, 0, sizeof *stats);
  stats->threads = threads;

  s.L = &L;
  s.st = &st;
  s.ops = fold_ops_get (pb->double_precision);
  s.ndirs = fold_neighbour_dirs (g->ndim, s.dirs);

  uint8_t *solvable = calloc (L.nblocks, 1);
  size_t *sched = malloc (L.nblocks * sizeof *sched);
  sd_item *items = malloc (L.nblocks * sizeof *items);
  s.T = malloc (L.nblocks * L.bsize * s.ops->esize);
  s.locks = malloc (L.nblocks * sizeof *s.locks);
  s.active = calloc (L.nblocks, 1);
  s.sd = malloc (L.nblocks * sizeof *s.sd);
  s.stamp = malloc (L.nblocks * L.bsize * sizeof *s.stamp);
  s.counter = calloc (L.nblocks, sizeof *s.counter);
  /* The start values as grids: t0 in out (the solution's grid, written
   * only at the end), frozen only where a boundary grid gives some. */
  const size_t count = fr_grid_count (g);
  uint8_t *frozen = pb->start.any_frozen ? malloc (count) : NULL;
  float *F = NULL;
  if (solvable != NULL && (frozen != NULL || !pb->start.any_frozen))
    {
      fold_starts_to_grids (&pb->start, count, out, frozen);
      F = fold_blocks_speed (&L, pb->speed, frozen, solvable, threads);
    }
  free (frozen);
  s.F = F;
  if (!solvable || !sched || !items || !s.T || !s.locks || !s.active || !s.sd || !s.stamp
      || !s.counter || !F)
    {
      status = fr_error_set (err, FR_E_NOMEM, "out of memory for %zu subdomains", L.nblocks);
      goto out;
    }
  for (size_t k = 0; k < L.nblocks; k++)
    fr_omp_lock_init (&s.locks[k]);
  s.ops->scatter (&L, out, s.T, threads);
  /* Counters start at nsub so that "since" never wraps; stamps past the
   * first sweep's counts make it evaluate every node. */
  for (size_t q = 0; q < L.nblocks * L.bsize; q++)
    s.stamp[q] = 2 * (uint32_t) st.nsub;
  for (size_t k = 0; k < L.nblocks; k++)
    s.counter[k] = (uint32_t) st.nsub;

  /* Initially active: every solvable subdomain that sees a finite value,
   * inner or ghost. */
  for (size_t k = 0; k < L.nblocks; k++)
    {
      s.sd[k] = INFINITY;
      if (!solvable[k])
        continue;
      stats->subdomains++;
      double mn = INFINITY;
      const char *Tk = s.T + k * L.bsize * s.ops->esize;
      for (size_t q = 0; q < L.bsize; q++)
        {
          double v = s.ops->esize == sizeof (float) ? (double) ((const float *) Tk)[q]
                                                    : ((const double *) Tk)[q];
          if (v < mn)
            mn = v;
        }
      if (mn < INFINITY)
        {
          s.active[k] = 1;
          s.sd[k] = mn;
        }
    }

  const size_t min_act = (size_t) (threads > 2 ? 2 * threads : 4);
  double old_av = NAN;
  for (;;)
    {
      size_t nact = 0, nsched = 0;
      double sum = 0.0;
      for (size_t k = 0; k < L.nblocks; k++)
        if (s.active[k])
          {
            items[nact].sd = s.sd[k];
            items[nact].k = k;
            sum += s.sd[k];
            nact++;
          }
      if (nact == 0)
        break;
      if (fr_cancel_raised (pb->cancel))
        {
          status = fr_error_set (err, FR_E_CANCELLED, "the fold solve was cancelled");
          goto out;
        }
      stats->schedules++;
      if (pb->method == FR_FOLD_LAS)
        {
          for (size_t i = 0; i < nact; i++)
            sched[nsched++] = items[i].k;
        }
      else
        {
          double thr = fold_solas_threshold (sum / (double) nact, &old_av);
          for (size_t i = 0; i < nact; i++)
            if (items[i].sd < thr)
              sched[nsched++] = items[i].k;
          if (nsched < min_act)
            {
              /* Too few to keep the threads busy: the MinAct earliest. */
              qsort (items, nact, sizeof *items, cmp_sd);
              nsched = nact < min_act ? nact : min_act;
              for (size_t i = 0; i < nsched; i++)
                sched[i] = items[i].k;
            }
        }

      size_t still;
      do
        {
          uint64_t sweeps = 0;
          if (fr_cancel_raised (pb->cancel))
            {
              status = fr_error_set (err, FR_E_CANCELLED, "the fold solve was cancelled");
              goto out;
            }
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(+:sweeps) if(nsched > 1)
          for (size_t i = 0; i < nsched; i++)
            sweeps += (uint64_t) solve_one (&s, sched[i]);
          stats->sweeps += sweeps;
          stats->iterations++;
          still = 0;
          for (size_t i = 0; i < nsched; i++)
            still += s.active[sched[i]];
        }
      while (still > nsched / 64);
    }

  s.ops->gather (&L, s.T, out, threads);

out:
  if (s.locks != NULL)
    for (size_t k = 0; k < L.nblocks && status != FR_E_NOMEM; k++)
      fr_omp_lock_destroy (&s.locks[k]);
  free (solvable);
  free (sched);
  free (items);
  free (s.T);
  free (s.locks);
  free (s.active);
  free (s.sd);
  free (s.stamp);
  free (s.counter);
  free (F);
  return status;
}
