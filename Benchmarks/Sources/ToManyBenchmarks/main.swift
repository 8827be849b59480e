import BenchmarkSupport
import Foundation
import Strata

// ToManyBenchmarks [students] [--runs N] [--only NAME,...] [--keep]
//   Writes a store of `students` students (default 100000), their courses (two on average) and
//   100 clubs with Strata, then asks to-many questions of it: each with a Strata fetch (a new
//   context each time, every student's name and year read) and with SQL written by hand on the
//   same file through SQLite's C API, in turn, then the same with a count (`count(for:)` against
//   `SELECT count(*)`), N rounds (default 7). Prints the median times and the median of the
//   rounds' ratios (Strata ÷ C API); exits 1 when the answers differ.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ToManyBenchmarks: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var students = 100_000
var runs = 7
var keep = false
var only: Set<String>?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--runs":
        guard let value = arguments.first.flatMap(Int.init) else { fail("--runs needs a number") }
        runs = max(1, value); arguments.removeFirst()
    case "--only":
        guard let value = arguments.first else { fail("--only needs names") }
        only = Set(value.split(separator: ",").map(String.init)); arguments.removeFirst()
    case "--keep": keep = true
    default:
        guard let value = Int(argument), value > 0 else { fail("unknown argument \(argument)") }
        students = value
    }
}

func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try work()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

do {
    let folder = try ChildProcess.makeScratchFolder(prefix: "strata-tomany-benchmarks")
    defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
    let file = folder.appendingPathComponent("school.sqlite")
    var written = 0
    let writing = try seconds { written = try School(students: students).write(file) }
    FileHandle.standardError.write(Data("wrote \(written) objects in \(String(format: "%.1f", writing)) s: \(file.path)\n".utf8))

    let coordinator = PersistentStoreCoordinator(managedObjectModel: try School.model())
    try coordinator.addPersistentStore(type: .sqlite, at: file)
    let raw = try RawConnection(path: file.path)
    let join = try raw.joinTable()

    print("| question | predicate | students | fetch: C API ms | Strata ms | Strata ÷ C | count: C API ms | Strata ms | Strata ÷ C |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    var disagreed = false
    for query in Query.all where only?.contains(query.name) ?? true {
        let condition = query.condition.replacingOccurrences(of: "JOIN j", with: "\(join.table) j")
            .replacingOccurrences(of: "j.CLUB", with: "j.\(join.club)").replacingOccurrences(of: "j.MEMBER", with: "j.\(join.member)")
        let request = FetchRequest(entityName: "Student", predicate: try ObjectPredicate(format: query.predicate))
        var rawTimes: [Double] = [], strataTimes: [Double] = [], ratios: [Double] = []
        var rawCountTimes: [Double] = [], strataCountTimes: [Double] = [], countRatios: [Double] = []
        var rawAnswer = (rows: 0, keySum: 0), strataAnswer = (rows: 0, keySum: 0)
        for _ in 0..<runs {
            let rawTime = try seconds { rawAnswer = try raw.students(where: condition) }
            let strataTime = try seconds {
                let context = ManagedObjectContext(coordinator: coordinator)
                let found = try context.fetch(request)
                var keySum = 0, nameBytes = 0
                for student in found {
                    keySum += Int(student.objectID.primaryKey ?? 0)
                    nameBytes &+= try student.value(forKey: "name", as: String.self)?.utf8.count ?? 0
                    nameBytes &+= Int(try student.value(forKey: "year", as: Int16.self) ?? 0) & 0
                }
                strataAnswer = (found.count, keySum)
            }
            rawTimes.append(rawTime)
            strataTimes.append(strataTime)
            ratios.append(strataTime / rawTime)
            var rawCount = 0, strataCount = 0
            let rawCountTime = try seconds { rawCount = try raw.count(where: condition) }
            let strataCountTime = try seconds { strataCount = try ManagedObjectContext(coordinator: coordinator).count(for: request) }
            countRatios.append(strataCountTime / rawCountTime)
            rawCountTimes.append(rawCountTime)
            strataCountTimes.append(strataCountTime)
            if rawCount != strataCount || rawCount != rawAnswer.rows {
                disagreed = true
                FileHandle.standardError.write(Data("\(query.name): counts \(rawCount) and \(strataCount)\n".utf8))
            }
            FileHandle.standardError.write(Data(String(format: "%@: C %.2f ms, Strata %.2f ms\n", query.name, rawTime * 1000,
                                                       strataTime * 1000).utf8))
        }
        if rawAnswer != strataAnswer {
            disagreed = true
            FileHandle.standardError.write(Data("\(query.name): C API \(rawAnswer), Strata \(strataAnswer)\n".utf8))
        }
        print(String(format: "| %@ | `%@` | %d | %.1f | %.1f | %.2f× | %.1f | %.1f | %.2f× |", query.name, query.predicate,
                     strataAnswer.rows, median(rawTimes) * 1000, median(strataTimes) * 1000, median(ratios),
                     median(rawCountTimes) * 1000, median(strataCountTimes) * 1000, median(countRatios)))
    }
    if disagreed { exit(1) }
} catch {
    fail("\(error)")
}
