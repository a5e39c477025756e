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
