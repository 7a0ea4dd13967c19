// Kong's declarative configuration for a Flowgate deployment (`flowgate kong-config`): the runner as a Service
// behind an Upstream with health checks, a route per Site host with Kong's `cors` plugin from its Allowed Origins
// and the `flowgate` plugin, a route for the session-token hosts, a catch-all route per base domain (so Sites added
// since the last generation still answer, and unknown hosts get the spec's answer), and the wildcard certificate.

import { createHash } from "node:crypto";
import type { DeploymentSettings, DesiredState, SiteDefinition, StoredConfiguration } from "../store/model";
import { REGIONS } from "../store/model";
import { DEFAULT_DEPLOYMENT } from "../store/snapshot";
import { corsPolicy } from "../plugins/flowgate/cors-policy";
import { authHost, siteHost } from "../plugins/flowgate/site-host";
import { NAME as PLUGIN_NAME } from "../plugins/flowgate/schema";
import { HEALTH_PATH } from "../runner/runner-handler";

export interface KongConfigOptions {
  /** Runner addresses as host:port. */
  readonly runners: readonly string[];
  /** Include the wildcard certificate, its PEM read from Kong's environment vault. */
  readonly tls: boolean;
  readonly pollIntervalMs?: number;
  /** How long Kong waits for the runner; above every Workflow's time limit. */
  readonly readTimeoutMs?: number;
}

/** What the Kong configuration depends on: the Sites, and how long their Workflows may take. */
export interface KongConfigInput {
  readonly deployment: DeploymentSettings | null;
  readonly sites: readonly (Pick<SiteDefinition, "name" | "subdomain" | "region" | "allowedOrigins"> & { readonly longestTimeoutMs: number })[];
}

export function kongInputFromStore(configuration: StoredConfiguration): KongConfigInput {
  return {
    deployment: configuration.deployment,
    sites: configuration.sites.map((site) => ({ ...site, longestTimeoutMs: Math.max(0, ...site.workflows.flatMap((workflow) => workflow.revisions.map((revision) => revision.limits.timeoutMs))) })),
  };
}

export function kongInputFromFile(desired: DesiredState): KongConfigInput {
  return {
    deployment: desired.deployment,
    sites: desired.sites.map((site) => ({ ...site, longestTimeoutMs: Math.max(0, ...site.workflows.map((workflow) => workflow.limits.timeoutMs)) })),
  };
}

const UPSTREAM = "flowgate-runner";
const PROTOCOLS = ["http", "https"];

export function kongConfig(configuration: KongConfigInput, options: KongConfigOptions): Record<string, unknown> {
  const deployment = configuration.deployment ?? DEFAULT_DEPLOYMENT;
  const flowgatePlugin = { name: PLUGIN_NAME, config: { poll_interval_ms: options.pollIntervalMs ?? 1000 } };
  const baseDomains = [...new Set(REGIONS.map((region) => deployment.baseDomains[region].toLowerCase()))];
  const longestWorkflow = Math.max(0, ...configuration.sites.map((site) => site.longestTimeoutMs));
  const route = (name: string, hosts: readonly string[], plugins: readonly unknown[]) => ({
    name,
    hosts,
    paths: ["/"],
    protocols: PROTOCOLS,
    // The runner checks the dispatch record against the Site's host and the exact path, so Kong passes both on.
    preserve_host: true,
    strip_path: false,
    request_buffering: true,
    response_buffering: true,
    plugins,
  });

  const siteRoutes = configuration.sites.map((site) => {
    const policy = corsPolicy(site);
    const cors = {
      name: "cors",
      config: {
        origins: policy.origins === "*" ? ["*"] : [...policy.origins],
        methods: [...policy.methods],
        exposed_headers: [...policy.exposedHeaders],
        credentials: policy.credentials,
        max_age: policy.maxAgeSeconds,
        preflight_continue: false,
      },
    };
    return route(`flowgate-site-${site.name}`, [siteHost(site, deployment)], [cors, flowgatePlugin]);
  });

  const config: Record<string, unknown> = {
    _format_version: "3.0",
    upstreams: [
      {
        name: UPSTREAM,
        algorithm: "round-robin",
        targets: options.runners.map((target) => ({ target, weight: 100 })),
        healthchecks: {
          active: {
            type: "http",
            http_path: HEALTH_PATH,
            healthy: { interval: 5, successes: 1 },
            unhealthy: { interval: 5, http_failures: 2, tcp_failures: 2, timeouts: 2 },
          },
          passive: { unhealthy: { http_failures: 0, tcp_failures: 3, timeouts: 3 } },
        },
      },
    ],
    services: [
      {
        name: UPSTREAM,
        host: UPSTREAM,
        port: 80,
        protocol: "http",
        connect_timeout: 5000,
        write_timeout: 60000,
        read_timeout: options.readTimeoutMs ?? Math.max(60000, longestWorkflow + 5000),
        retries: 0,
        routes: [
          ...siteRoutes,
          route("flowgate-session-tokens", REGIONS.map((region) => authHost(deployment, region)).filter((host, index, hosts) => hosts.indexOf(host) === index), [flowgatePlugin]),
          route("flowgate-other-hosts", baseDomains.map((domain) => `*.${domain}`), [flowgatePlugin]),
        ],
      },
    ],
  };
  if (options.tls) {
    config.certificates = [
      {
        // Certificates have no name in Kong; a stable id lets decK and Kong recognise this one across regenerations.
        id: stableUuid(`flowgate-certificate:${baseDomains.join(",")}`),
        cert: "{vault://env/flowgate-tls-cert}",
        key: "{vault://env/flowgate-tls-key}",
        snis: baseDomains.flatMap((domain) => [{ name: `*.${domain}` }]),
      },
    ];
  }
  return config;
}

/** A UUID (version 5 layout) derived from `name`, the same on every run. */
function stableUuid(name: string): string {
  const bytes = createHash("sha1").update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
