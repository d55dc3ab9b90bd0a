/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Whether the app can hold a model's grid, asked before it allocates the
 * grid's arrays: a 100-byte scene file may name a grid of billions of
 * nodes, and the app keeps several arrays of that many values (see
 * fr-model-memory.c).  The solvers check their own working memory when
 * they run (solver/fr-memory.h). */
#pragma once

#include <glib.h>

#include "fr-model.h"

G_BEGIN_DECLS

/* Bytes the app holds for each node of the solver grid while it shows a
 * model and its result. */
#define FR_MODEL_MEMORY_BYTES_PER_NODE 40

double   fr_model_memory_need  (const FrModel  *model);
gboolean fr_model_memory_check (const FrModel  *model,
                                GError        **error);

G_END_DECLS
