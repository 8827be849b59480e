// libFuzzer's driver, for targets that bring their own `main`.
#ifndef STRATA_CFUZZERDRIVER_H
#define STRATA_CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the command line `argc`/`argv` on `callback`
/// (llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
