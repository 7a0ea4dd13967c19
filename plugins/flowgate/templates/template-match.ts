// Matches one template against a request's decoded path segments, saying why when it does not match.
// The routing table finds candidates fast; this is the one definition of what "matches" means and what it binds.

import type { SegmentPattern, UriTemplate } from "./uri-template";
import { foldCase } from "./uri-template";

export type TemplateMatch =
  | { readonly matched: true; readonly variables: Record<string, string> }
  | { readonly matched: false; readonly reason: string };

export function matchPath(template: UriTemplate, segments: readonly string[]): TemplateMatch {
  const fixed = template.segments.length;
  if (template.wildcard ? segments.length < fixed : segments.length !== fixed) {
    const needed = template.wildcard ? `at least ${fixed} path segments before its wildcard` : `${fixed} path segment${fixed === 1 ? "" : "s"}`;
    return { matched: false, reason: `the template needs ${needed}, the request has ${segments.length}` };
  }
  const variables: Record<string, string> = {};
  for (let index = 0; index < fixed; index++) {
    const failure = bindSegment(template.segments[index]!, segments[index]!, variables);
    if (failure) return { matched: false, reason: `segment ${index + 1}: ${failure}` };
  }
  if (template.wildcard?.name) variables[template.wildcard.name] = segments.slice(fixed).join("/");
  return { matched: true, variables };
}

/** Binds one segment's variables into `variables`, or answers why the segment does not fit. */
function bindSegment(pattern: SegmentPattern, segment: string, variables: Record<string, string>): string | null {
  switch (pattern.kind) {
    case "literal":
      return segment === pattern.key || foldCase(segment) === pattern.key ? null : `expected "${pattern.text}", got "${segment}"`;
    case "variable":
      if (segment === "") return `empty, but variable "${pattern.name}" needs a value`;
      variables[pattern.name] = segment;
      return null;
    case "compound": {
      const found = pattern.regex.exec(segment);
      if (!found) return `"${segment}" does not have the shape "${shapeOf(pattern)}"`;
      let group = 1;
      for (const part of pattern.parts) if (part.kind === "variable") variables[part.name] = found[group++]!;
      return null;
    }
  }
}

function shapeOf(pattern: Extract<SegmentPattern, { kind: "compound" }>): string {
  return pattern.parts.map((part) => (part.kind === "literal" ? part.text : `{${part.name}}`)).join("");
}
