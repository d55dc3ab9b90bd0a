/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The local solver's per-node arithmetic in one precision.  fold-private.h
 * includes this twice: with FL_REAL = double (names as they are: fold_tau,
 * fold_edge_cand, ...) and with FL_REAL = float (names ending in _f).
 *
 * Single precision solves in 2D do their per-node arithmetic in float; the
 * constants that depend on the speed only are computed in double and
 * rounded once (fold_coef2d_set).  Every operation here is an IEEE-rounded
 * float or double operation (sqrt through FL_SQRT, no library calls, no
 * contraction: fold-cuda.cu is built with -fmad=false), so the CPU and the
 * GPU compute the same update, bit for bit, from the same inputs.  Their
 * final times still differ by an ulp or so at a few nodes: rounded updates
 * are not exactly monotone in their inputs, so the fixed point depends on
 * the order of the updates (LAS and SOLAS on the CPU differ as much; in
 * double the same happens at the 1e-16 level).  Literals are cast to
 * FL_REAL so that the float instance never widens to double. */

#ifndef FL_REAL
#error "define FL_REAL, FL_SQRT and FL_FN before including fold-local.h"
#endif

#define FL_K(x) ((FL_REAL) (x))

/* τ for a displacement with ψ·d = m and |d|² = dd (see the top of
 * fold-private.h). */
static inline FOLD_HD FL_REAL
FL_FN (fold_tau) (FL_REAL m, FL_REAL dd, FL_REAL c)
{
  if (dd <= FL_K (0))
    return FL_K (0);
  return dd / (m + FL_SQRT (m * m + c * dd));
}

/* Branch-free min/max for values that are never NaN (times are finite or
 * +inf): fmin/fmax are library calls unless NaNs are ruled out globally. */
static inline FOLD_HD FL_REAL
FL_FN (fold_min) (FL_REAL a, FL_REAL b)
{
  return b < a ? b : a;
}

static inline FOLD_HD FL_REAL
FL_FN (fold_max) (FL_REAL a, FL_REAL b)
{
  return b > a ? b : a;
}

/* An edge's candidate, given its constants for this speed (c = F² − |ψ|²,
 * α, β and D = max(0, αγ − β²); see fold_edge_time), or +inf unless its
 * minimiser lies strictly inside. */
static inline FOLD_HD FL_REAL
FL_FN (fold_edge_cand) (const FL_EDGE *e, FL_REAL c, FL_REAL alpha, FL_REAL beta, FL_REAL D,
                        FL_REAL T1, FL_REAL T2)
{
  const FL_REAL dT = T2 - T1;
  const FL_REAL kappa = c * dT + e->m1;
  const FL_REAL den = alpha - kappa * kappa;

  if (!(den > FL_K (0)))
    return (FL_REAL) INFINITY;
  /* Conditional upwind first, without the root: λ = (β + u)/α with
   * u = −κ sqrt(D/den) lies in (0, 1) iff −β < u < α − β; compare
   * u² den = κ² D with the squares.  Most edges fail here (their
   * characteristic passes outside), and a wrong call is only possible when
   * λ is 0 or 1 to rounding, where the edge value is its vertex's. */
  const FL_REAL bma = beta - alpha;
  const FL_REAL kD = kappa * kappa * D;
  if (kappa >= FL_K (0))
    {
      /* u <= 0 */
      if (beta <= FL_K (0) || kD >= beta * beta * den
          || (bma >= FL_K (0) && kD <= bma * bma * den))
        return (FL_REAL) INFINITY;
    }
  else if (bma >= FL_K (0) || kD >= bma * bma * den
           || (beta <= FL_K (0) && kD <= beta * beta * den))
    return (FL_REAL) INFINITY;   /* u > 0 */
  /* s = sqrt(Q(λ)) at the minimiser (Q(λ) = D/den there), which is also
   * fold_tau's root sqrt(m² + c dd): one root per edge instead of two. */
  const FL_REAL sq = FL_SQRT (D / den);
  FL_REAL u = -kappa * sq;
  FL_REAL lambda = (beta + u) / alpha;
  if (!(lambda > FL_K (0) && lambda < FL_K (1)))
    return (FL_REAL) INFINITY;
  FL_REAL m = e->m0 - lambda * e->m1;
  FL_REAL dd = e->dd0 - FL_K (2) * lambda * e->de + lambda * lambda * e->ee;
  if (!(m + sq > FL_K (0)))
    return T1 + lambda * dT + FL_FN (fold_tau) (m, dd, c);
  return T1 + lambda * dT + dd / (m + sq);
}

