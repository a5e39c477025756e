#!/usr/bin/env python3
"""Writes Services/Gateway/Resources/openapi.json, the document the gateway serves.

Edit the tables below when routes change, run this script, and commit both files; a test
checks that every route the services register is described here.
"""
import json, pathlib

def ref(name): return {"$ref": f"#/components/schemas/{name}"}
def body(name): return {"required": True, "content": {"application/json": {"schema": ref(name)}}}
def ok(name, status="200", description="OK"):
    return {status: {"description": description, "content": {"application/json": {"schema": ref(name)}}}}
def problems(*codes):
    return {str(c): {"description": "Problem", "content": {"application/problem+json": {"schema": ref("Problem")}}} for c in codes}
def no_content(): return {"204": {"description": "No content"}}
def page(item): return {"type": "object", "required": ["items", "nextCursor"], "properties": {
    "items": {"type": "array", "items": ref(item)}, "nextCursor": {"type": ["string", "null"]}}}
uuid = {"type": "string", "format": "uuid"}
secured = [{"bearer": []}]
path_id = {"name": "id", "in": "path", "required": True, "schema": uuid}
paging = [{"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}},
          {"name": "cursor", "in": "query", "schema": {"type": "string"}}]

def op(summary, responses, request=None, security=True, parameters=None, tag="auth"):
    o = {"summary": summary, "tags": [tag], "responses": responses}
    if request: o["requestBody"] = body(request)
    if security: o["security"] = secured
    if parameters: o["parameters"] = parameters
    return o

paths = {
    "/v1/auth/register": {"post": op("Create an account", {**ok("Session", "201", "Created"), **problems(400, 409, 422, 429)}, "RegisterRequest", False)},
    "/v1/auth/login": {"post": op("Sign in with email and password", {**ok("Session"), **problems(400, 401, 422, 429)}, "LoginRequest", False)},
    "/v1/auth/oauth/{provider}": {"post": op("Sign in with a provider token (facebook)", {**ok("Session"), **problems(400, 401, 404, 422, 503)}, "OAuthLoginRequest", False,
        [{"name": "provider", "in": "path", "required": True, "schema": {"type": "string", "enum": ["facebook"]}}])},
    "/v1/auth/refresh": {"post": op("Exchange a refresh token for a new session (rotation)", {**ok("Session"), **problems(400, 401, 422)}, "RefreshRequest", False)},
    "/v1/auth/logout": {"post": op("End the current session", {**no_content(), **problems(401)})},
    "/v1/users/me": {
        "get": op("My profile", {**ok("MyProfile"), **problems(401)}),
        "patch": op("Change my profile", {**ok("MyProfile"), **problems(400, 401, 422)}, "UpdateProfileRequest")},
    "/v1/users/me/following": {"get": op("Players I follow", {**ok("PublicProfilePage"), **problems(401, 422)}, parameters=paging)},
    "/v1/users/me/followers": {"get": op("Players who follow me", {**ok("PublicProfilePage"), **problems(401, 422)}, parameters=paging)},
    "/v1/users/me/friends/match": {"post": op("Which Facebook friends are members", {**ok("FriendMatchResponse"), **problems(400, 401, 422)}, "FriendMatchRequest")},
    "/v1/users/{id}": {"get": op("A player's public profile", {**ok("PublicProfile"), **problems(401, 404)}, parameters=[path_id])},
    "/v1/users/{id}/follow": {
        "put": op("Follow a player", {**no_content(), **problems(401, 404, 422)}, parameters=[path_id]),
        "delete": op("Unfollow a player", {**no_content(), **problems(401, 404)}, parameters=[path_id])},
    "/.well-known/jwks.json": {"get": op("Public keys that verify access tokens", ok("JWKS"), security=False)},
    "/health": {"get": op("Gateway and upstream health", {**ok("Health"), "503": {"description": "Degraded"}}, security=False, tag="gateway")},
    "/metrics": {"get": {"summary": "Prometheus metrics", "tags": ["gateway"], "responses": {"200": {"description": "text/plain exposition"}}}},
    "/openapi.json": {"get": {"summary": "This document", "tags": ["gateway"], "responses": {"200": {"description": "OpenAPI 3.1"}}}},
}

def enum(*values): return {"type": "string", "enum": list(values)}
def pid(name="id"): return {"name": name, "in": "path", "required": True, "schema": uuid}
def query(name, schema, required=False, description=None):
    q = {"name": name, "in": "query", "required": required, "schema": schema}
    if description: q["description"] = description
    return q
sport_query = query("sport", ref("Sport"))
catalog = lambda *a, **k: op(*a, tag="catalog", **k)

paths.update({
    "/v1/sports": {"get": catalog("The sport list", ok("SportPage"), security=False)},
    "/v1/leagues": {
        "post": catalog("Create a league (you become its manager)", {**ok("League", "201", "Created"), **problems(400, 401, 422)}, "CreateLeagueRequest"),
        "get": catalog("Leagues by sport, by name; private ones only for those involved", {**ok("LeaguePage"), **problems(401, 422)}, parameters=[sport_query] + paging)},
    "/v1/leagues/{id}": {"get": catalog("A league", {**ok("League"), **problems(401, 404)}, parameters=[pid()])},
    "/v1/leagues/{id}/teams": {
        "get": catalog("The league's teams", {**ok("TeamPage"), **problems(401, 404)}, parameters=[pid()]),
        "post": catalog("Add a team (league manager only; same sport)", {**ok("League"), **problems(400, 401, 403, 404, 422)}, "AddLeagueTeamRequest", parameters=[pid()])},
    "/v1/teams": {
        "post": catalog("Create a team (you become its manager)", {**ok("Team", "201", "Created"), **problems(400, 401, 422)}, "CreateTeamRequest"),
        "get": catalog("Teams: `member=me` for mine (with pending and invited), else name search over public and protected teams",
            {**ok("TeamPage"), **problems(401, 422)},
            parameters=[query("member", {"type": "string", "enum": ["me"]}), query("q", {"type": "string", "maxLength": 80}, description="name substring, any case"), sport_query] + paging)},
    "/v1/teams/{id}": {
        "get": catalog("A team (404 when private and you have no standing)", {**ok("Team"), **problems(401, 404)}, parameters=[pid()]),
        "patch": catalog("Change a team (manager only)", {**ok("Team"), **problems(400, 401, 403, 404, 422)}, "UpdateTeamRequest", parameters=[pid()]),
        "delete": catalog("Delete a team (manager only)", {**no_content(), **problems(401, 403, 404)}, parameters=[pid()])},
    "/v1/teams/{id}/members": {"get": catalog("Roster with roles; the manager also sees pending and invited", {**ok("TeamMemberPage"), **problems(401, 404, 503)}, parameters=[pid()])},
    "/v1/teams/{id}/join": {"post": catalog("Join: public → player, protected → pending, private → only when invited (403 otherwise)", {**ok("Team"), **problems(401, 403, 404)}, parameters=[pid()])},
    "/v1/teams/{id}/invites": {"post": catalog("Invite players (manager only)", {**ok("InviteResult"), **problems(400, 401, 403, 404, 422, 503)}, "InviteRequest", parameters=[pid()])},
    "/v1/teams/{id}/requests/{userId}/approve": {"post": catalog("Approve a request to join (manager only)", {**no_content(), **problems(401, 403, 404)}, parameters=[pid(), pid("userId")])},
    "/v1/teams/{id}/requests/{userId}/decline": {"post": catalog("Decline a request to join (manager only)", {**no_content(), **problems(401, 403, 404)}, parameters=[pid(), pid("userId")])},
    "/v1/teams/{id}/members/{userId}": {"delete": catalog("Remove a member (manager), or leave / withdraw / decline yourself", {**no_content(), **problems(401, 403, 404, 409)}, parameters=[pid(), pid("userId")])},
    "/v1/courses": {
        "post": catalog("Create a disc golf course (administrators)", {**ok("Course", "201", "Created"), **problems(400, 401, 403, 422)}, "CreateCourseRequest"),
        "get": catalog("Courses by name", {**ok("CoursePage"), **problems(422)}, security=False, parameters=paging)},
    "/v1/courses/{id}": {"get": catalog("A course with its holes", {**ok("Course"), **problems(404)}, security=False, parameters=[pid()])},
    "/v1/courses/{id}/holes/{number}": {"put": catalog("Replace a hole, or add the next one (administrators)", {**ok("Course"), **problems(400, 401, 403, 404, 422)}, "UpdateHoleRequest",
        parameters=[pid(), {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1, "maximum": 36}}])},
    "/v1/courses/{id}/navigation": {"get": catalog("Distance and bearing from where I stand to a hole's tee and basket, and the next tee", {**ok("Navigation"), **problems(404, 422)}, security=False,
        parameters=[pid(), query("lat", {"type": "number", "minimum": -90, "maximum": 90}, True), query("lng", {"type": "number", "minimum": -180, "maximum": 180}, True),
                    query("hole", {"type": "integer", "minimum": 1, "default": 1})])},
    "/v1/courses/{id}/weather": {"get": catalog("Current weather at the course (cached 10 minutes)", {**ok("Weather"), **problems(404, 503)}, security=False, parameters=[pid()])},
    "/v1/venues": {
        "post": catalog("Create a venue (administrators)", {**ok("Venue", "201", "Created"), **problems(400, 401, 403, 422)}, "CreateVenueRequest"),
        "get": catalog("Venues by name", {**ok("VenuePage"), **problems(422)}, security=False, parameters=paging)},
    "/v1/venues/{id}": {"get": catalog("A venue", {**ok("Venue"), **problems(404)}, security=False, parameters=[pid()])},
    "/v1/news": {"get": catalog("News, newest first (`bookmarked` when signed in)", {**ok("NewsArticlePage"), **problems(422)}, security=False, parameters=[sport_query] + paging)},
    "/v1/news/bookmarks": {"get": catalog("My saved articles, most recently saved first", {**ok("NewsArticlePage"), **problems(401, 422)}, parameters=paging)},
    "/v1/news/{id}": {"get": catalog("An article", {**ok("NewsArticle"), **problems(404)}, security=False, parameters=[pid()])},
    "/v1/news/{id}/bookmark": {
        "put": catalog("Save an article (idempotent)", {**no_content(), **problems(401, 404)}, parameters=[pid()]),
        "delete": catalog("Forget a saved article (idempotent)", {**no_content(), **problems(401, 404)}, parameters=[pid()])},
})

