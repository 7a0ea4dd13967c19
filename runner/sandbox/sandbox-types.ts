// What passes between the runner and a Workflow's sandbox.

/** Facts about the call, readable by the Workflow as `context.environment`, `context.settings`, ... */
export interface CallContext {
  readonly environment: string;
  readonly activityId: string;
  readonly site: string;
  readonly workflow: string;
  readonly revision: number;
  readonly settings: Readonly<Record<string, unknown>>;
}

export interface OutboundRequest {
  readonly url: string;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  readonly timeoutMs?: number;
}

export interface OutboundResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Text for textual content types, bytes otherwise. */
  readonly body: string | Uint8Array;
}

/** The host side of the context API, bound to one call. */
export interface HostServices {
  log(level: "info" | "warn" | "error", text: string): void;
  http(request: unknown): Promise<OutboundResponse>;
  callWorkflow(workflow: string, inputs: Record<string, unknown>): Promise<unknown>;
}

export type SandboxFailure =
  /** The Workflow threw. */
  | "error"
  | "timeout"
  | "cpu"
  | "memory"
  /** The code does not compile or has no default export. */
  | "invalid-code"
  /** The outputs are not plain data (functions, symbols). */
  | "invalid-output";

export type SandboxOutcome =
  | { readonly ok: true; readonly outputs: unknown; readonly cpuMs: number; readonly wallMs: number }
  | { readonly ok: false; readonly failure: SandboxFailure; readonly message: string };
