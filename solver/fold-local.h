/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The local solver's per-node arithmetic in one precision.  fold-private.h
 * includes this twice: with FL_REAL = double (names as they are: fold_tau,
 * fold_edge_cand, ...) and with FL_REAL = float (names ending in _f).
 *
 * Single precision solves do their per-node arithmetic in float; the
 * constants that depend on the speed only are computed in double and
 * rounded once (fold_coef2d_set, fold_coef3d_set; on the GPU in float,
 * FL_SET_FLOAT), and so is the stencil's geometry (fold_subsweep's ef and
 * tf).  Every operation here is an IEEE-rounded
 * float or double operation (sqrt through FL_SQRT, no library calls).  The
 * CPU rounds each exactly; the GPU contracts multiply-adds and divides and
 * takes roots with its faster float instructions (fold-cuda.cu), so the two
 * differ by a few ulps per update.  Even with the same operations the final
 * times would differ by an ulp or so at a few nodes: rounded updates are
 * not exactly monotone in their inputs, so the fixed point depends on the
 * order of the updates (LAS and SOLAS on the CPU differ as much; in double
 * the same happens at the 1e-16 level).  Literals are cast to
 * FL_REAL so that the float instance never widens to double. */

#ifndef FL_REAL
#error "define FL_REAL, FL_SQRT, FL_EDGE, FL_TRI, FL_EDGES, FL_TRIS, FL_FN and FL_SINGLE before including fold-local.h"
#endif

#define FL_K(x) ((FL_REAL) (x))

/* The speed-dependent constants in float: only on the GPU in single
 * precision.  There a speed that changes from node to node (a velocity
 * gradient) asks for a new set at every node, and in double each set's
 * divisions and roots cost more than the node's update (RESULTS.md,
 * eighth round).  The CPU and double precision keep the double set. */
#if defined(__CUDA_ARCH__) && FL_SINGLE
#define FL_SET_FLOAT 1
#else
#define FL_SET_FLOAT 0
#endif

/* τ for a displacement with ψ·d = m and |d|² = dd (see the top of
 * fold-private.h). */
static inline FOLD_HD FL_REAL
FL_FN (fold_tau) (FL_REAL m, FL_REAL dd, FL_REAL c)
{
  if (dd <= FL_K (0))
    return FL_K (0);
  return dd / (m + FL_SQRT (m * m + c * dd));
}

/* fold_tau without its cancellation where m < 0 (there
 * m + √(m² + c dd) = c dd / (√(m² + c dd) − m)): the form the GPU's float
 * coefficients take (fold_coef2d_set, fold_coef3d_set). */
