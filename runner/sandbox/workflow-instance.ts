// One warm instance of a Workflow revision: an isolate with the revision's module compiled and its context API
// installed. It runs one call at a time, so a call that has to be stopped takes nobody else's call with it.

import ivm from "isolated-vm";
import type { Limits } from "../../store/model";
import type { CallContext, HostServices, SandboxOutcome } from "./sandbox-types";
import { parseXml, buildXml } from "./xml";

// Runs inside the isolate before the Workflow's module: turns the host functions into the `context` API and takes
// the raw references off the global object, where Workflow code could otherwise reach them. Every host call
// carries the number of the call whose context made it, so work a call leaves behind never acts for a later one.
const BOOTSTRAP = `(() => {
  const host = { log: __fg_log, http: __fg_http, call: __fg_call, xmlParse: __fg_xml_parse, xmlBuild: __fg_xml_build };
  for (const name of ["__fg_log", "__fg_http", "__fg_call", "__fg_xml_parse", "__fg_xml_build"]) delete globalThis[name];
  const asText = (value) => {
    if (typeof value === "string") return value;
    try { return JSON.stringify(value); } catch { return String(value); }
  };
  const logger = (call, level) => (...values) => host.log(call, level, values.map(asText).join(" "));
  const remote = (call, reference) => async (...args) => {
    const answer = await reference.apply(undefined, [call, ...args], { arguments: { copy: true }, result: { promise: true, copy: true } });
    if (!answer.ok) throw new Error(answer.message);
    return answer.value;
  };
  const freeze = (value) => {
    if (value && typeof value === "object") { Object.values(value).forEach(freeze); Object.freeze(value); }
    return value;
  };
  globalThis.__fg_context = (meta) => Object.freeze({
    environment: meta.environment,
    activityId: meta.activityId,
    site: meta.site,
    workflow: meta.workflow,
    revision: meta.revision,
    settings: freeze(meta.settings),
    log: Object.assign(logger(meta.call, "info"), { info: logger(meta.call, "info"), warn: logger(meta.call, "warn"), error: logger(meta.call, "error") }),
    http: Object.freeze({ request: remote(meta.call, host.http) }),
    xml: Object.freeze({ parse: (text, options) => host.xmlParse(text, options), build: (value, options) => host.xmlBuild(value, options) }),
    callWorkflow: remote(meta.call, host.call),
  });
})();`;

// The entry point, evaluated before the Workflow's module so that no Workflow code ever sees what it takes off the
// global object. It calls the Workflow's default export (bound once, after that module is evaluated) with its
// inputs and a fresh context. A plain result comes back at once; a promise is reported through __fg_settle when
// it settles, tagged with the call's number.
const ENTRY = `const makeContext = globalThis.__fg_context;
const settle = globalThis.__fg_settle;
delete globalThis.__fg_context;
delete globalThis.__fg_settle;
let workflow = null;
export function bind(fn) {
  if (workflow === null) workflow = fn;
}
const describe = (error) => ({
  message: String(error !== null && typeof error === "object" && "message" in error ? error.message : error),
  stack: String(error !== null && typeof error === "object" && error.stack ? error.stack : error),
});
export default function run(inputs, meta) {
  const call = meta.call;
  let result;
  try {
    result = workflow(inputs, makeContext(meta));
  } catch (error) {
    return { state: "rejected", error: describe(error) };
  }
  if (result === null || typeof result !== "object" || typeof result.then !== "function") return { state: "fulfilled", value: result };
  Promise.resolve(result).then(
    (value) => {
      try { settle(call, true, value); } catch (error) { settle(call, false, { ...describe(error), unclonable: true }); }
    },
    (error) => settle(call, false, describe(error)),
  );
  return { state: "pending" };
}`;

type EntryResult =
  | { readonly state: "fulfilled"; readonly value: unknown }
  | { readonly state: "rejected"; readonly error: ThrownError }
  | { readonly state: "pending" };

interface ThrownError {
  readonly message: string;
  readonly stack: string;
  readonly unclonable?: boolean;
}

/** The fast path ran past its budget; nothing it did has left the isolate, so the call can be run again. */
export const OVER_SYNC_BUDGET = Symbol("over the synchronous budget");

export class InvalidWorkflowCode extends Error {}

export class WorkflowInstance {
  private host: HostServices | null = null;
  private disposedFor: "timeout" | "cpu" | null = null;
  private call = 0;
  private settled: ((ok: boolean, value: unknown) => void) | null = null;
  private entry: ivm.Reference<(inputs: unknown, meta: unknown) => EntryResult> | null = null;

  private constructor(private readonly isolate: ivm.Isolate) {}

