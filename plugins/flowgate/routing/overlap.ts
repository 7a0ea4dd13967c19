// Overlap analysis: which bindings some request would match together, so that publishing can refuse or warn
// before callers meet the spec's "ambiguous match" answer at run time.

import type { Binding } from "./binding";
import type { UriTemplate } from "../templates/uri-template";
import { commonSegment, exampleSegment } from "../templates/segment-overlap";

export interface Overlap<W> {
  readonly first: Binding<W>;
  readonly second: Binding<W>;
  /** A request path that both bindings match. */
  readonly examplePath: string;
}

/**
 * Every pair of bindings, of the same method, that some request matches both of. The query part never separates
 * routes, so only paths count. Bindings are grouped by a literal first segment, since two different literals there
 * can never overlap; only templates that open with a variable or wildcard are compared with every group.
 */
export function findOverlaps<W>(bindings: readonly Binding<W>[]): Overlap<W>[] {
  const order = new Map(bindings.map((binding, index) => [binding, index]));
  const overlaps: Overlap<W>[] = [];
  const groups = new Map<string, { literal: Map<string, Binding<W>[]>; open: Binding<W>[] }>();
  for (const binding of bindings) {
    let group = groups.get(binding.method);
    if (!group) groups.set(binding.method, (group = { literal: new Map(), open: [] }));
    const key = firstSegmentKey(binding.template);
    if (key === null) {
      group.open.push(binding);
    } else {
      const members = group.literal.get(key);
      if (members) members.push(binding);
      else group.literal.set(key, [binding]);
    }
  }
  for (const { literal, open } of groups.values()) {
    for (const members of [...literal.values(), open]) comparePairs(members, members, overlaps, true);
    for (const members of literal.values()) comparePairs(open, members, overlaps, false);
  }
  // Each pair reads in the order the bindings were given, and the list in that order too.
  const place = (binding: Binding<W>) => order.get(binding)!;
  return overlaps
    .map((overlap) => (place(overlap.first) < place(overlap.second) ? overlap : { ...overlap, first: overlap.second, second: overlap.first }))
    .sort((a, b) => place(a.first) - place(b.first) || place(a.second) - place(b.second));
}

/** The case-folded literal first segment, "" for the root template, or null when the first segment varies. */
function firstSegmentKey(template: UriTemplate): string | null {
  const first = template.segments[0];
  if (!first) return template.wildcard ? null : "";
  return first.kind === "literal" ? first.key : null;
}

function comparePairs<W>(left: readonly Binding<W>[], right: readonly Binding<W>[], into: Overlap<W>[], sameList: boolean): void {
  for (let i = 0; i < left.length; i++) {
    for (let j = sameList ? i + 1 : 0; j < right.length; j++) {
      const first = left[i]!;
      const second = right[j]!;
      const examplePath = commonPath(first.template, second.template);
      if (examplePath !== null) into.push({ first, second, examplePath });
    }
  }
}

/** A request path both templates match, or null when there is none. */
export function commonPath(a: UriTemplate, b: UriTemplate): string | null {
  const [shorter, longer] = a.segments.length <= b.segments.length ? [a, b] : [b, a];
  // Past the shorter template's segments, only its wildcard can absorb the longer one's rest.
  if (shorter.segments.length !== longer.segments.length && !shorter.wildcard) return null;
  const segments: string[] = [];
  for (let index = 0; index < shorter.segments.length; index++) {
    const common = commonSegment(shorter.segments[index]!, longer.segments[index]!);
    if (common === null) return null;
    segments.push(common);
  }
  for (const segment of longer.segments.slice(shorter.segments.length)) segments.push(exampleSegment(segment));
  return "/" + segments.map(encodePathSegment).join("/");
}

/** Percent-encodes a decoded segment for a path, keeping a segment of dots from being resolved away. */
export function encodePathSegment(segment: string): string {
  const encoded = encodeURIComponent(segment);
  return encoded === "." || encoded === ".." ? encoded.replace(/\./g, "%2E") : encoded;
}
