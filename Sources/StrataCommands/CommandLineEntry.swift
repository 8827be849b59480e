/// Runs the `strata` command line with this process's arguments, then exits with the status
/// `strata help` describes: what the `strata` executable does, kept in this library so that tests
/// can import the commands without importing an executable.
public func runStrataCommandLine() -> Never {
    StrataTool.runCommandLine(Array(CommandLine.arguments.dropFirst()))
}
