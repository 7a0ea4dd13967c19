// The gateway's view of the configuration at one version: each Site by host, each Site Environment with the
// routing table of its live revisions. Built once per configuration change, read on every request.

import type { ApiKey, DeploymentSettings, Revision, StoredConfiguration, StoredSite, UserDefinition } from "./model";
import { liveRevisions, bindingsOf } from "./live-revisions";
import type { Binding } from "../plugins/flowgate/routing/binding";
import { RoutingTable } from "../plugins/flowgate/routing/routing-table";
import { DEFAULT_BASE_DOMAINS, siteHost } from "../plugins/flowgate/site-host";
import { DEFAULT_PROPERTY_PREFIX, specialProperties } from "../plugins/flowgate/variable-bar";
import type { SpecialProperties } from "../plugins/flowgate/variable-bar";

export interface SiteEnvironmentSnapshot {
  readonly name: string;
  readonly bindings: readonly Binding<Revision>[];
  readonly table: RoutingTable<Revision>;
}

export interface SiteSnapshot {
  readonly site: StoredSite;
  readonly host: string;
  /** By case-folded name: `_profile` compares without case. */
  readonly environments: ReadonlyMap<string, SiteEnvironmentSnapshot>;
}

export interface GatewaySnapshot {
  readonly version: number;
  readonly deployment: DeploymentSettings;
  /** The special Variable Bar property names under the deployment's prefix. */
  readonly special: SpecialProperties;
  readonly sitesByHost: ReadonlyMap<string, SiteSnapshot>;
  /** API keys by the hash of each of their tokens, primary and secondary. */
  readonly apiKeysByHash: ReadonlyMap<string, ApiKey>;
  readonly usersByName: ReadonlyMap<string, UserDefinition>;
}

export const DEFAULT_DEPLOYMENT: DeploymentSettings = { baseDomains: DEFAULT_BASE_DOMAINS, variableBarPrefix: DEFAULT_PROPERTY_PREFIX };

export function buildSnapshot(configuration: StoredConfiguration): GatewaySnapshot {
  const deployment = configuration.deployment ?? DEFAULT_DEPLOYMENT;
  const sitesByHost = new Map<string, SiteSnapshot>();
  for (const site of configuration.sites) {
    const environments = new Map<string, SiteEnvironmentSnapshot>();
    for (const name of site.environments) {
      const bindings = bindingsOf(liveRevisions(site, name, configuration.releases));
      environments.set(name.toLowerCase(), { name, bindings, table: new RoutingTable(bindings) });
    }
    const host = siteHost(site, deployment);
    sitesByHost.set(host, { site, host, environments });
  }
  const apiKeysByHash = new Map<string, ApiKey>();
  for (const key of configuration.apiKeys) {
    apiKeysByHash.set(key.primaryHash, key);
    if (key.secondaryHash) apiKeysByHash.set(key.secondaryHash, key);
  }
  const usersByName = new Map(configuration.users.map((user) => [user.name, user]));
  return { version: configuration.version, deployment, special: specialProperties(deployment.variableBarPrefix), sitesByHost, apiKeysByHash, usersByName };
}