games = lambda *a, **k: op(*a, tag="games", **k)
position = [query("lat", {"type": "number", "minimum": -90, "maximum": 90}, description="where you are, for distanceMeters (with lng)"),
            query("lng", {"type": "number", "minimum": -180, "maximum": 180}, description="with lat")]
paths.update({
    "/v1/games": {
        "post": games("Plan a game: `team` (team manager; the team's place and attributes are defaults; members are invited), "
                      "`league` (league manager, two of its teams), `pickup` (anyone; needs location and attributes)",
                      {**ok("Game", "201", "Created"), **problems(400, 401, 403, 422, 503)}, "CreateGameRequest"),
        "get": games("My games from my teams and pick-ups: upcoming soonest first, past most recent first, pending = waiting for an answer",
                     {**ok("GamePage"), **problems(401, 422)},
                     parameters=[query("scope", enum("mine"), required=True), query("when", enum("upcoming", "past", "pending"))] + position + paging)},
    "/v1/games/{id}": {
        "get": games("A game; the exact location only for participants and public games, others get distanceMeters", {**ok("Game"), **problems(401, 404, 422)}, parameters=[pid()] + position),
        "patch": games("Change a game (organiser only); more capacity seats the waiting list", {**ok("Game"), **problems(400, 401, 403, 404, 409, 422)}, "UpdateGameRequest", parameters=[pid()]),
        "delete": games("Cancel a game (organiser only); it stays readable with status cancelled", {**no_content(), **problems(401, 403, 404)}, parameters=[pid()])},
    "/v1/games/{id}/roster": {"get": games("Players with their status and waiting-list position; pending requests only for the organiser", {**ok("RosterEntryPage"), **problems(401, 404, 503)}, parameters=[pid()])},
    "/v1/games/{id}/status": {"put": games("Set my own answer: going (waiting list when full), maybe, notGoing (withdraws a pending request)", {**ok("RosterPlace"), **problems(400, 401, 403, 404, 409, 422)}, "SetRosterStatusRequest", parameters=[pid()])},
    "/v1/games/{id}/join": {"post": games("Join: public → going (or waitlisted when full), protected → pending, private → invited players only; while substitutes are wanted, anyone who can see the game comes in as one", {**ok("RosterPlace"), **problems(401, 403, 404, 409)}, parameters=[pid()])},
    "/v1/games/{id}/requests/{userId}/approve": {"post": games("Approve a request to join (organiser only)", {**ok("RosterPlace"), **problems(401, 403, 404, 409)}, parameters=[pid(), pid("userId")])},
    "/v1/games/{id}/requests/{userId}/decline": {"post": games("Decline a request to join (organiser only)", {**no_content(), **problems(401, 403, 404, 409)}, parameters=[pid(), pid("userId")])},
    "/v1/games/{id}/invites": {"post": games("Invite players (organiser only); a pending asker is seated", {**ok("InviteResult"), **problems(400, 401, 403, 404, 409, 422, 503)}, "InviteRequest", parameters=[pid()])},
    "/v1/games/{id}/subs": {"put": games("Ask for substitutes (organiser only); `needed: 0` clears the call", {**ok("Game"), **problems(400, 401, 403, 404, 409, 422)}, "SubstitutesRequest", parameters=[pid()])},
})

