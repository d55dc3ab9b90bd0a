/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The solver library's user-facing messages (a source inside an obstacle,
 * a CUDA fallback: solver/fr-i18n.h) in the app's language. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Installs the app's catalogue as libfoldray's translator; call it once at
 * start, before the solver thread runs. */
void fr_solver_i18n_install (void);

G_END_DECLS
