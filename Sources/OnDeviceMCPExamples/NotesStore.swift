package import MCPCore
internal import MCPPlatform

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// One note in a ``NotesStore``.
package struct Note: Hashable, Sendable {
    /// The note's id: a lowercase UUID, assigned when the note is added, never reused.
    package let id: String
    /// The note's title.
    package let title: String
    /// The note's text.
    package let body: String
    /// When it was added: a UTC ISO 8601 timestamp with milliseconds.
    package let createdAt: String

    /// Creates a note; ``NotesStore/add(title:body:)`` is the usual way.
    package init(id: String, title: String, body: String, createdAt: String) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
    }

    /// Reads a note from its stored form; `nil` when a member is missing or not a string.
    package init?(json: JSONValue) {
        guard case .string(let id)? = json["id"], case .string(let title)? = json["title"],
            case .string(let body)? = json["body"], case .string(let createdAt)? = json["createdAt"]
        else { return nil }
        self.init(id: id, title: title, body: body, createdAt: createdAt)
    }

    /// The note as stored and as returned in `structuredContent`.
    package var json: JSONValue {
        ["id": .string(id), "title": .string(title), "body": .string(body), "createdAt": .string(createdAt)]
    }
}

/// Why a ``NotesStore`` could not open or save its file.
package struct NotesStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in a sentence.
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A crash-safe store of notes: one JSON file, replaced atomically on every change.
///
/// ## Crash safety
///
/// Every change writes the whole store to a temporary file in the same directory,
/// `fsync`s it, `rename`s it over `notes.json` and `fsync`s the directory; the method
/// returns only after that. So the file on disk is always a complete store, old or new,
/// whatever moment the process dies at (even `kill -9`), and a change whose call returned
/// is on disk. If saving fails, the change is not made in memory either, and the call throws.
///
/// ## Concurrency
///
/// The store is an actor, and each change reads, modifies and writes without suspending, so
/// concurrent changes are serialized and none is lost. One process should own a data
/// directory at a time: two processes writing the same file each replace the other's changes.
///
/// ## A file that cannot be read
///
/// On opening, a file that is not a valid store (not JSON, not the expected shape, not
/// UTF-8) is not overwritten: it is renamed to `notes.json.corrupt-<UTC timestamp>` beside
/// it, a warning says so, and the store starts empty. A file that cannot be read at all
/// (permissions, an I/O error) makes opening throw, so that nothing is lost or hidden.
/// Temporary files left by a crash mid-write are removed.
package actor NotesStore {
    /// The store's file.
    package nonisolated let fileURL: URL
    /// The name of the store's file in its directory.
    package static let fileName = "notes.json"
    /// The version written in the file's `version` member.
    static let formatVersion = 1

    /// The notes, oldest first.
    private var notes: [Note]
    private let now: @Sendable () -> Date

    /// Opens (or creates) the store in `directory`, creating the directory if needed.
    ///
    /// - Parameters:
    ///   - directory: Where `notes.json` lives.
    ///   - warnings: Told, in a sentence, when a corrupt file was moved aside.
    /// - Throws: ``NotesStoreError`` when the directory cannot be created or the file cannot be read.
    package init(directory: URL, warnings: @Sendable (String) -> Void = { _ in }) throws {
        try self.init(directory: directory, now: { Date() }, warnings: warnings)
    }

    init(directory: URL, now: @escaping @Sendable () -> Date, warnings: @Sendable (String) -> Void) throws {
        let fileURL = directory.appendingPathComponent(Self.fileName, isDirectory: false)
        self.fileURL = fileURL
        self.now = now
        self.notes = try Self.load(fileURL, now: now(), warnings: warnings)
    }

    /// How many notes there are.
    package var count: Int { notes.count }

    /// Adds a note and returns it once it is safely on disk.
    ///
    /// - Throws: ``NotesStoreError`` when the file cannot be written; the note is then not added.
    package func add(title: String, body: String) throws -> Note {
        let note = Note(id: UUID().uuidString.lowercased(), title: title, body: body, createdAt: ClockReading.utcTimestamp(now()))
        try save(notes + [note])
        notes.append(note)
        return note
    }

    /// The notes whose title or body contains `query`, ignoring case, newest first.
    ///
    /// - Parameter limit: The most notes to return; `nil` returns every match.
    package func search(_ query: String, limit: Int? = nil) -> [Note] {
        let needle = query.lowercased()
        let matches = notes.reversed().filter { note in
            note.title.lowercased().contains(needle) || note.body.lowercased().contains(needle)
        }
        return Array(matches.prefix(limit ?? matches.count))
    }

    /// All notes, newest first.
    ///
    /// - Parameter limit: The most notes to return; `nil` returns all.
    package func list(limit: Int? = nil) -> [Note] {
        Array(notes.reversed().prefix(limit ?? notes.count))
    }

    /// Deletes the note with `id` and returns it once the deletion is on disk; `nil` when
    /// there is no such note.
    ///
    /// - Throws: ``NotesStoreError`` when the file cannot be written; the note then stays.
    package func delete(id: String) throws -> Note? {
        guard let position = notes.firstIndex(where: { $0.id == id }) else { return nil }
        var remaining = notes
        let removed = remaining.remove(at: position)
        try save(remaining)
        notes = remaining
        return removed
    }

    // MARK: The file

    private func save(_ notes: [Note]) throws {
        let document: JSONValue = ["version": .int(Self.formatVersion), "notes": .array(notes.map(\.json))]
        var bytes: [UInt8]
        do {
            bytes = try JSONWriter(prettyPrints: true).bytes(from: document)
        } catch {
            throw NotesStoreError("cannot encode the notes: \(error)")
        }
        bytes.append(UInt8(ascii: "\n"))
        do {
            try AtomicFile.write(bytes, to: fileURL)
        } catch {
            throw NotesStoreError("cannot save the notes: \(error)")
        }
    }

    private static func load(_ fileURL: URL, now: Date, warnings: @Sendable (String) -> Void) throws -> [Note] {
        let directory = fileURL.deletingLastPathComponent()
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw NotesStoreError("cannot create the data directory \(directory.path): \(readableDescription(of: error))")
        }
        // Temporary files of writes that a crash interrupted: their content never became the store.
        let prefix = AtomicFile.temporaryPrefix(for: fileURL)
        for name in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasPrefix(prefix) {
            try? manager.removeItem(at: directory.appendingPathComponent(name))
        }
        guard manager.fileExists(atPath: fileURL.path) else { return [] }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            throw NotesStoreError("cannot read the notes file \(fileURL.path): \(readableDescription(of: error))")
        }
        switch parse(data) {
        case .success(let notes):
            return notes
        case .failure(let problem):
            let aside = try moveAside(fileURL, now: now)
            warnings(
                "the notes file \(fileURL.path) is not a valid notes store (\(problem.description)); moved it to \(aside.path) and started with no notes"
            )
            return []
        }
    }

    /// Reads a store file's content.
    static func parse(_ data: Data) -> Result<[Note], NotesStoreError> {
        let document: JSONValue
        do {
            document = try JSONReader().read(data)
        } catch {
            return .failure(NotesStoreError("\(error)"))
        }
        guard case .array(let entries)? = document["notes"] else {
            return .failure(NotesStoreError("no \"notes\" array"))
        }
        var notes: [Note] = []
        var ids: Set<String> = []
        for (position, entry) in entries.enumerated() {
            guard let note = Note(json: entry) else {
                return .failure(NotesStoreError("note \(position) is not a note"))
            }
            guard ids.insert(note.id).inserted else {
                return .failure(NotesStoreError("the id \(note.id) appears twice"))
            }
            notes.append(note)
        }
        return .success(notes)
    }

    /// Renames a corrupt file to `<name>.corrupt-<UTC timestamp>[-n]` and returns the new URL.
    private static func moveAside(_ fileURL: URL, now: Date) throws -> URL {
        let digits = ClockReading.utcTimestamp(now).filter { $0.isNumber }
        let stamp = String(digits.prefix(8)) + "T" + String(digits.dropFirst(8).prefix(6)) + "Z"
        let base = fileURL.lastPathComponent + ".corrupt-" + stamp
        let directory = fileURL.deletingLastPathComponent()
        var candidate = directory.appendingPathComponent(base)
        var suffix = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = directory.appendingPathComponent("\(base)-\(suffix)")
            suffix += 1
        }
        do {
            try AtomicFile.move(fileURL, to: candidate)
        } catch {
            throw NotesStoreError("the notes file \(fileURL.path) is corrupt and cannot be moved aside: \(error)")
        }
        return candidate
    }
}