paths.update({
    "/v1/rounds": {
        "post": games("Start a disc golf round on a course: holes and pars are copied, every score starts at par; you play, with the listed players and guests",
                      {**ok("Scorecard", "201", "Created"), **problems(400, 401, 422, 503)}, "StartRoundRequest"),
        "get": games("My rounds, most recent first", {**ok("ScorecardPage"), **problems(401, 422)},
                     parameters=[query("scope", enum("mine"), required=True), query("status", enum("ongoing", "completed"))] + paging)},
    "/v1/rounds/{id}": {"get": games("The scorecard (players of the round only; 404 for others)", {**ok("Scorecard"), **problems(401, 404)}, parameters=[pid()])},
    "/v1/rounds/{id}/scores": {"put": games("Set one player's strokes on one hole; bumps the version. With expectedVersion, a card that moved on is a 409 carrying it (ScoreConflict)",
        {**ok("Scorecard"), **problems(400, 401, 404, 422), "409": {"description": "VERSION_CONFLICT (body: ScoreConflict) or ROUND_FINISHED",
         "content": {"application/problem+json": {"schema": {"oneOf": [ref("ScoreConflict"), ref("Problem")]}}}}}, "ScoreUpdate", parameters=[pid()])},
    "/v1/rounds/{id}/finish": {"post": games("Finish the round (any player); it becomes read-only", {**ok("Scorecard"), **problems(401, 404)}, parameters=[pid()])},
    "/v1/rounds/{id}/live": {"get": games("WebSocket: every change of the card as LiveMessage JSON text frames. With afterVersion, first exactly the changes after it, "
        "otherwise the whole card; then live changes. Send ScoreUpdate JSON to score. Over plain HTTP: 426 for players, 401/404 otherwise",
        {"101": {"description": "Switching to WebSocket"}, **problems(401, 404, 426)},
        parameters=[pid(), query("afterVersion", {"type": "integer", "minimum": 0})])},
    "/v1/users/{id}/stats": {"get": games("A player's disc golf statistics from completed rounds", {**ok("PlayerStats"), **problems(401, 404)}, parameters=[pid()])},
})

