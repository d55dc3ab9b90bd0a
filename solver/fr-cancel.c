/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fr-cancel.h"

#include <stdatomic.h>
#include <stdlib.h>

struct fr_cancel {
  atomic_int raised;
};

fr_cancel *
fr_cancel_new (void)
{
  fr_cancel *c = malloc (sizeof *c);
  if (c != NULL)
    atomic_init (&c->raised, 0);
  return c;
}

void
fr_cancel_free (fr_cancel *c)
{
  free (c);
}

void
fr_cancel_raise (fr_cancel *c)
{
  atomic_store_explicit (&c->raised, 1, memory_order_release);
}

void
fr_cancel_reset (fr_cancel *c)
{
  atomic_store_explicit (&c->raised, 0, memory_order_release);
}

bool
fr_cancel_raised (const fr_cancel *c)
{
  return c != NULL && atomic_load_explicit (&((fr_cancel *) c)->raised, memory_order_acquire) != 0;
}
