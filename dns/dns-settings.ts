// The DNS provider a deployment's settings name, with its secret read from this process's environment.

import type { DeploymentSettings } from "../store/model";
import type { DnsProvider } from "./dns-provider";
import { wildcardProvider } from "./wildcard/wildcard-provider";
import { rfc2136Provider } from "./rfc2136/rfc2136-provider";
import { REGIONS } from "../store/model";

export function dnsProvider(deployment: DeploymentSettings, environment: NodeJS.ProcessEnv): DnsProvider {
  const settings = deployment.dns;
  if (!settings || settings.provider === "wildcard") return wildcardProvider();
  const secret = environment[settings.keySecretEnv];
  if (!secret) throw new Error(`DNS: environment variable ${settings.keySecretEnv} must hold the TSIG key's secret (base64)`);
  const colon = settings.server.lastIndexOf(":");
  return rfc2136Provider({
    server: { host: settings.server.slice(0, colon), port: Number(settings.server.slice(colon + 1)) },
    key: { name: settings.keyName, algorithm: settings.keyAlgorithm, secret: Buffer.from(secret, "base64") },
    target: settings.target,
    ttl: settings.ttl,
    zones: REGIONS.map((region) => deployment.baseDomains[region]),
  });
}