search = lambda *a, **k: op(*a, tag="search", **k)
area = [query("lat", {"type": "number", "minimum": -90, "maximum": 90}, required=True), query("lng", {"type": "number", "minimum": -180, "maximum": 180}, required=True),
        query("radiusKm", {"type": "number", "exclusiveMinimum": 0, "maximum": 500, "default": 160.934})]
attribute_filters = [query("sport", ref("Sport")), query("skill", ref("Skill"), description="matches that skill or any"),
                     query("ageGroup", ref("AgeGroup"), description="matches that age group or any"),
                     query("gender", ref("Gender"), description="male or female also match coed and any")]
paths.update({
    "/v1/search/games": {"get": search("Upcoming games within the radius, nearest first, then soonest; private games never, protected ones without location",
        {**ok("NearbyGamePage"), **problems(401, 422)},
        parameters=area + attribute_filters + [query("from", {"type": "string", "format": "date-time"}), query("to", {"type": "string", "format": "date-time"}), query("needsPlayers", {"type": "boolean"})] + paging)},
    "/v1/search/teams": {"get": search("Teams within the radius, nearest first; private never, protected without location",
        {**ok("NearbyTeamPage"), **problems(401, 422)}, parameters=area + attribute_filters + paging)},
    "/v1/search/courses": {"get": search("Disc golf courses within the radius, nearest first", {**ok("NearbyCoursePage"), **problems(401, 422)}, parameters=area + paging)},
    "/v1/search/players": {"get": search("Players by name: prefixes first, small typos forgiven", {**ok("PlayerResultPage"), **problems(401, 422)},
        parameters=[query("q", {"type": "string", "minLength": 1, "maxLength": 80}, required=True)] + paging)},
    "/v1/search/venues": {"get": search("The nearest grounds", {**ok("NearbyVenuePage"), **problems(401, 422)},
        parameters=area[:2] + [query("limit", {"type": "integer", "minimum": 1, "maximum": 100, "default": 5})])},
})

