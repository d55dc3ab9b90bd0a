/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parallel CPU back end: pull-style relaxation over tiles with an
 * update map (Monsegny & Agudelo 2013), exact on-the-fly edge weights from
 * the stencils (Kanoksirirath), and, beyond the paper, Gauss–Seidel sweeps
 * inside each tile until it converges locally before the next global pass.
 *
 * Memory layout (why):
 *   - Slowness S and traveltimes T live in padded arrays of width
 *     W = rx + ntx·tx + rx and height rz + ntz·tz + rz, x fastest.  The
 *     grid sits at offset (rx, rz); everything else is a dummy node of
 *     slowness +inf and T = +inf.  Tiles of tx × tz nodes cover the grid
 *     (the last ones run into the dummies), and every stencil of every tile
 *     node stays inside the arrays, so the hot loops have no bounds checks
 *     and border tiles do the same work as interior ones: an edge that
 *     leaves the grid crosses an +inf cell and weighs +inf.  Obstacles are
 *     +inf cells too.  Every stencil holds both end cells with a positive
 *     length, so no 0·inf (NaN) can arise.
 *   - A global pass relaxes the active tiles in parallel.  Each tile copies
 *     itself and its halo of rx, rz nodes from T (the snapshot of the
 *     previous pass, read-only during the pass) into a private buffer L,
 *     relaxes in place there, and writes its changed nodes into Taux; then
 *     one thread copies them into T (the write-back).  Each thread writes
 *     only its own nodes: no atomics.
 *   - Tile rows are cut into chunks of CH = 32 columns.  Relaxing a chunk
 *     pulls, for each offset (a, b) with b != 0, T[r + b][c + a] + w over
 *     the 32 columns at once: contiguous loads, vectorised by the compiler
 *     (and compiled for AVX2 too, picked at load time).  The b = 0 offsets
 *     make each row a 1D problem whose shortest paths are monotone: one
 *     scan each way solves it, and a vector test skips the scans when they
 *     cannot change anything.
 *   - Rows are swept top-down and bottom-up alternately.  Each row keeps
 *     the interval of its chunks that must be relaxed: a change in row r,
 *     columns c0..c1 dirties the chunks of rows r ± rz that columns
 *     c0 - rx .. c1 + rx touch.  So a tile converges locally in as few
 *     sweeps as the paths need, relaxing only near what moved, and wide
 *     tiles (fewer passes, less halo) cost no more than narrow ones.
 *   - Edge weights of a chunk are computed once per tile activation into a
 *     per-thread cache laid out [row][chunk][offset][column], so each
 *     pull reads them contiguously.  A table kept for the whole solve is
 *     available (FR_WEIGHTS_TABLE) but measured slower: see geom_init.
 *   - The update map: each tile reports the box of nodes that changed in
 *     the pass.  The next pass activates the tiles that this box, widened by
 *     the radius, reaches, and marks dirty only the rows and chunks of them
 *     it reaches.  A tile that converged is not re-run for its own changes.
 *     The solve ends when a pass over the active tiles changes nothing.
 *   - Predecessors come from one last pass: the neighbour giving the least
 *     T[u] + w among those with T[u] < T[v], so T strictly decreases along
 *     pred and there is no cycle. */
#include "foldray-config.h"
#include "spr-private.h"
#include "fr-clock.h"
#include "fr-memory.h"
#include "fr-omp.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if FOLDRAY_HAVE_OPENMP
#define SPR_OMP(directive) _Pragma (#directive)
#else
#define SPR_OMP(directive)   /* one thread; no unknown-pragma warnings */
#endif

#define CH SPR_CPU_CHUNK

/* The build targets baseline x86-64 (SSE2).  The per-tile kernels are
 * also compiled for AVX2 and picked at load time: 256-bit rows make the
 * whole solve about 1.4 times faster on the machines we measured.  GCC only
 * (clang builds, used for the sanitizers, keep the baseline). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define SPR_KERNEL_CLONES __attribute__ ((target_clones ("avx2", "default")))
#else
#define SPR_KERNEL_CLONES
#endif

/* The helpers of the kernels must be inlined into them to get the clone's
 * instruction set. */
#define SPR_INLINE static inline __attribute__ ((always_inline))

