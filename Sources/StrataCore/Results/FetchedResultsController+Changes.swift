import Foundation

extension FetchedResultsController {
    /// One object a batch of changes may move: where it was and where it goes.
    private struct Movement {
        /// Its ID in the results before (nil when it was not in them).
        var previousID: ManagedObjectID?
        /// Its ID after.
        var id: ManagedObjectID
        var object: ManagedObject?
        var oldKey: [PredicateValue]?
        var newKey: [PredicateValue]?
        /// The names of its section before and after, when they do not follow from the first
        /// sort key.
        var oldSection: String?
        var newSection: String?
        var oldPath: IndexPath?
        var newPath: IndexPath?

        /// Whether it has to be taken out and placed again: its key, section or ID changed.
        var moves: Bool { newKey != oldKey || newSection != oldSection || previousID != id }
    }

    /// Starts following the context's notifications.
    func startObserving(_ context: ManagedObjectContext) {
        let key = UUID()
        observerKey = key
        context.resultsObservers[key] = { [weak self] name, changes in
            self?.contextDidChange(name, changes)
        }
    }

    /// Takes a notification of the context in.
    func contextDidChange(_ name: Notification.Name, _ changes: ContextChanges) {
        guard results != nil else { return }
        if name == ManagedObjectContext.objectsDidChangeNotification {
            apply(changes, reportingUpdates: true)
        } else if name == ManagedObjectContext.didSaveNotification {
            // The save's changes were announced when they were processed: only what the save
            // itself changed (permanent IDs, changes made by will-save hooks) moves rows now.
            apply(changes, reportingUpdates: false)
        }
    }

    /// Applies a batch of changes to the results and reports it: O(k log n) for k changed objects.
    func apply(_ changes: ContextChanges, reportingUpdates: Bool) {
        guard var results, let context else { return }
        var movements: [Movement] = []
        var seen = Set<ManagedObjectID>()
        // Objects a save gave their permanent IDs.
        for (previous, object) in temporary where object.objectID != previous {
            temporary[previous] = nil
            seen.insert(previous)
            seen.insert(object.objectID)
            if retained[previous] != nil { retained[previous] = nil; retained[object.objectID] = object }
            movements.append(Movement(previousID: previous, id: object.objectID, object: object,
                                      oldKey: results.key(of: previous), newKey: newKey(of: object),
                                      newSection: sectionName(of: object)))
        }
        func consider(_ ids: ObjectIDSet, deleted: Bool) {
            for id in ids.set where entityNames.contains(id.entityName) && seen.insert(id).inserted {
                let oldKey = results.key(of: id)
                var object: ManagedObject? = nil
                var key: [PredicateValue]? = nil
                var section: String? = nil
                if !deleted {
                    // An object no longer registered is read again as a fault.
                    object = context.registeredObject(for: id) ?? (try? context.object(with: id))
                    if let object { key = newKey(of: object) }
                    if let object, key != nil { section = sectionName(of: object) }
                }
                guard oldKey != nil || key != nil else { continue }
                movements.append(Movement(previousID: oldKey == nil ? nil : id, id: id, object: object,
                                          oldKey: oldKey, newKey: key, newSection: section))
            }
        }
        consider(changes.deletedIDs, deleted: true)
        consider(changes.insertedIDs, deleted: false)
        consider(changes.updatedIDs, deleted: false)
        guard !movements.isEmpty else { return }

        // Where each object was, before anything moves.
        for index in movements.indices {
            guard let previous = movements[index].previousID, let path = results.indexPath(of: previous) else { continue }
            movements[index].oldPath = path
            if !results.groupsByFirstKey { movements[index].oldSection = results.sections[path[0]].name }
        }
        // The results are changed in place: the controller lets go of them meanwhile, so that the
        // section trees and slot columns are not shared and are not copied.
        self.results = nil
        // Out go the objects that leave or move; sections they empty are remembered by name.
        var removedSections: [String: Int] = [:]
        var sectionNamesBefore = Set<String>()
        for movement in movements {
            guard movement.previousID != nil, let oldPath = movement.oldPath, movement.moves else { continue }
            sectionNamesBefore.insert(results.sections[oldPath[0]].name)
        }
        var originalSectionIndex: [String: Int] = [:]
        for (index, section) in results.sections.enumerated() where sectionNamesBefore.contains(section.name) {
            originalSectionIndex[section.name] = index
        }
        for movement in movements {
            guard let previous = movement.previousID, movement.oldPath != nil, movement.moves else { continue }
            guard let path = results.indexPath(of: previous) else { continue }
            let name = results.sections[path[0]].name
            if let (_, emptied) = results.remove(previous), emptied { removedSections[name] = originalSectionIndex[name] }
        }
        // In go the objects that enter or move.
        var madeSections = Set<String>()
        for movement in movements {
            guard let newKey = movement.newKey, movement.previousID == nil || movement.moves else { continue }
            let name = !results.sectioned ? "" : movement.newSection ?? ResultOrder.sectionName(newKey[0])
            if results.insert(movement.id, key: newKey, sectionName: movement.newSection) {
                if removedSections[name] != nil { removedSections[name] = nil } else { madeSections.insert(name) }
            }
            if let object = movement.object {
                if fetchRequest.fetchBatchSize == 0 { retained[movement.id] = object }
                if movement.id.isTemporaryID { temporary[movement.id] = object }
            }
        }
        for movement in movements where movement.newKey == nil {
            if let previous = movement.previousID {
                retained[previous] = nil
                temporary[previous] = nil
            }
        }
        for index in movements.indices where movements[index].newKey != nil {
            movements[index].newPath = results.indexPath(of: movements[index].id)
        }
        self.results = results
        loadedBatches = []

        // The report.
        var objectChanges: [ResultsObjectChange] = []
        for movement in movements {
            let type: FetchedResultsChangeType
            switch (movement.oldPath, movement.newPath) {
            case (nil, nil): continue
            case (nil, _): type = .insert
            case (_, nil): type = .delete
            case (_?, _?):
                if movement.moves {
                    // A new permanent ID is a move too, so that lists keyed by ID take it.
                    type = .move
                } else {
                    guard reportingUpdates else { continue }
                    type = .update
                }
            }
            objectChanges.append(ResultsObjectChange(type: type, objectID: movement.id,
                                                     indexPath: movement.oldPath, newIndexPath: movement.newPath))
        }
        var sectionChanges: [ResultsSectionChange] = removedSections
            .map { ResultsSectionChange(type: .delete, name: $0.key, index: $0.value) }
            .sorted { $0.index > $1.index }
        sectionChanges += madeSections
            .compactMap { name in results.sections.firstIndex { $0.name == name }.map { ResultsSectionChange(type: .insert, name: name, index: $0) } }
            .sorted { $0.index < $1.index }
        guard !objectChanges.isEmpty || !sectionChanges.isEmpty else { return }
        if cacheIsCurrent, let cacheName {
            FetchedResultsCache.delete(name: cacheName)
            cacheIsCurrent = false
        }
        objectChanges.sort { rank($0) < rank($1) }
        report(ResultsDifference(sectionChanges: sectionChanges, objectChanges: objectChanges), in: context)
    }

