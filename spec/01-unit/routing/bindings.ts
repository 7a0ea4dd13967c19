// Test helpers: bindings from method and template text, with the Workflow named by a string.

import type { BindableMethod, Binding } from "../../../plugins/flowgate/routing/binding";
import { parseUriTemplate } from "../../../plugins/flowgate/templates/uri-template";

export function binding(method: BindableMethod, templateText: string, workflow: string): Binding<string> {
  const parsed = parseUriTemplate(templateText);
  if (!parsed.ok) throw new Error(parsed.error.toString());
  return { method, template: parsed.template, workflow };
}
