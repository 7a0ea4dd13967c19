// The Variable Bar: a Workflow's named inputs and outputs, and the special properties the service fills or reads
// (spec: "Variable Bar"; the property list is in docs/decisions.md).

import type { UriTemplate } from "./templates/uri-template";
import type { VariableBarDefinition } from "../../store/model";
import { foldCase } from "./templates/uri-template";
import { TemplateError } from "./templates/template-error";

/** The prefix the spec writes as `Svc`; users migrating from the original platform set their own. */
export const DEFAULT_PROPERTY_PREFIX = "Fg";

const SPECIAL_INPUTS = [
  "RequestBody",
  "RequestContentType",
  "RequestMethod",
  "RequestPath",
  "RequestQuery",
  "RequestHeaders",
  "SiteId",
  "SiteName",
  "WorkflowId",
  "WorkflowName",
  "WorkflowInstanceId",
  "Username",
  "Profile",
] as const;

const SPECIAL_OUTPUTS = ["ResponseBody", "ResponseContentType", "ResponseCode", "ResponseHeaders"] as const;

export type SpecialInput = (typeof SPECIAL_INPUTS)[number];
export type SpecialOutput = (typeof SPECIAL_OUTPUTS)[number];

/** The full names of the special properties under a deployment's prefix, such as `FgRequestBody`. */
export interface SpecialProperties {
  readonly inputs: Readonly<Record<SpecialInput, string>>;
  readonly outputs: Readonly<Record<SpecialOutput, string>>;
}

export function specialProperties(prefix: string = DEFAULT_PROPERTY_PREFIX): SpecialProperties {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(prefix)) {
    throw new Error(`Variable Bar prefix "${prefix}" must start with a letter and hold only letters, digits and underscores`);
  }
  const named = <K extends string>(names: readonly K[]) =>
    Object.fromEntries(names.map((name) => [name, `${prefix}${name}`])) as Record<K, string>;
  return { inputs: named(SPECIAL_INPUTS), outputs: named(SPECIAL_OUTPUTS) };
}

/**
 * Every template variable must be a Variable Bar input created beforehand (spec: "Workflow API binding"), and none
 * may be one of the special inputs, which the service fills itself.
 */
export function checkTemplateAgainstVariableBar(
  template: UriTemplate,
  variableBar: VariableBarDefinition,
  special: SpecialProperties = specialProperties(),
): TemplateError[] {
  const declared = new Set(variableBar.inputs);
  const specialNames = new Set(Object.values(special.inputs).map(foldCase));
  return template.variables.flatMap((name) => {
    const position = variablePosition(template.text, name);
    if (specialNames.has(foldCase(name))) {
      return [new TemplateError(template.text, position, `"${name}" is a special property that the service sets itself`, "bind the path or query value to an input of your own")];
    }
    if (declared.has(name)) return [];
    const sameButCase = variableBar.inputs.find((input) => foldCase(input) === foldCase(name));
    return [
      new TemplateError(
        template.text,
        position,
        `variable "${name}" is not an input of the Workflow's Variable Bar`,
        sameButCase ? `rename it "${sameButCase}" to match the input (names are exact)` : `create the Variable Bar input "${name}" first, or rename the variable to an existing input`,
      ),
    ];
  });
}

function variablePosition(text: string, name: string): number {
  const at = Math.max(text.indexOf(`{${name}}`), text.indexOf(`{*${name}}`));
  return at === -1 ? 0 : at;
}
