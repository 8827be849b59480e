import Foundation
import Strata
import StrataMigration
import StrataTestSupport
import Testing

@Suite("Custom source fetch expressions on every store type")
struct SourceFetchTests {
    typealias Models = MappingMigrationTests

    /// Seven employees; heights 40, 99.5, 100, 150, 20, 120, 75 (E0…E6).
    static func fill(_ context: ManagedObjectContext) throws {
        for (index, height) in [40.0, 99.5, 100, 150, 20, 120, 75].enumerated() {
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue("E\(index)", forKey: "name")
            try employee.setValue(height, forKey: "height")
        }
    }

    /// `EmployeeToEmployee` with `source` as its custom source expression.
    static func mapping(source: MappingExpression) -> MappingModel {
        MappingModel(entityMappings: [
            EntityMapping(name: "EmployeeToEmployee", sourceEntityName: "Employee", destinationEntityName: "Employee",
                          generatesSourceExpression: false, sourceExpression: source,
                          attributeMappings: [PropertyMapping(name: "name"), PropertyMapping(name: "height"),
                                              PropertyMapping(name: "badge", valueExpression: .keyPath(.variable("source"), "name"))]),
        ])
    }

    static let sourceContext = MappingExpression.keyPath(.variable("manager"), "sourceContext")

    /// Migrates the seven employees with `mapping`, two at a time, and returns the names carried over.
    static func migratedNames(_ run: MigrationRun, _ mapping: MappingModel) throws -> [String?] {
        let source = try run.makeSource(model: Models.employees, fill)
        let manager = MigrationManager(sourceModel: Models.employees, destinationModel: Models.employees2)
        manager.batchSize = 2
        let migrated = try run.open(run.migrate(manager, mapping: mapping, from: source), model: Models.employees2)
        return try migrated.all("Employee", sortedBy: "name").map { try $0.value(forKey: "name") as? String }
    }

    @Test("Xcode's FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", …)) selects the source objects",
          arguments: MigrationRun.all)
    func xcodeForm(run: MigrationRun) throws {
        let expression = SourceFetch(entityName: "Employee", predicate: "height < 100").expression
        #expect(expression.format == #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Employee", "height < 100"), $manager.sourceContext, NO)"#)
        #expect(try Self.migratedNames(run, Self.mapping(source: expression)) == ["E0", "E1", "E4", "E6"])
        #expect(Self.mapping(source: expression).summary == ["EmployeeToEmployee: Employee → Employee, undefined, source fetch Employee where height < 100"])
        // TRUEPREDICATE takes every object.
        let all = SourceFetch(entityName: "Employee", predicate: "TRUEPREDICATE").expression
        #expect(try Self.migratedNames(run, Self.mapping(source: all)).count == 7)
    }

    @Test("A FETCH of a fetch request made from an entity and a predicate selects the source objects", arguments: MigrationRun.all)
    func fetchRequestConstant(run: MigrationRun) throws {
        let expression = MappingExpression.fetch(request: .constant(.fetchRequest(entityName: "Employee", predicate: "height >= 100 AND name != 'E5'")),
                                                 context: Self.sourceContext, countOnly: false)
        #expect(expression.sourceFetch == SourceFetch(entityName: "Employee", predicate: "height >= 100 AND name != 'E5'"))
        #expect(try Self.migratedNames(run, Self.mapping(source: expression)) == ["E2", "E3"])
    }

    @Test("A source fetch survives the keyed archive a mapping model keeps it in")
    func archived() throws {
        let mapping = Self.mapping(source: SourceFetch(entityName: "Employee", predicate: "height < 100").expression)
        let custom = MappingModel(entityMappings: [
            EntityMapping(name: "EmployeeToEmployee", sourceEntityName: "Employee", destinationEntityName: "Employee",
                          generatesSourceExpression: false,
                          sourceExpression: .fetch(request: .constant(.fetchRequest(entityName: "Employee", predicate: "height > 3")),
                                                   context: Self.sourceContext, countOnly: false)),
        ])
        let read = try MappingModel(compiledArchive: mapping.compiledArchive(), file: "fetch.cdm")
        // Core Data's generated form reads back as the filter predicate it says.
        #expect(read.entityMappings[0].filterPredicate == "height < 100")
        #expect(read.entityMappings[0].sourceExpression?.sourceFetch == SourceFetch(entityName: "Employee", predicate: "height < 100"))
        let readCustom = try MappingModel(compiledArchive: custom.compiledArchive(), file: "fetch.cdm")
        #expect(readCustom.entityMappings[0].sourceExpression == custom.entityMappings[0].sourceExpression)
        #expect(readCustom.entityMappings[0].generatesSourceExpression == false)
    }

    @Test("Any other source expression is refused with an error naming the mapping; the source is untouched",
          arguments: MigrationRun.all)
    func refused(run: MigrationRun) throws {
        let request = MappingExpression.function(receiver: .variable("manager"), selector: SourceFetch.selector,
                                                 arguments: [.constant(.string("Employee")), .constant(.string("height < 100"))])
        let refused: [MappingExpression] = [
            .fetch(request: request, context: Self.sourceContext, countOnly: true),
            .fetch(request: request, context: .keyPath(.variable("manager"), "destinationContext"), countOnly: false),
            .fetch(request: .function(receiver: .variable("manager"), selector: "somethingElse:", arguments: [.constant(.string("Employee"))]),
                   context: Self.sourceContext, countOnly: false),
            .keyPath(.variable("source"), "name"),
            .unsupported(className: "NSSubqueryExpression"),
            SourceFetch(entityName: "Manager", predicate: nil).expression,
            SourceFetch(entityName: "Employee", predicate: "height <<< 3").expression,
        ]
        let source = try run.makeSource(model: Models.employees, Self.fill)
        let before = storeFileBytes(source)
        let folder = source.deletingLastPathComponent()
        let filesBefore = try files(in: folder, startingWith: "")
        for expression in refused {
            let manager = MigrationManager(sourceModel: Models.employees, destinationModel: Models.employees2)
            do {
                _ = try run.migrate(manager, mapping: Self.mapping(source: expression), from: source)
                Issue.record("\(expression.format) was not refused")
            } catch let error as MappingMigrationError {
                guard case .expression("EmployeeToEmployee", nil, _, _) = error else {
                    Issue.record("\(expression.format): unexpected \(error)"); continue
                }
                #expect("\(error)".contains("entity mapping EmployeeToEmployee"))
            }
        }
        #expect(storeFileBytes(source) == before)
        #expect(try files(in: folder, startingWith: "") == filesBefore)
    }
}