    /// The order changes are reported in: deletes last first, inserts first first, moves, updates.
    private func rank(_ change: ResultsObjectChange) -> (Int, Int, Int) {
        switch change.type {
        case .delete: (0, -change.indexPath![0], -change.indexPath![1])
        case .insert: (1, change.newIndexPath![0], change.newIndexPath![1])
        case .move: (2, change.newIndexPath![0], change.newIndexPath![1])
        case .update: (3, change.newIndexPath![0], change.newIndexPath![1])
        }
    }

    /// The sort key `object` has now, or nil when it is not in the results (deleted, gone, or not
    /// matching the predicate).
    private func newKey(of object: ManagedObject) -> [PredicateValue]? {
        guard !object.isDeleted, !object.isInvalidated else { return nil }
        if let predicate = fetchRequest.predicate {
            guard (try? predicate.evaluate(with: object)) == true else { return nil }
        }
        guard !object.isInvalidated else { return nil }   // evaluating may find it gone
        return results?.order.key(of: object)
    }

    /// Tells the delegate (and the live query, if this is one) about a batch.
    private func report(_ difference: ResultsDifference, in context: ManagedObjectContext) {
        liveUpdate?(snapshot, difference)
        guard let delegate else { return }
        delegate.controllerWillChangeContent(self)
        for change in difference.sectionChanges {
            let info = change.type == .delete
                ? FetchedResultsSectionInfo(name: change.name, indexTitle: sectionIndexTitle(forSectionName: change.name),
                                            rows: CountedTree(), ids: ResultSlots.IDs(), context: context)
                : sections![change.index]
            delegate.controller(self, didChange: info, atSectionIndex: change.index, for: change.type)
        }
        for change in difference.objectChanges {
            guard let object = try? context.object(with: change.objectID) else { continue }
            delegate.controller(self, didChange: object, at: change.indexPath, for: change.type, newIndexPath: change.newIndexPath)
        }
        delegate.controllerDidChangeContent(self)
        if delegate.receivesSnapshots {
            delegate.controller(self, didChangeContentWith: snapshot, difference: difference)
        }
    }
}
