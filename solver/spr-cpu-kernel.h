/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CPU back end's kernels for one precision: spr-cpu.c includes this
 * file twice, with REAL float / SFX(x) x##_f32 and with double / _f64.
 * The layout and the reasons for it are explained at the top of spr-cpu.c. */

/* Per-thread scratch. */
typedef struct SFX (ws) {
  REAL *L;                  /* the tile and its halo: (tx + 2rx) × (tz + 2rz) */
  REAL *K;                  /* the tile's predecessor offsets (tx × tz, no halo) */
  REAL *cache;              /* tz × nch chunks of noff × CH weights (one chunk when
                             * recomputing or when the table holds them) */
  unsigned char *valid;     /* per row and chunk of the cache: weights present */
  short *lo, *hi;           /* per row: the chunks lo..hi must be relaxed */
  REAL *old;                /* a tile row before its relaxation */
  uint64_t edges;
  uint64_t tile_edges;      /* edges when the current tile started */
  uint64_t work, poll_at;   /* multiply-adds so far; poll the cancel flag past poll_at */
  bool stop;                /* the cancel flag was seen, or the budget spent: the tile gave up */
  bool over_budget;         /* the budget was spent (g->edge_budget) */
  double busy, busy_max;    /* this pass: CPU ms in tiles, and in the longest tile */
} SFX (ws);

typedef struct SFX (state) {
  const cpu_geom *g;
  REAL *S, *T, *Taux;       /* padded slowness, traveltimes, pass results */
  REAL *K, *Kaux;           /* padded predecessor offsets (k as a REAL, -1: none) */
  REAL *len;                /* cell lengths in this precision */
  REAL *table;              /* ntiles × tz × nch × noff × CH, or NULL */
  unsigned char *table_valid;
  unsigned char *fresh;     /* per tile: every row must be relaxed */
  tile_info *cur, *prev;    /* what each tile did in this pass and in the last */
  SFX (ws) *ws;
  int *active, *next;       /* the tiles of this pass, and of the next */
  int nactive;
  unsigned char *mark;
  long passes;
  bool cancelled;
  uint64_t edges_before;    /* relaxations of the passes before this one */
  bool over_budget;         /* g->edge_budget spent: the solve gave up (cancelled too) */
  int team;                 /* threads in the parallel passes */
  double pass_start;        /* wall clock, ms */
  int slow_passes;          /* consecutive passes much slower than their work */
  bool alone;               /* the team gave up: the remaining passes run on one thread */
} SFX (state);

/* y (=, or += when add) the sum of len[i]·x[i] over n <= 4 cells, over one
 * chunk: four cells per pass keep the sum in registers. */
SPR_INLINE void
SFX (row_cells) (REAL *restrict y, bool add, int n, const REAL *len,
                 const REAL *restrict x0, const REAL *restrict x1,
                 const REAL *restrict x2, const REAL *restrict x3)
{
  const REAL l0 = len[0], l1 = n > 1 ? len[1] : 0, l2 = n > 2 ? len[2] : 0, l3 = n > 3 ? len[3] : 0;
  switch (n * 2 + add)
    {
    case 2: for (int c = 0; c < CH; c++) y[c] = l0 * x0[c]; break;
    case 3: for (int c = 0; c < CH; c++) y[c] += l0 * x0[c]; break;
    case 4: for (int c = 0; c < CH; c++) y[c] = l0 * x0[c] + l1 * x1[c]; break;
    case 5: for (int c = 0; c < CH; c++) y[c] += l0 * x0[c] + l1 * x1[c]; break;
    case 6: for (int c = 0; c < CH; c++) y[c] = l0 * x0[c] + l1 * x1[c] + l2 * x2[c]; break;
    case 7: for (int c = 0; c < CH; c++) y[c] += l0 * x0[c] + l1 * x1[c] + l2 * x2[c]; break;
    case 8:
      for (int c = 0; c < CH; c++)
        y[c] = l0 * x0[c] + l1 * x1[c] + l2 * x2[c] + l3 * x3[c];
      break;
    default:
      for (int c = 0; c < CH; c++)
        y[c] += l0 * x0[c] + l1 * x1[c] + l2 * x2[c] + l3 * x3[c];
      break;
    }
}

