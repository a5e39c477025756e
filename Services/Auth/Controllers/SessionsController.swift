import Contracts
import Hummingbird
import ServiceKit

/// `/v1/auth/...`: register, sign in (password or provider), refresh, sign out.
struct SessionsController {
    let accounts: Accounts

    var endpoints: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        routes.post("register") { request, context in
            let body = try await request.decodeJSON(RegisterRequest.self, context: context)
            return JSONResponse(try await accounts.register(body), status: .created)
        }
        routes.post("login") { request, context in
            let body = try await request.decodeJSON(LoginRequest.self, context: context)
            return JSONResponse(try await accounts.login(body))
        }
        routes.post("oauth/:provider") { request, context in
            let provider = try context.parameters.require("provider")
            guard provider == "facebook" else { throw AuthError.unsupportedProvider(provider) }
            let body = try await request.decodeJSON(OAuthLoginRequest.self, context: context)
            return JSONResponse(try await accounts.login(facebookToken: body.accessToken))
        }
        routes.post("refresh") { request, context in
            let body = try await request.decodeJSON(RefreshRequest.self, context: context)
            return JSONResponse(try await accounts.refresh(body.refreshToken))
        }
        routes.authenticated().post("logout") { _, context in
            try await accounts.revoke(context.identity.sessionID)
            return HTTPResponse.Status.noContent
        }
        return routes
    }
}
