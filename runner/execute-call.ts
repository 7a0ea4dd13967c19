// Runs one dispatched call: Variable Bar inputs from the request, the Workflow in its sandbox, outputs to the
// response, and the Start and finish entries of its activity log. Behind Kong and in `flowgate serve` alike.

import type { ActivityLog, ActivityMessage, Revision, SettingValue } from "../store/model";
import { settingMayRead } from "../store/model";
import type { SiteSnapshot } from "../store/snapshot";
import type { DispatchRecord } from "../plugins/flowgate/dispatch-record";
import { buildInputs } from "../plugins/flowgate/variable-bar-inputs";
import type { SpecialProperties } from "../plugins/flowgate/variable-bar";
import { describePrincipal, usernameOf } from "../plugins/flowgate/principal";
import { redactedUrl } from "../plugins/flowgate/redact";
import { ACTIVITY_ID_HEADER, errorResponse } from "../plugins/flowgate/responses";
import type { GatewayResponse } from "../plugins/flowgate/responses";
import type { Sandbox } from "./sandbox/sandbox";
import type { CallContext, HostServices, SandboxOutcome } from "./sandbox/sandbox-types";
import { buildResponse } from "./respond";
import type { HttpResponse } from "./respond";
import { initialisationXml } from "./activity-log/initialisation-xml";
import type { ActivityLogWriter } from "./activity-log/activity-log-writer";
import { DEFAULT_MAX_RESPONSE_BYTES, outboundRequest } from "./outbound-http";

export interface CallRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

export interface RunnerContext {
  readonly sandbox: Sandbox;
  readonly activityLog: ActivityLogWriter;
  readonly special: SpecialProperties;
  /** Where `{ env: NAME }` settings are read from. */
  readonly environment: NodeJS.ProcessEnv;
}

/** How deep Workflows may call Workflows: deep enough for composition, shallow enough to stop a loop. */
export const MAX_CALL_DEPTH = 5;
/** Calls to other Workflows one call may have running at once, across all its depths: each takes an isolate. */
export const MAX_NESTED_AT_ONCE = 8;
const MAX_MESSAGES = 200;
const MAX_MESSAGE_LENGTH = 4000;

export async function executeCall(site: SiteSnapshot, record: DispatchRecord, revision: Revision, request: CallRequest, runner: RunnerContext): Promise<HttpResponse> {
  const startedAt = Date.now();
  const messages: ActivityMessage[] = [];
  const url = redactedUrl(request.path, request.query);
  const principal = describePrincipal(record.principal);
  const start: ActivityLog = {
    id: record.activityId,
    site: record.site,
    workflow: record.workflow,
    revision: record.revision,
    environment: record.environment,
    method: request.method,
    url,
    principal,
    startedAt,
    initialisationXml: initialisationXml({
      activityId: record.activityId,
      site: record.site,
      environment: record.environment,
      workflow: record.workflow,
      revision: record.revision,
      method: request.method,
      url,
      user: principal,
      startedAt,
    }),
    finishedAt: null,
    status: null,
    durationMs: null,
    error: null,
    messages: [],
  };
  runner.activityLog.write(start);

  const finish = (response: HttpResponse | GatewayResponse, error: string | null): HttpResponse => {
    const finishedAt = Date.now();
    runner.activityLog.write({ ...start, finishedAt, status: response.status, durationMs: finishedAt - startedAt, error, messages });
    const body = typeof response.body === "string" ? Buffer.from(response.body) : response.body;
    return { status: response.status, headers: { ...response.headers, [ACTIVITY_ID_HEADER]: record.activityId }, body };
  };

  const inputs = buildInputs(revision.variableBar, runner.special, {
    method: request.method,
    path: request.path,
    query: request.query,
    headers: request.headers,
    body: request.body,
    variables: record.variables,
    site: record.site,
    workflow: record.workflow,
    activityId: record.activityId,
    environment: record.environment,
    username: usernameOf(record.principal),
  });
  if (!inputs.ok) return finish(errorResponse(inputs.status, record.activityId, inputs.message), inputs.message);

  const log = (level: ActivityMessage["level"], text: string) => {
    if (messages.length < MAX_MESSAGES) messages.push({ at: Date.now(), level, text: text.slice(0, MAX_MESSAGE_LENGTH) });
  };
  const deadline = startedAt + revision.limits.timeoutMs;
  const nested = { running: 0 };
  const outcome = await runner.sandbox.run(revision, inputs.inputs, callContext(site, record.environment, record.activityId, revision, runner), hostServices(site, record, deadline, 1, log, runner, nested));
  if (!outcome.ok) {
    const [status, message] = failureAnswer(outcome);
    return finish(errorResponse(status, record.activityId, message), outcome.message);
  }
  let response: ReturnType<typeof buildResponse>;
  try {
    response = buildResponse(revision.variableBar, runner.special, outcome.outputs);
  } catch (error) {
    // Values that cross the sandbox but not into JSON, such as a BigInt or a cycle.
    response = { ok: false, message: (error as Error).message };
  }
  if (!response.ok) return finish(errorResponse(500, record.activityId, "The Workflow failed."), `the Workflow's outputs cannot be sent: ${response.message}`);
  return finish(response.response, null);
}