/* Tile size unless tuned.  Wide tiles need fewer passes and less halo,
 * and cost nothing extra thanks to the per-chunk dirty intervals.  One
 * thread, 512², R 4, CPU time of the solve (ms):
 *              tz = 32   64   128
 *   tx =  256       15   17   14
 *   tx =  512       16   12   12.5
 *   tx = 1024       16   12   12
 * and at 1024²: tx 256 about 1.5 times slower than 512 or 1024.  With
 * several threads the tiles must also split the width, else one column of
 * tiles is active at a time (the front runs down from the source): the
 * work of each pass's tiles, scheduled on 2 threads, gives a span of 0.57
 * of the total at 512² with tx = 256 but 0.86 with tx = 512; measured on
 * 2 threads, 512² R 4: tx 128: 12.6 ms, 256: 10.0 ms, 512: 10.9 ms
 * (tz 64).  So: at most 512 wide, at least one column per thread, equal
 * widths; about 64 rows. */
#define TILE_X_MAX 512
#define DEFAULT_TILE_Z 64

/* Below this many edges (nodes × offsets) a solve takes about a
 * millisecond and a team of threads costs more than it saves (measured,
 * 2 threads against 1: 128² R 1 0.37 / 0.18 ms, 128² R 4 1.3 / 0.6 ms). */
#define SMALL_WORK 4.0e6

/* Work (multiply-adds of pulls and weights) of a thread between two polls
 * of the cancel flag: well under a millisecond, and at most one chunk of
 * a huge neighbourhood (R 100: 24 000 offsets, 770 000 pulls a chunk). */
#define CANCEL_POLL_WORK ((uint64_t) 1 << 20)

/* The per-thread weight cache of a tile stays below this (else tiles get
 * shorter). */
#define CACHE_MAX_BYTES ((size_t) 32 << 20)

/* The per-tile weight table is used when it takes at most this much memory
 * and at most a quarter of the physical memory. */
#define TABLE_MAX_BYTES ((size_t) 1 << 30)

typedef struct cpu_geom {
  int nx, nz, rx, rz;
  int tx, tz;                /* tile size; tx is a multiple of CH */
  int nch;                   /* chunks per tile row */
  int ntx, ntz, ntiles;
  long w;                    /* padded row length */
  size_t npad;               /* padded node count */
  int reach_x, reach_z;      /* how many tiles away a radius reaches */
  int ncells;                /* cells of all the offsets' stencils */
  int noff, nv, nleft;       /* offsets: nv with b != 0, then nleft with b == 0 and a < 0,
                              * then the ones with b == 0 and a > 0 */
  int hmax;                  /* largest |a| among the b == 0 offsets */
  int *oa, *ob;
  int *cfirst, *ccount;      /* cells of offset k: [cfirst[k], cfirst[k] + ccount[k]) */
  long *cdelta;              /* cell position relative to the node, in the padded arrays */
  double *clen;
  int max_sweeps;
  spr_cpu_weights weights;
  int threads;
  const fr_cancel *cancel;
  uint64_t edge_budget;      /* auto: give up past this many relaxations (0: never) */
} cpu_geom;

/* What a tile did in a pass: whether it changed, and the box of the nodes
 * that did (grid node coordinates, inclusive). */
typedef struct tile_info {
  int c0, c1, r0, r1;
  unsigned char changed;
  unsigned char unconverged;
} tile_info;

static void
tile_box (const cpu_geom *g, int t, int *x0, int *x1, int *z0, int *z1)
{
  int tx = t % g->ntx, tz = t / g->ntx;
  *x0 = tx * g->tx;
  *x1 = *x0 + g->tx - 1;
  *z0 = tz * g->tz;
  *z1 = *z0 + g->tz - 1;
}

/* Whether a change in box ch can alter a node of tile t. */
static bool
box_reaches (const cpu_geom *g, const tile_info *ch, int t)
{
  int x0, x1, z0, z1;
  tile_box (g, t, &x0, &x1, &z0, &z1);
  return ch->c0 - g->rx <= x1 && ch->c1 + g->rx >= x0
      && ch->r0 - g->rz <= z1 && ch->r1 + g->rz >= z0;
}