static inline FOLD_HD FL_REAL
FL_FN (fold_tau_stable) (FL_REAL m, FL_REAL dd, FL_REAL c)
{
  if (dd <= FL_K (0))
    return FL_K (0);
  const FL_REAL s = FL_SQRT (m * m + c * dd);
  return m >= FL_K (0) ? dd / (m + s) : (s - m) / c;
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

/* Conditional upwind for an edge (fold_edge_cand), without the root:
 * λ = (β + u)/α with u = −κ sqrt(D/den) lies in (0, 1) iff −β < u < α − β;
 * compare u² den = κ² D with the squares.  Most edges fail here (their
 * characteristic passes outside), and a wrong call is only possible when
 * λ is 0 or 1 to rounding, where the edge value is its vertex's.  Whether
 * the minimiser lies outside. */
static inline FOLD_HD bool
FL_FN (fold_edge_outside) (FL_REAL kappa, FL_REAL alpha, FL_REAL beta, FL_REAL D, FL_REAL den)
{
  const FL_REAL bma = beta - alpha;
  const FL_REAL kD = kappa * kappa * D;
  if (kappa >= FL_K (0))     /* u <= 0 */
    return beta <= FL_K (0) || kD >= beta * beta * den
           || (bma >= FL_K (0) && kD <= bma * bma * den);
  return bma >= FL_K (0) || kD >= bma * bma * den                         /* u > 0 */
         || (beta <= FL_K (0) && kD <= beta * beta * den);
}

/* An edge's minimiser, all but the last division of its candidate:
 * `at` = T1 + λ dT, m = ψ·d and dd = |d|² for the displacement d to it,
 * and sq = sqrt(Q(λ)) there (Q(λ) = D/den), which is also fold_tau's root
 * sqrt(m² + c dd): one root per edge instead of two.  ok: λ lies strictly
 * inside (0, 1). */
typedef struct FL_FN (fold_edge_min) {
  FL_REAL at, m, dd, sq;
  bool ok;
} FL_FN (fold_edge_min);

static inline FOLD_HD FL_FN (fold_edge_min)
FL_FN (fold_edge_minimiser) (const FL_EDGE *e, FL_REAL alpha, FL_REAL beta, FL_REAL D,
                             FL_REAL T1, FL_REAL dT, FL_REAL kappa, FL_REAL den)
{
  FL_FN (fold_edge_min) p;
  p.sq = FL_SQRT (D / den);
  const FL_REAL u = -kappa * p.sq;
  const FL_REAL lambda = (beta + u) / alpha;
  p.ok = lambda > FL_K (0) && lambda < FL_K (1);
  p.at = T1 + lambda * dT;
  p.m = e->m0 - lambda * e->m1;
  p.dd = e->dd0 - FL_K (2) * lambda * e->de + lambda * lambda * e->ee;
  return p;
}

/* The candidate at a minimiser, or +inf unless it lies inside. */
static inline FOLD_HD FL_REAL
FL_FN (fold_edge_value) (const FL_FN (fold_edge_min) *p, FL_REAL c)
{
  if (!p->ok)
    return (FL_REAL) INFINITY;
  if (!(p->m + p->sq > FL_K (0)))
    return p->at + FL_FN (fold_tau) (p->m, p->dd, c);
  return p->at + p->dd / (p->m + p->sq);
}

/* An edge's candidate, given its constants for this speed (c = F² − |ψ|²,
 * α, β and D = max(0, αγ − β²); see fold_edge_lambda), or +inf unless its
 * minimiser lies strictly inside. */
static inline FOLD_HD FL_REAL
FL_FN (fold_edge_cand) (const FL_EDGE *e, FL_REAL c, FL_REAL alpha, FL_REAL beta, FL_REAL D,
                        FL_REAL T1, FL_REAL T2)
{
  const FL_REAL dT = T2 - T1;
  const FL_REAL kappa = c * dT + e->m1;
  const FL_REAL den = alpha - kappa * kappa;

  if (!(den > FL_K (0)) || FL_FN (fold_edge_outside) (kappa, alpha, beta, D, den))
    return (FL_REAL) INFINITY;
  const FL_FN (fold_edge_min) p = FL_FN (fold_edge_minimiser) (e, alpha, beta, D, T1, dT, kappa,
                                                               den);
  return FL_FN (fold_edge_value) (&p, c);
}

/* fold_edge_cand without a branch before the last division (ok says
 * whether the minimiser counts; the caller masks it): two edges' chains
 * of roots and divisions can then overlap (fold_node_update_2d on the
 * GPU). */
static inline FOLD_HD FL_FN (fold_edge_min)
FL_FN (fold_edge_flat) (const FL_EDGE *e, FL_REAL c, FL_REAL alpha, FL_REAL beta, FL_REAL D,
                        FL_REAL T1, FL_REAL T2, bool want)
{
  const FL_REAL dT = T2 - T1;
  const FL_REAL kappa = c * dT + e->m1;
  const FL_REAL den = alpha - kappa * kappa;
  const bool in = want && den > FL_K (0)
                  && !FL_FN (fold_edge_outside) (kappa, alpha, beta, D, den);
  FL_FN (fold_edge_min) p = FL_FN (fold_edge_minimiser) (e, alpha, beta, D, T1, dT, kappa, den);
  p.ok = p.ok && in;
  return p;
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

/* An edge's constants for the speed constant c (fold_edge_consts), computed
 * in double and rounded to FL_REAL once: the same values wherever a back
 * end computes them. */
static inline FOLD_HD void
FL_FN (fold_edge_consts_r) (const fold_edge *e, double c, FL_REAL *alpha, FL_REAL *beta,
                            FL_REAL *D)
{
  double a, bt, d;
  fold_edge_consts (e, c, &a, &bt, &d);
  *alpha = (FL_REAL) a;
  *beta = (FL_REAL) bt;
  *D = (FL_REAL) d;
}

/* The bound of a sub-sweep's stencil for speed F: no base point is closer
 * in time than h / (F + |ψ|).  The value the coefficient sets store as
 * tlb, so that a caller can test the bound before it computes a set:
 * where every node has its own speed (a velocity gradient), a set's roots
 * and divisions cost more than most nodes' updates, and most updates end
 * at the bound. */
static inline FOLD_HD FL_REAL
FL_FN (fold_coef_tlb) (const fold_subsweep *ss, float F, double psin)
{
#if FL_SET_FLOAT
  return ss->hf / (F + (float) psin);
#else
  return (FL_REAL) (ss->h / ((double) F + psin));
#endif
}

/* A 2D sub-sweep's constants for one speed F: the stencil's geometry and
 * what depends on F, computed in double (fold_tau, fold_edge_consts) and
 * rounded to FL_REAL once; on the GPU in single precision, in float but
 * for c (FL_SET_FLOAT).  The base nodes are 0, 1, 2; edge 0 joins
 * 1–0, edge 1 joins 1–2. */
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
#if FL_SET_FLOAT
  const float c = (float) ((double) F * F - psi2);

  k->F = F;
  k->c = c;
  k->tlb = FL_FN (fold_coef_tlb) (ss, F, psin);
  for (int n = 0; n < 3; n++)
    k->vtau[n] = fold_tau_stable_f (ss->mf[n], ss->ddf[n], c);
  for (int q = 0; q < 2; q++)
    {
      fold_edge_consts_dev_f (ss, q, c, &k->alpha[q], &k->beta[q], &k->D[q]);
      k->e[q] = ss->ef[q];
    }
#else
  const double Fd = (double) F;
  const double c = Fd * Fd - psi2;

  k->F = F;
  k->c = (FL_REAL) c;
  k->tlb = FL_FN (fold_coef_tlb) (ss, F, psin);
  for (int n = 0; n < 3; n++)
    k->vtau[n] = (FL_REAL) fold_tau (ss->m[n], ss->dd[n], c);
  for (int q = 0; q < 2; q++)
    {
      FL_FN (fold_edge_consts_r) (&ss->e[q], c, &k->alpha[q], &k->beta[q], &k->D[q]);
      k->e[q].m0 = (FL_REAL) ss->e[q].m0;
      k->e[q].m1 = (FL_REAL) ss->e[q].m1;
      k->e[q].ee = (FL_REAL) ss->e[q].ee;
      k->e[q].de = (FL_REAL) ss->e[q].de;
      k->e[q].dd0 = (FL_REAL) ss->e[q].dd0;
    }
#endif
}

/* The least candidate of a 2D stencil with base values T0, T1, T2 (+inf
 * for unknown), or best when none is lower. */
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
  const bool want0 = T1 < (FL_REAL) INFINITY && T0 < (FL_REAL) INFINITY
                     && FL_FN (fold_min) (T1, T0) + tlb < best;
  const bool want1 = T1 < (FL_REAL) INFINITY && T2 < (FL_REAL) INFINITY
                     && FL_FN (fold_min) (T1, T2) + tlb < best;
#ifdef __CUDA_ARCH__
  /* Both edges' chains at once, without branches before their last
   * divisions: a 2D plane step waits for its slowest lane's chain, and the
   * SMs have little else to run (RESULTS.md, ninth round). */
  if (want0 || want1)
    {
      const FL_FN (fold_edge_min) p0 = FL_FN (fold_edge_flat) (&k->e[0], k->c, k->alpha[0],
                                                               k->beta[0], k->D[0], T1, T0, want0);
      const FL_FN (fold_edge_min) p1 = FL_FN (fold_edge_flat) (&k->e[1], k->c, k->alpha[1],
                                                               k->beta[1], k->D[1], T1, T2, want1);
      e0 = FL_FN (fold_edge_value) (&p0, k->c);
      e1 = FL_FN (fold_edge_value) (&p1, k->c);
    }
#else
  if (want0)
    e0 = FL_FN (fold_edge_cand) (&k->e[0], k->c, k->alpha[0], k->beta[0], k->D[0], T1, T0);
  if (want1)
    e1 = FL_FN (fold_edge_cand) (&k->e[1], k->c, k->alpha[1], k->beta[1], k->D[1], T1, T2);
#endif
  return FL_FN (fold_min) (best, FL_FN (fold_min) (e0, e1));
}

