// The answers the service gives of its own, shared by the Kong plugin, `flowgate serve` and the runner
// (status codes and bodies: docs/decisions.md). Every one carries the activity id, so a caller can quote it.

/** The spec's answer for an unknown Site host, no matching template, or an ambiguous match. */
export const NO_SERVICE_MESSAGE = "There is no service at this location.";
export const ACTIVITY_ID_HEADER = "x-flowgate-activity-id";

export interface GatewayResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

function withActivity(activityId: string, headers: Record<string, string>): Record<string, string> {
  return { ...headers, [ACTIVITY_ID_HEADER]: activityId };
}

export function noService(activityId: string): GatewayResponse {
  return { status: 404, headers: withActivity(activityId, { "content-type": "text/plain; charset=utf-8" }), body: NO_SERVICE_MESSAGE };
}

/** A JSON error: `{"error": message, "activityId": id}`; never a stack trace. */
export function errorResponse(status: number, activityId: string, message: string, headers: Record<string, string> = {}): GatewayResponse {
  return {
    status,
    headers: withActivity(activityId, { "content-type": "application/json; charset=utf-8", ...headers }),
    body: JSON.stringify({ error: message, activityId }),
  };
}

export function payloadTooLarge(activityId: string, limitBytes: number): GatewayResponse {
  return errorResponse(413, activityId, `The request body is larger than this Workflow's limit of ${limitBytes} bytes.`);
}