/* Marks in mark[] every tile other than n that a change in box ch reaches. */
static void
mark_reached (const cpu_geom *g, const tile_info *ch, int n, unsigned char *mark)
{
  int ntx = n % g->ntx, ntz = n / g->ntx;
  for (int tz = ntz - g->reach_z; tz <= ntz + g->reach_z; tz++)
    for (int tx = ntx - g->reach_x; tx <= ntx + g->reach_x; tx++)
      {
        int t = tz * g->ntx + tx;
        if (tx < 0 || tz < 0 || tx >= g->ntx || tz >= g->ntz || t == n)
          continue;
        if (box_reaches (g, ch, t))
          mark[t] = 1;
      }
}

/* Marks in lo/hi (per row, an interval of chunks) the parts of tile t
 * that a change of the previous pass in a neighbouring tile can reach. */
static void
dirty_rows (const cpu_geom *g, const tile_info *prev, int t, short *lo, short *hi)
{
  int ttx = t % g->ntx, ttz = t / g->ntx, x0, x1, z0, z1;

  tile_box (g, t, &x0, &x1, &z0, &z1);
  for (int tz = ttz - g->reach_z; tz <= ttz + g->reach_z; tz++)
    for (int tx = ttx - g->reach_x; tx <= ttx + g->reach_x; tx++)
      {
        int n = tz * g->ntx + tx;
        const tile_info *ch;
        if (tx < 0 || tz < 0 || tx >= g->ntx || tz >= g->ntz || n == t)
          continue;
        ch = &prev[n];
        if (!ch->changed || !box_reaches (g, ch, t))
          continue;
        int r0 = ch->r0 - g->rz - z0, r1 = ch->r1 + g->rz - z0;
        int c0 = ch->c0 - g->rx - x0, c1 = ch->c1 + g->rx - x0;
        r0 = r0 < 0 ? 0 : r0;
        r1 = r1 > g->tz - 1 ? g->tz - 1 : r1;
        c0 = c0 < 0 ? 0 : c0 / CH;
        c1 = c1 > g->tx - 1 ? g->nch - 1 : c1 / CH;
        for (int r = r0; r <= r1; r++)
          {
            if (c0 < lo[r]) lo[r] = (short) c0;
            if (c1 > hi[r]) hi[r] = (short) c1;
          }
      }
}

/* Builds the next active list from this pass's tile reports; returns its
 * length. */
static int
next_active (const cpu_geom *g, const tile_info *cur, const int *active, int nactive,
             unsigned char *mark, int *next)
{
  int n = 0;

  memset (mark, 0, (size_t) g->ntiles);
  for (int i = 0; i < nactive; i++)
    {
      int t = active[i];
      if (cur[t].unconverged)
        mark[t] = 1;
      if (cur[t].changed)
        mark_reached (g, &cur[t], t, mark);
    }
  for (int t = 0; t < g->ntiles; t++)
    if (mark[t])
      next[n++] = t;
  return n;
}

/* n elements of size bytes on a cache line, uninitialised; NULL on overflow. */
static void *
aligned_array (size_t n, size_t size)
{
  size_t bytes = n * size;
  if (n != 0 && bytes / n != size)
    return NULL;
  bytes = (bytes + 63) / 64 * 64;
  return aligned_alloc (64, bytes == 0 ? 64 : bytes);
}

/* Threads for a solve: the caller's choice, else OpenMP's, less the cores
 * that other programs keep busy (the 1-minute load average).  A pass waits
 * for its slowest thread, and a spinning barrier on a busy core costs a
 * scheduler time slice per pass: on this project's shared 2-core machine,
 * 2 threads under load took 10 to 30 times longer than 1. */
static int
thread_count (const fr_spr_params *p)
{
  if (p->threads > 0)
    return p->threads;
  int n = fr_omp_max_threads (), procs = fr_omp_procs ();
  double load;
  if (getloadavg (&load, 1) == 1 && procs - (int) (load + 0.5) < n)
    n = procs - (int) (load + 0.5);
  return n < 1 ? 1 : n;
}

/* CPU time of the calling thread: the work it did, not the time it waited
 * or was descheduled. */
static double
cpu_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec * 1e-6;
}

static void
geom_clear (cpu_geom *g)
{
  free (g->oa);
  free (g->ob);
  free (g->cfirst);
  free (g->ccount);
  free (g->cdelta);
  free (g->clen);
  memset (g, 0, sizeof *g);
}

