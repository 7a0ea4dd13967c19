// Test helpers: a gateway snapshot with one Site accepting every method, and the facts of requests to it.

import { buildSnapshot } from "../../../store/snapshot";
import type { GatewaySnapshot } from "../../../store/snapshot";
import type { ApiKey, UserDefinition } from "../../../store/model";
import type { CredentialFacts } from "../../../plugins/flowgate/auth/authenticate";
import type { AuthContext } from "../../../plugins/flowgate/auth/auth-provider";

export function snapshotWith({ users = [] as UserDefinition[], apiKeys = [] as ApiKey[] } = {}): GatewaySnapshot {
  const site = (name: string) => ({
    name,
    subdomain: name,
    region: "global" as const,
    allowedOrigins: "*" as const,
    environments: ["Production", "Test"],
    releaseManagement: false,
    authMethods: ["apiKey", "basic", "session", "hmac"] as never[],
    settings: {},
    outboundHosts: null,
    workflows: [],
  });
  return buildSnapshot({ version: 1, deployment: null, sites: [site("acme"), site("globex")], releases: [], users, apiKeys });
}

export function facts(headers: Record<string, string> = {}, query = "", clientAddress = "192.0.2.10"): CredentialFacts {
  return { headers, query, clientAddress };
}

export function contextFor(snapshot: GatewaySnapshot, request: CredentialFacts, { site = "acme", environment = "Production", workflow = "orders" } = {}): AuthContext {
  return { request, site: snapshot.sitesByHost.get(`${site}.flowgate.localhost`)!, environment, workflow };
}

export function basic(user: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` };
}