/* ------------------------------------------------------------------ 3D */

/* 3D: a base node B of a pyramid sub-sweep is reached from the apex A only
 * along a path that does not squeeze between obstacles: some monotone
 * path of axis steps from B to A through free nodes of the cell between
 * them (2D: one of the two side nodes free, as above; a base corner: one
 * of the six orders of the three steps).  A base node without such a
 * path is taken as +inf, and so are the edges and triangles that use it,
 * which only ever drops candidates.  su, sv: the strides along the base
 * plane's u and v. */
static inline FOLD_HD void
FL_FN (fold_diagonal_walls_3d) (const float *F, ptrdiff_t o, const fold_subsweep *ss,
                                ptrdiff_t su, ptrdiff_t sv, FL_REAL *Tn)
{
  const bool fb4 = fold_free (F, o + ss->off[4]);          /* centre of the base */

  FOLD_UNROLL
  for (int n = 0; n < 9; n++)
    {
      const int du = n % 3 - 1, dv = n / 3 - 1;
      if ((du == 0 && dv == 0) || !(Tn[n] < (FL_REAL) INFINITY))
        continue;
      bool path;
      if (dv == 0)
        path = fb4 || fold_free (F, o + du * su);
      else if (du == 0)
        path = fb4 || fold_free (F, o + dv * sv);
      else
        {
          /* Intermediate nodes: in the apex's plane (a first) or the
           * base's (u or v first). */
          const bool fauv = fold_free (F, o + du * su + dv * sv);
          const bool fau = fold_free (F, o + du * su), fav = fold_free (F, o + dv * sv);
          const bool fbu = fold_free (F, o + ss->off[4 + du]);       /* base (du, 0) */
          const bool fbv = fold_free (F, o + ss->off[4 + 3 * dv]);   /* base (0, dv) */
          path = (fauv && (fau || fav)) || (fbv && (fav || fb4)) || (fbu && (fau || fb4));
        }
      if (!path)
        Tn[n] = (FL_REAL) INFINITY;
    }
}

