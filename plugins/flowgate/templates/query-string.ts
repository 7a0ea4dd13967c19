// Parses a request's raw query string and binds it to a template's query variables.

import type { UriTemplate } from "./uri-template";
import { foldCase } from "./uri-template";
import { decodeComponent } from "./request-path";

/** Decoded query values by case-folded key, in the order sent. */
export type QueryParameters = ReadonlyMap<string, readonly string[]>;

export type QueryParse = { readonly ok: true; readonly parameters: QueryParameters } | { readonly ok: false; readonly problem: string };

const NO_PARAMETERS: QueryParse = { ok: true, parameters: new Map() };

/**
 * Keys are compared without case, as WCF compares them; "+" means a space, as in HTML forms and in Kong's own query
 * parsing; a key without "=" has the empty value.
 */
export function parseQueryString(rawQuery: string): QueryParse {
  if (rawQuery === "") return NO_PARAMETERS;
  const parameters = new Map<string, string[]>();
  for (const pair of rawQuery.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const rawKey = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? "" : pair.slice(equals + 1);
    const key = decodeComponent(rawKey.replace(/\+/g, " "));
    const value = decodeComponent(rawValue.replace(/\+/g, " "));
    if (key === null || value === null) {
      return { ok: false, problem: `query parameter "${rawKey}" has malformed percent-encoding or is not UTF-8` };
    }
    const folded = foldCase(key);
    const values = parameters.get(folded);
    if (values) values.push(value);
    else parameters.set(folded, [value]);
  }
  return { ok: true, parameters };
}

export type QueryBinding = { readonly ok: true; readonly variables: Record<string, string> } | { readonly ok: false; readonly problem: string };

/**
 * The query part of a template binds values and never decides whether the template matches: a parameter that is
 * not sent leaves its Variable Bar input unset (as WCF binds it to null), extra parameters are ignored. A bound key
 * sent more than once is refused rather than silently picking one of its values.
 */
export function bindQueryVariables(template: UriTemplate, parameters: QueryParameters): QueryBinding {
  const variables: Record<string, string> = {};
  for (const { key, foldedKey, name } of template.query) {
    const values = parameters.get(foldedKey);
    if (!values) continue;
    if (values.length > 1) {
      return { ok: false, problem: `query parameter "${key}" was sent ${values.length} times, but it binds the single value of "${name}"` };
    }
    variables[name] = values[0]!;
  }
  return { ok: true, variables };
}

