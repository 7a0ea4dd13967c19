// Which Site Environment a call runs in (spec: "Reserved query parameters"): Production, unless `_profile` names
// another environment of the Site, compared without case.

import { PRODUCTION } from "../../store/model";

export const PROFILE_PARAMETER = "_profile";

export type EnvironmentChoice<E> = { readonly ok: true; readonly environment: E } | { readonly ok: false; readonly problem: string };

/** `profile` is the decoded `_profile` value, or undefined when the request has none. */
export function chooseEnvironment<E extends { readonly name: string }>(environments: ReadonlyMap<string, E>, profile: string | undefined): EnvironmentChoice<E> {
  const wanted = profile === undefined || profile === "" ? PRODUCTION : profile;
  const environment = environments.get(wanted.toLowerCase());
  if (environment) return { ok: true, environment };
  const known = [...environments.values()].map((candidate) => candidate.name).join(", ");
  return { ok: false, problem: `this Site has no environment "${wanted}" (${PROFILE_PARAMETER} may name: ${known})` };
}
