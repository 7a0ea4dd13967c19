// Test helpers: desired states built in code, so store tests do not depend on the YAML loader.

import type { DesiredState, SiteDefinition, WorkflowDefinition } from "../../store/model";
import { DEFAULT_LIMITS } from "../../store/model";

export function workflow(name: string, method: string, template: string, overrides: Partial<WorkflowDefinition> = {}): WorkflowDefinition {
  const inputs = [...template.matchAll(/\{\*?([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((match) => match[1]!);
  return {
    name,
    method,
    template,
    variableBar: { inputs, outputs: ["result"] },
    code: `export default () => ({ result: "${name}" });`,
    codePath: `workflows/${name}.js`,
    limits: DEFAULT_LIMITS,
    anonymous: false,
    allowOverlapWith: [],
    ...overrides,
  };
}

export function site(name: string, workflows: WorkflowDefinition[], overrides: Partial<SiteDefinition> = {}): DesiredState["sites"][number] {
  return {
    name,
    subdomain: name,
    region: "global",
    allowedOrigins: ["https://app.example"],
    environments: ["Production", "Test"],
    releaseManagement: false,
    authMethods: ["apiKey"],
    settings: {},
    outboundHosts: null,
    ...overrides,
    workflows,
  };
}

export function desired(sites: DesiredState["sites"], extra: Partial<Omit<DesiredState, "sites">> = {}): DesiredState {
  return {
    deployment: { baseDomains: { global: "flowgate.localhost", za: "za.flowgate.localhost" }, variableBarPrefix: "Fg" },
    sites,
    users: [],
    apiKeys: [],
    ...extra,
  };
}
