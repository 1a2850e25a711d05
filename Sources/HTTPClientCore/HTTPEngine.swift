package import Foundation

/// Which HTTP client runs for which URL: the one place that chooses.
///
/// | Platform | Scheme | Proxy applies | Engine |
/// |---|---|---|---|
/// | Linux and other non-Apple | `http` | no (or loopback) | ``SocketExchanger`` |
/// | Linux and other non-Apple | `http` | yes | ``URLSessionExchanger`` |
/// | any | `https` | any | ``URLSessionExchanger`` |
/// | Apple platforms | any | any | ``URLSessionExchanger`` |
///
/// The socket engine reads a response only as fast as its reader takes it (TCP flow control
/// holds the server back), so memory is bounded by its window. URLSession (libcurl under
/// FoundationNetworking on Linux) receives a body as fast as the server sends it: there the
/// bound is enforced by cancelling a response that outruns its reader by more than
/// `maximumWaitingBytes` (``HTTPClientError/Kind/messageTooLarge``) — bounded, but by a limit
/// rather than by back-pressure. On Apple platforms URLSession is the system's networking (App
/// Transport Security, proxies, VPN), so it always runs there.
package enum HTTPEngine {
    /// The exchanger for requests to `url`, chosen by the table above.
    ///
    /// - Parameters:
    ///   - maximumWaitingBytes: What may wait unread in URLSession's engine before a response
    ///     is cut (the socket engine needs no such limit).
    ///   - environment: Where the proxy variables are read (`http_proxy`, `all_proxy`, `no_proxy`).
    package static func exchanger(
        for url: URL, maximumWaitingBytes: Int, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> any HTTPExchanging {
        #if !canImport(Darwin)
        if url.scheme?.lowercased() == "http", let host = url.host, !proxyApplies(to: host, environment: environment) {
            return SocketExchanger()
        }
        #endif
        return URLSessionExchanger(maximumWaitingBytes: maximumWaitingBytes)
    }

    /// Whether libcurl would send a plain-HTTP request to `host` through a proxy: `http_proxy`
    /// (or `HTTP_PROXY`, or `all_proxy`) is set and `no_proxy` does not exempt the host.
    /// Loopback never goes through one here.
    package static func proxyApplies(to host: String, environment: [String: String]) -> Bool {
        if isLoopback(host: host) { return false }
        let proxy = ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard proxy != nil else { return false }
        let exemptions = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",")
        let name = host.lowercased()
        for exemption in exemptions {
            var pattern = exemption.trimmingCharacters(in: .whitespaces).lowercased()
            if pattern == "*" { return false }
            if pattern.hasPrefix(".") { pattern.removeFirst() }
            if !pattern.isEmpty, name == pattern || name.hasSuffix("." + pattern) { return false }
        }
        return true
    }

    /// Whether `host` names this machine (`localhost`, `127.x.y.z`, `::1`).
    package static func isLoopback(host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in UInt8(part) != nil }
    }
}