/* Whether the lazily filled table of every tile's weights fits (for the
 * tile size in g). */
static bool
table_fits (const cpu_geom *g, size_t real_size)
{
  size_t ntx = (size_t) ((g->nx + g->tx - 1) / g->tx), ntz = (size_t) ((g->nz + g->tz - 1) / g->tz);
  size_t bytes = ntx * ntz * (size_t) g->tz * (size_t) g->tx * (size_t) g->noff * real_size;
  double have = fr_memory_available ();
  return bytes <= TABLE_MAX_BYTES && (double) bytes <= (have > 0.0 ? have : 4294967296.0) / 4;
}

/* The tile sizes, weight mode and padded layout of a solve (no
 * allocation): for a radius rx, rz with noff offsets. */
static void
geom_size (cpu_geom *g, const spr_problem *pb, int rx, int rz, int noff,
           const spr_cpu_tuning *tu)
{
  const size_t real_size = pb->params->double_precision ? sizeof (double) : sizeof (float);
  /* The tiles are cut for the threads asked for or OpenMP's, not for the
   * ones the load leaves (thread_count): the work of a solve, and so
   * auto's budget (spr_solve_cpu_auto), must not change with the load. */
  int layout_threads = pb->params->threads > 0 ? pb->params->threads : fr_omp_max_threads ();

  memset (g, 0, sizeof *g);
  g->nx = (int) pb->grid->nx;
  g->nz = (int) pb->grid->nz;
  g->rx = rx;
  g->rz = rz;
  g->threads = thread_count (pb->params);
  if (pb->params->threads == 0
      && (double) g->nx * (double) g->nz * (double) noff < SMALL_WORK)
    g->threads = layout_threads = 1;
  if (tu != NULL && tu->tile_x > 0)
    g->tx = tu->tile_x;
  else
    {
      /* As few columns of tiles as TILE_X_MAX allows, but one per thread,
       * and equal widths so that no tile is mostly dummies. */
      int cols = (g->nx + TILE_X_MAX - 1) / TILE_X_MAX;
      if (cols < layout_threads)
        cols = layout_threads;
      g->tx = (g->nx + cols - 1) / cols;
    }
  if (tu != NULL && tu->tile_z > 0)
    g->tz = tu->tile_z;
  else
    {
      int rows = (g->nz + DEFAULT_TILE_Z - 1) / DEFAULT_TILE_Z;
      g->tz = (g->nz + rows - 1) / rows;
    }
  /* No wider or taller than the grid needs (rounded to whole chunks). */
  if (g->tx > g->nx)
    g->tx = g->nx;
  if (g->tz > g->nz)
    g->tz = g->nz;
  g->tx = (g->tx + CH - 1) / CH * CH;
  if (g->tx > CH * 1024)
    g->tx = CH * 1024;       /* chunk indices are shorts */
  g->nch = g->tx / CH;
  g->noff = noff;

  /* Weights: computed once per tile activation into a per-thread cache,
   * unless the caller asks for the table (and it fits).  Measured at 512²,
   * R 4, one thread, CPU time: tile cache 12 ms, table 39 ms (its 52 MB
   * cost page faults and memory traffic), recomputing them for every chunk
   * relaxation 38 ms. */
  g->weights = tu != NULL ? tu->weights : SPR_CPU_WEIGHTS_DEFAULT;
  if (g->weights == SPR_CPU_WEIGHTS_DEFAULT)
    g->weights = pb->params->weights == FR_WEIGHTS_TABLE ? SPR_CPU_WEIGHTS_TABLE
                                                         : SPR_CPU_WEIGHTS_TILE_CACHE;
  if (g->weights == SPR_CPU_WEIGHTS_TABLE && !table_fits (g, real_size))
    g->weights = SPR_CPU_WEIGHTS_TILE_CACHE;
  /* Huge neighbourhoods: keep the per-thread cache bounded by making tiles
   * shorter, and recompute when even that is not enough. */
  while (g->weights == SPR_CPU_WEIGHTS_TILE_CACHE && g->tz > 4
         && (size_t) g->tz * (size_t) g->tx * (size_t) g->noff * real_size > CACHE_MAX_BYTES)
    g->tz /= 2;
  if (g->weights == SPR_CPU_WEIGHTS_TILE_CACHE
      && (size_t) g->tz * (size_t) g->tx * (size_t) g->noff * real_size > CACHE_MAX_BYTES)
    g->weights = SPR_CPU_WEIGHTS_RECOMPUTE;
  g->ntx = (g->nx + g->tx - 1) / g->tx;
  g->ntz = (g->nz + g->tz - 1) / g->tz;
  g->ntiles = g->ntx * g->ntz;
  g->w = 2L * g->rx + (long) g->ntx * g->tx;
  g->npad = (size_t) g->w * (size_t) (2 * g->rz + g->ntz * g->tz);
  g->reach_x = (g->rx + g->tx - 1) / g->tx;
  g->reach_z = (g->rz + g->tz - 1) / g->tz;
  g->max_sweeps = tu != NULL ? tu->max_sweeps : 0;
  /* More threads than tiles would only wait at the barriers. */
  if (g->threads > g->ntiles)
    g->threads = g->ntiles;
  g->cancel = pb->params->cancel;
}

