#ifndef CMALLOCCOUNT_H
#define CMALLOCCOUNT_H

#include <stdint.h>

/// How many times the process called `malloc`, `calloc` or `realloc` so far (glibc only; 0
/// elsewhere). Linking this target replaces the three functions with counting forwarders to
/// glibc's own, so only the benchmark that counts links it.
uint64_t cmalloccount_calls(void);

#endif
