// The session-token endpoint (spec: "Obtain a session token"): GET https://auth.<base domain>/users/{username}/auth/
// ?password=... answers a JSON string holding a GUID, only for a correct user name and password.

import { randomUUID } from "node:crypto";
import type { GatewaySnapshot } from "../../../../store/snapshot";
import { REGIONS } from "../../../../store/model";
import { authHost, normaliseHost } from "../../site-host";
import { parseUriTemplate } from "../../templates/uri-template";
import { matchPath } from "../../templates/template-match";
import { splitRequestPath } from "../../templates/request-path";
import { parseQueryString } from "../../templates/query-string";
import { errorResponse } from "../../responses";
import type { GatewayResponse } from "../../responses";
import { ACTIVITY_ID_HEADER } from "../../responses";
import { hashApiKey } from "../secret-hash";
import type { PasswordCheck } from "../password-check";
import type { SessionStore } from "./sessions";
import { sessionLifetime } from "./sessions";

const TOKEN_PATH = (() => {
  const parsed = parseUriTemplate("/users/{username}/auth/");
  if (!parsed.ok) throw new Error(parsed.error.toString());
  return parsed.template;
})();

export interface TokenRequest {
  readonly method: string;
  readonly host: string;
  readonly path: string;
  readonly query: string;
  readonly clientAddress: string;
}

export function isAuthHost(snapshot: GatewaySnapshot, host: string): boolean {
  const name = normaliseHost(host);
  return REGIONS.some((region) => authHost(snapshot.deployment, region) === name);
}

export async function answerTokenRequest(
  snapshot: GatewaySnapshot,
  request: TokenRequest,
  passwords: PasswordCheck,
  sessions: SessionStore,
  now: () => number = Date.now,
): Promise<GatewayResponse> {
  const activityId = randomUUID();
  const path = splitRequestPath(request.path);
  const match = path.ok ? matchPath(TOKEN_PATH, path.segments) : null;
  if (!match?.matched) {
    return { status: 404, headers: { "content-type": "text/plain; charset=utf-8", [ACTIVITY_ID_HEADER]: activityId }, body: "There is no service at this location." };
  }
  if (request.method !== "GET") return errorResponse(405, activityId, "The token endpoint answers GET only.", { allow: "GET" });
  const query = parseQueryString(request.query);
  const password = query.ok ? query.parameters.get("password") : undefined;
  if (!password || password.length !== 1) return errorResponse(400, activityId, "Give the password once, as the query parameter password.");
  const username = match.variables.username!;
  const user = snapshot.usersByName.get(username);
  const answer = await passwords.check(username, password[0]!, user, request.clientAddress);
  if (answer.kind === "throttled") return errorResponse(429, activityId, "Too many failed attempts; try again later.", { "retry-after": String(answer.retryAfterSeconds) });
  if (answer.kind === "wrong" || !user) return errorResponse(401, activityId, "The user name or password is not correct.");
  const token = randomUUID();
  const issuedAt = now();
  await sessions.createSession(user.name, hashApiKey(token), issuedAt, issuedAt + sessionLifetime(snapshot.deployment).absoluteMs);
  return { status: 200, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", [ACTIVITY_ID_HEADER]: activityId }, body: JSON.stringify(token) };
}