  /** Compiles `code` into a new isolate. Throws InvalidWorkflowCode when the module cannot be used. */
  static async create(code: string, limits: Limits, name: string): Promise<WorkflowInstance> {
    const isolate = new ivm.Isolate({ memoryLimit: Math.max(8, limits.memoryMb) });
    try {
      const context = await isolate.createContext();
      const instance = new WorkflowInstance(isolate);
      // Host functions act for their own call only, while it is in progress: work an earlier call (or an abandoned
      // attempt) left behind does nothing.
      const services = (call: unknown) => {
        if (!instance.host || call !== instance.call) throw new Error("the context is only usable during its own call");
        return instance.host;
      };
      const global = context.global;
      // Synchronous, so a message is recorded before the call it belongs to can end, on either path.
      await global.set("__fg_log", new ivm.Callback((call: number, level: "info" | "warn" | "error", text: string) => services(call).log(level, String(text))));
      await global.set("__fg_http", new ivm.Reference((call: number, request: unknown) => answer(() => services(call).http(request))));
      await global.set(
        "__fg_call",
        new ivm.Reference((call: number, workflow: unknown, inputs: unknown) => answer(() => services(call).callWorkflow(String(workflow), (inputs ?? {}) as Record<string, unknown>))),
      );
      await global.set("__fg_xml_parse", new ivm.Callback((text: unknown, options: unknown) => parseXml(text, options)));
      await global.set("__fg_xml_build", new ivm.Callback((value: unknown, options: unknown) => buildXml(value, options)));
      await global.set(
        "__fg_settle",
        new ivm.Callback((call: number, ok: boolean, value: unknown) => (call === instance.call ? instance.settled?.(ok, value) : undefined), { ignored: true }),
      );
      await context.eval(BOOTSTRAP);

      const entry = await compile(isolate, ENTRY, `workflow:///${name}.entry.js`);
      await entry.instantiate(context, (specifier) => {
        throw new Error(`unexpected import "${specifier}"`);
      });
      await entry.evaluate();

      const workflow = await compile(isolate, code, `workflow:///${name}.js`);
      await workflow.instantiate(context, (specifier) => {
        throw new Error(`Workflow code cannot import "${specifier}": what it needs comes through its context`);
      });
      await workflow.evaluate({ timeout: limits.cpuMs });
      const exported = await workflow.namespace.get("default", { reference: true });
      if (exported.typeof !== "function") {
        throw new InvalidWorkflowCode("the Workflow's code must export a default function: export default function (inputs, context) { ... }");
      }
      const bind = await entry.namespace.get("bind", { reference: true });
      await bind.apply(undefined, [exported.derefInto()]);
      instance.entry = await entry.namespace.get("default", { reference: true });
      return instance;
    } catch (error) {
      if (!isolate.isDisposed) isolate.dispose();
      if (error instanceof InvalidWorkflowCode) throw error;
      throw new InvalidWorkflowCode(`the Workflow's code cannot be loaded: ${(error as Error).message}`);
    }
  }

  get usable(): boolean {
    return !this.isolate.isDisposed;
  }

