// A deliberately simple matcher that property tests hold the routing table against: one regular expression per
// template over the whole path, tried against every binding in turn. Slow, obvious, and written apart from the trie.

import type { Binding } from "../../../plugins/flowgate/routing/binding";
import type { SegmentPattern } from "../../../plugins/flowgate/templates/uri-template";

const SEPARATOR = "\u0001";
const ANY = `[^${SEPARATOR}]`;

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

function segmentSource(segment: SegmentPattern): string {
  if (segment.kind === "literal") return escape(segment.text);
  if (segment.kind === "variable") return `${ANY}+`;
  return segment.parts.map((part) => (part.kind === "literal" ? escape(part.text) : `${ANY}+`)).join("");
}

export function referenceRegex(binding: Binding<unknown>): RegExp {
  const segments = binding.template.segments.map((segment) => SEPARATOR + segmentSource(segment)).join("");
  const rest = binding.template.wildcard ? `(?:${SEPARATOR}${ANY}*)*` : "";
  return new RegExp(`^${segments}${rest}$`, "iu");
}

export function referenceMatches<W>(bindings: readonly Binding<W>[], method: string, segments: readonly string[]): Binding<W>[] {
  const routed = method === "HEAD" ? "GET" : method;
  const path = segments.map((segment) => SEPARATOR + segment).join("");
  return bindings.filter((binding) => binding.method === routed && referenceRegex(binding).test(path));
}
