public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A WebSocket to Huddle, text frames only (Huddle's live messages are JSON).
public protocol LiveConnection: Sendable {
    /// The next text frame; nil once the socket is closed.
    func receive() async throws -> String?
    func send(_ text: String) async throws
    func close() async
}

/// Opens live sockets: URLSession by default; tests and server-side callers plug in their own.
public protocol LiveTransport: Sendable {
    func connect(to url: URL, headers: [String: String]) async throws -> any LiveConnection
}

public struct URLSessionLiveTransport: LiveTransport {
    let session: URLSession

    public init(session: URLSession = .shared) { self.session = session }

    public func connect(to url: URL, headers: [String: String]) async throws -> any LiveConnection {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let task = session.webSocketTask(with: request)
        task.resume()
        return URLSessionLiveConnection(task: task)
    }
}

/// `URLSessionWebSocketTask` is thread-safe but not marked `Sendable` on every platform.
struct URLSessionLiveConnection: LiveConnection, @unchecked Sendable {
    let task: URLSessionWebSocketTask

    func receive() async throws -> String? {
        do {
            let message: URLSessionWebSocketTask.Message = try await withCheckedThrowingContinuation { continuation in
                task.receive { continuation.resume(with: $0) }
            }
            switch message {
            case .string(let text): return text
            case .data(let data): return String(decoding: data, as: UTF8.self)
            @unknown default: return nil
            }
        } catch {
            if task.closeCode != .invalid { return nil }
            // Linux's URLSession answers this when its libcurl has no WebSockets: retrying cannot help.
            if (error as NSError).code == NSURLErrorUnsupportedURL { throw HuddleError(kind: .unsupported) }
            throw TransportFailure(error.localizedDescription)
        }
    }

    func send(_ text: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            task.send(.string(text)) { error in
                if let error { continuation.resume(throwing: TransportFailure(error.localizedDescription)) } else { continuation.resume() }
            }
        }
    }

    func close() async { task.cancel(with: .normalClosure, reason: nil) }
}
