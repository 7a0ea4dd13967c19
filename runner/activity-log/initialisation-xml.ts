// The Start Activity Log's InitialisationXml (spec: "Other named concepts"): a well-formed XML record of how a call
// was invoked, above all in which Site Environment, so people can see which revision answered them and why.

export interface Initialisation {
  readonly activityId: string;
  readonly site: string;
  readonly environment: string;
  readonly workflow: string;
  readonly revision: number;
  readonly method: string;
  /** Path and query with credentials already redacted. */
  readonly url: string;
  /** The caller as activity logs name it (`Token-based Key: <name>` for keys), or null when anonymous. */
  readonly user: string | null;
  readonly startedAt: number;
}

// XML 1.0 allows no control characters but tab, line feed and carriage return; anything else is replaced.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const NEEDS_ESCAPING = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function escapeXml(text: string): string {
  if (!NEEDS_ESCAPING.test(text)) return text;
  return text
    .replace(NOT_XML, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

export function initialisationXml(call: Initialisation): string {
  const element = (name: string, value: string) => `  <${name}>${escapeXml(value)}</${name}>`;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    "<Initialisation>",
    element("ActivityId", call.activityId),
    element("Site", call.site),
    element("Environment", call.environment),
    `  <Workflow revision="${call.revision}">${escapeXml(call.workflow)}</Workflow>`,
    `  <Request method="${escapeXml(call.method)}">${escapeXml(call.url)}</Request>`,
    call.user === null ? '  <User anonymous="true"/>' : element("User", call.user),
    element("StartedAt", new Date(call.startedAt).toISOString()),
    "</Initialisation>",
  ].join("\n");
}
