/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A cancellation flag shared between the thread that asks for a solve and
 * the solver, which polls it between passes ("latest wins" in the app). */
#pragma once

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fr_cancel fr_cancel;

fr_cancel *fr_cancel_new (void);
void fr_cancel_free (fr_cancel *c);
void fr_cancel_raise (fr_cancel *c);
void fr_cancel_reset (fr_cancel *c);
/* NULL is never raised, so solvers can poll an optional flag directly. */
bool fr_cancel_raised (const fr_cancel *c);

#ifdef __cplusplus
}
#endif
