// Parses and validates the URI template of a Workflow API binding (spec: "Workflow API binding").
//
// Syntax, following WCF's UriTemplate where the spec is silent (docs/uri-templates.md has every rule):
//   /literal/{variable}/{name}.{ext}/*            path: literal, variable and compound segments,
//   /files/{*rest}                                 a trailing wildcard, anonymous or named,
//   /reports/revenue/?name={reportName}&y={year}   query: key={variable} pairs with static keys.

import { TemplateError } from "./template-error";

export type SegmentPart = { readonly kind: "literal"; readonly text: string } | { readonly kind: "variable"; readonly name: string };

export type SegmentPattern =
  /** A fixed segment; `key` is its case-folded form, the one that is compared. */
  | { readonly kind: "literal"; readonly text: string; readonly key: string }
  /** A whole segment bound to one variable. */
  | { readonly kind: "variable"; readonly name: string }
  /** Literal text and variables in one segment, such as `{name}.{ext}`; `key` identifies its shape. */
  | { readonly kind: "compound"; readonly parts: readonly SegmentPart[]; readonly key: string; readonly regex: RegExp };

export interface QueryVariable {
  /** The static query key as written. */
  readonly key: string;
  /** Its case-folded form, the one that is compared. */
  readonly foldedKey: string;
  /** The Variable Bar input that receives the value. */
  readonly name: string;
}

export interface UriTemplate {
  readonly text: string;
  readonly segments: readonly SegmentPattern[];
  /** A trailing `*` (name null) or `{*name}`: matches the rest of the path, zero or more segments. */
  readonly wildcard: { readonly name: string | null } | null;
  readonly query: readonly QueryVariable[];
  /** Every variable, path then query, in the order written. */
  readonly variables: readonly string[];
}

export type TemplateParse = { readonly ok: true; readonly template: UriTemplate } | { readonly ok: false; readonly error: TemplateError };

