// Site hosts: subdomain rules, the region's base domain, and finding the Site a request's Host names
// (spec: "Site"; the rules where it is silent are in docs/decisions.md).

import type { DeploymentSettings, Region } from "../../store/model";

/** Names a Site may not take: hosts the service itself answers on, such as the session-token endpoint. */
export const RESERVED_SUBDOMAINS: readonly string[] = ["auth", "www", "admin", "status"];

export const DEFAULT_BASE_DOMAINS: Readonly<Record<Region, string>> = {
  global: "flowgate.localhost",
  za: "za.flowgate.localhost",
};

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Why `subdomain` cannot name a Site, or null when it can. Comparison is without case, as DNS compares. */
export function subdomainProblem(subdomain: string, settings: DeploymentSettings, region: Region): string | null {
  const label = subdomain.toLowerCase();
  if (!LABEL.test(label)) {
    return `subdomain "${subdomain}" is not a valid DNS label: use 1 to 63 letters, digits and hyphens, with no hyphen at either end`;
  }
  if (RESERVED_SUBDOMAINS.includes(label)) return `subdomain "${subdomain}" is reserved for the service (${RESERVED_SUBDOMAINS.join(", ")})`;
  const host = `${label}.${settings.baseDomains[region]}`;
  const clash = Object.entries(settings.baseDomains).find(([, base]) => base === host);
  if (clash) return `subdomain "${subdomain}" would make ${host}, which is the ${clash[0]} region's base domain`;
  return null;
}

/** Why `domain` cannot be a base domain, or null when it can. */
export function baseDomainProblem(domain: string): string | null {
  const name = domain.toLowerCase();
  if (name.length > 253 - 64) return `base domain "${domain}" is too long to leave room for a subdomain`;
  if (!name.split(".").every((label) => LABEL.test(label))) {
    return `base domain "${domain}" is not a valid DNS name: dot-separated labels of letters, digits and hyphens`;
  }
  return null;
}

/** The host a Site is reached at: `<subdomain>.<base domain of its region>`. */
export function siteHost(site: { readonly subdomain: string; readonly region: Region }, settings: DeploymentSettings): string {
  return `${site.subdomain.toLowerCase()}.${settings.baseDomains[site.region].toLowerCase()}`;
}

/** The host of the legacy session-token endpoint for a region: `auth.<base domain>`. */
export function authHost(settings: DeploymentSettings, region: Region): string {
  return `auth.${settings.baseDomains[region].toLowerCase()}`;
}

/** A Host header as hosts are compared: lower-cased, without port or trailing dot. */
export function normaliseHost(hostHeader: string): string {
  let host = hostHeader.trim().toLowerCase();
  if (host.startsWith("[")) return host;
  const colon = host.lastIndexOf(":");
  if (colon !== -1) host = host.slice(0, colon);
  return host.endsWith(".") ? host.slice(0, -1) : host;
}
