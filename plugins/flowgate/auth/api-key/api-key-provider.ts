// API keys, the current authentication method: `Authorization: Bearer <key>`, or for older clients
// `Authorization: Key=<key>` and `?auth-key=<key>` (discouraged: URLs get logged). A key belongs to one Site,
// targets one Site Environment and lists the Workflows it may call (docs/decisions.md).

import type { AuthProvider } from "../auth-provider";
import { hashApiKey } from "../secret-hash";
import { parseQueryString } from "../../templates/query-string";
import type { GatewaySnapshot } from "../../../../store/snapshot";

export const API_KEY_PARAMETER = "auth-key";

/** The token a request presents ("" when its scheme is there but the token is not), or null when it presents none. */
export function presentedApiKey(headers: Readonly<Record<string, string>>, query: string): string | null {
  const authorization = headers.authorization?.trim() ?? "";
  if (/^(Bearer\b|Key\s*=)/i.test(authorization)) return /^(?:Bearer\s+|Key\s*=\s*)(\S+)$/i.exec(authorization)?.[1] ?? "";
  if (!query) return null;
  const parsed = parseQueryString(query);
  return parsed.ok ? (parsed.parameters.get(API_KEY_PARAMETER)?.[0] ?? null) : null;
}

export function apiKeyProvider(snapshot: () => GatewaySnapshot): AuthProvider {
  return {
    method: "apiKey",
    describe: "an API key (Authorization: Bearer <key>)",
    async authenticate({ request, site, environment, workflow }) {
      const token = presentedApiKey(request.headers, request.query);
      if (token === null) return { kind: "not-mine" };
      const key = snapshot().apiKeysByHash.get(hashApiKey(token));
      // Unknown, disabled, or another Site's: the same answer, so a key's existence is not revealed.
      if (!key || key.disabled || key.site !== site.site.name) return { kind: "invalid", message: "The API key is not valid." };
      if (key.environment.toLowerCase() !== environment.toLowerCase()) {
        return { kind: "forbidden", message: `This API key is for the ${key.environment} environment, not ${environment}.` };
      }
      if (key.workflows !== "*" && !key.workflows.includes(workflow)) return { kind: "forbidden", message: `This API key may not call the Workflow ${workflow}.` };
      return { kind: "principal", principal: { kind: "apiKey", name: key.name } };
    },
  };
}
