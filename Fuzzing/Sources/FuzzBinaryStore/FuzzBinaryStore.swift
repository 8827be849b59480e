// libFuzzer target: the binary store reader. Each input is written to a scratch file and read as
// a binary store for each fuzzing model, metadata first as `strata inspect` reads it; then once
// more with its lengths and checksums repaired (BinaryStoreRepair), to reach the decoders. Any
// error thrown is an answer; a crash, a hang or running out of memory is a finding.

import Foundation
import FuzzSupport
import StrataBinary

/// Writes the seed stores and exits when `STRATA_FUZZ_WRITE_SEEDS` asks for them.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    if let folder = StoreSeeds.requestedFolder {
        StoreSeeds.writeAndExit(format: BinaryStoreFormat(), fileExtension: "binary", to: folder)
    }
    return 0
}

/// Reads one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = fuzzInput(data, size)
    read(ScratchFile.write(input))
    // Again with lengths and checksums made to agree, to reach the decoders behind them.
    if let repaired = BinaryStoreRepair.repaired([UInt8](input)) {
        read(repaired.withUnsafeBytes { ScratchFile.write($0) })
    }
    return 0
}

/// Reads the store at `url` as `strata inspect` and a coordinator do.
func read(_ url: URL) {
    _ = try? BinaryStoreFormat.readMetadata(from: url)
    for model in FuzzModels.all {
        _ = try? BinaryStoreFormat().read(from: url, model: model)
    }
}

/// The process's entry point (see `runFuzzer`).
@_cdecl("FuzzBinaryStore_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, testOneInput)
}
