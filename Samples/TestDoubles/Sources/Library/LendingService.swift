import Foundation
import Strata

/// Why the lending service refused a request.
public enum LendingError: Error, Equatable {
    /// The book is lent out already.
    case alreadyLent(title: String)
    /// The member has as many books as a member may hold.
    case limitReached(member: String, limit: Int)
}

/// Lends books to members and takes them back, on whatever store it is given: an SQLite file
/// in the app, the in-memory store in its tests.
public final class LendingService {
    /// The most books a member may hold at once.
    public let limit: Int
    private let context: ManagedObjectContext

    /// The model: members and the books they hold.
    public static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Member") {
                Attribute("name", .string, optional: false)
                Relationship("books", toMany: "Book", inverse: "borrower")
            }
            EntityDescription("Book") {
                Attribute("title", .string, optional: false)
                Relationship("borrower", to: "Member", inverse: "books")
            }
        }
    }

    /// A service on a store of `type` (at `url` for types with a file).
    public init(storeType: StoreType, at url: URL? = nil, limit: Int = 2) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: storeType, at: url)
        context = ManagedObjectContext(coordinator: coordinator)
        self.limit = limit
    }

    /// Adds a member and returns its ID.
    @discardableResult
    public func addMember(_ name: String) throws -> ManagedObjectID {
        let member = try context.insertNewObject(forEntityName: "Member")
        try member.setValue(name, forKey: "name")
        try context.save()
        return member.objectID
    }

    /// Adds a book and returns its ID.
    @discardableResult
    public func addBook(_ title: String) throws -> ManagedObjectID {
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.setValue(title, forKey: "title")
        try context.save()
        return book.objectID
    }

    /// Lends `book` to `member`, saved at once.
    public func lend(_ book: ManagedObjectID, to member: ManagedObjectID) throws {
        let bookObject = try context.existingObject(with: book)
        let memberObject = try context.existingObject(with: member)
        if try bookObject.value(forKey: "borrower", as: ManagedObject.self) != nil {
            throw LendingError.alreadyLent(title: try bookObject.value(forKey: "title", as: String.self) ?? "")
        }
        let held = try context.count(for: FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "borrower == %@", memberObject)))
        guard held < limit else {
            throw LendingError.limitReached(member: try memberObject.value(forKey: "name", as: String.self) ?? "", limit: limit)
        }
        try bookObject.setValue(memberObject, forKey: "borrower")
        try context.save()
    }

    /// Takes `book` back.
    public func giveBack(_ book: ManagedObjectID) throws {
        try context.existingObject(with: book).setValue(nil as ManagedObject?, forKey: "borrower")
        try context.save()
    }

    /// The titles `member` holds, sorted.
    public func titles(heldBy member: ManagedObjectID) throws -> [String] {
        let request = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "borrower == %@", try context.existingObject(with: member)),
                                   sortDescriptors: [ObjectSortDescriptor(key: "title")])
        return try context.fetch(request).map { try $0.value(forKey: "title", as: String.self) ?? "" }
    }
}