/* The candidate from a base triangle (3D), or +inf unless its
 * characteristic enters strictly inside.  With x = T − min T on the
 * triangle and p = E⁻¹(x − t·1) the linear gradient:
 *   F|p| = 1 − ψ·p  ⇔  A t² − 2 B t + C = 0,
 * A = F² 1ᵀM1 − r², B = F² xᵀM1 + s r, C = F² xᵀMx − s², s = 1 − ψ·E⁻¹x;
 * and the characteristic v = F p/|p| + ψ points back into the triangle iff
 * every component of E⁻ᵀ v is negative. */
static inline FOLD_HD FL_REAL
FL_FN (fold_tri_time) (const FL_TRI *t, FL_REAL T1, FL_REAL T2, FL_REAL T3, FL_REAL F)
{
  FL_REAL base = T1 < T2 ? T1 : T2;
  base = T3 < base ? T3 : base;
  const FL_REAL x[3] = { T1 - base, T2 - base, T3 - base };
  FL_REAL Mx[3];

  for (int i = 0; i < 3; i++)
    Mx[i] = t->M[i][0] * x[0] + t->M[i][1] * x[1] + t->M[i][2] * x[2];
  const FL_REAL xMx = x[0] * Mx[0] + x[1] * Mx[1] + x[2] * Mx[2];
  const FL_REAL xM1 = x[0] * t->M1[0] + x[1] * t->M1[1] + x[2] * t->M1[2];
  const FL_REAL s = FL_K (1) - (t->phi[0] * x[0] + t->phi[1] * x[1] + t->phi[2] * x[2]);
  const FL_REAL F2 = F * F;
  const FL_REAL A = F2 * t->bb - t->r * t->r;
  const FL_REAL B = F2 * xM1 + s * t->r;
  const FL_REAL C = F2 * xMx - s * s;
  const FL_REAL disc = B * B - A * C;

  if (!(disc >= FL_K (0)) || !(A > FL_K (0)))
    return (FL_REAL) INFINITY;
  /* One division for both roots; the tests below are multiplied through
   * by F > 0 so that they need none: with q = F|p| = s + t r, |p| > 0 iff
   * q > 0, and E⁻ᵀ v = F·E⁻ᵀ p + E⁻ᵀ ψ has the signs of
   * F²(Mx − t M1) + q φ. */
  const FL_REAL sq = FL_SQRT (disc);
  const FL_REAL rA = FL_K (1) / A;
  FL_REAL best = (FL_REAL) INFINITY;
  const FL_REAL roots[2] = { (B + sq) * rA, (B - sq) * rA };
  for (int k = 0; k < 2; k++)
    {
      const FL_REAL t0 = roots[k];
      const FL_REAL q = s + t0 * t->r;
      if (!(t0 > FL_K (0)) || !(q > FL_K (0)))
        continue;
      bool inside = true;
      for (int i = 0; i < 3 && inside; i++)
        inside = F2 * (Mx[i] - t0 * t->M1[i]) + q * t->phi[i] < FL_K (0);
      if (inside && base + t0 < best)
        best = base + t0;
    }
  return best;
}