# Signed-in POSTs of catalog and games may be retried safely with an Idempotency-Key.
idempotency_key = {"name": "Idempotency-Key", "in": "header", "required": False, "schema": {"type": "string", "maxLength": 255},
                   "description": "retrying with the same key and body returns the first answer (Idempotent-Replayed: true)"}
for operations in paths.values():
    post = operations.get("post")
    if post and post.get("security") and post["tags"][0] in ("catalog", "games"):
        post["parameters"] = post.get("parameters", []) + [idempotency_key]

sport = {"type": "string", "enum": ["soccer", "volleyball", "softball", "basketball", "football", "discGolf", "cricket", "tennis", "hockey", "other"]}
schemas = {
    "Problem": {"type": "object", "required": ["type", "title", "status", "code"], "properties": {
        "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"}, "detail": {"type": "string"},
        "code": {"type": "string"}, "errors": {"type": "array", "items": {"type": "object", "required": ["field", "message"],
            "properties": {"field": {"type": "string"}, "message": {"type": "string"}}}}}},
    "RegisterRequest": {"type": "object", "required": ["email", "password", "name"], "properties": {
        "email": {"type": "string", "format": "email"}, "password": {"type": "string", "minLength": 10, "maxLength": 72},
        "name": {"type": "string", "minLength": 1, "maxLength": 100}}},
    "LoginRequest": {"type": "object", "required": ["email", "password"], "properties": {"email": {"type": "string"}, "password": {"type": "string"}}},
    "OAuthLoginRequest": {"type": "object", "required": ["accessToken"], "properties": {"accessToken": {"type": "string"}}},
    "RefreshRequest": {"type": "object", "required": ["refreshToken"], "properties": {"refreshToken": {"type": "string"}}},
    "SessionUser": {"type": "object", "required": ["id", "email", "name"], "properties": {
        "id": uuid, "email": {"type": "string"}, "name": {"type": "string"}, "pictureUrl": {"type": ["string", "null"]}}},
    "Session": {"type": "object", "required": ["user", "accessToken", "refreshToken", "expiresIn"], "properties": {
        "user": ref("SessionUser"), "accessToken": {"type": "string"}, "refreshToken": {"type": "string"},
        "expiresIn": {"type": "integer", "description": "seconds"}}},
    "MyProfile": {"type": "object", "required": ["id", "email", "name", "sports"], "properties": {
        "id": uuid, "email": {"type": "string"}, "name": {"type": "string"}, "pictureUrl": {"type": ["string", "null"]},
        "sports": {"type": "array", "items": sport}}},
    "PublicProfile": {"type": "object", "required": ["id", "name", "sports"], "properties": {
        "id": uuid, "name": {"type": "string"}, "pictureUrl": {"type": ["string", "null"]}, "sports": {"type": "array", "items": sport}}},
    "PublicProfilePage": page("PublicProfile"),
    "UpdateProfileRequest": {"type": "object", "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 100}, "pictureUrl": {"type": ["string", "null"], "format": "uri"},
        "sports": {"type": "array", "items": sport}}},
    "FriendMatchRequest": {"type": "object", "required": ["facebookIds"], "properties": {
        "facebookIds": {"type": "array", "maxItems": 5000, "items": {"type": "string"}}}},
    "FriendMatchResponse": {"type": "object", "required": ["items"], "properties": {"items": {"type": "array", "items": {
        "type": "object", "required": ["facebookId", "profile"], "properties": {"facebookId": {"type": "string"}, "profile": ref("PublicProfile")}}}}},
    "JWKS": {"type": "object", "required": ["keys"], "properties": {"keys": {"type": "array", "items": {"type": "object"}}}},
    "Health": {"type": "object", "required": ["status", "upstreams"], "properties": {
        "status": {"type": "string"}, "upstreams": {"type": "object", "additionalProperties": {"type": "string"}}}},
}

