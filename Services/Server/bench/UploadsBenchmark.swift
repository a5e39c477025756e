import ArgumentParser
import Contracts
import Foundation
import MediaService
import ServiceClients
import ServiceKitTesting

/// `huddle-bench uploads`: what concurrent uploads cost the gateway. Auth and media run in one
/// process, the gateway in another; a player creates `count` uploads through the gateway, then all
/// their bytes are PUT at once, then each is completed. The gateway's CPU (from /proc) is read
/// around the PUTs alone: with object storage (`--s3`, an S3-compatible server such as moto) they go
/// to the bucket's presigned URLs and the gateway carries none of them; without, they go through the
/// gateway to media's own URL, as in the all-in-one, for comparison.
struct UploadsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uploads", abstract: "Concurrent uploads: the gateway's CPU while their bytes are sent, presigned or through it.")

    @Option(help: "Uploads sent at once.") var count = 20
    @Option(help: "Width of each photo (its height is three quarters of it).") var width = 4000
    @Option(help: "An S3-compatible server (moto, MinIO) for presigned uploads; without it, only uploads through the gateway.")
    var s3: String?
    @Option(help: "Rounds of each way.") var rounds = 3

    func run() async throws {
        let photo = try ImageProcessor.sampleJPEG(width: width, height: width * 3 / 4)
        print("uploads: \(count) at once of a \(width) × \(width * 3 / 4) JPEG, \(photo.count / 1024) KiB each")
        var ways: [(String, [String])] = [("through the gateway (media's own URL)", [])]
        if let s3 {
            let bucket = "bench-\(UUID().uuidString.prefix(8).lowercased())"
            ways.insert(
                (
                    "presigned, to the bucket",
                    [
                        "media.s3.url=\(s3)", "media.s3.bucket=\(bucket)", "media.s3.access-key=bench", "media.s3.secret-key=bench-secret",
                        "media.s3.create-bucket=true",
                    ]
                ), at: 0)
        }
        for (name, storage) in ways {
            var cpu: [Double] = [], seconds: [Double] = []
            for _ in 1...rounds {
                let (gatewayCPU, elapsed) = try await measure(photo, storage: storage)
                cpu.append(gatewayCPU * 1000)
                seconds.append(elapsed)
            }
            print(
                "  \(name): gateway CPU while the bytes went \(Spread(cpu, unit: " ms", digits: 1)); the PUTs took \(Spread(seconds, unit: " s", digits: 2))"
            )
        }
    }

    /// The gateway's CPU seconds while `count` PUTs of `photo` are under way, and how long they took.
    private func measure(_ photo: Data, storage: [String]) async throws -> (Double, Double) {
        try await BenchStore.with(postgres: nil, name: "uploads") { store in
            let data = store.directory
            let modules = try ChildProcess.huddle(
                ["--modules", "auth,media"],
                settings: [
                    "auth.bcrypt.cost=4", "auth.http.port=28281", "media.http.port=28292", "auth.db.url=\(try await store.url("auth"))",
                    "media.db.url=\(try await store.url("media"))", "media.storage.dir=\(data.appendingPathComponent("media").path)",
                    "media.api.url=http://127.0.0.1:28280", "gateway.url=http://127.0.0.1:28280",
                ] + storage + AbsentModules.addresses(besides: [.auth, .media]).map { "\($0.key)=\($0.value)" },
                data: data)
            defer { modules.stop() }
            try await ChildProcess.waitForHealth("http://127.0.0.1:28292")
            let gateway = try ChildProcess.huddle(
                ["--modules", "gateway"],
                settings: [
                    "gateway.http.port=28280", "gateway.ops.http.port=28380", "gateway.modules=auth,media",
                    "auth.url=http://127.0.0.1:28281",
                    "media.url=http://127.0.0.1:28292", "gateway.ratelimit.rate=100000", "gateway.ratelimit.burst=100000",
                ],
                data: data)
            defer { gateway.stop() }
            try await ChildProcess.waitForHealth("http://127.0.0.1:28280")
            let client = TestClient(baseURL: "http://127.0.0.1:28280")
            let player = try await client.register(name: "Uploader")
            let tickets = try await (0..<count).asyncMap { _ in
                try await client.value(
                    MediaAPI.createUpload, body: CreateUploadRequest(purpose: .chatPhoto, contentType: .jpeg, byteSize: photo.count),
                    token: player.accessToken)
            }
            try await Task.sleep(for: .milliseconds(500))
            let before = gateway.cpuSeconds(), start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for ticket in tickets { group.addTask { try await Self.put(photo, with: ticket) } }
                try await group.waitForAll()
            }
            let elapsed = ContinuousClock.now - start, used = gateway.cpuSeconds() - before
            for ticket in tickets {
                let media = try await client.value(MediaAPI.completeUpload, ticket.id, token: player.accessToken)
                guard media.status == .ready else { throw ValidationError("an upload was \(media.status.rawValue)") }
            }
            return (used, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }

    private static func put(_ photo: Data, with ticket: UploadTicket) async throws {
        let status = try await UploadSender.send(photo, with: ticket)
        guard (200..<300).contains(status) else { throw ValidationError("a PUT answered \(status)") }
    }
}
