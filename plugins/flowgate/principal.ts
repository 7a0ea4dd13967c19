// Who made a call: a legacy user, an API key, or nobody (a Workflow configured as anonymous).

export type Principal =
  | { readonly kind: "user"; readonly name: string }
  | { readonly kind: "apiKey"; readonly name: string }
  | { readonly kind: "anonymous" };

/** The value of the `FgUsername` input: the user's name, or the API key's name. */
export function usernameOf(principal: Principal): string | null {
  return principal.kind === "anonymous" ? null : principal.name;
}

/** How activity logs name the caller; keys read `Token-based Key: <name>`, as on the original platform. */
export function describePrincipal(principal: Principal): string | null {
  if (principal.kind === "apiKey") return `Token-based Key: ${principal.name}`;
  return usernameOf(principal);
}