/* A 3D sub-sweep's constants for one speed F, computed in double and
 * rounded to FL_REAL once.  The host keeps the edges' constants too (one
 * set per run of equal speeds); the device recomputes them per edge
 * (registers are scarcer than arithmetic there), in FL_REAL
 * (fold_edge_consts_dev). */
typedef struct FL_FN (fold_coef3d) {
  float F;                        /* the speed these are for; -1: none yet */
  FL_REAL c, tlb;
  FL_REAL vtau[9];                /* τ to each base vertex */
  FL_REAL alpha[16], beta[16], D[16];   /* per edge (host only), see fold_edge_lambda */
} FL_FN (fold_coef3d);

static inline FOLD_HD void
FL_FN (fold_coef3d_set) (FL_FN (fold_coef3d) *k, const fold_subsweep *ss, float F, double psi2,
                         double psin)
{
#if FL_SET_FLOAT
  const float c = (float) ((double) F * F - psi2);

  k->F = F;
  k->c = c;
  k->tlb = FL_FN (fold_coef_tlb) (ss, F, psin);
  FOLD_UNROLL
  for (int n = 0; n < 9; n++)
    k->vtau[n] = fold_tau_stable_f (ss->mf[n], ss->ddf[n], c);
#else
  const double Fd = (double) F;
  const double c = Fd * Fd - psi2;

  k->F = F;
  k->c = (FL_REAL) c;
  k->tlb = FL_FN (fold_coef_tlb) (ss, F, psin);
  FOLD_UNROLL
  for (int n = 0; n < 9; n++)
    k->vtau[n] = (FL_REAL) fold_tau (ss->m[n], ss->dd[n], c);
#endif
#ifndef __CUDA_ARCH__
  for (int q = 0; q < 16; q++)
    FL_FN (fold_edge_consts_r) (&ss->e[q], c, &k->alpha[q], &k->beta[q], &k->D[q]);
#endif
}

