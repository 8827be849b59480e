import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// A damaged `Z_METADATA.Z_PLIST` is refused with the file named and what the column holds,
/// never Foundation's own error; values out of their attribute's range are refused by every
/// path that reads a column.
@Suite("SQLite store: damaged metadata and values")
struct SQLiteMetadataErrorTests {
    /// A saved store of the student model, and its file.
    private func savedStore() throws -> URL {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.student())
        let store = try coordinator.addPersistentStore(type: .sqlite, at: try StoreUnderTest.all[3].storeURL())
        let context = ManagedObjectContext(coordinator: coordinator)
        let student = try context.insertNewObject(forEntityName: "Student")
        try student.setValuesForKeys(["id": Int64(1), "name": "Ada", "age": Int16(20)])
        try context.save()
        return try #require(store.url)
    }

    @Test("garbage or a truncated property list in Z_PLIST names the file and says what it holds",
          arguments: [("X'DEADBEEF'", "Z_METADATA.Z_PLIST holds 4 bytes that are no property list (they start de ad be ef"),
                      ("substr(Z_PLIST, 1, 40)", "Z_METADATA.Z_PLIST holds a binary property list of 40 bytes that is damaged or cut short"),
                      ("CAST('<?xml version=\"1.0\"?><plist><dict>' AS BLOB)", "an XML property list of"),
                      ("X'62706C6973743030'", "Z_METADATA.Z_PLIST holds a property list that is not a dictionary")])
    func damagedMetadata(value: String, expected: String) throws {
        let url = try savedStore()
        _ = try SQLiteShell.rows(url, "UPDATE Z_METADATA SET Z_PLIST = \(value)")
        for read in [{ _ = try SQLiteStore.readMetadata(at: url) },
                     { _ = try PersistentStoreCoordinator(managedObjectModel: try SampleModels.student()).addPersistentStore(type: .sqlite, at: url) }] {
            #expect {
                try read()
            } throws: { error in
                guard case let StoreError.corruptStore(file, _, reason) = error else { return false }
                return file == url.path && reason.contains(expected) && !"\(error)".contains("Domain")
            }
        }
    }

    @Test("a dictionary fetch and a value read by column refuse an out-of-range value too")
    func columnReadsRefuse() throws {
        let url = try savedStore()
        _ = try SQLiteShell.rows(url, "UPDATE ZSTUDENT SET ZAGE = 70000")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.student())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Student")
        request.resultType = .dictionary
        request.propertiesToFetch = ["age"]
        #expect {
            _ = try context.fetchDictionaries(request)
        } throws: { error in
            guard case StoreError.invalidStoredValue(let problem) = error else { return false }
            return problem.attribute == "age" && problem.found == "the integer 70000" && problem.object.hasSuffix("/Student/p1")
        }
    }
}