def obj(required, **properties): return {"type": "object", "required": list(required), "properties": properties}
number = {"type": "number"}
integer = {"type": "integer"}
text = {"type": "string"}
nullable_text = {"type": ["string", "null"]}
date_time = {"type": "string", "format": "date-time"}
coordinates = obj(["lat", "lng"], lat={"type": "number", "minimum": -90, "maximum": 90}, lng={"type": "number", "minimum": -180, "maximum": 180})
attributes = dict(sport=ref("Sport"), privacy=ref("Privacy"), ageGroup=ref("AgeGroup"), gender=ref("Gender"), skill=ref("Skill"))
hole = obj(["number", "par", "tee", "basket"], number={"type": "integer", "minimum": 1, "maximum": 36}, par={"type": "integer", "minimum": 2, "maximum": 7},
           tee=ref("Coordinates"), basket=ref("Coordinates"))
heading = obj(["distanceMeters", "bearingDegrees"], distanceMeters=integer, bearingDegrees=number)
schemas.update({
    "Sport": sport, "Privacy": enum("public", "protected", "private"), "AgeGroup": enum("youth", "adult", "masters", "any"),
    "Gender": enum("male", "female", "coed", "any"), "Skill": enum("beginner", "intermediate", "advanced", "any"),
    "Membership": enum("manager", "player", "pending", "invited"),
    "Coordinates": coordinates,
    "Location": obj(["lat", "lng"], lat=coordinates["properties"]["lat"], lng=coordinates["properties"]["lng"], address={"type": ["string", "null"], "maxLength": 200}),
    "SportInfo": obj(["id", "name"], id=ref("Sport"), name=text), "SportPage": page("SportInfo"),
    "Team": obj(["id", "name", "sport", "privacy", "location", "ageGroup", "gender", "skill", "managerId", "memberCount", "createdAt"],
        id=uuid, name=text, location=ref("Location"), managerId=uuid, memberCount=integer, createdAt=date_time,
        membership={"oneOf": [ref("Membership"), {"type": "null"}], "description": "your standing with the team"}, **attributes),
    "TeamPage": page("Team"),
    "CreateTeamRequest": obj(["name", "sport", "privacy", "location", "ageGroup", "gender", "skill"],
        name={"type": "string", "minLength": 2, "maxLength": 80}, location=ref("Location"), **attributes),
    "UpdateTeamRequest": {"type": "object", "properties": {"name": {"type": "string", "minLength": 2, "maxLength": 80}, "location": ref("Location"),
        **{k: v for k, v in attributes.items() if k != "sport"}}},
    "TeamMember": obj(["userId", "name", "role"], userId=uuid, name=text, role=ref("Membership")), "TeamMemberPage": page("TeamMember"),
    "InviteRequest": obj(["userIds"], userIds={"type": "array", "minItems": 1, "maxItems": 100, "items": uuid}),
    "InviteResult": obj(["invited", "unchanged"], invited={"type": "array", "items": uuid}, unchanged={"type": "array", "items": uuid}),
    "League": obj(["id", "name", "sport", "skill", "ageGroup", "gender", "privacy", "managerId", "teamCount", "createdAt"],
        id=uuid, name=text, location={"oneOf": [ref("Location"), {"type": "null"}]}, managerId=uuid, teamCount=integer, createdAt=date_time, **attributes),
    "LeaguePage": page("League"),
    "CreateLeagueRequest": obj(["name", "sport", "skill", "ageGroup", "gender", "privacy"],
        name={"type": "string", "minLength": 2, "maxLength": 80}, location=ref("Location"), **attributes),
    "AddLeagueTeamRequest": obj(["teamId"], teamId=uuid),
    "Hole": hole,
    "Course": obj(["id", "name", "location", "holeCount", "par", "holes"], id=uuid, name=text, location=ref("Location"), website=nullable_text,
        holeCount=integer, par=integer, holes={"type": "array", "items": ref("Hole")}),
    "CoursePage": page("Course"),
    "CreateCourseRequest": obj(["name", "location", "holes"], name={"type": "string", "minLength": 2, "maxLength": 80}, location=ref("Location"),
        website={"type": "string", "format": "uri"}, holes={"type": "array", "minItems": 1, "maxItems": 36, "items": ref("Hole"),
        "description": "numbered 1…n without gaps or repeats"}),
    "UpdateHoleRequest": obj(["par", "tee", "basket"], par=hole["properties"]["par"], tee=ref("Coordinates"), basket=ref("Coordinates")),
    "Heading": heading,
    "Navigation": obj(["hole", "tee", "basket"], hole=integer, tee=ref("Heading"), basket=ref("Heading"),
        nextTee={"oneOf": [obj(["hole", "distanceMeters", "bearingDegrees"], hole=integer, distanceMeters=integer, bearingDegrees=number), {"type": "null"}]}),
    "Weather": obj(["courseId", "temperatureCelsius", "windSpeedKmh", "windDirectionDegrees", "weatherCode", "fetchedAt"], courseId=uuid,
        temperatureCelsius=number, windSpeedKmh=number, windDirectionDegrees=number, weatherCode={"type": "integer", "description": "WMO code"},
        observedAt=nullable_text, fetchedAt=date_time),
    "Venue": obj(["id", "name", "location", "sports"], id=uuid, name=text, location=ref("Location"), sports={"type": "array", "items": ref("Sport")}, website=nullable_text),
    "VenuePage": page("Venue"),
    "CreateVenueRequest": obj(["name", "location", "sports"], name={"type": "string", "minLength": 2, "maxLength": 80}, location=ref("Location"),
        sports={"type": "array", "minItems": 1, "items": ref("Sport")}, website={"type": "string", "format": "uri"}),
    "NewsArticle": obj(["id", "title", "summary", "url", "source", "sport", "publishedAt"], id=uuid, title=text, summary=text,
        url={"type": "string", "format": "uri"}, imageUrl=nullable_text, source=text, sport=ref("Sport"), publishedAt=date_time,
        bookmarked={"type": "boolean", "description": "present when signed in"}),
    "NewsArticlePage": page("NewsArticle"),
})

