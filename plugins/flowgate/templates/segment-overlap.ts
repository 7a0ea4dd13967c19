// Decides whether two template segments can match the same request segment, and gives one such segment.

import type { SegmentPattern } from "./uri-template";
import { foldCase } from "./uri-template";

/** A decoded request segment that both patterns match, or null when no segment does. */
export function commonSegment(a: SegmentPattern, b: SegmentPattern): string | null {
  if (a.kind === "literal") return matchesSegment(b, a.text) ? a.text : null;
  if (b.kind === "literal") return matchesSegment(a, b.text) ? b.text : null;
  if (a.kind === "variable") return exampleSegment(b);
  if (b.kind === "variable") return exampleSegment(a);
  return commonCompoundSegment(a, b);
}

/** A readable segment the pattern matches: its literals, with each variable written as its name. */
export function exampleSegment(pattern: SegmentPattern): string {
  switch (pattern.kind) {
    case "literal":
      return pattern.text;
    case "variable":
      return pattern.name;
    case "compound":
      return pattern.parts.map((part) => (part.kind === "literal" ? part.text : part.name)).join("");
  }
}

function matchesSegment(pattern: SegmentPattern, segment: string): boolean {
  switch (pattern.kind) {
    case "literal":
      return foldCase(segment) === pattern.key;
    case "variable":
      return segment !== "";
    case "compound":
      return pattern.regex.test(segment);
  }
}

// Two compound segments: the product of their automata, searched breadth first for the shortest common segment.
// A pattern is a token sequence; a variable ("one or more characters") is one "any" token and one "star" token.
type Token = { readonly kind: "char"; readonly char: string } | { readonly kind: "any" } | { readonly kind: "star" };

function tokens(pattern: Extract<SegmentPattern, { kind: "compound" }>): Token[] {
  return pattern.parts.flatMap((part): Token[] =>
    part.kind === "literal" ? Array.from(foldCase(part.text), (char) => ({ kind: "char", char })) : [{ kind: "any" }, { kind: "star" }],
  );
}

/** The states reachable from `state` without reading a character: a "star" may be skipped. */
function closure(sequence: readonly Token[], state: number): number[] {
  const states = [state];
  while (sequence[state]?.kind === "star") states.push(++state);
  return states;
}

function advance(sequence: readonly Token[], states: readonly number[], char: string): number[] {
  const next = new Set<number>();
  for (const state of states) {
    const token = sequence[state];
    if (!token) continue;
    if (token.kind === "star") for (const reached of closure(sequence, state)) next.add(reached);
    else if (token.kind === "any" || token.char === char) for (const reached of closure(sequence, state + 1)) next.add(reached);
  }
  return [...next];
}

function commonCompoundSegment(a: Extract<SegmentPattern, { kind: "compound" }>, b: Extract<SegmentPattern, { kind: "compound" }>): string | null {
  const left = tokens(a);
  const right = tokens(b);
  const literalChars = new Set(
    [...left, ...right].flatMap((token) => (token.kind === "char" ? [token.char] : [])),
  );
  // Any character outside both patterns' literals behaves the same, so one stands for all of them.
  const filler = [..."xyz0123456789_-~"].find((char) => !literalChars.has(char)) ?? "\u00e9";
  // The filler goes first so that the example reads like a value, such as "x.thumb" rather than "..thumb".
  const alphabet = [filler, ...literalChars];

  type Step = { readonly left: number[]; readonly right: number[]; readonly text: string };
  const start: Step = { left: closure(left, 0), right: closure(right, 0), text: "" };
  const seen = new Set<string>([stateKey(start)]);
  const queue: Step[] = [start];
  for (let head = 0; head < queue.length; head++) {
    const step = queue[head]!;
    if (step.left.includes(left.length) && step.right.includes(right.length)) return step.text;
    for (const char of alphabet) {
      const next: Step = { left: advance(left, step.left, char), right: advance(right, step.right, char), text: step.text + char };
      if (next.left.length === 0 || next.right.length === 0) continue;
      const key = stateKey(next);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(next);
    }
  }
  return null;
}

function stateKey(step: { readonly left: readonly number[]; readonly right: readonly number[] }): string {
  return `${[...step.left].sort((x, y) => x - y).join(",")}|${[...step.right].sort((x, y) => x - y).join(",")}`;
}
