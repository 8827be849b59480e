import CFuzzerDriver

/// The signature of `LLVMFuzzerTestOneInput`.
public typealias FuzzTestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

/// Runs libFuzzer on `testOneInput` with the process's command line.
///
/// SwiftPM links every executable with `main` defined as `<module>_main` (so that tests can
/// call into executables), which leaves libFuzzer's own `main` out; each target therefore
/// defines `<module>_main` with `@_cdecl` and calls this, which is what libFuzzer's `main` does.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ testOneInput: FuzzTestOneInput
) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
}
