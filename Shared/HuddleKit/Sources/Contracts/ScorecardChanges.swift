extension Scorecard {
    /// The card a device holds after applying live messages in order: what it shows the player.
    /// Apps apply `liveScorecard` messages with it; tests check devices agree with it.
    public func applying(_ messages: [LiveMessage]) -> Scorecard {
        var card = self
        for message in messages {
            switch message.type {
            case .card:
                if let whole = message.card { card = whole }
            case .score:
                guard let player = card.players.firstIndex(where: { $0.playerId == message.playerId }),
                    let hole = card.players[player].scores.firstIndex(where: { $0.hole == message.hole })
                else { continue }
                // Without strokes, the cell was cleared.
                card.players[player].scores[hole].strokes = message.strokes
                card.players[player].recount(holes: card.holes)
                card.currentHole = message.hole ?? card.currentHole
                card.version = message.version
            case .finished, .playerAdded:
                // The whole card as the server read it then: a later change it already holds is applied again, the same.
                if let whole = message.card { card = whole }
            case .error:
                continue
            }
        }
        return card
    }
}
