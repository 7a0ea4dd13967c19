// The shape of a flowgate.yaml once it has passed the JSON Schema, defaults filled in (flowgate.schema.json).

export interface RawSecret {
  readonly hash?: string;
  readonly env?: string;
}

export interface RawLimits {
  readonly memoryMb?: number;
  readonly cpuMs?: number;
  readonly timeoutMs?: number;
  readonly maxBodyBytes?: number;
}

export interface RawWorkflow {
  readonly name: string;
  readonly method: string;
  readonly template: string;
  readonly variableBar?: { readonly inputs: string[]; readonly outputs: string[] };
  readonly code: string;
  readonly limits?: RawLimits;
  readonly anonymous: boolean;
  readonly allowOverlapWith?: string[];
}

export interface RawSite {
  readonly name: string;
  readonly subdomain: string;
  readonly region: "global" | "za";
  readonly allowedOrigins: "*" | string[];
  readonly environments: string[];
  readonly releaseManagement: boolean;
  readonly auth: ("apiKey" | "basic" | "session")[];
  readonly settings: Record<string, Record<string, string | number | boolean | null | { env: string }>>;
  readonly outboundHosts?: string[];
  readonly workflows: RawWorkflow[];
}

export interface RawConfig {
  readonly deployment?: {
    readonly baseDomains?: { readonly global?: string; readonly za?: string };
    readonly variableBarPrefix?: string;
    readonly defaultLimits?: RawLimits;
    readonly sessions?: { readonly idleMinutes: number; readonly absoluteHours: number };
    readonly dns?: import("../../store/model").DnsSettings;
  };
  readonly sites: RawSite[];
  readonly users?: { readonly name: string; readonly password: RawSecret; readonly sites: "*" | string[] }[];
  readonly apiKeys?: {
    readonly name: string;
    readonly site: string;
    readonly environment: string;
    readonly workflows: "*" | string[];
    readonly disabled: boolean;
    readonly primary: RawSecret;
    readonly secondary?: RawSecret;
  }[];
}
