import JSONCore
import Testing

/// An error with the shared shape, as the package's error types declare theirs.
private struct SampleError: DetailedKindedError {
    let kind: ErrorKind
    let detail: String

    init(_ kind: ErrorKind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    static let timedOut = SampleError("timedOut", "the request timed out")
    static let closed = SampleError("closed", "the connection is closed")
}

/// Another error type with a kind of the same name: a different type, never equal or matched.
private struct OtherError: DetailedKindedError {
    let kind: ErrorKind
    let detail: String

    init(_ kind: ErrorKind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    static let timedOut = OtherError("timedOut", "the other request timed out")
}

private func throwing(_ error: any Error) throws {
    throw error
}

@Suite("KindedError: the shape the package's errors share")
struct KindedErrorTests {
    @Test("errors of one kind are equal and hash alike, whatever their detail")
    func equalityByKind() {
        let detailed = SampleError.timedOut("no reply after 5 seconds")
        #expect(detailed == .timedOut)
        #expect(detailed.hashValue == SampleError.timedOut.hashValue)
        #expect(detailed != .closed)
        #expect(Set([detailed, .timedOut, .closed("gone")]).count == 2)
    }

    @Test("a static member matches its kind in a catch clause, and only its own type's")
    func catchMatching() throws {
        var caught = ""
        do { try throwing(SampleError.closed("peer went away")) } catch SampleError.timedOut {
            caught = "timedOut"
        } catch SampleError.closed { caught = "closed" }
        #expect(caught == "closed")

        do { try throwing(OtherError.timedOut) } catch SampleError.timedOut { caught = "sample" } catch { caught = "other" }
        #expect(caught == "other")
    }

    @Test("a typed throw matches with the short spelling")
    func typedCatch() {
        func fail() throws(SampleError) { throw .timedOut("late") }
        var caught = false
        do { try fail() } catch .timedOut { caught = true } catch {}
        #expect(caught)
    }

    @Test("the description is the detail; a detail-less member has its default sentence")
    func description() {
        #expect(SampleError.timedOut("no reply after 5 seconds").description == "no reply after 5 seconds")
        #expect("\(SampleError.closed)" == "the connection is closed")
    }

    @Test("a kind has a name, the same with any detail")
    func kindName() {
        #expect(SampleError.timedOut("late").kind.name == "timedOut")
        #expect(SampleError.timedOut.kind == ErrorKind("timedOut"))
        #expect(ErrorKind("closed").description == "closed")
    }
}
