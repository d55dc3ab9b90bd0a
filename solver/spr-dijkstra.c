/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reference back end: Dijkstra's algorithm, sequential, in double, with
 * an indexed binary heap (decrease-key) holding only the front, and edge
 * weights computed on the fly from the stencils.  It is kept plain on
 * purpose: every other back end is tested against it. */
#include "spr-private.h"

#include <math.h>
#include <stdlib.h>

/* Work between two polls of the cancel flag, in cell visits (a settled
 * node visits at most noffsets · (max_count + 1)): about a millisecond.
 * A fixed count of nodes would not do: at R 100 a node has 24 000 edges,
 * and 4096 of them took seconds. */
#define CANCEL_POLL_WORK 1000000.0

typedef struct heap {
  int32_t *node;     /* heap order: node[0] has the least key */
  int32_t *pos;      /* position of each node in node[], -1 when absent */
  const double *key; /* the traveltimes */
  size_t n;
} heap;

static void
heap_swap (heap *h, size_t i, size_t j)
{
  int32_t a = h->node[i], b = h->node[j];
  h->node[i] = b;
  h->node[j] = a;
  h->pos[b] = (int32_t) i;
  h->pos[a] = (int32_t) j;
}

static void
heap_up (heap *h, size_t i)
{
  while (i > 0)
    {
      size_t parent = (i - 1) / 2;
      if (h->key[h->node[parent]] <= h->key[h->node[i]])
        break;
      heap_swap (h, i, parent);
      i = parent;
    }
}

static void
heap_down (heap *h, size_t i)
{
  for (;;)
    {
      size_t l = 2 * i + 1, r = l + 1, least = i;
      if (l < h->n && h->key[h->node[l]] < h->key[h->node[least]])
        least = l;
      if (r < h->n && h->key[h->node[r]] < h->key[h->node[least]])
        least = r;
      if (least == i)
        break;
      heap_swap (h, i, least);
      i = least;
    }
}

/* Inserts v, or restores order after its key decreased. */
static void
heap_push_or_decrease (heap *h, int32_t v)
{
  if (h->pos[v] < 0)
    {
      h->node[h->n] = v;
      h->pos[v] = (int32_t) h->n;
      h->n++;
    }
  heap_up (h, (size_t) h->pos[v]);
}

static int32_t
heap_pop (heap *h)
{
  int32_t top = h->node[0];
  h->n--;
  if (h->n > 0)
    heap_swap (h, 0, h->n);
  h->pos[top] = -1;
  heap_down (h, 0);
  return top;
}

fr_status
spr_solve_dijkstra (const spr_problem *pb, fr_spr_result *res, fr_error *err)
{
  const fr_grid *g = pb->grid;
  const spr_stencils *st = pb->stencils;
  const long nx = (long) g->nx, nz = (long) g->nz;
  const size_t n = (size_t) nx * (size_t) nz;
  double *slow = malloc (n * sizeof *slow);
  unsigned char *settled = calloc (n, 1);
  heap h = { .node = malloc (n * sizeof (int32_t)), .pos = malloc (n * sizeof (int32_t)),
             .key = res->time, .n = 0 };
  double *T = res->time;
  int32_t *pred = res->pred;
  fr_status status = FR_OK;
  long settled_count = 0, poll_every, until_poll = 0;
  uint64_t edges = 0;

  if (slow == NULL || settled == NULL || h.node == NULL || h.pos == NULL)
    {
      status = fr_error_set (err, FR_E_NOMEM, "out of memory in the Dijkstra solver");
      goto out;
    }

  poll_every = (long) (CANCEL_POLL_WORK / ((double) st->noffsets * (st->max_count + 1.0))) + 1;
  for (size_t i = 0; i < n; i++)
    {
      slow[i] = spr_slowness (pb->velocity[i]);
      T[i] = INFINITY;
      pred[i] = -1;
      h.pos[i] = -1;
    }
  for (size_t s = 0; s < pb->nsrc; s++)
    {
      T[pb->sources[s]] = 0.0;
      heap_push_or_decrease (&h, (int32_t) pb->sources[s]);
    }

  while (h.n > 0)
    {
      int32_t u = heap_pop (&h);
      long iu = u % nx, ju = u / nx;

      settled[u] = 1;
      settled_count++;
      if (--until_poll <= 0)
        {
          until_poll = poll_every;
          if (fr_cancel_raised (pb->params->cancel))
            {
              status = fr_error_set (err, FR_E_CANCELLED, "the solve was cancelled");
              goto out;
            }
        }

      for (int k = 0; k < st->noffsets; k++)
        {
          const spr_offset *o = &st->offsets[k];
          long iv = iu + o->a, jv = ju + o->b;
          double w = 0.0, t;
          size_t v;

          if (iv < 0 || iv >= nx || jv < 0 || jv >= nz)
            continue;                       /* the edge leaves the grid */
          v = (size_t) (jv * nx + iv);
          if (settled[v])
            continue;
          /* The cells lie in the box spanned by u and v, so inside the grid. */
          for (int c = 0; c < o->count; c++)
            {
              const spr_cell *cell = &st->cells[o->first + c];
              w += cell->len * slow[(ju + cell->dj) * nx + iu + cell->di];
            }
          edges++;
          if (!isfinite (w))
            continue;                       /* it crosses an obstacle */
          t = T[u] + w;
          if (t < T[v])
            {
              T[v] = t;
              pred[v] = u;
              heap_push_or_decrease (&h, (int32_t) v);
            }
        }
    }

out:
  res->iterations = settled_count;
  res->edges_relaxed = edges;
  free (slow);
  free (settled);
  free (h.node);
  free (h.pos);
  return status;
}
