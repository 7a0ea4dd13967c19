// Turns a request's raw path into the decoded segments that templates are matched against.

export type RequestPath = { readonly ok: true; readonly segments: readonly string[] } | { readonly ok: false; readonly problem: string };

/**
 * The rules, each chosen to agree with what Kong's router and WCF's UriTemplate do:
 * - "." and ".." segments are resolved (RFC 3986, 5.2.4), as Kong normalises a path before routing it; only the
 *   literal dots count, so an encoded "%2E%2E" is a value like any other;
 * - one trailing slash is insignificant, as it is in templates;
 * - each segment is percent-decoded on its own, so an encoded "/" (%2F) stays inside its segment's value;
 * - malformed percent-encoding or bytes that are not UTF-8 make the request a bad one, never a guess.
 */
export function splitRequestPath(rawPath: string): RequestPath {
  if (rawPath.charCodeAt(0) !== SLASH) return { ok: false, problem: `the request path "${rawPath}" does not start with "/"` };
  const segments: string[] = [];
  let start = 1;
  let encoded = false;
  // One pass over the characters: this runs for every request, so it avoids split() and a second scan for "%".
  for (let index = 1; index <= rawPath.length; index++) {
    const char = index === rawPath.length ? SLASH : rawPath.charCodeAt(index);
    if (char === PERCENT) encoded = true;
    if (char !== SLASH) continue;
    const segment = rawPath.slice(start, index);
    start = index + 1;
    // The path's last segment, when empty, is the insignificant trailing slash (or the root path itself).
    if (index === rawPath.length && segment === "") break;
    if (segment === "." || segment === "..") {
      if (segment === "..") segments.pop();
    } else if (encoded) {
      const decoded = decodeComponent(segment);
      if (decoded === null) return { ok: false, problem: `path segment ${segments.length + 1} ("${segment}") has malformed percent-encoding or is not UTF-8` };
      segments.push(decoded);
    } else {
      segments.push(segment);
    }
    encoded = false;
  }
  return { ok: true, segments };
}

const SLASH = 0x2f;
const PERCENT = 0x25;

/** Percent-decodes one URI component, or answers null when it is malformed. */
export function decodeComponent(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