/* t = min(t, src + w) over one chunk: the pull of one offset k.  Where it
 * improves strictly, kk records k (as a REAL, so the selects stay in one
 * register type and vectorise). */
SPR_INLINE void
SFX (row_pull) (REAL *restrict t, REAL *restrict kk, const REAL *restrict src,
                const REAL *restrict w, REAL k)
{
  for (int c = 0; c < CH; c++)
    {
      REAL cand = src[c] + w[c];
      bool better = cand < t[c];
      t[c] = better ? cand : t[c];
      kk[c] = better ? k : kk[c];
    }
}

/* Whether pulling from the same row, offset a, improves any column of the
 * chunk: the scalar scan is skipped when it cannot change anything. */
SPR_INLINE bool
SFX (row_improves) (const REAL *restrict t, int a, const REAL *restrict w)
{
  int any = 0;
  for (int c = 0; c < CH; c++)
    any |= t[c + a] + w[c] < t[c];
  return any != 0;
}

/* The weights of every offset for the chunk of CH nodes starting at padded
 * index p: w[k·CH + c] = sum over the cells of k of len · S[p + c + cell]. */
SPR_INLINE void
SFX (chunk_weights) (const SFX (state) *st, size_t p, REAL *w)
{
  const cpu_geom *g = st->g;
  const REAL *S = st->S + p;
  for (int k = 0; k < g->noff; k++)
    {
      const int f = g->cfirst[k], n = g->ccount[k];
      REAL *wk = w + (size_t) k * CH;
      for (int m = 0; m < n; m += 4)
        {
          const long *d = g->cdelta + f + m;
          const int q = n - m < 4 ? n - m : 4;
          SFX (row_cells) (wk, m > 0, q, st->len + f + m, S + d[0], S + d[q > 1],
                           S + d[q > 2 ? 2 : 0], S + d[q > 3 ? 3 : 0]);
        }
    }
}

/* One weight, for the scalar scans: offset k at padded node p. */
SPR_INLINE REAL
SFX (weight) (const SFX (state) *st, int k, size_t p)
{
  const cpu_geom *g = st->g;
  REAL w = 0;
  for (int m = g->cfirst[k]; m < g->cfirst[k] + g->ccount[k]; m++)
    w += st->len[m] * st->S[p + (size_t) g->cdelta[m]];
  return w;
}

/* Where a tile's weights live during an activation. */
typedef struct SFX (wsrc) {
  REAL *base;               /* chunk (r, ch) at base + (r·nch + ch)·noff·CH */
  unsigned char *valid;     /* NULL: recompute into base every time */
  size_t tile_p;            /* padded index of the tile's node (0, 0) */
  uint64_t *work;           /* the thread's work counter (ws.work) */
} SFX (wsrc);

/* Whether the passes before this one and the current tile's own work
 * spent the edge budget.  Both are what they are whatever the threads and
 * their timing, so whether the solve gives up depends on the problem alone:
 * polled inside a tile, and asked again at its end (tile_run). */
SPR_INLINE bool
SFX (budget_spent) (const SFX (state) *st, SFX (ws) *ws)
{
  if (st->g->edge_budget == 0
      || st->edges_before + (ws->edges - ws->tile_edges) <= st->g->edge_budget)
    return false;
  ws->over_budget = true;
  return true;
}

/* Whether the solve was cancelled, asked once per CANCEL_POLL_WORK of the
 * thread's work: a tile at a large radius runs for seconds, so a flag
 * polled only between passes kept a cancelled solve running that long. */
SPR_INLINE bool
SFX (stop_asked) (const SFX (state) *st, SFX (ws) *ws)
{
  if (ws->work < ws->poll_at)
    return false;
  ws->poll_at = ws->work + CANCEL_POLL_WORK;
  ws->stop = fr_cancel_raised (st->g->cancel) || SFX (budget_spent) (st, ws);
  return ws->stop;
}

