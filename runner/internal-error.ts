// The last line of defence of both servers: an unexpected error is a 500 for the caller, with no detail, and the
// whole story for the operator.

import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { errorResponse } from "../plugins/flowgate/responses";
import { writeResponse } from "./http-io";

export function internalError(response: ServerResponse, method: string, error: unknown, warn: (message: string) => void): void {
  const activityId = randomUUID();
  warn(`flowgate: unexpected failure (activity ${activityId}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  writeResponse(response, method, errorResponse(500, activityId, "An unexpected error occurred."));
}
