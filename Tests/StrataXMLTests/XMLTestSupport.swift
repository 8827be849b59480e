import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@testable import StrataXML
import StrataTestSupport

/// Decoding XML store documents in memory, without files.
enum XMLFixture {
    /// Decodes a whole document as the XML store reads its file.
    static func decode(_ data: Data, file: String, model: ManagedObjectModel) throws -> StoreImage {
        let reader = try XMLStreamReader(data: data, file: file)
        return try XMLStoreDecoder(reader: reader, model: model).decode(objects: true)
    }

    /// Decodes a document given as text.
    static func decode(_ text: String, file: String, model: ManagedObjectModel) throws -> StoreImage {
        try decode(Data(text.utf8), file: file, model: model)
    }
}
