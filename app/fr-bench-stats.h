/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The percentiles the interaction benchmarks print. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void   fr_bench_sort       (double       *values,
                            guint         n);
double fr_bench_percentile (const double *sorted,
                            guint         n,
                            double        p);

G_END_DECLS
