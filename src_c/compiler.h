/* Branch hints and forced inlining, where the compiler supports them. */
#ifndef KW_COMPILER_H
#define KW_COMPILER_H

#if defined(__GNUC__)
#define KW_LIKELY(x) __builtin_expect(!!(x), 1)
#define KW_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define KW_INLINE static inline __attribute__((always_inline))
#else
#define KW_LIKELY(x) (x)
#define KW_UNLIKELY(x) (x)
#define KW_INLINE static inline
#endif

#endif
