// Legacy session authentication: the token from the token endpoint, passed as `?auth=<token>`.

import type { AuthProvider } from "../auth-provider";
import { hashApiKey } from "../secret-hash";
import { parseQueryString } from "../../templates/query-string";
import type { GatewaySnapshot } from "../../../../store/snapshot";
import { userMayCall } from "../user-access";
import type { SessionCache } from "./sessions";
import { sessionLifetime, sessionValid } from "./sessions";

export const SESSION_PARAMETER = "auth";

export function sessionProvider(snapshot: () => GatewaySnapshot, sessions: SessionCache, now: () => number = Date.now): AuthProvider {
  return {
    method: "session",
    describe: "a session token (?auth=<token>)",
    async authenticate({ request, site }) {
      if (!request.query) return { kind: "not-mine" };
      const parsed = parseQueryString(request.query);
      const token = parsed.ok ? parsed.parameters.get(SESSION_PARAMETER)?.[0] : undefined;
      if (token === undefined) return { kind: "not-mine" };
      const current = snapshot();
      // Tokens are stored as hashes, like API keys: both are high-entropy secrets.
      const session = await sessions.find(hashApiKey(token));
      const user = session ? current.usersByName.get(session.user) : undefined;
      if (!sessionValid(session, sessionLifetime(current.deployment), now()) || !user) {
        return { kind: "invalid", message: "The session token is not valid or has expired." };
      }
      if (!userMayCall(user, site.site.name)) return { kind: "forbidden", message: `User ${user.name} may not call this Site.` };
      sessions.noteUse(session);
      return { kind: "principal", principal: { kind: "user", name: user.name } };
    },
  };
}