/* Copies the stencils into the padded layout, offsets reordered as the
 * relaxation wants them. */
static fr_status
geom_init (cpu_geom *g, const spr_problem *pb, const spr_cpu_tuning *tu, fr_error *err)
{
  const spr_stencils *st = pb->stencils;
  int k = 0, m = 0;

  geom_size (g, pb, st->rx, st->rz, st->noffsets, tu);
  g->ncells = st->ncells;
  g->oa = malloc ((size_t) g->noff * sizeof *g->oa);
  g->ob = malloc ((size_t) g->noff * sizeof *g->ob);
  g->cfirst = malloc ((size_t) g->noff * sizeof *g->cfirst);
  g->ccount = malloc ((size_t) g->noff * sizeof *g->ccount);
  g->cdelta = malloc ((size_t) st->ncells * sizeof *g->cdelta);
  g->clen = malloc ((size_t) st->ncells * sizeof *g->clen);
  if (g->oa == NULL || g->ob == NULL || g->cfirst == NULL || g->ccount == NULL
      || g->cdelta == NULL || g->clen == NULL)
    {
      geom_clear (g);
      return fr_error_set (err, FR_E_NOMEM, "out of memory in the CPU SPR solver");
    }

  /* Three groups: b != 0, then b == 0 with a < 0, then b == 0 with a > 0. */
  for (int group = 0; group < 3; group++)
    for (int i = 0; i < st->noffsets; i++)
      {
        const spr_offset *o = &st->offsets[i];
        int gi = o->b != 0 ? 0 : (o->a < 0 ? 1 : 2);
        if (gi != group)
          continue;
        g->oa[k] = o->a;
        g->ob[k] = o->b;
        g->cfirst[k] = m;
        g->ccount[k] = o->count;
        for (int c = 0; c < o->count; c++, m++)
          {
            const spr_cell *cell = &st->cells[o->first + c];
            g->cdelta[m] = (long) cell->dj * g->w + cell->di;
            g->clen[m] = cell->len;
          }
        k++;
        if (group == 0)
          g->nv++;
        else if (group == 1)
          g->nleft++;
        if (group > 0 && abs (o->a) > g->hmax)
          g->hmax = abs (o->a);
      }
  return FR_OK;
}

/* The kernels, once per precision. */
#define REAL float
#define SFX(name) name##_f32
#include "spr-cpu-kernel.h"
#undef REAL
#undef SFX

#define REAL double
#define SFX(name) name##_f64
#include "spr-cpu-kernel.h"
#undef REAL
#undef SFX

static fr_status
solve_with (const spr_problem *pb, const spr_cpu_tuning *tuning, uint64_t edges_per_node_offset,
            bool *gave_up, fr_spr_result *res, fr_error *err)
{
  cpu_geom g;
  fr_status status;

  if ((status = geom_init (&g, pb, tuning, err)) != FR_OK)
    return status;
  g.edge_budget = edges_per_node_offset * (uint64_t) fr_grid_count (pb->grid)
                  * (uint64_t) g.noff;
  if (pb->params->double_precision)
    status = solve_f64 (&g, pb, res, gave_up, err);
  else
    status = solve_f32 (&g, pb, res, gave_up, err);
  geom_clear (&g);
  return status;
}

