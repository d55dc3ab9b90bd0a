/* SPDX-License-Identifier: GPL-3.0-or-later */
/* TEST_UNDER_SANITIZER: 1 when this test is built with AddressSanitizer or
 * ThreadSanitizer (gcc's __SANITIZE_*__, clang's __has_feature).  Both
 * reserve more address space than an RLIMIT_AS test leaves them. */
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TEST_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TEST_UNDER_SANITIZER 1
#endif
#endif
#ifndef TEST_UNDER_SANITIZER
#define TEST_UNDER_SANITIZER 0
#endif