/* 2D: a diagonal base node (n = 0 or 2 of a sub-sweep) lies behind a
 * diagonal wall when the node straight behind (n = 1) and the apex's
 * neighbour on the same side are both obstacles (F = 0): the path would
 * squeeze through the point where their cells touch.  Such a base node
 * then offers nothing (its T is taken as +inf); the edges need no rule,
 * since n = 1, their shared end, is an obstacle and never reached.  F is
 * the blocked layout's (obstacles marked among the ghosts too), o the
 * apex, o1 the offset of n = 1, su the stride along the plane. */
static inline FOLD_HD void
FL_FN (fold_diagonal_walls_2d) (const float *F, ptrdiff_t o, ptrdiff_t o1, ptrdiff_t su,
                                FL_REAL *T0, FL_REAL *T2)
{
  if (F[o + o1] == 0.0f)
    {
      if (F[o - su] == 0.0f)
        *T0 = (FL_REAL) INFINITY;
      if (F[o + su] == 0.0f)
        *T2 = (FL_REAL) INFINITY;
    }
}

#ifdef FOLD_LOCAL_STENCIL
/* A 2D sub-sweep's constants for one speed F: the stencil's geometry and
 * what depends on F, computed in double (fold_tau, fold_edge_consts) and
 * rounded to FL_REAL once.  The base nodes are 0, 1, 2; edge 0 joins 1–0,
 * edge 1 joins 1–2. */
typedef struct FL_FN (fold_coef2d) {
  float F;
  FL_REAL c, tlb;
  FL_REAL vtau[3];
  FL_REAL alpha[2], beta[2], D[2];
  FL_EDGE e[2];
} FL_FN (fold_coef2d);

static inline FOLD_HD void
FL_FN (fold_coef2d_set) (FL_FN (fold_coef2d) *k, const fold_subsweep *ss, float F,
                         double psi2, double psin)
{
  const double Fd = (double) F;
  const double c = Fd * Fd - psi2;

  k->F = F;
  k->c = (FL_REAL) c;
  k->tlb = (FL_REAL) (ss->h / (Fd + psin));
  for (int n = 0; n < 3; n++)
    k->vtau[n] = (FL_REAL) fold_tau (ss->m[n], ss->dd[n], c);
  for (int q = 0; q < 2; q++)
    {
      double a, bt, D;
      fold_edge_consts (&ss->e[q], c, &a, &bt, &D);
      k->alpha[q] = (FL_REAL) a;
      k->beta[q] = (FL_REAL) bt;
      k->D[q] = (FL_REAL) D;
      k->e[q].m0 = (FL_REAL) ss->e[q].m0;
      k->e[q].m1 = (FL_REAL) ss->e[q].m1;
      k->e[q].ee = (FL_REAL) ss->e[q].ee;
      k->e[q].de = (FL_REAL) ss->e[q].de;
      k->e[q].dd0 = (FL_REAL) ss->e[q].dd0;
    }
}

/* The least candidate of a 2D stencil with base values T0, T1, T2 (+inf
 * for unknown), or best when none is lower.  The two edges are evaluated
 * independently (on the GPU their long divisions overlap). */
static inline FOLD_HD FL_REAL
FL_FN (fold_node_update_2d) (const FL_FN (fold_coef2d) *k, FL_REAL T0, FL_REAL T1, FL_REAL T2,
                             FL_REAL best)
{
  const FL_REAL tlb = k->tlb;   /* no base point is closer in time */

  if (!(FL_FN (fold_min) (T0, FL_FN (fold_min) (T1, T2)) + tlb < best))
    return best;
  best = FL_FN (fold_min) (best, T0 + k->vtau[0]);
  best = FL_FN (fold_min) (best, T1 + k->vtau[1]);
  best = FL_FN (fold_min) (best, T2 + k->vtau[2]);
  FL_REAL e0 = (FL_REAL) INFINITY, e1 = (FL_REAL) INFINITY;
  if (T1 < (FL_REAL) INFINITY)
    {
      if (T0 < (FL_REAL) INFINITY && FL_FN (fold_min) (T1, T0) + tlb < best)
        e0 = FL_FN (fold_edge_cand) (&k->e[0], k->c, k->alpha[0], k->beta[0], k->D[0], T1, T0);
      if (T2 < (FL_REAL) INFINITY && FL_FN (fold_min) (T1, T2) + tlb < best)
        e1 = FL_FN (fold_edge_cand) (&k->e[1], k->c, k->alpha[1], k->beta[1], k->D[1], T1, T2);
    }
  return FL_FN (fold_min) (best, FL_FN (fold_min) (e0, e1));
}
#endif

#undef FL_K
