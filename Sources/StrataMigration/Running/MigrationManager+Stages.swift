import Foundation
import StrataCore

extension MigrationManager {
    /// Core Data's three stages over every entity mapping, in batches.
    func runStages(policies: [EntityMigrationPolicy]) throws(MappingMigrationError) {
        let mappings = mappingModel.entityMappings
        for mapping in mappings where tables[mapping.name] == nil {
            tables[mapping.name] = AssociationTable(sourceEntity: mapping.sourceEntityName, destinationEntity: mapping.destinationEntityName)
        }
        let requests = try mappings.map { mapping throws(MappingMigrationError) in try sourceRequest(for: mapping) }
        var sourceCount = 0
        for request in requests.compactMap({ $0 }) {
            sourceCount += try guarded(.preparation, "") { try sourceContext.count(for: request) }
        }
        // Each source object is made, related and validated: three units each.
        progressTotal = max(1, 3 * sourceCount)

        stage = .instanceCreation
        for (index, mapping) in mappings.enumerated() {
            try createInstances(mapping, policy: policies[index], request: requests[index])
        }
        stage = .relationshipCreation
        for (index, mapping) in mappings.enumerated() {
            try createRelationships(mapping, policy: policies[index])
        }
        stage = .validation
        for (index, mapping) in mappings.enumerated() {
            currentEntityMapping = mapping
            try guarded(.validation, mapping.name) { try policies[index].performCustomValidation(forMapping: mapping, manager: self) }
        }
        try validateDestination()
        for (index, mapping) in mappings.enumerated() {
            currentEntityMapping = mapping
            try guarded(.validation, mapping.name) { try policies[index].end(mapping, manager: self) }
        }
        // What the end hooks changed is saved as any save is: validated.
        try guarded(.validation, "") {
            try destinationContext.save()
            for name in tables.keys { tables[name]?.commitPending() }
        }
        currentEntityMapping = nil
    }

    // MARK: Stage 1

    /// The fetch of the source objects of a mapping: its source entity's own objects (not its
    /// subentities', which have mappings of their own) matching the filter predicate; `nil`
    /// for a mapping that takes none (added or removed entities).
    private func sourceRequest(for mapping: EntityMapping) throws(MappingMigrationError) -> FetchRequest<ManagedObject>? {
        guard let entity = mapping.sourceEntityName, mapping.mappingType != .remove, mapping.mappingType != .add else { return nil }
        var filter = mapping.filterPredicate
        if let expression = mapping.sourceExpression, !mapping.generatesSourceExpression {
            // A custom source fetch replaces the filter predicate, as in Core Data.
            guard let fetch = expression.sourceFetch else {
                throw .expression(entityMapping: mapping.name, property: nil, expression: expression.format,
                                  reason: "a custom source fetch must be FETCH(FUNCTION($manager, \"\(SourceFetch.selector)\", "
                                      + "\"Entity\", \"predicate\"), $manager.sourceContext, NO); use a filter predicate for anything else")
            }
            guard fetch.entityName == entity else {
                throw .expression(entityMapping: mapping.name, property: nil, expression: expression.format,
                                  reason: "the source fetch is of entity \(fetch.entityName), the mapping's source entity is \(entity)")
            }
            filter = fetch.predicate
        }
        var request = FetchRequest(entityName: entity)
        request.includesSubentities = false
        request.fetchBatchSize = max(1, batchSize)
        if let filter {
            do {
                request.predicate = try SourceFilter.fetchPredicate(filter)
            } catch {
                throw .expression(entityMapping: mapping.name, property: nil, expression: filter, reason: "\(error)")
            }
        }
        return request
    }

    private func createInstances(_ mapping: EntityMapping, policy: EntityMigrationPolicy, request: FetchRequest<ManagedObject>?) throws(MappingMigrationError) {
        currentEntityMapping = mapping
        try guarded(.instanceCreation, mapping.name) { try policy.begin(mapping, with: self) }
        if let request {
            let sources = try guarded(.instanceCreation, mapping.name) { try sourceContext.fetchBatched(request) }
            var start = 0
            while start < sources.count {
                let end = min(start + max(1, batchSize), sources.count)
                for position in start..<end {
                    let source = sources[position]
                    try guarded(.instanceCreation, mapping.name) {
                        try policy.createDestinationInstances(forSource: source, in: mapping, manager: self)
                    }
                }
                try flush()
                advance(by: end - start)
                start = end
            }
        }
        try guarded(.instanceCreation, mapping.name) { try policy.endInstanceCreation(forMapping: mapping, manager: self) }
        try flush()
    }

    // MARK: Stage 2

