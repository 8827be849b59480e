// The umbrella module: `import Strata` brings the whole stack and every store family.
@_exported import StrataBinary
@_exported import StrataCore
@_exported import StrataModelFiles
@_exported import StrataSQLite
@_exported import StrataXML
