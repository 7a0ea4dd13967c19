// fast-check generators of templates and request paths that collide often enough to exercise overlaps.

import fc from "fast-check";
import type { BindableMethod, Binding } from "../../../plugins/flowgate/routing/binding";
import { parseUriTemplate } from "../../../plugins/flowgate/templates/uri-template";

const WORDS = ["a", "b", "ab", "orders", "x.y", "caf%C3%A9", "a-b"];
const REQUEST_WORDS = ["a", "A", "b", "ab", "AB", "orders", "ORDERS", "x.y", "x.y.z", "café", "CAFÉ", "a-b", "a-b-c", "q", "", "a/b", ".", "-", "x."];
const METHODS: BindableMethod[] = ["GET", "POST"];

type SegmentShape = "literal" | "variable" | "compound-dot" | "compound-prefix" | "compound-suffix";

function segmentText(shape: SegmentShape, word: string, name: () => string): string {
  switch (shape) {
    case "literal":
      return word;
    case "variable":
      return `{${name()}}`;
    case "compound-dot":
      return `{${name()}}.{${name()}}`;
    case "compound-prefix":
      return `a-{${name()}}`;
    case "compound-suffix":
      return `{${name()}}.y`;
  }
}

export const templateText: fc.Arbitrary<string> = fc
  .record({
    segments: fc.array(
      fc.record({
        shape: fc.constantFrom<SegmentShape>("literal", "literal", "variable", "variable", "compound-dot", "compound-prefix", "compound-suffix"),
        word: fc.constantFrom(...WORDS),
      }),
      { maxLength: 4 },
    ),
    wildcard: fc.constantFrom(null, "*", "{*rest}"),
    trailingSlash: fc.boolean(),
  })
  .map(({ segments, wildcard, trailingSlash }) => {
    let counter = 0;
    const name = () => `v${counter++}`;
    const parts = segments.map(({ shape, word }) => segmentText(shape, word, name));
    if (wildcard) parts.push(wildcard);
    return "/" + parts.join("/") + (trailingSlash && parts.length ? "/" : "");
  });

export const bindingArbitrary: fc.Arbitrary<Binding<number>> = fc.record({ method: fc.constantFrom(...METHODS), text: templateText }).map(({ method, text }) => {
  const parsed = parseUriTemplate(text);
  if (!parsed.ok) throw new Error(`generator made an invalid template: ${parsed.error}`);
  return { method, template: parsed.template, workflow: 0 };
});

export const bindingsArbitrary: fc.Arbitrary<Binding<number>[]> = fc
  .array(bindingArbitrary, { maxLength: 12 })
  .map((bindings) => bindings.map((binding, index) => ({ ...binding, workflow: index })));

/** Decoded request segments. */
export const requestSegments: fc.Arbitrary<string[]> = fc.array(fc.constantFrom(...REQUEST_WORDS), { maxLength: 6 });

export const requestMethod: fc.Arbitrary<string> = fc.constantFrom("GET", "POST", "HEAD", "PUT");
