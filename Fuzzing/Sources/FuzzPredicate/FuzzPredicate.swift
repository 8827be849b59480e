// libFuzzer target: the predicate parser, `ObjectPredicate(format:)`. Each input (as UTF-8,
// invalid sequences replaced) is parsed with a few arguments for its `%@` and `%K`; a predicate
// that parses is formatted back and the format parsed again, as a fetch request's description
// and a stored fetch request do. Any error thrown is an answer; a crash, a hang or running out of
// memory is a finding.

import FuzzSupport
import StrataCore

/// Parses one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let format = String(decoding: fuzzInput(data, size), as: UTF8.self)
    let arguments: [Any?] = ["name", 3, nil, 2.5, "x"]
    guard let predicate = try? ObjectPredicate(format: format, argumentArray: arguments) else { return 0 }
    _ = try? ObjectPredicate(format: predicate.predicateFormat, argumentArray: [])
    return 0
}

/// The process's entry point (see `runFuzzer`).
@_cdecl("FuzzPredicate_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, testOneInput)
}
