/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
int main (void) { puts ("foldray-cli: not yet"); return 1; }
