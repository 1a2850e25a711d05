import MCP
internal import MCPPlatform

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One line for a boxed server that failed: that it ran in a box, and the option most
/// likely to help.
///
/// Read from what the server wrote (its standard error, or a tool's error text) with
/// ``SandboxDenial``; when that finds nothing, from the server's arguments: a directory it was
/// given (`--repository /src/app`) that the box does not let it read.
enum BoxHint {
    /// The hint for a server launched as `launch` that failed, saying `text`; `nil` when the
    /// server was not boxed.
    static func line(for launch: ServerLaunch, text: String, exited: Bool) -> String? {
        guard let box = launch.sandbox else { return nil }
        let inConfiguration = launch.label != nil
        if let denial = SandboxDenial(standardError: text) {
            return "hint: " + advice(for: denial.kind, configuration: inConfiguration, label: launch.label)
        }
        if let directory = unreachableDirectory(in: launch.arguments, box: box) {
            return "hint: the server runs in a box that does not let it read \(directory), which it was given; "
                + option(
                    configuration: inConfiguration, label: launch.label, flag: "--allow-read \(directory) (or --allow-write to change it)",
                    key: #""allowRead": ["\#(directory)"]"#)
        }
        guard exited else { return nil }
        return "hint: the server ran in a box and ended; if it needs more, see BOX OPTIONS in 'ondevice-mcp call --help' "
            + "(--allow-read, --allow-write, --allow-network, --pass-env), or --no-sandbox to run it unboxed"
    }

    /// What to do about a denial, with the command line's option (or the configuration's key).
    static func advice(for kind: SandboxDenial.Kind, configuration: Bool, label: String?) -> String {
        switch kind {
        case .fileAccess(let path?):
            return "the server runs in a box, which refused it \(path); "
                + option(
                    configuration: configuration, label: label, flag: "--allow-read \(path) (or --allow-write \(path))",
                    key: #""allowRead": ["\#(path)"]"#)
        case .fileAccess(nil):
            return "the server runs in a box, which refused it a file; "
                + option(
                    configuration: configuration, label: label, flag: "--allow-read PATH (or --allow-write PATH)",
                    key: #""allowRead": [PATH]"#)
        case .network:
            return "the server runs in a box without the network; "
                + option(configuration: configuration, label: label, flag: "--allow-network", key: #""allowNetwork": true"#)
        case .certificates:
            return "the server runs in a box without the certificate store; "
                + option(
                    configuration: configuration, label: label, flag: "--allow-network --pass-env SSL_CERT_FILE --pass-env SSL_CERT_DIR",
                    key: #""allowNetwork": true, "passEnv": ["SSL_CERT_FILE", "SSL_CERT_DIR"]"#)
        @unknown default:
            return "the server runs in a box, which may have refused it something; see BOX OPTIONS in 'ondevice-mcp call --help'"
        }
    }

    /// `try FLAG`, or for a server of a configuration file, its entry's `"ondevice-mcp"` key.
    static func option(configuration: Bool, label: String?, flag: String, key: String) -> String {
        guard configuration, let label else { return "try \(flag)" }
        return "try \(flag) for every server, or give server \"\(label)\" {\"\(ServerConfiguration.boxKey)\": {\(key)}} in the file"
    }

    /// The first argument that names an existing directory the box does not let the server
    /// read (a plain check against the paths the app allowed: the system's own directories
    /// are readable anyway and are left out).
    static func unreachableDirectory(in arguments: [String], box: Sandbox) -> String? {
        let allowed = box.readablePaths + box.writablePaths
        for argument in arguments where argument.hasPrefix("/") {
            guard POSIX.isDirectory(argument) else { continue }
            if ["/usr", "/lib", "/bin", "/sbin", "/opt", "/etc", "/proc"].contains(where: { argument == $0 || argument.hasPrefix($0 + "/") }
            ) {
                continue
            }
            if !allowed.contains(where: { argument == $0 || argument.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) {
                return argument
            }
        }
        return nil
    }
}