/* The weights of chunk ch of row r, computed if not there yet. */
SPR_INLINE const REAL *
SFX (chunk_get) (const SFX (state) *st, const SFX (wsrc) *ws, int r, int ch)
{
  const cpu_geom *g = st->g;
  size_t i = (size_t) r * (size_t) g->nch + (size_t) ch;
  size_t p = ws->tile_p + (size_t) r * (size_t) g->w + (size_t) ch * CH;
  REAL *w;
  if (ws->valid == NULL)
    {
      SFX (chunk_weights) (st, p, ws->base);
      *ws->work += (uint64_t) g->ncells * CH;
      return ws->base;
    }
  w = ws->base + i * (size_t) g->noff * CH;
  if (!ws->valid[i])
    {
      SFX (chunk_weights) (st, p, w);
      *ws->work += (uint64_t) g->ncells * CH;
      ws->valid[i] = 1;
    }
  return w;
}

/* Scans row Lr (tile row r) left to right from column `from`, pulling from
 * the b = 0 offsets with a < 0.  Past column `to`, nothing changed before
 * the scan, so it stops after hmax columns in a row that it did not change. */
SPR_INLINE void
SFX (scan_right) (const SFX (state) *st, REAL *Lr, REAL *Kr, size_t row_p, int from, int to)
{
  const cpu_geom *g = st->g;
  int quiet = 0;
  for (int c = from; c < g->tx; c++)
    {
      bool moved = false;
      for (int k = g->nv; k < g->nv + g->nleft; k++)
        {
          REAL cand = Lr[c + g->oa[k]] + SFX (weight) (st, k, row_p + (size_t) c);
          if (cand < Lr[c])
            {
              Lr[c] = cand;
              Kr[c] = (REAL) k;
              moved = true;
            }
        }
      if (c > to && (moved ? (quiet = 0) : ++quiet) >= g->hmax)
        break;
    }
}

/* The mirror image: right to left from `from`, pulling from a > 0;
 * returns whether it changed anything. */
SPR_INLINE bool
SFX (scan_left) (const SFX (state) *st, REAL *Lr, REAL *Kr, size_t row_p, int from, int to)
{
  const cpu_geom *g = st->g;
  bool any = false;
  int quiet = 0;
  for (int c = from; c >= 0; c--)
    {
      bool moved = false;
      for (int k = g->nv + g->nleft; k < g->noff; k++)
        {
          REAL cand = Lr[c + g->oa[k]] + SFX (weight) (st, k, row_p + (size_t) c);
          if (cand < Lr[c])
            {
              Lr[c] = cand;
              Kr[c] = (REAL) k;
              moved = true;
            }
        }
      any |= moved;
      if (c < to && (moved ? (quiet = 0) : ++quiet) >= g->hmax)
        break;
    }
  return any;
}

/* Whether a b = 0 pull improves one of the columns [c0, c1] (clipped to the
 * tile), with weights computed on the spot. */
SPR_INLINE bool
SFX (edge_improves) (const SFX (state) *st, const REAL *Lr, size_t row_p, int c0, int c1,
                     int k0, int k1)
{
  const cpu_geom *g = st->g;
  for (int c = c0 < 0 ? 0 : c0; c <= c1 && c < g->tx; c++)
    for (int k = k0; k < k1; k++)
      if (Lr[c + g->oa[k]] + SFX (weight) (st, k, row_p + (size_t) c) < Lr[c])
        return true;
  return false;
}

/* Relaxes the chunks lo..hi of tile row r in L; the b = 0 offsets then
 * solve the row's 1D problem exactly (shortest paths along a row are
 * monotone, so one scan each way suffices).  Returns whether the row
 * changed, and the first and last changed column; *again is set if the row
 * must be relaxed once more (only possible with several b = 0 offsets each
 * way, when the scans still moved after a few rounds).  Gives up, with
 * ws->stop set, when the solve is cancelled. */
