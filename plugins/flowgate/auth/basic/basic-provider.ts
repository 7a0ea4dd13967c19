// Legacy Basic authentication: `Authorization: Basic base64(user:password)` (spec: "Basic Authentication"). A 401
// on a Site that accepts it carries `WWW-Authenticate: Basic realm="<site>"`, so a browser shows its login dialog.

import type { AuthProvider } from "../auth-provider";
import type { PasswordCheck } from "../password-check";
import type { GatewaySnapshot } from "../../../../store/snapshot";
import { userMayCall } from "../user-access";

export function basicCredentials(authorization: string | undefined): { username: string; password: string } | "absent" | "malformed" {
  const match = /^Basic(?:\s+(.*))?$/i.exec(authorization?.trim() ?? "");
  if (!match) return "absent";
  const encoded = (match[1] ?? "").trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return "malformed";
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return "malformed";
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function basicProvider(snapshot: () => GatewaySnapshot, passwords: PasswordCheck): AuthProvider {
  return {
    method: "basic",
    describe: "a user name and password (Authorization: Basic ...)",
    challenge: (site) => `Basic realm="${site.site.name}", charset="UTF-8"`,
    async authenticate({ request, site }) {
      const credentials = basicCredentials(request.headers.authorization);
      if (credentials === "absent") return { kind: "not-mine" };
      if (credentials === "malformed") return { kind: "invalid", message: "The Basic credentials are malformed: expected base64 of user:password." };
      const user = snapshot().usersByName.get(credentials.username);
      const answer = await passwords.check(credentials.username, credentials.password, user, request.clientAddress);
      if (answer.kind === "throttled") return answer;
      if (answer.kind === "wrong" || !user) return { kind: "invalid", message: "The user name or password is not correct." };
      if (!userMayCall(user, site.site.name)) return { kind: "forbidden", message: `User ${user.name} may not call this Site.` };
      return { kind: "principal", principal: { kind: "user", name: user.name } };
    },
  };
}
