// The records Flowgate keeps: Sites, Workflows and their revisions, releases, users, API keys and activity logs.
// Plain data, shared by the declarative configuration, the store and the snapshot the gateway routes with.

export const REGIONS = ["global", "za"] as const;
/** Where a Site runs: `global` for the US and Europe, `za` for South Africa (spec: "Site"). */
export type Region = (typeof REGIONS)[number];

export const AUTH_METHODS = ["apiKey", "basic", "session"] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export const PRODUCTION = "Production";

export interface DeploymentSettings {
  /** The base domain of each region; a Site is reached at `<subdomain>.<base domain>`. */
  readonly baseDomains: Readonly<Record<Region, string>>;
  /** The Variable Bar prefix the spec writes as `Svc` (default `Fg`). */
  readonly variableBarPrefix: string;
  /** Lifetimes of legacy session tokens (default: 30 minutes idle, 12 hours in all). */
  readonly sessions?: { readonly idleMinutes: number; readonly absoluteHours: number };
  /** How Sites' names get DNS records (default: a wildcard record covers them). */
  readonly dns?: DnsSettings;
}

export type DnsSettings =
  | { readonly provider: "wildcard" }
  | {
      readonly provider: "rfc2136";
      /** The authoritative server, host:port. */
      readonly server: string;
      readonly keyName: string;
      readonly keyAlgorithm: "hmac-sha256" | "hmac-sha512";
      /** The environment variable holding the TSIG secret (base64); the secret itself is never stored. */
      readonly keySecretEnv: string;
      readonly target: { readonly type: "A" | "AAAA" | "CNAME"; readonly value: string };
      readonly ttl: number;
    };

export interface Limits {
  readonly memoryMb: number;
  readonly cpuMs: number;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
}

/** Limits for a Workflow whose configuration sets none. */
export const DEFAULT_LIMITS: Limits = { memoryMb: 64, cpuMs: 2000, timeoutMs: 10000, maxBodyBytes: 10 * 1024 * 1024 };

export interface SiteDefinition {
  readonly name: string;
  /** Stored lower-cased: subdomains compare without case. */
  readonly subdomain: string;
  readonly region: Region;
  /** Allowed Origins for CORS: a list, or `*` for any. */
  readonly allowedOrigins: "*" | readonly string[];
  /** Always holds `Production`. */
  readonly environments: readonly string[];
  readonly releaseManagement: boolean;
  readonly authMethods: readonly AuthMethod[];
  /**
   * Per-environment settings a Workflow reads as `context.settings`, so Test and Production can point at different
   * systems. A value `{ env: NAME }` is read from the runner's environment at call time, never stored.
   */
  readonly settings: Readonly<Record<string, Readonly<Record<string, SettingValue>>>>;
  /** Hosts a Workflow may call with `context.http` (`*.example.com` covers subdomains); null allows any. */
  readonly outboundHosts: readonly string[] | null;
}

export type SettingValue = string | number | boolean | null | { readonly env: string };

/** Whether a setting may read this environment variable: never Flowgate's own (the dispatch secret, the store URL). */
export function settingMayRead(variable: string): boolean {
  return !variable.toUpperCase().startsWith("FLOWGATE_");
}

export interface VariableBarDefinition {
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}

/** What a revision fixes: change any of it and the Workflow gets a new revision. */
export interface RevisionContent {
  readonly method: string;
  readonly template: string;
  readonly variableBar: VariableBarDefinition;
  /** The Workflow's JavaScript module source. */
  readonly code: string;
  /** Where the code came from, for people reading listings. */
  readonly codePath: string;
  readonly limits: Limits;
  /** Callable without credentials; only when the configuration says so explicitly. */
  readonly anonymous: boolean;
}

export interface WorkflowDefinition extends RevisionContent {
  readonly name: string;
  /** Workflows of the same Site whose overlapping templates the author accepts. */
  readonly allowOverlapWith: readonly string[];
}

export interface Revision extends RevisionContent {
  readonly site: string;
  readonly workflow: string;
  readonly number: number;
  readonly contentHash: string;
  readonly createdAt: number;
}

/** With Release Management: the revision of a Workflow published into one Site Environment. */
export interface Release {
  readonly site: string;
  readonly workflow: string;
  readonly environment: string;
  readonly revision: number;
  readonly releasedAt: number;
}

export interface UserDefinition {
  readonly name: string;
  /** A memory-hard hash (`scrypt$...`); never the password. */
  readonly passwordHash: string;
  /** The Sites the user may call, or `*`. */
  readonly sites: "*" | readonly string[];
}

export interface ApiKeyDefinition {
  readonly site: string;
  readonly name: string;
  readonly environment: string;
  /** The Workflows the key may call, or `*`. */
  readonly workflows: "*" | readonly string[];
  readonly disabled: boolean;
  /** Hashes of the key's tokens (`sha256:...`); the secondary one allows rotation without downtime. */
  readonly primaryHash: string;
  readonly secondaryHash: string | null;
}

export interface ApiKey extends ApiKeyDefinition {
  /** `file` keys are owned by flowgate.yaml; `cli` keys were created with `flowgate keys create`. */
  readonly source: "file" | "cli";
}

/** Everything a flowgate.yaml describes, checked and resolved (secrets hashed, code read). */
export interface DesiredState {
  readonly deployment: DeploymentSettings;
  readonly sites: readonly (SiteDefinition & { readonly workflows: readonly WorkflowDefinition[] })[];
  readonly users: readonly DesiredUser[];
  readonly apiKeys: readonly ApiKeyDefinition[];
}

/**
 * A user as the file gives it: a password hash, or a password read from the environment, which the store hashes
 * only when it no longer verifies against the stored hash (so applying the same file twice changes nothing).
 */
export interface DesiredUser {
  readonly name: string;
  readonly password: { readonly hash: string } | { readonly plain: string };
  readonly sites: "*" | readonly string[];
}

export interface StoredSite extends SiteDefinition {
  readonly workflows: readonly StoredWorkflow[];
}

export interface StoredWorkflow {
  readonly name: string;
  readonly allowOverlapWith: readonly string[];
  /** Oldest first; the last is the latest. */
  readonly revisions: readonly Revision[];
}

/** The whole stored configuration at one version. */
export interface StoredConfiguration {
  readonly version: number;
  readonly deployment: DeploymentSettings | null;
  readonly sites: readonly StoredSite[];
  readonly releases: readonly Release[];
  readonly users: readonly UserDefinition[];
  readonly apiKeys: readonly ApiKey[];
}

export interface ActivityLog {
  /** The activity id: `FgWorkflowInstanceId`, and the `X-Flowgate-Activity-Id` response header. */
  readonly id: string;
  readonly site: string;
  readonly workflow: string;
  readonly revision: number;
  readonly environment: string;
  readonly method: string;
  /** The request path and query, with credentials redacted. */
  readonly url: string;
  readonly principal: string | null;
  readonly startedAt: number;
  /** The Start Activity Log's record of the call (spec: "InitialisationXml"). */
  readonly initialisationXml: string;
  readonly finishedAt: number | null;
  readonly status: number | null;
  readonly durationMs: number | null;
  readonly error: string | null;
  /** What the Workflow logged with `context.log`, and notes of the service, in order. */
  readonly messages: readonly ActivityMessage[];
}

export interface ActivityMessage {
  readonly at: number;
  readonly level: "info" | "warn" | "error";
  readonly text: string;
}

export interface ActivityLogFilter {
  readonly site?: string;
  readonly workflow?: string;
  readonly since?: number;
  readonly limit?: number;
}
