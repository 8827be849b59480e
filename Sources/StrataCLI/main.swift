import StrataCommands

runStrataCommandLine()
