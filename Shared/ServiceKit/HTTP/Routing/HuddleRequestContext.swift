public import Contracts
public import Foundation
public import Hummingbird
public import HummingbirdAuth
public import HummingbirdWebSocket
import NIOConcurrencyHelpers
public import NIOCore
import ServiceContextModule

/// Who is calling, as proven by a verified access token.
public struct Identity: Sendable, Equatable {
    public var userID: UserID
    public var sessionID: SessionID
    public var roles: Set<Role>
    /// Signed in with a second factor's code.
    public var secondFactor: Bool
    /// The deployment requires a second factor for staff work (`auth.staff.second-factor: required`).
    public var staffNeedSecondFactor: Bool

    public init(
        userID: UserID, sessionID: SessionID, roles: Set<Role> = [], secondFactor: Bool = false, staffNeedSecondFactor: Bool = false
    ) {
        self.userID = userID
        self.sessionID = sessionID
        self.roles = roles
        self.secondFactor = secondFactor
        self.staffNeedSecondFactor = staffNeedSecondFactor
    }

    public var isAdministrator: Bool { roles.contains(.administrator) }

    /// Before staff work (moderating, administering): 403 `SECOND_FACTOR_SETUP_REQUIRED` where the
    /// deployment requires a second factor and this session signed in without one.
    public func requireSecondFactorForStaffWork() throws(StaffSecondFactorRequired) {
        if staffNeedSecondFactor && !secondFactor { throw StaffSecondFactorRequired() }
    }
}

/// The request context of every Huddle service. `identity` is set by `AccessTokenMiddleware`
/// when the request carries a valid bearer token. A live socket's upgrade is a request like any
/// other, through the same router and middleware (`RouterMethods.live`).
public struct HuddleRequestContext: AuthRequestContext, RemoteAddressRequestContext, RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: Identity?
    /// The module that made an internal call, as its signed token proves (`InternalCallerMiddleware`).
    public var internalCaller: ServiceModule?
    public let remoteAddress: SocketAddress?
    public var requestID: String = ""
    public let webSocket: WebSocketHandlerReference<Self>
    /// The connection, for a live socket: to refuse an upgrade with a problem, and to cut a socket
    /// whose device stopped reading.
    public let channel: any Channel
    /// What a live socket's admission found (the round, the player), handed from the upgrade's
    /// check to the socket it opens.
    let admission = NIOLockedValueBox<LiveAdmission?>(nil)
    /// The upgrade request's trace context, which the socket's connect span continues.
    let upgradeTrace = NIOLockedValueBox<ServiceContext?>(nil)

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.identity = nil
        self.internalCaller = nil
        self.remoteAddress = source.channel.remoteAddress
        self.webSocket = .init()
        self.channel = source.channel
    }

    public var requestDecoder: JSONDecoder { HuddleJSON.decoder }
    public var responseEncoder: JSONEncoder { HuddleJSON.encoder }
}

/// Context of routes that need a signed-in user. Its initialiser throws 401 when there is no
/// identity, so a protected route cannot forget the check: it does not compile without this type.
public struct AuthenticatedContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let identity: Identity
    public let requestID: String

    public init(context: HuddleRequestContext) throws {
        guard let identity = context.identity else { throw CommonError.unauthorized() }
        self.coreContext = context.coreContext
        self.identity = identity
        self.requestID = context.requestID
    }

    public var userID: UserID { identity.userID }
    public var requestDecoder: JSONDecoder { HuddleJSON.decoder }
    public var responseEncoder: JSONEncoder { HuddleJSON.encoder }
}

/// Staff work by a session signed in without the second factor the deployment requires.
public struct StaffSecondFactorRequired: ProblemError {
    public init() {}
    public var problem: Problem {
        Problem(
            .secondFactorSetupRequired, title: "Second factor required for staff",
            detail: localized("Turn the second factor on (POST /v1/users/me/second-factor) and sign in with its code."))
    }
}

/// What a live socket's admission found, and the language of its upgrade request.
struct LiveAdmission: Sendable {
    let found: any Sendable
    let language: Language
}