fr_status
spr_solve_cpu_tuned (const spr_problem *pb, const spr_cpu_tuning *tuning,
                     fr_spr_result *res, fr_error *err)
{
  return solve_with (pb, tuning, 0, NULL, res, err);
}

fr_status
spr_solve_cpu (const spr_problem *pb, fr_spr_result *res, fr_error *err)
{
  return spr_solve_cpu_tuned (pb, NULL, res, err);
}

/* How many relaxations per node and offset the CPU back end may spend
 * under `auto` before Dijkstra takes over (Dijkstra's own is 0.5).  The
 * passes and in-tile sweeps converge in few rounds where paths turn seldom,
 * but a path that winds (a serpentine corridor between walls) needs a
 * sweep per turn, the more so in wide tiles.  Measured on the 2-core dev
 * machine, -O2, R 5, one thread: relaxations per node and offset, and the
 * solve times of cpu / dijkstra:
 *     bundled scenes (layers, salt, gradient, the two mazes)   1.5–4.3
 *     500², smooth random speeds                     4.9    27 / 109 ms
 *     500², speeds random per cell, 1–2             13      55 / 127 ms
 *     500², speeds random per cell, 1–10            23      90 / 149 ms
 *     260 × 224 serpentine maze                     97      77 /  20 ms
 *     (the maze with 2 threads: 22, 19 / 20 ms; with 4: 16, 17 / 20 ms)
 * A relaxation costs the tiles about 1/50 of Dijkstra's, so past 24 they
 * are slower than Dijkstra on one thread, and giving up there costs at
 * most about the Dijkstra solve again (the maze: 39 ms).  A count, not a
 * time: the choice depends on the problem and the tiles, which follow the
 * threads asked for (or OpenMP's), never on the load or the clock. */
#define AUTO_EDGE_BUDGET 24

fr_status
spr_solve_cpu_auto (const spr_problem *pb, bool *gave_up, fr_spr_result *res, fr_error *err)
{
  *gave_up = false;
  return solve_with (pb, NULL, AUTO_EDGE_BUDGET, gave_up, res, err);
}

double
spr_cpu_bytes (const spr_problem *pb)
{
  const spr_stencils *st = pb->stencils;
  const double real = pb->params->double_precision ? sizeof (double) : sizeof (float);
  cpu_geom g;

  geom_size (&g, pb, st->rx, st->rz, st->noffsets, NULL);
  const double chunk = (double) g.noff * CH, chunks = (double) g.tz * g.nch;
  const double per_tile_cache = g.weights == SPR_CPU_WEIGHTS_TILE_CACHE ? chunks : 1.0;
  /* Per thread: L, K, the weight cache, old; then valid, lo, hi. */
  const double per_thread = real * ((double) (g.tx + 2 * g.rx) * (double) (g.tz + 2 * g.rz)
                                    + (double) g.tx * g.tz + per_tile_cache * chunk + g.tx)
                            + chunks + 4.0 * g.tz;
  /* S, T, Taux, K, Kaux padded; the tiles' bookkeeping; the cells of the
   * stencils in this precision and in geom. */
  double bytes = 5.0 * real * (double) g.npad + g.threads * per_thread
                 + (double) g.ntiles * (2.0 * sizeof (tile_info) + 2.0 * sizeof (int) + 2.0)
                 + (double) st->ncells * (real + sizeof (long) + sizeof (double))
                 + (double) g.noff * 4.0 * sizeof (int);
  if (g.weights == SPR_CPU_WEIGHTS_TABLE)
    bytes += (double) g.ntiles * chunks * (chunk * real + 1.0);
  return bytes;
}

/* What `auto` runs on the CPU.  The tiled back end wins at every size and
 * radius of the benchmark (tests/bench/bench-spr.c, least of several runs,
 * this project's shared 2-core AMD EPYC machine), so Dijkstra stays the
 * reference and `cpu` is the choice:
 *     128², R 1:  dijkstra   1.9 ms,  cpu   0.18 ms
 *     128², R 6:  dijkstra   9.7 ms,  cpu   1.3 ms
 *     512², R 4:  dijkstra   147 ms,  cpu  13 ms
 *    1600², R 6:  dijkstra  2575 ms,  cpu 580 ms */
fr_spr_backend
spr_cpu_pick (const spr_problem *pb)
{
  (void) pb;
  return FR_SPR_CPU;
}