SPR_INLINE bool
SFX (relax_row) (const SFX (state) *st, SFX (ws) *ws, const SFX (wsrc) *wsrc,
                 int r, int lo, int hi, int *c0, int *c1, bool *again)
{
  const cpu_geom *g = st->g;
  const long lw = g->tx + 2L * g->rx;
  const size_t row_p = wsrc->tile_p + (size_t) r * (size_t) g->w;
  REAL *Lr = ws->L + (r + g->rz) * lw + g->rx;
  REAL *Kr = ws->K + (size_t) r * (size_t) g->tx;
  int any = 0;

  memcpy (ws->old, Lr, (size_t) g->tx * sizeof (REAL));
  for (int ch = lo; ch <= hi; ch++)
    {
      const REAL *w = SFX (chunk_get) (st, wsrc, r, ch);
      REAL *t = Lr + ch * CH, *kk = Kr + ch * CH;
      for (int k = 0; k < g->nv; k++)
        SFX (row_pull) (t, kk, ws->L + (r + g->rz + g->ob[k]) * lw + g->rx + g->oa[k] + ch * CH,
                        w + (size_t) k * CH, (REAL) k);
      ws->edges += (uint64_t) g->noff * CH;
      ws->work += (uint64_t) g->noff * CH;
      if (SFX (stop_asked) (st, ws))
        return false;
    }

  *again = false;
  if (g->nv < g->noff)
    for (int round = 0; round < 4; round++)
      {
        /* Rightward: from the first chunk where a pull from the left
         * improves, or from just past hi if only the columns there do. */
        int from = -1;
        for (int ch = lo; ch <= hi && from < 0; ch++)
          {
            const REAL *w = SFX (chunk_get) (st, wsrc, r, ch);
            if (SFX (stop_asked) (st, ws))
              return false;
            for (int k = g->nv; k < g->nv + g->nleft; k++)
              if (SFX (row_improves) (Lr + ch * CH, g->oa[k], w + (size_t) k * CH))
                {
                  from = ch * CH;
                  break;
                }
          }
        if (from < 0 && SFX (edge_improves) (st, Lr, row_p, (hi + 1) * CH,
                                             (hi + 1) * CH + g->hmax - 1, g->nv,
                                             g->nv + g->nleft))
          from = (hi + 1) * CH;
        if (from >= 0)
          SFX (scan_right) (st, Lr, Kr, row_p, from, (hi + 1) * CH - 1);

        /* Leftward, the mirror image. */
        from = -1;
        for (int ch = hi; ch >= lo && from < 0; ch--)
          {
            const REAL *w = SFX (chunk_get) (st, wsrc, r, ch);
            if (SFX (stop_asked) (st, ws))
              return false;
            for (int k = g->nv + g->nleft; k < g->noff; k++)
              if (SFX (row_improves) (Lr + ch * CH, g->oa[k], w + (size_t) k * CH))
                {
                  from = ch * CH + CH - 1;
                  break;
                }
          }
        if (from < 0 && SFX (edge_improves) (st, Lr, row_p, lo * CH - g->hmax, lo * CH - 1,
                                             g->nv + g->nleft, g->noff))
          from = lo * CH - 1;
        if (from < 0)
          break;
        /* With one offset each way the row is now consistent (a value
         * lowered from the right cannot help its right neighbour).  With
         * several, check again rather than argue about rounding. */
        if (!SFX (scan_left) (st, Lr, Kr, row_p, from, lo * CH) || g->nleft <= 1)
          break;
        lo = 0;
        hi = g->nch - 1;
        *again = round == 3;
      }

  for (int c = 0; c < g->tx; c++)
    any |= Lr[c] < ws->old[c];
  if (!any)
    return false;
  *c0 = 0;
  while (!(Lr[*c0] < ws->old[*c0]))
    (*c0)++;
  *c1 = g->tx - 1;
  while (!(Lr[*c1] < ws->old[*c1]))
    (*c1)--;
  return true;
}

/* One tile in one pass: load, sweep until locally converged (or the sweep
 * cap), store the changed rows in Taux, report in cur[t]. */
