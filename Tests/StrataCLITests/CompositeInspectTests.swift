import Foundation
import Strata
import StrataJSON
import StrataModelFiles
import StrataTestSupport
import Testing

/// `strata inspect` lists each composite attribute with the element attributes that store it.
@Suite("strata inspect with composite attributes")
struct CompositeInspectTests {
    @Test("inspect --model lists composites in text and JSON")
    func inspectShowsComposites() throws {
        let scratch = try Scratch()
        let model = try ManagedObjectModel {
            EntityDescription("Quake") {
                Attribute("code", .string)
                Composite("magnitude") {
                    Attribute("richter", .double)
                    Attribute("scale", .string)
                }
            }
        }
        let modelPath = scratch.path("Quake.xcdatamodel")
        try ModelFileWriter().write(model, toVersionFolder: URL(fileURLWithPath: modelPath))
        let storePath = scratch.path("quakes.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: storePath))
        let context = ManagedObjectContext(coordinator: coordinator)
        let quake = try context.insertNewObject(forEntityName: "Quake")
        try quake.setValue(["richter": 4.6, "scale": "ML"], forKey: "magnitude")
        try context.save()

        let text = try scratch.run(["inspect", storePath, "--model", modelPath])
        #expect(text.status == 0, "\(text)")
        #expect(text.outputLines.contains("  Quake.magnitude  magnitude.richter, magnitude.scale"), "\(text)")
        let json = try scratch.run(["inspect", storePath, "--model", modelPath, "--json"])
        guard case .object(let members) = try JSONParser.parse(json.stdoutData),
              case .object(let modelReport)? = members["model"], case .object(let composites)? = modelReport["composites"] else {
            Issue.record("no composites in \(json)")
            return
        }
        #expect(composites["Quake.magnitude"] == .array([.string("magnitude.richter"), .string("magnitude.scale")]))
    }
}