/** Query keys the service itself reads on every call, so a template may not bind them. */
export const RESERVED_QUERY_KEYS: readonly string[] = ["auth", "auth-key", "_profile"];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Characters that can never stand in a literal: they end the URI, or are white space or control characters.
const FORBIDDEN_LITERAL_CHAR = /[\s\x00-\x1f\x7f#]/;

/** Case folding used for every literal comparison (path literals and query keys), as WCF compares them. */
export function foldCase(text: string): string {
  return text.toLowerCase();
}

class Refusal {
  constructor(
    readonly position: number,
    readonly problem: string,
    readonly fix: string,
  ) {}
}

export function parseUriTemplate(text: string): TemplateParse {
  try {
    return { ok: true, template: parse(text) };
  } catch (thrown) {
    if (thrown instanceof Refusal) {
      return { ok: false, error: new TemplateError(text, thrown.position, thrown.problem, thrown.fix) };
    }
    throw thrown;
  }
}

function parse(text: string): UriTemplate {
  if (!text.startsWith("/")) {
    throw new Refusal(0, 'a URI template must start with "/"', `write "/${text}"`);
  }
  const queryStart = text.indexOf("?");
  const pathText = queryStart === -1 ? text : text.slice(0, queryStart);
  const names = new Map<string, number>();

  const { segments, wildcard } = parsePath(pathText, names);
  const query = queryStart === -1 ? [] : parseQuery(text.slice(queryStart + 1), queryStart + 1, names);
  const variables = [
    ...segments.flatMap((segment) => variablesOf(segment)),
    ...(wildcard?.name ? [wildcard.name] : []),
    ...query.map((variable) => variable.name),
  ];
  return { text, segments, wildcard, query, variables };
}

function variablesOf(segment: SegmentPattern): string[] {
  if (segment.kind === "variable") return [segment.name];
  if (segment.kind === "compound") return segment.parts.flatMap((part) => (part.kind === "variable" ? [part.name] : []));
  return [];
}

function parsePath(pathText: string, names: Map<string, number>): Pick<UriTemplate, "segments" | "wildcard"> {
  const segments: SegmentPattern[] = [];
  let wildcard: UriTemplate["wildcard"] = null;
  let body = pathText.slice(1);
  // A single trailing slash is insignificant: "/reports/revenue/" and "/reports/revenue" are one route.
  if (body.endsWith("/")) body = body.slice(0, -1);
  if (body === "") {
    if (pathText.length > 1) throw new Refusal(1, 'the path has an empty segment ("//")', 'remove the extra "/"');
    return { segments, wildcard };
  }

  let offset = 1;
  for (const raw of body.split("/")) {
    if (wildcard) {
      throw new Refusal(offset - 1, "a wildcard must be the last path segment", "move the wildcard to the end of the path, or remove what follows it");
    }
    if (raw === "") {
      throw new Refusal(offset, 'the path has an empty segment ("//")', 'remove the extra "/"');
    }
    if (raw === "." || raw === "..") {
      throw new Refusal(offset, `"${raw}" segments are resolved away before matching, so this one could never match`, "remove it, or percent-encode the dots (%2E) if they are data");
    }
    const parts = parseSegment(raw, offset, names);
    const first = parts[0]!;
    if (parts.length === 1 && first.kind === "wildcard") {
      wildcard = { name: first.name };
    } else if (parts.some((part) => part.kind === "wildcard")) {
      const at = offset + raw.search(/\*|\{\*/);
      throw new Refusal(at, "a wildcard must be a whole path segment", 'write it as its own segment: "/*" or "/{*name}"');
    } else {
      segments.push(toPattern(parts as SegmentPart[]));
    }
    offset += raw.length + 1;
  }
  return { segments, wildcard };
}

type ParsedPart = SegmentPart | { kind: "wildcard"; name: string | null };

function parseSegment(raw: string, offset: number, names: Map<string, number>): ParsedPart[] {
  if (raw === "*") return [{ kind: "wildcard", name: null }];
  const parts: ParsedPart[] = [];
  let index = 0;
  while (index < raw.length) {
    const char = raw[index]!;
    if (char === "{") {
      const close = raw.indexOf("}", index + 1);
      const nextOpen = raw.indexOf("{", index + 1);
      if (close === -1 || (nextOpen !== -1 && nextOpen < close)) {
        throw new Refusal(offset + index, 'a "{" is not closed in its segment', 'close the variable with "}" before the next "/" or "{"');
      }
      const previous = parts[parts.length - 1];
      if (previous && previous.kind !== "literal") {
        throw new Refusal(offset + index, "two variables stand side by side, so their values could not be told apart", 'separate them with literal text, such as "{name}.{ext}"');
      }
      parts.push(parseVariable(raw.slice(index + 1, close), offset + index, names));
      index = close + 1;
    } else if (char === "}") {
      throw new Refusal(offset + index, 'a "}" has no matching "{"', 'remove it, or open the variable with "{"');
    } else {
      let end = index;
      while (end < raw.length && raw[end] !== "{" && raw[end] !== "}") end++;
      parts.push({ kind: "literal", text: parseLiteral(raw.slice(index, end), offset + index) });
      index = end;
    }
  }
  return parts;
}

function parseVariable(inner: string, position: number, names: Map<string, number>): ParsedPart {
  const isWildcard = inner.startsWith("*");
  const name = isWildcard ? inner.slice(1) : inner;
  if (name.includes("=")) {
    throw new Refusal(position, `variable "{${inner}}" has a default value, which Flowgate does not support`, "remove the default and give the Variable Bar input its default instead");
  }
  if (!IDENTIFIER.test(name)) {
    throw new Refusal(
      position,
      name === "" ? "a variable has no name" : `"${name}" is not a valid variable name`,
      "name the variable with letters, digits and underscores, starting with a letter or underscore, as its Variable Bar input is named",
    );
  }
  claimName(name, position, names);
  return isWildcard ? { kind: "wildcard", name } : { kind: "variable", name };
}

function claimName(name: string, position: number, names: Map<string, number>): void {
  const folded = foldCase(name);
  const earlier = names.get(folded);
  if (earlier !== undefined) {
    throw new Refusal(position, `variable "${name}" is used twice (first at column ${earlier + 1}; names are compared without case)`, "give each variable its own Variable Bar input");
  }
  names.set(folded, position);
}

function parseLiteral(raw: string, position: number): string {
  const forbidden = raw.search(FORBIDDEN_LITERAL_CHAR);
  if (forbidden !== -1) {
    throw new Refusal(position + forbidden, `the character ${JSON.stringify(raw[forbidden])} cannot stand in a URI path`, "remove it, or percent-encode it (a space is %20)");
  }
  const star = raw.indexOf("*");
  if (star !== -1) {
    throw new Refusal(position + star, '"*" is only allowed as a whole last segment (a wildcard)', 'write "/*" at the end of the path, or percent-encode a literal "*" as %2A');
  }
  return decodeLiteral(raw, position);
}

function decodeLiteral(raw: string, position: number): string {
  if (!raw.includes("%")) return raw;
  const badEscape = raw.search(/%(?![0-9A-Fa-f]{2})/);
  if (badEscape !== -1) {
    throw new Refusal(position + badEscape, 'a "%" does not start a percent-encoding (two hexadecimal digits)', 'write a literal "%" as %25');
  }
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new Refusal(position + raw.indexOf("%"), "the percent-encoded bytes are not valid UTF-8", "encode the text as UTF-8 before percent-encoding it");
  }
}

function toPattern(parts: SegmentPart[]): SegmentPattern {
  const only = parts[0]!;
  if (parts.length === 1 && only.kind === "literal") return { kind: "literal", text: only.text, key: foldCase(only.text) };
  if (parts.length === 1 && only.kind === "variable") return { kind: "variable", name: only.name };
  const key = parts.map((part) => (part.kind === "literal" ? foldCase(part.text) : "\u0000")).join("");
  return { kind: "compound", parts, key, regex: compoundRegex(parts) };
}

/**
 * A compound segment matches as WCF's does: each variable takes the shortest text up to the next literal, the last
 * variable takes the rest, so "{state}.{city}" splits "Washington.Redmond.Microsoft" into "Washington" and
 * "Redmond.Microsoft". Every variable needs at least one character.
 */
function compoundRegex(parts: readonly SegmentPart[]): RegExp {
  const lastVariable = parts.map((part) => part.kind).lastIndexOf("variable");
  const source = parts
    .map((part, index) => (part.kind === "literal" ? escapeRegex(part.text) : index === lastVariable ? "(.+)" : "(.+?)"))
    .join("");
  return new RegExp(`^${source}$`, "isu");
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

function parseQuery(queryText: string, offset: number, names: Map<string, number>): QueryVariable[] {
  if (queryText === "") {
    throw new Refusal(offset - 1, 'the template ends with "?" but has no query part', 'remove the "?", or add key={variable} pairs after it');
  }
  const variables: QueryVariable[] = [];
  const keys = new Set<string>();
  let position = offset;
  for (const pair of queryText.split("&")) {
    if (pair === "") {
      throw new Refusal(position, 'the query part has an empty component ("&&", or "&" at an end)', 'remove the extra "&"');
    }
    const equals = pair.indexOf("=");
    if (equals <= 0) {
      throw new Refusal(position, `query component "${pair}" is not of the form key={variable}`, `write it as ${equals === 0 ? "name" : pair}={variableName}`);
    }
    const rawKey = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    if (/[{}]/.test(rawKey)) {
      throw new Refusal(position, `query key "${rawKey}" is a variable, but keys are static`, "use a fixed key, such as name={reportName}");
    }
    const key = parseLiteral(rawKey, position);
    const variable = /^\{([^{}]*)\}$/.exec(value);
    if (!variable) {
      throw new Refusal(
        position + equals + 1,
        `query component "${pair}" has a fixed value; the query part only binds values and never selects between routes`,
        `bind it to a Variable Bar input (${rawKey}={${rawKey}}) or remove it`,
      );
    }
    const foldedKey = foldCase(key);
    if (RESERVED_QUERY_KEYS.includes(foldedKey)) {
      throw new Refusal(position, `query key "${key}" is reserved by the service (${RESERVED_QUERY_KEYS.join(", ")})`, "choose another key");
    }
    if (keys.has(foldedKey)) {
      throw new Refusal(position, `query key "${key}" appears twice (keys are compared without case)`, "keep one of them");
    }
    keys.add(foldedKey);
    const parsed = parseVariable(variable[1]!, position + equals + 1, names);
    if (parsed.kind !== "variable") {
      throw new Refusal(position + equals + 1, "a wildcard cannot stand in the query part", "use a plain variable: key={name}");
    }
    variables.push({ key, foldedKey, name: parsed.name });
    position += pair.length + 1;
  }
  return variables;
}
