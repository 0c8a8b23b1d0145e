/* SPDX-License-Identifier: MIT */
/*
 * Inlining for the hot paths (reader, writer, trace macros): gcc's heuristics
 * left some small helpers as calls that cost as much as their work, and some
 * rare paths inlined where their registers slowed the common one. Other
 * compilers get plain static (inline) functions.
 */
#ifndef FXT_ATTRS_H
#define FXT_ATTRS_H

#if defined(__GNUC__) || defined(__clang__)
#define FXT__INLINE static inline __attribute__((always_inline))
#define FXT__NOINLINE static __attribute__((noinline))
#else
#define FXT__INLINE static inline
#define FXT__NOINLINE static
#endif

#endif /* FXT_ATTRS_H */
