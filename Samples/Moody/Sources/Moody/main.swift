import Foundation
import Strata

// Mood, Country and Continent are written by the StrataCodegen plugin from Moody.xcdatamodeld.
let container = try PersistentContainer(name: "Moody", bundles: [.module])
container.storeDescriptions = [ContainerStoreDescription(type: .inMemory)]
try container.loadPersistentStores()
MoodyClasses.register(with: container.persistentStoreCoordinator)
let context = container.viewContext

let europe = try context.insertNewObject(Continent.self)
europe.numericISO3166Code = 150
var countries: [Country] = []
for (code, updated) in [(250, 1_000.0), (276, 2_000.0), (380, 3_000.0)] {
    let country = try context.insertNewObject(Country.self)
    country.numericISO3166Code = Int16(code)
    country.updatedAt = Date(timeIntervalSince1970: updated)
    country.continent = europe
    countries.append(country)
}
for index in 0..<9 {
    let mood = try context.insertNewObject(Mood.self)
    mood.rating = Int16(index % 5 + 1)
    mood.date = Date(timeIntervalSince1970: Double(index) * 3_600)
    mood.country = countries[index % countries.count]
}
try context.save()

// A second context reads what the first saved, through the typed requests.
let reader = ManagedObjectContext(coordinator: container.persistentStoreCoordinator)
let happy = try reader.fetch(FetchRequest<Mood>(predicate: #Predicate { $0.rating >= 4 },
                                                sortDescriptors: [try ObjectSortDescriptor(\Mood.date)]))
print("moods rated 4 or 5: \(happy.map(\.rating))")
let countriesWithMoods = try reader.fetch(Country.sortedFetchRequest(with: try ObjectPredicate(format: "moods.@count > 0")))
for country in countriesWithMoods.sorted(by: { $0.numericISO3166Code < $1.numericISO3166Code }) {
    print("country \(country.numericISO3166Code): \(country.moods.count) moods, continent \(country.continent?.numericISO3166Code ?? 0)")
}
for continent in try reader.fetch(Continent.sortedFetchRequest) {
    print("continent \(continent.numericISO3166Code): \(continent.countries.count) countries")
}
