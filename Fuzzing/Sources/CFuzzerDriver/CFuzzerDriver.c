// LLVMFuzzerRunDriver is defined by the toolchain's libclang_rt.fuzzer; this target only
// declares it (include/CFuzzerDriver.h).
#include "CFuzzerDriver.h"
