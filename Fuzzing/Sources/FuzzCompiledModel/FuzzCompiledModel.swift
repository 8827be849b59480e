// libFuzzer target: the compiled-model reader. Each input is read both as a store's
// `Z_MODELCACHE.Z_CONTENT` (raw DEFLATE of a keyed archive) and as the keyed archive itself, so
// that the archive reader is reached by inputs the inflater would refuse. Any error thrown is an
// answer; a crash, a hang or running out of memory is a finding.

import Foundation
import FuzzSupport
import StrataModelFiles

/// Reads one input as a model cache and as a keyed archive.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Data(fuzzInput(data, size))
    _ = try? CompiledModel.model(fromStoreCache: bytes)
    _ = try? CompiledModel.model(fromArchive: bytes)
    return 0
}

/// The process's entry point (see `runFuzzer`).
@_cdecl("FuzzCompiledModel_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, testOneInput)
}
