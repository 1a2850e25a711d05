/// The modes of `HostilePeer` (`Tests/HostilePeer/main.swift`), one fault each: the one list
/// both the peer and its tests read. The raw value is the peer's command-line argument.
public enum HostileMode: String, Sendable, CaseIterable {
    case silentInitialize = "silent-initialize"
    case silentCall = "silent-call"
    case crashMidCall = "crash-mid-call"
    case nonJSON = "non-json"
    case wrongID = "wrong-id"
    case hugeResult = "huge-result"
    case endlessLine = "endless-line"
    case deepResult = "deep-result"
    case floodNotifications = "flood-notifications"
    case floodStandardError = "flood-stderr"
    case drip = "drip"
    case clientRequests = "client-requests"
    case manyTools = "many-tools"
    case closeOutput = "close-output"
    case listenNeverAcks = "listen-never-acks"
    case wellBehaved = "well-behaved"
    /// Tries what its call's arguments say (see `Tests/HostilePeer/BoxProbe.swift`) and
    /// reports whether it worked.
    case boxProbe = "box-probe"
}