/* Edge q's candidate (fold_edge_cand) with its speed constants. */
static inline FOLD_HD FL_REAL
FL_FN (fold_edge_cand3d) (const fold_subsweep *ss, const FL_FN (fold_coef3d) *k, int q,
                          FL_REAL T1, FL_REAL T2)
{
#ifdef __CUDA_ARCH__
  FL_REAL a, bt, D;
  FL_FN (fold_edge_consts_dev) (ss, q, k->c, &a, &bt, &D);
  return FL_FN (fold_edge_cand) (&ss->FL_EDGES[q], k->c, a, bt, D, T1, T2);
#else
  return FL_FN (fold_edge_cand) (&ss->FL_EDGES[q], k->c, k->alpha[q], k->beta[q], k->D[q], T1,
                                 T2);
#endif
}

/* x if finite, else 0. */
static inline FOLD_HD FL_REAL
FL_FN (fold_finite_or_0) (FL_REAL x)
{
  return x < (FL_REAL) INFINITY && x > -(FL_REAL) INFINITY ? x : FL_K (0);
}

/* A supporting plane of τ for a 3D sub-sweep: w_n = T_n + p·d_n, with
 * d_n = apex − base node n, for a gradient p with F|p| + ψ·p < 1.  τ is
 * the support function of that set of gradients, so τ(d) >= p·d for every
 * d, and a triangle's or edge's candidate, the least T(y) + τ(x − y) over
 * its points y with T linear there, is at least the least w of its
 * vertices, whatever p is.  p is chosen to make the bound high where no
 * characteristic comes through this base (fold_support_plane).  g is the
 * gradient the base and the apex suggest: along the base from its side
 * nodes, along the axis from best − the centre.  Where T is linear, the
 * least w is then above best when the front's characteristic runs along
 * the base plane or away from it, and below best when it comes through
 * the base.  Lateral sub-sweeps are where half of a 3D solve's full
 * stencil evaluations went, none of them lowering the node (RESULTS.md,
 * eleventh round). */
typedef struct FL_FN (fold_support) {
  FL_REAL A, U, V;                /* p·d_n = A − du U − dv V */
} FL_FN (fold_support);

static inline FOLD_HD FL_FN (fold_support)
FL_FN (fold_support_3d) (const fold_subsweep *ss, const FL_FN (fold_coef3d) *k, const FL_REAL *Tn,
                         FL_REAL best)
{
  const fold_frame *fr = &ss->fr;
  const float ga = (float) FL_FN (fold_finite_or_0) (best - Tn[4]) * fr->rh[0];
  const float gu = (float) FL_FN (fold_finite_or_0) (Tn[5] - Tn[3]) * (0.5f * fr->rh[1]);
  const float gv = (float) FL_FN (fold_finite_or_0) (Tn[7] - Tn[1]) * (0.5f * fr->rh[2]);
  float p[3];
  fold_support_plane (fr, k->F, (float) k->c, ga, gu, gv, p);
  FL_FN (fold_support) sp;
  sp.A = (FL_REAL) p[0];
  sp.U = (FL_REAL) p[1];
  sp.V = (FL_REAL) p[2];
  return sp;
}

/* Base node n's w (its value T). */
static inline FOLD_HD FL_REAL
FL_FN (fold_support_w) (const FL_FN (fold_support) *sp, int n, FL_REAL T)
{
  const int du = n % 3 - 1, dv = n / 3 - 1;
  FL_REAL q = sp->A;
  q = du < 0 ? q + sp->U : du > 0 ? q - sp->U : q;
  q = dv < 0 ? q + sp->V : dv > 0 ? q - sp->V : q;
  return T + q;
}

