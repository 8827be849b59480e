import Foundation
import Strata
import StrataTestSupport

extension StoreUnderTest {
    /// A context on a fresh store of this type holding the students Alice (18) and Carol (22),
    /// saved.
    func seededStudents() throws -> (ManagedObjectContext, ManagedObject, ManagedObject) {
        let context = try makeContext(model: SampleModels.student())
        let alice = try context.insert("Student", ["id": 1, "name": "Alice", "age": 18])
        let carol = try context.insert("Student", ["id": 3, "name": "Carol", "age": 22])
        try context.save()
        return (context, alice, carol)
    }
}
