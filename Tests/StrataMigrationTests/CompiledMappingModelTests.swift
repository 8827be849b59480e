import Foundation
import Strata
import StrataMigration
import StrataModelFiles
import StrataTestSupport
import Testing

/// Compiled mapping models (`.cdm`): `NSKeyedArchiver` archives of `NSMappingModel`.
@Suite("Compiled .cdm mapping models")
struct CompiledMappingModelTests {
    typealias Models = MappingMigrationTests

    /// Companies → firms: renames, a policy function, a built-in function, constants of every
    /// kind, a filter, relationship mappings both generated and written, user info.
    static let companiesToFirms: MappingModel = {
        let source = MappingExpression.variable("source")
        return MappingModel(entityMappings: [
            EntityMapping(name: "PersonToPerson", sourceEntityName: "Person", destinationEntityName: "Person",
                          filterPredicate: "age >= 0 AND first != 'nobody'",
                          entityMigrationPolicyClassName: "FullNamePolicy",
                          attributeMappings: [
                            PropertyMapping(name: "fullName", valueExpression: .function(
                                receiver: .variable("entityPolicy"), selector: "fullNameForFirst:last:",
                                arguments: [.keyPath(source, "first"), .keyPath(source, "last")]),
                                            userInfo: ["note": .string("joined"), "weight": .double(0.5)]),
                            PropertyMapping(name: "age", valueExpression: .keyPath(source, "age")),
                            PropertyMapping(name: "nickname", valueExpression: .builtInFunction(
                                name: "uppercase", arguments: [.constant(.string("unknown"))])),
                          ],
                          relationshipMappings: [
                            PropertyMapping(name: "firm", valueExpression: MappingExpression.DestinationInstances(
                                entityMappingName: "CompanyToFirm", sourceInstances: .keyPath(source, "employer")).expression),
                          ],
                          userInfo: ["since": .date(Date(timeIntervalSinceReferenceDate: 86_400)), "flags": .array([.bool(true), .integer(7)]),
                                     "raw": .data(Data([1, 2, 3])), "nested": .dictionary(["k": .string("v")])]),
            EntityMapping(name: "CompanyToFirm", sourceEntityName: "Company", destinationEntityName: "Firm",
                          attributeMappings: [
                            PropertyMapping(name: "title", valueExpression: .keyPath(source, "name")),
                            PropertyMapping(name: "size", valueExpression: .keyPath(source, "staff.@count")),
                          ],
                          relationshipMappings: [PropertyMapping(name: "employees", generatesValueExpression: true,
                                                                 sourceKeyPath: "$source.staff", sourceMappingName: "PersonToPerson")]),
        ])
    }()

    /// A temporary `.cdm` file holding `model`.
    static func write(_ model: MappingModel, name: String = "V1-V2.cdm") throws -> URL {
        let url = try TemporaryFolder.make().appending(path: name)
        try model.compiledArchive().write(to: url)
        return url
    }

    @Test("A resolved mapping model reads back from its archive as it was, and is found for its models by version hashes")
    func roundTrip() throws {
        let resolved = try Self.companiesToFirms.resolved(source: Models.companies, destination: Models.firms)
        let url = try Self.write(resolved)
        let read = try MappingModel.load(at: url)
        #expect(read.file == url.path)
        #expect(read.displayName == "V1-V2")
        #expect(read.entityMappings.count == resolved.entityMappings.count)
        for (original, back) in zip(resolved.entityMappings, read.entityMappings) {
            #expect(back.name == original.name)
            #expect(back.mappingType == original.mappingType)
            #expect(back.sourceEntityName == original.sourceEntityName && back.destinationEntityName == original.destinationEntityName)
            #expect(back.sourceEntityVersionHash == original.sourceEntityVersionHash && back.sourceEntityVersionHash?.count == 32)
            #expect(back.destinationEntityVersionHash == original.destinationEntityVersionHash)
            #expect(back.filterPredicate == original.filterPredicate)
            #expect(back.generatesSourceExpression)
            #expect(back.sourceExpression == SourceFetch(entityName: original.sourceEntityName ?? "", predicate: original.filterPredicate).expression)
            #expect(back.entityMigrationPolicyClassName == original.entityMigrationPolicyClassName)
            #expect(back.userInfo == original.userInfo)
            // Property mappings read back in name order, as from an .xcmappingmodel.
            let attributes = original.attributeMappings.sorted { $0.name < $1.name }
            #expect(back.attributeMappings.map(\.name) == attributes.map(\.name))
            #expect(back.attributeMappings.map(\.valueExpression) == attributes.map(\.valueExpression))
            #expect(back.attributeMappings.map(\.userInfo) == attributes.map(\.userInfo))
            #expect(back.relationshipMappings.map(\.name) == original.relationshipMappings.map(\.name))
            #expect(back.relationshipMappings.map(\.valueExpression) == original.relationshipMappings.map(\.valueExpression))
        }
        #expect(read.hasVersionHashes)
        #expect(read.matches(source: Models.companies, destination: Models.firms))
        #expect(!read.matches(source: Models.employees, destination: Models.employees2))
        #expect(try MappingModel.find(in: [read], source: Models.companies, destination: Models.firms) != nil)
    }

