/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Launch constants of the CUDA SPR back end, in one place.
 *
 * The pass kernel is instantiated once per "variant": NW is how many edge
 * weights each thread keeps in registers (one thread per node, the node's
 * weights computed once per tile activation and reused by every inner
 * iteration), TX x TZ the tile, which is also the block.  The register file
 * (64 K 32-bit registers per SM) bounds NW x threads: 1024 threads leave 64
 * registers each, 512 leave 128, 256 leave 255.  More than SPR_NW_MAX
 * offsets run the generic kernel (NW = 0), which recomputes weights in every
 * inner iteration. */
#pragma once

/* Threads of the small helper kernels (fills, slowness, table, unpadding). */
#define SPR_HELPER_BLOCK 256

/* Largest register-cached stencil; kernel parameters hold per-offset data
 * for this many offsets (under the classic 4 KB parameter limit). */
#define SPR_NW_MAX 128

/* Inner iterations of one tile activation at most; 0: the tile's rows
 * (TZ).  A pass waits for its slowest tile, so a cap that cuts the few
 * long activations short (they re-activate themselves in a later pass)
 * shortens every pass: measured on the H100 (RESULTS.md), a cap of 16 on
 * 32x16 tiles beat 64 by 14-29 % at R 4-6. */
#define SPR_INNER_MAX_DEFAULT 0

/* Cells of all stencils, kept in shared memory by the pass kernel. */
#define SPR_CELLS_MAX 8192

/* Passes per launch of the persistent kernel: the first launch, and the
 * bounds of the adaptive size (the host polls the cancel flag between
 * launches and aims for about SPR_BATCH_TARGET_MS per launch). */
#define SPR_BATCH_FIRST 64
#define SPR_BATCH_MIN 8
#define SPR_BATCH_MAX 4096
#define SPR_BATCH_TARGET_MS 20.0

/* Tile delta-stepping: a pass processes the pending tiles whose key is
 * within this many "fastest tile crossings" of the least key. */
#define SPR_DELTA_SCALE 2.0

/* Defaults of the bookkeeping and inner-iteration knobs (spr-cuda-tune.h).
 * The compile-time stencils (R 1-6) take the asynchronous queue: on the
 * H200 (RESULTS.md, fourth round) it beat the WIDE passes at every radius
 * and size from 1024² to 1600² (1600², R 4: 3.9 against 4.2 ms; R 1: 2.1
 * against 2.8).  The other kernels take it from SPR_ASYNC_MIN_OFFSETS
 * offsets up, the rule of the third round (their kernels were not measured
 * again). */
#define SPR_MAP_DEFAULT SPR_CUDA_MAP_WIDE
#define SPR_ASYNC_MIN_OFFSETS 80
/* The queue's buckets, in fastest tile crossings: 12 was best or within 4 %
 * of the best of 8, 12 and 16 from 512² to 1600², R 1-6 (RESULTS.md). */
#define SPR_ASYNC_DELTA_SCALE 12.0
#define SPR_SWEEP_DEFAULT SPR_CUDA_SWEEP_JACOBI

/* The queue raises its bucket bound early while fewer than this fraction of
 * the blocks have a tile (its bucket's last chains running); <= 0: never.
 * Measured on the H200 (RESULTS.md): 0.25, 0.5 and 1 all gained 5-15 % at
 * R 3-6, 1024² and 1600²; 0.5 was best on the two targets together. */
#define SPR_ASYNC_RAISE_BELOW 0.5

/* WIDE map: pending keys a thread keeps in registers during the scan; more
 * tiles per thread than this re-read them. */
#define SPR_SCAN_KREG 16

/* Device memory kept free beside a weight table (other allocations, the
 * driver, the application's GL buffers). */
#define SPR_TABLE_MARGIN_BYTES ((size_t) 512 << 20)