SPR_KERNEL_CLONES static void
SFX (tile_run) (SFX (state) *st, SFX (ws) *ws, int t)
{
  const cpu_geom *g = st->g;
  const int tz = g->tz, rz = g->rz, nch = g->nch;
  const long lw = g->tx + 2L * g->rx;
  const int ttx = t % g->ntx, ttz = t / g->ntx;
  const size_t base = ((size_t) ttz * (size_t) tz + (size_t) rz) * (size_t) g->w
                      + (size_t) ttx * (size_t) g->tx + (size_t) g->rx;
  tile_info info = { INT_MAX, INT_MIN, INT_MAX, INT_MIN, 0, 0 };
  SFX (wsrc) wsrc = { .tile_p = base, .work = &ws->work };
  int sweeps = 0, dir = 1;

  if (ws->stop)
    return;                     /* cancelled in an earlier tile of this pass */
  ws->tile_edges = ws->edges;

  for (int r = 0; r < tz; r++)
    {
      ws->lo[r] = st->fresh[t] ? 0 : (short) nch;
      ws->hi[r] = st->fresh[t] ? (short) (nch - 1) : -1;
    }
  if (!st->fresh[t])
    dirty_rows (g, st->prev, t, ws->lo, ws->hi);

  for (int r = -rz; r < tz + rz; r++)
    memcpy (ws->L + (r + rz) * lw, st->T + base + (long) r * g->w - g->rx,
            (size_t) lw * sizeof (REAL));
  for (int r = 0; r < tz; r++)
    memcpy (ws->K + (size_t) r * (size_t) g->tx, st->K + base + (size_t) r * (size_t) g->w,
            (size_t) g->tx * sizeof (REAL));

  if (st->table != NULL)
    {
      wsrc.base = st->table + (size_t) t * (size_t) tz * (size_t) nch * (size_t) g->noff * CH;
      wsrc.valid = st->table_valid + (size_t) t * (size_t) tz * (size_t) nch;
    }
  else if (g->weights == SPR_CPU_WEIGHTS_RECOMPUTE)
    wsrc.base = ws->cache;
  else
    {
      wsrc.base = ws->cache;
      wsrc.valid = ws->valid;
      memset (ws->valid, 0, (size_t) tz * (size_t) nch);
    }

  for (;;)
    {
      bool any = false;
      for (int i = 0; i < tz; i++)
        {
          int r = dir > 0 ? i : tz - 1 - i, lo = ws->lo[r], hi = ws->hi[r], c0, c1;
          bool again;
          if (lo > hi)
            continue;
          ws->lo[r] = (short) nch;
          ws->hi[r] = -1;
          any = true;
          bool changed = SFX (relax_row) (st, ws, &wsrc, r, lo, hi, &c0, &c1, &again);
          if (ws->stop)
            return;             /* cancelled: pass_end ends the solve */
          if (!changed)
            continue;
          if (again)
            {
              ws->lo[r] = 0;
              ws->hi[r] = (short) (nch - 1);
            }
          /* The rows within reach must see the change, in the chunks it
           * can reach. */
          int q0 = r - rz < 0 ? 0 : r - rz, q1 = r + rz > tz - 1 ? tz - 1 : r + rz;
          int k0 = c0 - g->rx < 0 ? 0 : (c0 - g->rx) / CH;
          int k1 = c1 + g->rx > g->tx - 1 ? nch - 1 : (c1 + g->rx) / CH;
          for (int q = q0; q <= q1; q++)
            if (q != r)
              {
                if (k0 < ws->lo[q]) ws->lo[q] = (short) k0;
                if (k1 > ws->hi[q]) ws->hi[q] = (short) k1;
              }
          info.changed = 1;
          if (r < info.r0) info.r0 = r;
          if (r > info.r1) info.r1 = r;
          if (c0 < info.c0) info.c0 = c0;
          if (c1 > info.c1) info.c1 = c1;
        }
      if (!any)
        break;
      dir = -dir;
      if (g->max_sweeps > 0 && ++sweeps >= g->max_sweeps)
        {
          for (int r = 0; r < tz; r++)
            if (ws->lo[r] <= ws->hi[r])
              info.unconverged = 1;
          break;
        }
    }
  if (SFX (budget_spent) (st, ws))
    {
      ws->stop = true;
      return;
    }
  st->fresh[t] = info.unconverged;

  if (info.changed)
    {
      for (int r = info.r0; r <= info.r1; r++)
        {
          size_t p = base + (size_t) r * (size_t) g->w + (size_t) info.c0;
          size_t n = (size_t) (info.c1 - info.c0 + 1) * sizeof (REAL);
          memcpy (st->Taux + p, ws->L + (r + rz) * lw + g->rx + info.c0, n);
          memcpy (st->Kaux + p, ws->K + (size_t) r * (size_t) g->tx + (size_t) info.c0, n);
        }
      /* Report in grid node coordinates. */
      info.c0 += ttx * g->tx;
      info.c1 += ttx * g->tx;
      info.r0 += ttz * tz;
      info.r1 += ttz * tz;
    }
  st->cur[t] = info;
}