roster_status = enum("going", "maybe", "notGoing", "pending", "invited", "waitlisted")
game_fields = dict(startsAt=date_time, location=ref("Location"), capacity={"type": "integer", "minimum": 1, "maximum": 500},
                   description={"type": "string", "maxLength": 1000})
schemas.update({
    "RosterStatus": roster_status,
    "Game": obj(["id", "kind", "status", "organizerId", "startsAt", "sport", "privacy", "ageGroup", "gender", "skill", "goingCount",
                 "waitlistCount", "subsNeeded", "createdAt"],
        id=uuid, kind=enum("team", "league", "pickup"), status=enum("scheduled", "cancelled"), teamId=uuid, teamName=text, leagueId=uuid,
        homeTeamId=uuid, homeTeamName=text, awayTeamId=uuid, awayTeamName=text, organizerId=uuid, startsAt=date_time,
        capacity={"type": "integer", "description": "player slots; absent when unlimited"}, goingCount=integer, waitlistCount=integer,
        subsNeeded={"type": "integer", "description": "substitutes still wanted; above 0 the game needs players"},
        location={**ref("Location"), "description": "only for participants and public games"},
        distanceMeters={"type": "integer", "description": "from lat/lng when given"}, description=text,
        myStatus={**ref("RosterStatus"), "description": "your place on the roster, absent when you have none"}, createdAt=date_time, **attributes),
    "GamePage": page("Game"),
    "CreateGameRequest": obj(["kind", "startsAt"], kind=enum("team", "league", "pickup"), teamId=uuid, leagueId=uuid, homeTeamId=uuid,
        awayTeamId=uuid, **game_fields, **attributes),
    "UpdateGameRequest": {"type": "object", "properties": {**game_fields, **{k: v for k, v in attributes.items() if k != "sport"}}},
    "RosterEntry": obj(["userId", "name", "status", "substitute"], userId=uuid, name=text, status=ref("RosterStatus"),
        position={"type": "integer", "minimum": 1, "description": "place on the waiting list"}, substitute={"type": "boolean"}),
    "RosterEntryPage": page("RosterEntry"),
    "RosterPlace": obj(["gameId", "userId", "substitute", "goingCount", "subsNeeded"], gameId=uuid, userId=uuid,
        status={**ref("RosterStatus"), "description": "absent once off the roster"}, position={"type": "integer", "minimum": 1},
        substitute={"type": "boolean"}, goingCount=integer, subsNeeded=integer),
    "SetRosterStatusRequest": obj(["status"], status=enum("going", "maybe", "notGoing")),
    "SubstitutesRequest": obj(["needed"], needed={"type": "integer", "minimum": 0, "maximum": 50}),
})

