// libFuzzer target: the JSON importer, a strata-export document read for each fuzzing model
// (`ImportDocument.read`, which parses the JSON and checks the whole document). Any error thrown
// is an answer; a crash, a hang or running out of memory is a finding.

import Foundation
import FuzzSupport
import StrataJSON

/// Writes the seed documents and exits when `STRATA_FUZZ_WRITE_SEEDS` asks for them.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    if let folder = StoreSeeds.requestedFolder { StoreSeeds.writeExportsAndExit(to: folder) }
    return 0
}

/// Reads one input as an export document.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Data(fuzzInput(data, size))
    for model in FuzzModels.all {
        _ = try? ImportDocument.read(bytes, model: model)
    }
    return 0
}

/// The process's entry point (see `runFuzzer`).
@_cdecl("FuzzJSONImport_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, testOneInput)
}
