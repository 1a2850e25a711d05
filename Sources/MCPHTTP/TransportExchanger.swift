package import HTTPClientCore

/// The package's HTTP client as the transport sees it: its failures as ``HTTPTransportError``.
///
/// Wraps whatever exchanger the transport is given (``HTTPClientCore/HTTPEngine``'s choice, or
/// a test's), so that an unreachable server is ``HTTPTransportError/network`` and a response
/// cut for outrunning its reader is ``HTTPTransportError/messageTooLarge``, on `exchange` and
/// while the body is read. Other errors pass through as they are.
package struct TransportExchanger: HTTPExchanging {
    /// The exchanger that sends the requests.
    let client: any HTTPExchanging

    package init(_ client: any HTTPExchanging) {
        self.client = client
    }

    package func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try await client.exchange(request)
        } catch {
            throw Self.transportError(error)
        }
        response.body = response.body.mapFailure(Self.transportError)
        return response
    }

    package func shutdown() {
        client.shutdown()
    }

    /// An ``HTTPClientCore/HTTPClientError`` as the transport's error; anything else as it is.
    static func transportError(_ error: any Error) -> any Error {
        guard let failure = error as? HTTPClientError else { return error }
        switch failure.kind {
        case .network: return HTTPTransportError.make(.network, failure.detail)
        case .messageTooLarge: return HTTPTransportError.make(.messageTooLarge, failure.detail)
        }
    }
}
