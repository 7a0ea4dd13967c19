// Keeps credentials out of everything that records a URL: activity logs, InitialisationXml, error messages.

/** Query parameters that carry credentials: the session token, the API key and the token endpoint's password. */
export const CREDENTIAL_PARAMETERS: readonly string[] = ["auth", "auth-key", "password"];

const REDACTED = "[redacted]";

export function redactQuery(rawQuery: string): string {
  if (rawQuery === "") return "";
  return rawQuery
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const key = equals === -1 ? pair : pair.slice(0, equals);
      let name: string;
      try {
        name = decodeURIComponent(key.replace(/\+/g, " ")).toLowerCase();
      } catch {
        name = key.toLowerCase();
      }
      return CREDENTIAL_PARAMETERS.includes(name) ? `${key}=${REDACTED}` : pair;
    })
    .join("&");
}

/** A request's path and query as it may be recorded. */
export function redactedUrl(path: string, rawQuery: string): string {
  return rawQuery === "" ? path : `${path}?${redactQuery(rawQuery)}`;
}
