// Fills a Workflow's Variable Bar inputs from a request (spec: "Payload"; the special properties are listed in
// docs/decisions.md): path and query variables, the key:value body, or the raw body, and the request properties.

import type { VariableBarDefinition } from "../../store/model";
import type { SpecialProperties } from "./variable-bar";
import { parseQueryString } from "./templates/query-string";
import { CREDENTIAL_PARAMETERS } from "./redact";
import { TextDecoder as NodeTextDecoder } from "node:util";
import type { MediaType } from "./media-type";
import { isTextual, parseMediaType } from "./media-type";

export interface InputFacts {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  /** Header names lower-cased; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** The path and query variables the routing table bound. */
  readonly variables: Readonly<Record<string, string>>;
  readonly site: string;
  readonly workflow: string;
  readonly activityId: string;
  readonly environment: string;
  readonly username: string | null;
}

export type InputsResult =
  | { readonly ok: true; readonly inputs: Record<string, unknown> }
  | { readonly ok: false; readonly status: 400 | 415; readonly message: string };

/** Request headers a Workflow never sees: credentials, and the service's own. */
const HIDDEN_HEADERS = /^(authorization|proxy-authorization|x-flowgate-.*)$/;

function decodeText(body: Uint8Array, media: MediaType | null): { ok: true; text: string } | { ok: false; status: 400 | 415; message: string } {
  const charset = media?.charset ?? "utf-8";
  let decoder: NodeTextDecoder;
  try {
    decoder = new NodeTextDecoder(charset, { fatal: true });
  } catch {
    return { ok: false, status: 415, message: `The request body's charset "${charset}" is not supported; send UTF-8.` };
  }
  try {
    return { ok: true, text: decoder.decode(body) };
  } catch {
    return { ok: false, status: 400, message: `The request body is not valid ${charset}.` };
  }
}

export function buildInputs(variableBar: VariableBarDefinition, special: SpecialProperties, facts: InputFacts): InputsResult {
  const declared = new Set(variableBar.inputs);
  const specialNames = new Set(Object.values(special.inputs));
  const inputs: Record<string, unknown> = {};
  const media = parseMediaType(facts.headers["content-type"]);

  if (declared.has(special.inputs.RequestBody)) {
    // The raw payload: text for textual content types, bytes otherwise. It is not also read as key:value pairs.
    if (facts.body.length === 0) inputs[special.inputs.RequestBody] = null;
    else if (isTextual(media)) {
      const text = decodeText(facts.body, media);
      if (!text.ok) return text;
      inputs[special.inputs.RequestBody] = text.text;
    } else inputs[special.inputs.RequestBody] = facts.body;
  } else if (facts.body.length > 0) {
    const pairs = keyValueBody(facts.body, media);
    if (!pairs.ok) return pairs;
    for (const [name, value] of Object.entries(pairs.values)) if (declared.has(name) && !specialNames.has(name)) inputs[name] = value;
  }

  // Path and query values come from the URL the caller chose; the body cannot override them.
  Object.assign(inputs, facts.variables);

  const properties = requestProperties(special);
  for (const name of variableBar.inputs) {
    const value = properties.get(name);
    if (value) inputs[name] = value(facts);
  }
  return { ok: true, inputs };
}

/** How each request property input is filled, by its name under the deployment's prefix; made once per prefix. */
const requestPropertiesByPrefix = new WeakMap<SpecialProperties, ReadonlyMap<string, (facts: InputFacts) => unknown>>();

function requestProperties(special: SpecialProperties): ReadonlyMap<string, (facts: InputFacts) => unknown> {
  let properties = requestPropertiesByPrefix.get(special);
  if (!properties) {
    properties = new Map<string, (facts: InputFacts) => unknown>([
      [special.inputs.RequestContentType, (facts) => facts.headers["content-type"] ?? null],
      [special.inputs.RequestMethod, (facts) => facts.method],
      [special.inputs.RequestPath, (facts) => facts.path],
      [special.inputs.RequestQuery, (facts) => queryObject(facts.query)],
      [special.inputs.RequestHeaders, (facts) => Object.fromEntries(Object.entries(facts.headers).filter(([name]) => !HIDDEN_HEADERS.test(name)))],
      [special.inputs.SiteId, (facts) => facts.site],
      [special.inputs.SiteName, (facts) => facts.site],
      [special.inputs.WorkflowId, (facts) => `${facts.site}/${facts.workflow}`],
      [special.inputs.WorkflowName, (facts) => facts.workflow],
      [special.inputs.WorkflowInstanceId, (facts) => facts.activityId],
      [special.inputs.Username, (facts) => facts.username],
      [special.inputs.Profile, (facts) => facts.environment],
    ]);
    requestPropertiesByPrefix.set(special, properties);
  }
  return properties;
}

function keyValueBody(body: Uint8Array, media: MediaType | null): { ok: true; values: Record<string, unknown> } | { ok: false; status: 400 | 415; message: string } {
  const type = media?.type ?? "";
  if (type === "application/json" || type.endsWith("+json")) {
    const text = decodeText(body, media);
    if (!text.ok) return text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.text);
    } catch (error) {
      return { ok: false, status: 400, message: `The request body is not valid JSON: ${(error as Error).message}.` };
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      return { ok: false, status: 400, message: "The request body must be a JSON object of key:value pairs." };
    }
    return { ok: true, values: parsed as Record<string, unknown> };
  }
  if (type === "application/x-www-form-urlencoded") {
    const text = decodeText(body, media);
    if (!text.ok) return text;
    const parsed = parseFormPairs(text.text);
    if (parsed === null) return { ok: false, status: 400, message: "The request body is not valid form data (malformed percent-encoding)." };
    return { ok: true, values: parsed };
  }
  return {
    ok: false,
    status: 415,
    message: `A ${type || "request body without a content type"} cannot be read as key:value pairs: send application/json or application/x-www-form-urlencoded, or the Workflow must declare the raw request body input.`,
  };
}

/** Form fields keep their case (they name Variable Bar inputs); a repeated field gives a list. */
function parseFormPairs(text: string): Record<string, string | string[]> | null {
  // Without a prototype, fields named "constructor" or "__proto__" are fields like any other.
  const values: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent((equals === -1 ? pair : pair.slice(0, equals)).replace(/\+/g, " "));
      value = decodeURIComponent((equals === -1 ? "" : pair.slice(equals + 1)).replace(/\+/g, " "));
    } catch {
      return null;
    }
    const existing = values[key];
    values[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return values;
}

/** The query as key to value (a list when repeated), names lower-cased, credentials left out. */
function queryObject(rawQuery: string): Record<string, string | string[]> {
  const parsed = parseQueryString(rawQuery);
  if (!parsed.ok) return {};
  const result: Record<string, string | string[]> = {};
  for (const [key, values] of parsed.parameters) {
    if (CREDENTIAL_PARAMETERS.includes(key)) continue;
    result[key] = values.length === 1 ? values[0]! : [...values];
  }
  return result;
}