static void
SFX (write_back) (SFX (state) *st, int t)
{
  const cpu_geom *g = st->g;
  const tile_info *info = &st->cur[t];
  if (!info->changed)
    return;
  for (int r = info->r0; r <= info->r1; r++)
    {
      size_t p = (size_t) (r + g->rz) * (size_t) g->w + (size_t) (info->c0 + g->rx);
      memcpy (st->T + p, st->Taux + p, (size_t) (info->c1 - info->c0 + 1) * sizeof (REAL));
      memcpy (st->K + p, st->Kaux + p, (size_t) (info->c1 - info->c0 + 1) * sizeof (REAL));
    }
}

/* The output for grid row iz: traveltimes, and predecessors from the
 * offsets recorded at each node's last strict improvement (so T strictly
 * decreases along pred). */
static void
SFX (row_finish) (const SFX (state) *st, int iz, fr_spr_result *res)
{
  const cpu_geom *g = st->g;
  const size_t p = (size_t) (iz + g->rz) * (size_t) g->w + (size_t) g->rx;
  for (int ix = 0; ix < g->nx; ix++)
    {
      const size_t v = (size_t) iz * (size_t) g->nx + (size_t) ix;
      const int k = (int) st->K[p + (size_t) ix];
      res->time[v] = (double) st->T[p + (size_t) ix];
      res->pred[v] = k < 0 ? -1 : (int32_t) ((long) v + (long) g->ob[k] * g->nx + g->oa[k]);
    }
}

/* Runs tile t of the pass on this thread, counting its CPU time. */
static void
SFX (tile_timed) (SFX (state) *st, SFX (ws) *ws, int t)
{
  double c0 = cpu_ms ();
  SFX (tile_run) (st, ws, t);
  c0 = cpu_ms () - c0;
  ws->busy += c0;
  if (c0 > ws->busy_max)
    ws->busy_max = c0;
}

/* Ends a pass on one thread: write-back, the next active list, the cancel
 * flag.  A pass waits for its slowest thread; when the cores are shared
 * and a thread of the team is descheduled, the passes take several times
 * their work (seen here: 2 threads 30 times slower than 1 on small grids).
 * After two such passes in a row the rest of the solve runs on one thread,
 * which changes nothing in the result: every tile reads only the last
 * pass's snapshot. */
static void
SFX (pass_end) (SFX (state) *st)
{
  const cpu_geom *g = st->g;
  tile_info *tmp;
  int *tmpa;
  double now = fr_clock_ms (), work = 0.0, longest = 0.0;

  for (int i = 0; i < st->nactive; i++)
    SFX (write_back) (st, st->active[i]);
  st->passes++;
  st->nactive = next_active (g, st->cur, st->active, st->nactive, st->mark, st->next);
  tmpa = st->active;
  st->active = st->next;
  st->next = tmpa;
  tmp = st->prev;
  st->prev = st->cur;
  st->cur = tmp;
  memset (st->cur, 0, (size_t) g->ntiles * sizeof (tile_info));
  /* A tile that saw the flag gave up half-way: this pass is not whole,
   * whatever the flag says now. */
  st->edges_before = 0;
  for (int i = 0; i < g->threads; i++)
    {
      st->cancelled |= st->ws[i].stop;
      st->over_budget |= st->ws[i].over_budget;
      st->edges_before += st->ws[i].edges;
    }
  if (g->edge_budget != 0 && st->edges_before > g->edge_budget)
    st->over_budget = st->cancelled = true;
  if (fr_cancel_raised (g->cancel))
    st->cancelled = true;

  for (int i = 0; i < st->team; i++)
    {
      work += st->ws[i].busy;
      if (st->ws[i].busy_max > longest)
        longest = st->ws[i].busy_max;
      st->ws[i].busy = st->ws[i].busy_max = 0.0;
    }
  /* The least time the pass could take on this team, against its wall
   * time; 0.1 ms absorbs the cost of the barriers themselves.  Two slow
   * passes in a row, or one very slow one, and the team gives up. */
  if (st->team > 1)
    {
      double ideal = work / st->team > longest ? work / st->team : longest;
      double spent = now - st->pass_start;
      st->slow_passes = spent > 2.0 * ideal + 0.1 ? st->slow_passes + 1 : 0;
      if (st->slow_passes >= 2 || spent > 4.0 * ideal + 1.0)
        st->alone = true;
    }
  st->pass_start = now;
}

