// A Workflow API binding: one HTTP method and one URI template bound to a Workflow revision (spec: "Workflow API binding").

import type { UriTemplate } from "../templates/uri-template";

/**
 * The methods a Workflow can be bound to. HEAD is answered by the GET binding (as HTTP servers do) and OPTIONS
 * belongs to CORS preflight, which the gateway answers, so neither is bound on its own.
 */
export const BINDABLE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type BindableMethod = (typeof BINDABLE_METHODS)[number];

export interface Binding<W> {
  readonly method: BindableMethod;
  readonly template: UriTemplate;
  /** What the binding runs: the store's handle on a Workflow revision. */
  readonly workflow: W;
}

export type MethodParse = { readonly ok: true; readonly method: BindableMethod } | { readonly ok: false; readonly problem: string };

export function parseBindingMethod(text: string): MethodParse {
  const method = text.trim().toUpperCase();
  if ((BINDABLE_METHODS as readonly string[]).includes(method)) return { ok: true, method: method as BindableMethod };
  const why =
    method === "HEAD"
      ? "HEAD requests are answered by the GET binding of the same template"
      : method === "OPTIONS"
        ? "OPTIONS requests are CORS preflights, answered from the Site's Allowed Origins"
        : `it is not one of ${BINDABLE_METHODS.join(", ")}`;
  return { ok: false, problem: `HTTP method "${text}" cannot be bound: ${why}` };
}

/** The bindable method that serves a request's method. Methods are case-sensitive in HTTP, so "get" is not GET. */
export function routedMethod(requestMethod: string): string {
  return requestMethod === "HEAD" ? "GET" : requestMethod;
}