  /**
   * Runs one call. Inputs and outputs are copied across the boundary; nothing of the host reaches the Workflow.
   *
   * With `syncBudgetMs`, the Workflow's synchronous part runs on this thread (isolated-vm's applySync), which saves
   * a thread hop per call: cheap Workflows answer several times faster. Host functions the Workflow calls meanwhile
   * (outbound HTTP, other Workflows, logging) only run after that part returns, so when it overruns the budget it is
   * stopped with nothing having left the isolate, and the answer is OVER_SYNC_BUDGET: run it again without the fast
   * path, on a fresh instance.
   */
  async run(inputs: Record<string, unknown>, meta: CallContext, host: HostServices, limits: Limits, syncBudgetMs?: number): Promise<SandboxOutcome | typeof OVER_SYNC_BUDGET> {
    const entry = this.entry!;
    const call = ++this.call;
    // Messages of the synchronous part wait until it has kept within its budget, so a retry does not log twice.
    const heldMessages: [level: "info" | "warn" | "error", text: string][] = [];
    this.host = syncBudgetMs === undefined ? host : { ...host, log: (level, text) => heldMessages.push([level, text]) };
    const cpuAtStart = this.isolate.cpuTime;
    const started = Date.now();
    const settledPromise = new Promise<{ ok: boolean; value: unknown }>((resolve) => (this.settled = (ok, value) => resolve({ ok, value })));
    // Wall clock and CPU time are watched from outside: stopping the isolate is the only sure way to stop its code.
    const wall = setTimeout(() => this.stop("timeout"), limits.timeoutMs);
    const cpu = setInterval(() => {
      // isolated-vm disposes an isolate over its memory limit by itself: a call waiting on a promise learns it here.
      if (this.isolate.isDisposed) this.disposal?.();
      else if (Number(this.isolate.cpuTime - cpuAtStart) / 1e6 > limits.cpuMs) this.stop("cpu");
    }, 10);
    try {
      let result: EntryResult;
      if (syncBudgetMs !== undefined) {
        try {
          result = entry.applySync(undefined, [inputs, { ...meta, call }], { arguments: { copy: true }, result: { copy: true }, timeout: syncBudgetMs });
          for (const [level, text] of heldMessages) host.log(level, text);
          this.host = host;
        } catch (error) {
          if (/Script execution timed out/.test((error as Error).message)) {
            this.dispose();
            return OVER_SYNC_BUDGET;
          }
          throw error;
        }
      } else {
        result = await entry.apply(undefined, [inputs, { ...meta, call }], { arguments: { copy: true }, result: { copy: true }, timeout: limits.cpuMs });
      }
      if (result.state === "pending") {
        const settled = await Promise.race([settledPromise, this.whenDisposed()]);
        result = settled.ok ? { state: "fulfilled", value: settled.value } : { state: "rejected", error: settled.value as ThrownError };
      }
      if (result.state === "rejected") return this.thrown(result.error);
      return { ok: true, outputs: result.value, cpuMs: this.cpuMsSince(cpuAtStart), wallMs: Date.now() - started };
    } catch (error) {
      return this.failure(error, limits);
    } finally {
      clearTimeout(wall);
      clearInterval(cpu);
      this.host = null;
      this.settled = null;
      this.disposal = null;
    }
  }

  dispose(): void {
    if (!this.isolate.isDisposed) this.isolate.dispose();
    this.disposal?.();
  }

  private disposal: (() => void) | null = null;

  /** Rejects when the isolate is stopped, so a call waiting for its promise learns why. */
  private whenDisposed(): Promise<never> {
    return new Promise((_, reject) => {
      this.disposal = () => reject(new Error("Isolate was disposed"));
      if (this.isolate.isDisposed) this.disposal();
    });
  }

  private thrown(error: ThrownError): SandboxOutcome {
    if (error.unclonable) return { ok: false, failure: "invalid-output", message: `the Workflow returned something that is not plain data: ${error.message}` };
    return { ok: false, failure: "error", message: cleanStack(error.stack || error.message) };
  }

  private stop(reason: "timeout" | "cpu"): void {
    this.disposedFor ??= reason;
    this.dispose();
  }

  private cpuMsSince(start: bigint): number {
    return this.isolate.isDisposed ? 0 : Number(this.isolate.cpuTime - start) / 1e6;
  }

  private failure(error: unknown, limits: Limits): SandboxOutcome {
    const message = error instanceof Error ? error.message : String(error);
    if (this.disposedFor === "timeout") return { ok: false, failure: "timeout", message: `the Workflow ran past its time limit of ${limits.timeoutMs} ms` };
    if (this.disposedFor === "cpu" || /Script execution timed out/.test(message)) {
      this.dispose();
      return { ok: false, failure: "cpu", message: `the Workflow used more than its CPU time limit of ${limits.cpuMs} ms` };
    }
    if (/memory limit/i.test(message) || this.isolate.isDisposed) {
      this.dispose();
      return { ok: false, failure: "memory", message: `the Workflow went over its memory limit of ${limits.memoryMb} MB` };
    }
    if (/could not be cloned/.test(message)) return { ok: false, failure: "invalid-output", message: `the Workflow returned something that is not plain data: ${message}` };
    return { ok: false, failure: "error", message: cleanStack(error instanceof Error && error.stack ? error.stack : message) };
  }
}

/** A Workflow's stack trace without the host's frames: operators see the Workflow's lines, never the runner's files. */
function cleanStack(stack: string): string {
  return stack
    .split("\n")
    .filter((line) => !line.includes("<isolated-vm boundary>") && !line.includes("node:") && !/\(\/|at \//.test(line))
    .join("\n");
}

/**
 * An asynchronous host function's outcome as plain data: the isolate side turns a failure back into an Error. A
 * rejected promise handed to isolated-vm could outlive the call that asked for it and go unhandled in the host.
 */
async function answer(work: () => Promise<unknown>): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

async function compile(isolate: ivm.Isolate, code: string, filename: string): Promise<ivm.Module> {
  try {
    return await isolate.compileModule(code, { filename });
  } catch (error) {
    throw new InvalidWorkflowCode(`the Workflow's code does not compile: ${(error as Error).message}`);
  }
}
