// Test helpers: revisions made from code, without a store.

import type { Limits, Revision } from "../../store/model";
import { DEFAULT_LIMITS } from "../../store/model";
import type { CallContext, HostServices } from "../../runner/sandbox/sandbox-types";

let counter = 0;

export function revision(code: string, limits: Partial<Limits> = {}, site = "acme"): Revision {
  counter++;
  return {
    site,
    workflow: `w${counter}`,
    number: 1,
    contentHash: `hash-${counter}`,
    createdAt: 0,
    method: "GET",
    template: "/x",
    variableBar: { inputs: [], outputs: [] },
    code,
    codePath: "w.js",
    limits: { ...DEFAULT_LIMITS, timeoutMs: 2000, cpuMs: 500, ...limits },
    anonymous: true,
  };
}

export function meta(overrides: Partial<CallContext> = {}): CallContext {
  return { environment: "Production", activityId: "act-1", site: "acme", workflow: "w", revision: 1, settings: {}, ...overrides };
}

export function recordingHost(overrides: Partial<HostServices> = {}): HostServices & { logged: string[] } {
  const logged: string[] = [];
  return {
    logged,
    log: (level, text) => logged.push(`${level}: ${text}`),
    http: async () => ({ status: 200, headers: {}, body: "" }),
    callWorkflow: async () => ({}),
    ...overrides,
  };
}