/** What a caller is told when a Workflow fails; the details go to the activity log, for the operator. */
function failureAnswer(outcome: Extract<SandboxOutcome, { ok: false }>): [number, string] {
  switch (outcome.failure) {
    case "timeout":
    case "cpu":
      return [504, "The Workflow ran past its time limit."];
    case "memory":
      return [500, "The Workflow went over its memory limit."];
    default:
      return [500, "The Workflow failed."];
  }
}

function callContext(site: SiteSnapshot, environment: string, activityId: string, revision: Revision, runner: RunnerContext): CallContext {
  return { environment, activityId, site: site.site.name, workflow: revision.workflow, revision: revision.number, settings: resolveSettings(site.site.settings[environment] ?? {}, runner.environment) };
}

/** `{ env: NAME }` settings are read now, from the runner's environment, so secrets never sit in the store. */
function resolveSettings(settings: Readonly<Record<string, SettingValue>>, environment: NodeJS.ProcessEnv): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(settings).map(([name, value]) => [name, value !== null && typeof value === "object" ? (settingMayRead(value.env) ? (environment[value.env] ?? null) : null) : value]),
  );
}

function hostServices(
  site: SiteSnapshot,
  record: DispatchRecord,
  deadline: number,
  depth: number,
  log: (level: ActivityMessage["level"], text: string) => void,
  runner: RunnerContext,
  nested: { running: number },
): HostServices {
  return {
    log,
    http: (request) =>
      outboundRequest(request, { allowedHosts: site.site.outboundHosts, timeoutMs: Math.max(1, deadline - Date.now()), maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES }),
    callWorkflow: async (name, inputs) => {
      if (depth >= MAX_CALL_DEPTH) throw new Error(`Workflows may call Workflows at most ${MAX_CALL_DEPTH} deep`);
      if (nested.running >= MAX_NESTED_AT_ONCE) throw new Error(`a call may have at most ${MAX_NESTED_AT_ONCE} calls to other Workflows running at once`);
      const target = site.environments.get(record.environment.toLowerCase())?.bindings.find((binding) => binding.workflow.workflow === name)?.workflow;
      if (!target) throw new Error(`no Workflow "${name}" is live in ${record.environment} of Site ${site.site.name}`);
      const specialInputs = new Set(Object.values(runner.special.inputs));
      const accepted = Object.fromEntries(Object.entries(inputs).filter(([input]) => target.variableBar.inputs.includes(input) && !specialInputs.has(input)));
      log("info", `calling Workflow ${name} revision ${target.number}`);
      nested.running++;
      let outcome: SandboxOutcome;
      try {
        outcome = await runner.sandbox.run(
          target,
          accepted,
          callContext(site, record.environment, record.activityId, target, runner),
          hostServices(site, record, Math.min(deadline, Date.now() + target.limits.timeoutMs), depth + 1, log, runner, nested),
          { nested: true },
        );
      } finally {
        nested.running--;
      }
      if (!outcome.ok) throw new Error(`Workflow "${name}" failed: ${outcome.message.split("\n")[0]}`);
      const outputs = (outcome.outputs ?? {}) as Record<string, unknown>;
      return Object.fromEntries(target.variableBar.outputs.filter((output) => output in outputs).map((output) => [output, outputs[output]]));
    },
  };
}
