#ifndef CMALLOCINFO_H
#define CMALLOCINFO_H

#include <stddef.h>

/// Bytes of the C heap in use: glibc's `mallinfo2`, the blocks handed out plus the mapped ones.
/// 0 where the C library has no `mallinfo2`.
size_t cmallocinfo_heap_in_use(void);

/// The usable size of the heap block that starts at `pointer` (glibc's `malloc_usable_size`).
/// 0 where the C library has none.
size_t cmallocinfo_usable_size(void *pointer);

#endif