    @Test("A .cdm file migrates a store: 13 students and 7 teachers through the custom policy", arguments: MigrationRun.all)
    func migrates(run: MigrationRun) throws {
        EntityMigrationPolicy.register(StudentToTeacherPolicy.self, forName: "School.StudentToTeacherPolicy")
        let resolved = try Models.studentMapping(policy: "School.StudentToTeacherPolicy")
            .resolved(source: Models.students, destination: Models.studentsAndTeachers)
        let cdm = try Self.write(resolved)
        // The same bytes without the extension are known by their header.
        let bare = cdm.deletingLastPathComponent().appending(path: "students-mapping")
        try FileManager.default.copyItem(at: cdm, to: bare)
        for url in [cdm, bare] {
            let mapping = try MappingModel.load(at: url)
            let source = try run.makeSource(model: Models.students, Models.fillStudents)
            let manager = MigrationManager(sourceModel: Models.students, destinationModel: Models.studentsAndTeachers)
            manager.batchSize = 6
            let migrated = try run.open(run.migrate(manager, mapping: mapping, from: source), model: Models.studentsAndTeachers)
            #expect(try migrated.all("Student", sortedBy: "id").map { try $0.value(forKey: "age") as? Int16 } == (6...18).map(Int16.init))
            #expect(try migrated.all("Teacher", sortedBy: "id").map { try $0.value(forKey: "name") as? String } == (14...20).map { "Alice\($0)" })
        }
    }

    @Test("A folder's .cdm files are found by the provider and fit their step by version hashes")
    func provider() throws {
        let v1 = MappingModelProviderTests.v1, v2 = MappingModelProviderTests.v2, v3 = MappingModelProviderTests.v3
        let resolved = try Models.studentMapping(policy: nil).resolved(source: v1, destination: v2)
        let folder = try Self.write(resolved).deletingLastPathComponent()
        let nested = folder.appending(path: "More")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try MappingModel(entityMappings: []).compiledArchive().write(to: nested.appending(path: "Empty.cdm"))
        let provider = try MappingModelProvider(contentsOf: [folder])
        #expect(provider.mappingModels.map(\.displayName) == ["Empty", "V1-V2"])
        #expect(try provider.mappingModel(from: v1, to: v2)?.entityMappings.map(\.name) == ["StudentToStudent"])
        #expect(try provider.mappingModel(from: v2, to: v3) == nil)
        let step = try provider.mappedStep(from: ModelVersion(name: "V1", model: v1), to: ModelVersion(name: "V2", model: v2))
        #expect(step?.name == "V1-V2")
    }

    @Test("Truncated, garbled and foreign files are typed errors naming the file, never a crash")
    func hostile() throws {
        let resolved = try Self.companiesToFirms.resolved(source: Models.companies, destination: Models.firms)
        let bytes = resolved.compiledArchive()
        let file = "hostile.cdm"
        // Every truncation.
        for length in 0..<bytes.count {
            do {
                _ = try MappingModel(compiledArchive: bytes.prefix(length), file: file)
                Issue.record("a truncation to \(length) of \(bytes.count) bytes read")
            } catch {
                #expect(error.file == file)
            }
        }
        // Bytes overwritten at random (seeded): an error naming the file, or a model.
        var generator = SeededGenerator(seed: 36)
        for _ in 0..<2_000 {
            var garbled = bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                garbled[Int.random(in: 0..<garbled.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                _ = try MappingModel(compiledArchive: garbled, file: file)
            } catch {
                #expect(error.file == file)
            }
        }
        // A keyed archive of something else, and a text file.
        var other = KeyedArchiveWriter()
        let root = other.object("NSManagedObjectModel", ["NSEntities": KeyedArchiveWriter.null])
        #expect {
            try MappingModel(compiledArchive: other.data(root: root), file: file)
        } throws: { error in
            guard case .invalidObject(file, "the archive", let reason)? = error as? MappingModelError else { return false }
            return reason.contains("NSManagedObjectModel")
        }
        #expect(throws: MappingModelError.self) { try MappingModel(compiledArchive: Data("<?xml version=\"1.0\"?>".utf8), file: file) }
        // An entity mapping without a name is named by its position.
        var nameless = KeyedArchiveWriter()
        let mapping = nameless.object("NSEntityMapping", ["NSMappingType": .integer(4)])
        let model = nameless.object("NSMappingModel", ["NSEntityMappings": nameless.array([mapping])])
        #expect(throws: MappingModelError.invalidObject(file: file, object: "entity mapping #1", reason: "an entity mapping without a name")) {
            try MappingModel(compiledArchive: nameless.data(root: model), file: file)
        }
        let missing = URL(fileURLWithPath: "/no/such/Model.cdm")
        #expect(throws: MappingModelError.unreadable(file: missing.path, reason: "no such file, or it cannot be read")) {
            try MappingModel.load(at: missing)
        }
    }

    /// A generator of the same numbers on every run (SplitMix64).
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