static void
SFX (state_free) (SFX (state) *st)
{
  if (st->ws != NULL)
    for (int i = 0; i < st->g->threads; i++)
      {
        free (st->ws[i].L);
        free (st->ws[i].K);
        free (st->ws[i].cache);
        free (st->ws[i].valid);
        free (st->ws[i].lo);
        free (st->ws[i].hi);
        free (st->ws[i].old);
      }
  free (st->ws);
  free (st->S);
  free (st->T);
  free (st->Taux);
  free (st->K);
  free (st->Kaux);
  free (st->len);
  free (st->table);
  free (st->table_valid);
  free (st->fresh);
  free (st->cur);
  free (st->prev);
  free (st->active);
  free (st->next);
  free (st->mark);
}

/* The solve; with g->edge_budget, one that would spend more gives up:
 * FR_OK with *gave_up set, and res's arrays unfilled. */
static fr_status
SFX (solve) (const cpu_geom *g, const spr_problem *pb, fr_spr_result *res, bool *gave_up,
             fr_error *err)
{
  SFX (state) st = { .g = g };
  const int tz = g->tz;
  const size_t chunk = (size_t) g->noff * CH;          /* REALs of one chunk's weights */
  const size_t chunks = (size_t) tz * (size_t) g->nch;  /* chunks per tile */
  const size_t lsize = (size_t) (g->tx + 2 * g->rx) * (size_t) (tz + 2 * g->rz);
  bool finished = false;
  fr_status status = FR_OK;

  st.S = aligned_array (g->npad, sizeof (REAL));
  st.T = aligned_array (g->npad, sizeof (REAL));
  st.Taux = aligned_array (g->npad, sizeof (REAL));
  st.K = aligned_array (g->npad, sizeof (REAL));
  st.Kaux = aligned_array (g->npad, sizeof (REAL));
  st.len = malloc ((size_t) pb->stencils->ncells * sizeof (REAL));
  st.fresh = malloc ((size_t) g->ntiles);
  st.cur = calloc ((size_t) g->ntiles, sizeof (tile_info));
  st.prev = calloc ((size_t) g->ntiles, sizeof (tile_info));
  st.ws = calloc ((size_t) g->threads, sizeof (SFX (ws)));
  st.active = malloc ((size_t) g->ntiles * sizeof *st.active);
  st.next = malloc ((size_t) g->ntiles * sizeof *st.next);
  st.mark = malloc ((size_t) g->ntiles);
  if (st.S == NULL || st.T == NULL || st.Taux == NULL || st.K == NULL || st.Kaux == NULL
      || st.len == NULL || st.fresh == NULL
      || st.cur == NULL || st.prev == NULL || st.ws == NULL || st.active == NULL
      || st.next == NULL || st.mark == NULL)
    goto nomem;
  if (g->weights == SPR_CPU_WEIGHTS_TABLE)
    {
      st.table = aligned_array ((size_t) g->ntiles * chunks, chunk * sizeof (REAL));
      st.table_valid = calloc ((size_t) g->ntiles * chunks, 1);
      if (st.table == NULL || st.table_valid == NULL)
        {
          /* Too big after all: compute the weights per activation. */
          free (st.table);
          free (st.table_valid);
          st.table = NULL;
          st.table_valid = NULL;
        }
    }
  for (int i = 0; i < g->threads; i++)
    {
      SFX (ws) *ws = &st.ws[i];
      bool per_tile = st.table == NULL && g->weights != SPR_CPU_WEIGHTS_RECOMPUTE;
      ws->L = aligned_array (lsize, sizeof (REAL));
      ws->K = aligned_array ((size_t) g->tx * (size_t) tz, sizeof (REAL));
      ws->cache = aligned_array (per_tile ? chunks : 1, chunk * sizeof (REAL));
      ws->valid = malloc (chunks);
      ws->lo = malloc ((size_t) tz * sizeof (short));
      ws->hi = malloc ((size_t) tz * sizeof (short));
      ws->old = aligned_array ((size_t) g->tx, sizeof (REAL));
      if (ws->L == NULL || ws->K == NULL || ws->cache == NULL || ws->valid == NULL || ws->lo == NULL
          || ws->hi == NULL || ws->old == NULL)
        goto nomem;
    }

  for (int i = 0; i < pb->stencils->ncells; i++)
    st.len[i] = (REAL) g->clen[i];
  for (size_t i = 0; i < g->npad; i++)
    {
      st.S[i] = (REAL) INFINITY;
      st.T[i] = (REAL) INFINITY;
      st.K[i] = -1;
    }
  for (int iz = 0; iz < g->nz; iz++)
    for (int ix = 0; ix < g->nx; ix++)
      {
        double s = spr_slowness (pb->velocity[(size_t) iz * (size_t) g->nx + (size_t) ix]);
        st.S[(size_t) (iz + g->rz) * (size_t) g->w + (size_t) (ix + g->rx)] = (REAL) s;
      }
  memset (st.fresh, 1, (size_t) g->ntiles);

  /* First pass: the tiles that the sources reach. */
  memset (st.mark, 0, (size_t) g->ntiles);
  for (size_t s = 0; s < pb->nsrc; s++)
    {
      int ix = (int) (pb->sources[s] % (size_t) g->nx);
      int iz = (int) (pb->sources[s] / (size_t) g->nx);
      tile_info src = { ix, ix, iz, iz, 1, 0 };
      int t = (iz / tz) * g->ntx + ix / g->tx;
      st.T[(size_t) (iz + g->rz) * (size_t) g->w + (size_t) (ix + g->rx)] = 0;
      st.mark[t] = 1;
      mark_reached (g, &src, t, st.mark);
    }
  for (int t = 0; t < g->ntiles; t++)
    if (st.mark[t])
      st.active[st.nactive++] = t;

  /* The passes, on the team until it gives up (see pass_end). */
  st.team = g->threads;
  st.pass_start = fr_clock_ms ();
  if (st.team > 1)
    {
      SPR_OMP (omp parallel num_threads (g->threads))
      {
        SFX (ws) *ws = &st.ws[fr_omp_thread_num ()];
        SPR_OMP (omp single)
        st.team = fr_omp_team_size ();
        while (st.nactive > 0 && !st.cancelled && !st.alone)
          {
            SPR_OMP (omp for schedule (dynamic, 1))
            for (int i = 0; i < st.nactive; i++)
              SFX (tile_timed) (&st, ws, st.active[i]);
            SPR_OMP (omp single)
            SFX (pass_end) (&st);
          }
        if (st.nactive == 0 && !st.cancelled)
          {
            SPR_OMP (omp for schedule (static))
            for (int iz = 0; iz < g->nz; iz++)
              SFX (row_finish) (&st, iz, res);
          }
      }
      finished = st.nactive == 0 && !st.cancelled;
    }
  st.team = 1;
  while (st.nactive > 0 && !st.cancelled)
    {
      for (int i = 0; i < st.nactive; i++)
        SFX (tile_run) (&st, &st.ws[0], st.active[i]);
      SFX (pass_end) (&st);
    }
  if (!st.cancelled && !finished)
    for (int iz = 0; iz < g->nz; iz++)
      SFX (row_finish) (&st, iz, res);

  if (st.cancelled && st.over_budget && !fr_cancel_raised (g->cancel) && gave_up != NULL)
    *gave_up = true;
  else if (st.cancelled)
    status = fr_error_set (err, FR_E_CANCELLED, "the solve was cancelled");
  res->iterations = st.passes;
  res->edges_relaxed = 0;
  for (int i = 0; i < g->threads; i++)
    res->edges_relaxed += st.ws[i].edges;
  goto out;

nomem:
  status = fr_error_set (err, FR_E_NOMEM, "out of memory in the CPU SPR solver");
out:
  SFX (state_free) (&st);
  return status;
}
