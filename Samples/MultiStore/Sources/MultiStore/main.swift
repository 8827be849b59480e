import Foundation
import Strata

// Books live in the SQLite store ("Catalog"), reading notes in the XML store ("Notes"). A note
// names its book by URI: relationships do not cross stores, URIs do.
func makeModel() throws -> ManagedObjectModel {
    try ManagedObjectModel(
        entities: [
            EntityDescription("Book") {
                Attribute("title", .string, optional: false)
                Attribute("year", .integer16)
            },
            EntityDescription("Note") {
                Attribute("text", .string, optional: false)
                Attribute("book", .uri, optional: false)
            },
        ],
        configurations: ["Catalog": ["Book"], "Notes": ["Note"]])
}

/// A coordinator on the two files, each configuration in its own store.
func makeCoordinator(_ model: ManagedObjectModel, in folder: URL) throws -> PersistentStoreCoordinator {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: .sqlite, configuration: "Catalog", at: folder.appendingPathComponent("catalog.sqlite"))
    try coordinator.addPersistentStore(type: .xml, configuration: "Notes", at: folder.appendingPathComponent("notes.xml"))
    return coordinator
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-multistore-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let model = try makeModel()

// Write: one save lands in both stores.
var savedURI: URL
do {
    let context = ManagedObjectContext(coordinator: try makeCoordinator(model, in: folder))
    let book = try context.insertNewObject(forEntityName: "Book")
    try book.setValue("Middlemarch", forKey: "title")
    try book.setValue(Int16(1871), forKey: "year")
    try context.obtainPermanentIDs(for: [book])
    let note = try context.insertNewObject(forEntityName: "Note")
    try note.setValue("Dorothea, chapter 20", forKey: "text")
    try note.setValue(book.objectID.uriRepresentation, forKey: "book")
    try context.save()
    savedURI = book.objectID.uriRepresentation
    for object in [book, note] {
        let store = context.persistentStoreCoordinator.persistentStores.first { $0.identifier == object.objectID.storeIdentifier }
        print("\(object.entity.name) saved in the \(store?.type.rawValue ?? "?") store")
    }
}

// Read with a second coordinator: the note's URI resolves to the book in the other store.
let reader = ManagedObjectContext(coordinator: try makeCoordinator(model, in: folder))
let notes = try reader.fetch(FetchRequest(entityName: "Note"))
for note in notes {
    let uri = try note.value(forKey: "book", as: URL.self)
    guard let uri, let id = reader.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri) else {
        fatalError("the note's book URI does not resolve")
    }
    let book = try reader.existingObject(with: id)
    print("note '\(try note.value(forKey: "text", as: String.self) ?? "")' is about \(try book.value(forKey: "title", as: String.self) ?? "") (\(try book.value(forKey: "year", as: Int16.self) ?? 0))")
}
print("URI saved by the first coordinator resolves in the second: \(reader.persistentStoreCoordinator.managedObjectID(forURIRepresentation: savedURI) != nil)")
