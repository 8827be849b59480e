#include "CMallocInfo.h"

#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>

size_t cmallocinfo_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

size_t cmallocinfo_usable_size(void *pointer) {
    return malloc_usable_size(pointer);
}
#else
size_t cmallocinfo_heap_in_use(void) { return 0; }
size_t cmallocinfo_usable_size(void *pointer) { (void)pointer; return 0; }
#endif
