#include "CMallocCount.h"

#if defined(__GLIBC__)
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

static _Atomic uint64_t calls;

void *malloc(size_t size) {
    calls++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    calls++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    calls++;
    return __libc_realloc(pointer, size);
}

uint64_t cmalloccount_calls(void) { return calls; }
#else
uint64_t cmalloccount_calls(void) { return 0; }
#endif
