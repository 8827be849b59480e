import Foundation
import Testing
import StrataCore

/// SHA-256 and SHA-512 against the FIPS 180-4 / NIST published vectors, plus messages whose
/// lengths sit on the padding boundaries (expected digests computed with Python's `hashlib`).
@Suite("SHA2")
struct SHA2Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let message: [UInt8]
        let sha256: String
        let sha512: String
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(
            name: "empty", message: [],
            sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            sha512: "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
        Vector(
            name: "abc", message: Array("abc".utf8),
            sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            sha512: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        Vector(
            name: "448 bits", message: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            sha256: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            sha512: "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"),
        Vector(
            name: "896 bits",
            message: Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8),
            sha256: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
            sha512: "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
        Vector(
            name: "200 bytes 0,1,2…", message: (0..<200).map { UInt8($0) },
            sha256: "1901da1c9f699b48f6b2636e65cbf73abf99d0441ef67f5c540a42f7051dec6f",
            sha512: "986058e9895e2c2ab8f9e8cbdf801db12a44842a56a91d5a4e87b1fc98b293722c4664142e42c3c551ff898646268cd92b84ed230b8c94bed7798d4f27cd7465"),
        // Lengths around the padding boundaries of both block sizes (64 and 128 bytes).
        Vector(
            name: "55 × a", message: Array(repeating: UInt8(ascii: "a"), count: 55),
            sha256: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
            sha512: "b0220c772cbf6c1822e2cb38a437d0e1d58772417a4bbb21c961364f8b6143e05aa6316dca8d1d7b19e16448419076395f6086cb55101fbd6d5497b148e1745f"),
        Vector(
            name: "56 × a", message: Array(repeating: UInt8(ascii: "a"), count: 56),
            sha256: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
            sha512: "962b64aae357d2a4fee3ded8b539bdc9d325081822b0bfc55583133aab44f18bafe11d72a7ae16c79ce2ba620ae2242d5144809161945f1367f41b3972e26e04"),
        Vector(
            name: "64 × a", message: Array(repeating: UInt8(ascii: "a"), count: 64),
            sha256: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
            sha512: "01d35c10c6c38c2dcf48f7eebb3235fb5ad74a65ec4cd016e2354c637a8fb49b695ef3c1d6f7ae4cd74d78cc9c9bcac9d4f23a73019998a7f73038a5c9b2dbde"),
        Vector(
            name: "111 × a", message: Array(repeating: UInt8(ascii: "a"), count: 111),
            sha256: "6374f73208854473827f6f6a3f43b1f53eaa3b82c21c1a6d69a2110b2a79baad",
            sha512: "fa9121c7b32b9e01733d034cfc78cbf67f926c7ed83e82200ef86818196921760b4beff48404df811b953828274461673c68d04e297b0eb7b2b4d60fc6b566a2"),
        Vector(
            name: "112 × a", message: Array(repeating: UInt8(ascii: "a"), count: 112),
            sha256: "f54353008a2553262ecdc4a34749563ba0950e8b0fc8652780b0a614b99683c1",
            sha512: "c01d080efd492776a1c43bd23dd99d0a2e626d481e16782e75d54c2503b5dc32bd05f0f1ba33e568b88fd2d970929b719ecbb152f58f130a407c8830604b70ca"),
        Vector(
            name: "128 × a", message: Array(repeating: UInt8(ascii: "a"), count: 128),
            sha256: "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e",
            sha512: "b73d1929aa615934e61a871596b3f3b33359f42b8175602e89f7e06e5f658a243667807ed300314b95cacdd579f3e33abdfbe351909519a846d465c59582f321"),
    ]

    @Test("SHA-256 vectors", arguments: vectors)
    func sha256(_ vector: Vector) {
        let digest = SHA2.sha256(vector.message)
        #expect(digest.count == 32)
        #expect(hexString(digest) == vector.sha256)
    }

    @Test("SHA-512 vectors", arguments: vectors)
    func sha512(_ vector: Vector) {
        let digest = SHA2.sha512(vector.message)
        #expect(digest.count == 64)
        #expect(hexString(digest) == vector.sha512)
    }

    @Test("One million times 'a' (FIPS 180-2 long message)")
    func millionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(hexString(SHA2.sha256(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(hexString(SHA2.sha512(message))
            == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }

    @Test("A one-bit change changes the digest")
    func avalanche() {
        var message = Array("abc".utf8)
        let before = SHA2.sha256(message)
        message[2] ^= 1
        #expect(SHA2.sha256(message) != before)
    }
}