scorecard_player = obj(["playerId", "name", "scores", "total", "toPar"], playerId=uuid, userId={**uuid, "description": "absent for guests"},
    name=text, scores={"type": "array", "items": obj(["hole", "strokes"], hole=integer, strokes=integer)}, total=integer, toPar=integer)
schemas.update({
    "StartRoundRequest": obj(["courseId"], courseId=uuid, players={"type": "array", "maxItems": 19, "items": {
        "type": "object", "description": "either userId or guestName", "properties": {"userId": uuid, "guestName": {"type": "string", "minLength": 1, "maxLength": 40}}}}),
    "Scorecard": obj(["id", "courseId", "courseName", "status", "version", "currentHole", "holes", "players", "startedBy", "startedAt"],
        id=uuid, courseId=uuid, courseName=text, status=enum("ongoing", "completed"), version=integer, currentHole=integer,
        holes={"type": "array", "items": obj(["number", "par"], number=integer, par=integer)}, players={"type": "array", "items": scorecard_player},
        startedBy=uuid, startedAt=date_time, finishedAt=date_time),
    "ScorecardPage": page("Scorecard"),
    "ScoreUpdate": obj(["playerId", "hole", "strokes"], playerId=uuid, hole=integer, strokes={"type": "integer", "minimum": 1, "maximum": 20},
        expectedVersion={"type": "integer", "description": "the card's version this change was made against"}),
    "ScoreConflict": obj(["type", "title", "status", "code", "scorecard"], type=text, title=text, status=integer, detail=text, code=text, scorecard=ref("Scorecard")),
    "LiveMessage": obj(["type", "version"], type=enum("card", "score", "finished", "error"), version=integer, playerId=uuid, hole=integer,
        strokes=integer, card=ref("Scorecard"), problem=ref("Problem")),
    "PlayerStats": obj(["userId", "roundsPlayed", "courses", "scores"], userId=uuid, roundsPlayed=integer,
        courses={"type": "array", "items": obj(["courseId", "courseName", "roundsPlayed", "best", "averageTotal"], courseId=uuid, courseName=text,
            roundsPlayed=integer, averageTotal=number,
            best=obj(["total", "toPar", "date", "roundId"], total=integer, toPar=integer, date=date_time, roundId=uuid))},
        scores=obj(["aces", "eagles", "birdies", "pars", "bogeys", "doubleBogeys"], aces=integer, eagles=integer, birdies=integer, pars=integer,
            bogeys=integer, doubleBogeys=integer)),
})

def nearby(name): return {"allOf": [ref(name), obj(["distanceMeters"], distanceMeters=integer)]}
schemas.update({
    "TeamResult": obj(["id", "name", "sport", "privacy", "ageGroup", "gender", "skill", "memberCount"], id=uuid, name=text, memberCount=integer,
        location={**ref("Location"), "description": "absent for protected teams"}, **attributes),
    "PlayerResult": obj(["id", "name"], id=uuid, name=text), "PlayerResultPage": page("PlayerResult"),
    "NearbyGamePage": page("NearbyGame"), "NearbyGame": nearby("Game"),
    "NearbyTeamPage": page("NearbyTeam"), "NearbyTeam": nearby("TeamResult"),
    "NearbyCoursePage": page("NearbyCourse"), "NearbyCourse": nearby("Course"),
    "NearbyVenuePage": page("NearbyVenue"), "NearbyVenue": nearby("Venue"),
})

document = {
    "openapi": "3.1.0",
    "info": {"title": "Huddle API", "version": "1.0.0",
             "description": "Public API of Huddle, served by the gateway. Errors are application/problem+json (RFC 9457)."},
    "servers": [{"url": "http://127.0.0.1:8080"}],
    "paths": paths,
    "components": {"schemas": schemas, "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}}},
}
out = pathlib.Path(__file__).resolve().parents[2] / "Services/Gateway/Resources/openapi.json"
out.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")
print(f"wrote {out}")