/* The least candidate over one 3D sub-sweep's stencil (9 vertices, 16
 * edges, 8 triangles), or best when none is lower.  Tn holds the base
 * nodes' values (+inf for unknown or obstacles).  Triangles come before
 * edges: a triangle whose minimiser lies inside is also the least over its
 * closed triangle, so its sides need no look.  Each candidate is evaluated
 * only when it can count: no triangle or edge when the supporting plane
 * (fold_support_3d) shows none can; only triangles and edges with a base
 * node in `changed` (bit n: base node n changed since the node's last
 * evaluation in this direction).  A candidate over unchanged nodes has the
 * value it had then, which was no lower than the node's value then, and
 * values only fall.  (With both, a node's triangles and edges are looked at
 * about 5 times in a 3D solve and it is lowered about 3 times; RESULTS.md,
 * eleventh round.)  (Evaluating all 24 first, so that their chains of
 * divisions and roots overlap on the GPU, measured 1.2-1.9x slower: the
 * sweep is bound by the instructions it issues.) */
static inline FOLD_HD FL_REAL
FL_FN (fold_node_update_3d) (const fold_subsweep *ss, const FL_FN (fold_coef3d) *k,
                             const FL_REAL *Tn, FL_REAL best, uint32_t changed)
{
  const FL_REAL tlb = k->tlb;   /* no base point is closer in time */
  const FL_REAL F = (FL_REAL) k->F;
  FL_REAL mn = (FL_REAL) INFINITY;

  FOLD_UNROLL
  for (int n = 0; n < 9; n++)
    mn = FL_FN (fold_min) (mn, Tn[n]);
  if (!(mn + tlb < best))
    return best;
  FOLD_UNROLL
  for (int n = 0; n < 9; n++)
    best = FL_FN (fold_min) (best, Tn[n] + k->vtau[n]);

  /* No triangle or edge can lower the node when no base node's w is
   * below best (fold_support_3d).  (Testing each triangle and edge against
   * its own vertices' w as well measured no faster.) */
  const FL_FN (fold_support) sp = FL_FN (fold_support_3d) (ss, k, Tn, best);
  FL_REAL wmin = (FL_REAL) INFINITY;
  FOLD_UNROLL
  for (int n = 0; n < 9; n++)
    wmin = FL_FN (fold_min) (wmin, FL_FN (fold_support_w) (&sp, n, Tn[n]));
  if (!(wmin < best))
    return best;

  uint32_t dominated = 0;
  FOLD_UNROLL
  for (int q = 0; q < 8; q++)
    {
      const FL_REAL T1 = Tn[fold_tri_node (q, 0)], T2 = Tn[fold_tri_node (q, 1)];
      const FL_REAL T3 = Tn[fold_tri_node (q, 2)];
      if (!(changed & fold_tri_nodes (q))
          || !(FL_FN (fold_max) (T1, FL_FN (fold_max) (T2, T3)) < (FL_REAL) INFINITY)
          || !(FL_FN (fold_min) (T1, FL_FN (fold_min) (T2, T3)) + tlb < best))
        continue;
      const FL_REAL v = FL_FN (fold_tri_time) (&ss->FL_TRIS[q], T1, T2, T3, F);
      if (v < (FL_REAL) INFINITY)
        {
          dominated |= fold_tri_sides (q);
          best = FL_FN (fold_min) (best, v);
        }
    }
  FOLD_UNROLL
  for (int q = 0; q < 16; q++)
    {
      const FL_REAL T1 = Tn[fold_edge_node (q, 0)], T2 = Tn[fold_edge_node (q, 1)];
      if (((dominated >> q) & 1u) || !(changed & fold_edge_nodes (q)))
        continue;
      if (!(FL_FN (fold_max) (T1, T2) < (FL_REAL) INFINITY)
          || !(FL_FN (fold_min) (T1, T2) + tlb < best))
        continue;
      best = FL_FN (fold_min) (best, FL_FN (fold_edge_cand3d) (ss, k, q, T1, T2));
    }
  return best;
}
/* The parameters, for the next inclusion. */
#undef FL_K
#undef FL_REAL
#undef FL_SQRT
#undef FL_EDGE
#undef FL_TRI
#undef FL_EDGES
#undef FL_TRIS
#undef FL_FN
#undef FL_SINGLE
#undef FL_SET_FLOAT