    private func createRelationships(_ mapping: EntityMapping, policy: EntityMigrationPolicy) throws(MappingMigrationError) {
        currentEntityMapping = mapping
        guard let table = tables[mapping.name] else { return }
        let keyPairs = table.savedKeyPairs()
        let extraPairs = table.extraPairs()
        // The default policy with no relationship mapping has nothing to do for each object.
        let visits = !mapping.relationshipMappings.isEmpty || type(of: policy) != EntityMigrationPolicy.self
        if visits, let destinationEntity = table.destinationEntity, let sourceEntity = table.sourceEntity, !keyPairs.isEmpty {
            var start = 0
            while start < keyPairs.count {
                let end = min(start + max(1, batchSize), keyPairs.count)
                let batch = keyPairs[start..<end]
                let destinations = batch.map { ManagedObjectID(entityName: destinationEntity, storeIdentifier: destinationStoreIdentifier, primaryKey: $0.destination) }
                let sources = batch.map { ManagedObjectID(entityName: sourceEntity, storeIdentifier: sourceStoreIdentifier, primaryKey: $0.source) }
                try relateBatch(mapping, policy: policy, pairs: Array(zip(destinations, sources)))
                advance(by: end - start)
                start = end
            }
        } else {
            advance(by: keyPairs.count)
        }
        if visits, !extraPairs.isEmpty {
            var start = 0
            while start < extraPairs.count {
                let end = min(start + max(1, batchSize), extraPairs.count)
                try relateBatch(mapping, policy: policy, pairs: extraPairs[start..<end].map { ($0.destination, $0.source) })
                start = end
            }
        }
        try guarded(.relationshipCreation, mapping.name) { try policy.endRelationshipCreation(forMapping: mapping, manager: self) }
        try flush()
    }

    /// Creates the relationships of one batch of destination objects, their objects and their
    /// sources' read in one request per context.
    private func relateBatch(_ mapping: EntityMapping, policy: EntityMigrationPolicy,
                             pairs: [(destination: ManagedObjectID, source: ManagedObjectID)]) throws(MappingMigrationError) {
        let (destinations, sources) = try guarded(.relationshipCreation, mapping.name) {
            (try load(pairs.map(\.destination), in: destinationContext, byID: destinationLoadsByID),
             try load(pairs.map(\.source), in: sourceContext, byID: sourceLoadsByID))
        }
        batchSources = Dictionary(pairs.map { ($0.destination, $0.source) }, uniquingKeysWith: { first, _ in first })
        defer { batchSources = [:] }
        // The source objects stay alive (and loaded) through the batch.
        withExtendedLifetime(sources) {}
        for destination in destinations.objects {
            try guarded(.relationshipCreation, mapping.name) {
                try policy.createRelationships(forDestination: destination, in: mapping, manager: self)
            }
        }
        try flush()
    }

    /// The objects of `ids`, loaded with one fetch per entity, or one ID at a time when `byID`
    /// (and held: a context does not keep unchanged objects alive).
    private func load(_ ids: [ManagedObjectID], in context: ManagedObjectContext,
                      byID: Bool) throws -> (objects: [ManagedObject], held: [ManagedObject]) {
        if byID {
            let objects = try ids.map { try context.existingObject(with: $0) }
            return (objects, objects)
        }
        var byEntity: [String: [ManagedObjectID]] = [:]
        for id in ids { byEntity[id.entityName, default: []].append(id) }
        var held: [ManagedObject] = []
        for (entity, entityIDs) in byEntity {
            var request = FetchRequest(entityName: entity, predicate: try ObjectPredicate(format: "SELF IN %@", entityIDs))
            request.includesSubentities = false
            held += try context.fetch(request)
        }
        return (try ids.map { try context.object(with: $0) }, held)
    }

    // MARK: Stage 3

    /// Validates every object of the destination store, a batch at a time.
    private func validateDestination() throws(MappingMigrationError) {
        try guarded(.validation, "") {
            try destinationContext.save(validatingChanges: false)
            for name in tables.keys { tables[name]?.commitPending() }
            destinationContext.reset()
        }
        var failures: [ValidationFailure] = []
        for entity in destinationModel.entities where !entity.isAbstract {
            var request = FetchRequest(entityName: entity.name)
            request.includesSubentities = false
            request.fetchBatchSize = max(1, batchSize)
            let objects = try guarded(.validation, entity.name) { try destinationContext.fetchBatched(request) }
            var position = 0
            for object in objects {
                do {
                    try object.validateForInsert()
                } catch let error as ValidationError {
                    failures += error.failures
                } catch {
                    throw MappingMigrationError.stageFailed(stage: .validation, entityMapping: entity.name, underlying: error)
                }
                if failures.count >= 100 { throw .validation(ValidationError(failures: failures)) }
                position += 1
                if position % max(1, batchSize) == 0 {
                    destinationContext.reset()
                    advance(by: batchSize)
                }
            }
            advance(by: position % max(1, batchSize))
            destinationContext.reset()
        }
        if !failures.isEmpty { throw .validation(ValidationError(failures: failures)) }
    }

    // MARK: Batches

    /// Ends a batch: saves the destination objects (without validation: relationships may not
    /// exist yet; the last stage validates), keeps the new associations as keys, and empties
    /// both contexts.
    func flush() throws(MappingMigrationError) {
        try checkCancelled()
        try guarded(stage, currentEntityMapping?.name ?? "") {
            try destinationContext.save(validatingChanges: false)
        }
        for name in tables.keys { tables[name]?.commitPending() }
        destinationContext.reset()
        sourceContext.reset()
    }

    private func checkCancelled() throws(MappingMigrationError) {
        if let cancellation { throw .cancelled(reason: cancellation) }
    }

    /// Runs a hook or a store call, turning what it throws into a ``MappingMigrationError`` of this
    /// stage and mapping, and stops when the hook cancelled the migration.
    func guarded<T>(_ stage: MappingStage, _ mapping: String, _ body: () throws -> T) throws(MappingMigrationError) -> T {
        let result: T
        do {
            result = try body()
        } catch let error as MappingMigrationError {
            throw error
        } catch {
            throw .stageFailed(stage: stage, entityMapping: mapping, underlying: error)
        }
        try checkCancelled()
        return result
    }
}
