// libFuzzer target: the model-file reader, an `.xcdatamodel/contents` XML document as Xcode
// writes it. Any error thrown is an answer; a crash, a hang or running out of memory is a finding.

import Foundation
import FuzzSupport
import StrataModelFiles

/// Reads one input as a model file's `contents`.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    _ = try? ModelFileReader().read(Data(fuzzInput(data, size)), file: "contents")
    return 0
}

/// The process's entry point (see `runFuzzer`).
@_cdecl("FuzzModelFile_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, testOneInput)
}
