public import Contracts
public import Foundation

extension HuddleClient {
    /// Uploads a photo and answers it once its sizes are made: a ticket, the bytes sent to its URL
    /// with exactly its headers (the bucket's presigned URL in production, Huddle's own in the
    /// all-in-one; a PUT, so sent again after no answer or a 502–504), then completion. A photo
    /// Huddle refuses throws its problem: `UNSUPPORTED_MEDIA` (not an image of `contentType`, or too
    /// many pixels), `TOO_LARGE`.
    ///
    /// ```swift
    /// let picture = try await huddle.uploadPhoto(jpegData, purpose: .avatar)
    /// ```
    public func uploadPhoto(_ data: Data, contentType: MediaContentType = .jpeg, purpose: MediaPurpose) async throws -> Media {
        let ticket = try await send(
            MediaAPI.createUpload, body: CreateUploadRequest(purpose: purpose, contentType: contentType, byteSize: data.count))
        guard let url = URL(string: ticket.uploadUrl) else { throw HuddleError(kind: .unexpectedAnswer) }
        try await put(HTTPRequest(method: ticket.method, url: url, headers: ticket.headers, body: data))
        var media = try await send(MediaAPI.completeUpload, ticket.id)
        // Another call completing the same upload may still be making its sizes.
        while media.status == .processing {
            try await Task.sleep(for: .milliseconds(300))
            media = try await send(MediaAPI.media, ticket.id)
        }
        return media
    }

    /// Uploads a photo and makes it my profile picture (`picture` in three sizes; `pictureUrl` its medium one).
    @discardableResult
    public func setProfilePicture(_ data: Data, contentType: MediaContentType = .jpeg) async throws -> MyProfile {
        let media = try await uploadPhoto(data, contentType: contentType, purpose: .avatar)
        return try await send(AuthAPI.updateMe, body: UpdateProfileRequest(pictureMediaId: .some(media.id)))
    }

    /// Uploads a photo and makes it the logo of a team I manage.
    @discardableResult
    public func setLogo(_ data: Data, contentType: MediaContentType = .jpeg, ofTeam team: TeamID) async throws -> Team {
        let media = try await uploadPhoto(data, contentType: contentType, purpose: .teamLogo)
        return try await send(CatalogAPI.updateTeam, team, body: UpdateTeamRequest(logoMediaId: .some(media.id)))
    }

    /// Uploads a photo and makes it the logo of a league I manage.
    @discardableResult
    public func setLogo(_ data: Data, contentType: MediaContentType = .jpeg, ofLeague league: LeagueID) async throws -> League {
        let media = try await uploadPhoto(data, contentType: contentType, purpose: .leagueLogo)
        return try await send(CatalogAPI.updateLeague, league, body: UpdateLeagueRequest(logoMediaId: .some(media.id)))
    }

    /// Sends photos to a chat room, with a text or without: each uploaded as a `chatPhoto`, then the
    /// message (up to four photos). Sent again with the same `clientMessageId` after a lost answer,
    /// the message is not sent twice.
    @discardableResult
    public func sendPhotos(
        _ photos: [Data], contentType: MediaContentType = .jpeg, text: String? = nil, to room: RoomID,
        clientMessageId: String = UUID().uuidString
    ) async throws -> ChatMessage {
        var ids: [MediaID] = []
        for photo in photos { ids.append(try await uploadPhoto(photo, contentType: contentType, purpose: .chatPhoto).id) }
        return try await send(ChatAPI.send, room, body: SendChatMessage(text: text, mediaIds: ids, clientMessageId: clientMessageId))
    }

    /// One size (`small`, `medium` or `large`) of a chat message's photo, which only the room's members
    /// may read: fetched with my token, as an image view cannot.
    public func chatPhoto(_ photo: Media, size: String = "medium") async throws -> Data {
        try await send(MediaAPI.privateVariant, photo.id, size).data
    }

    /// Sends an upload's bytes, retried as the client's other repeatable calls are.
    private func put(_ request: HTTPRequest) async throws {
        var retries = 0
        while true {
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch is TransportFailure {
                guard retries < retry.retries else { throw HuddleError(kind: .unreachable) }
                retries += 1
                try await Task.sleep(for: retry.delay(beforeRetry: retries, retryAfter: nil))
                continue
            }
            if RetryPolicy.retriedStatuses.contains(response.status), retries < retry.retries {
                retries += 1
                try await Task.sleep(for: retry.delay(beforeRetry: retries, retryAfter: response.headers["retry-after"]))
                continue
            }
            guard (200..<300).contains(response.status) else { throw Self.failure(response) }
            return
        }
    }
}
