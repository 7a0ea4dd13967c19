// XML for Workflows (`context.xml.parse`, `context.xml.build`), run on the host with fast-xml-parser.
// Attributes keep an "@_" prefix so they round-trip; entities beyond XML's own are never expanded.

import { XMLBuilder, XMLParser } from "fast-xml-parser";

const DEFAULTS = { ignoreAttributes: false, attributeNamePrefix: "@_", processEntities: true, htmlEntities: false } as const;

function options(extra: unknown): Record<string, unknown> {
  return extra && typeof extra === "object" ? { ...DEFAULTS, ...(extra as Record<string, unknown>) } : { ...DEFAULTS };
}

export function parseXml(text: unknown, extra?: unknown): unknown {
  if (typeof text !== "string") throw new TypeError("context.xml.parse takes the XML as a string");
  return new XMLParser(options(extra)).parse(text, true);
}

export function buildXml(value: unknown, extra?: unknown): string {
  return new XMLBuilder({ ...options(extra), suppressEmptyNode: true }).build(value) as string;
}
