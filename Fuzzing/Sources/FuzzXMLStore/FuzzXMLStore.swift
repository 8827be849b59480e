// libFuzzer target: the XML store reader. Each input is written to a scratch file and read as
// an XML store for each fuzzing model, metadata first as `strata inspect` reads it. Any error
// thrown is an answer; a crash, a hang or running out of memory is a finding.

import FuzzSupport
import StrataXML

/// Writes the seed stores and exits when `STRATA_FUZZ_WRITE_SEEDS` asks for them.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    if let folder = StoreSeeds.requestedFolder {
        StoreSeeds.writeAndExit(format: XMLStoreFormat(), fileExtension: "xml", to: folder)
    }
    return 0
}

/// Reads one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let url = ScratchFile.write(fuzzInput(data, size))
    _ = try? XMLStoreFormat.readMetadata(from: url)
    for model in FuzzModels.all {
        _ = try? XMLStoreFormat().read(from: url, model: model)
    }
    return 0
}

/// The process's entry point (see `runFuzzer`).
@_cdecl("FuzzXMLStore_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, testOneInput)
}
