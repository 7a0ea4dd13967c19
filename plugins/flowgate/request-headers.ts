// Request headers as the gateway's decisions read them, from Kong's PDK or from node:http alike.

/** Names lower-cased; a repeated header's values joined with ", " (as HTTP allows for all but Set-Cookie). */
export function flattenHeaders(headers: Readonly<Record<string, string | readonly string[] | undefined>>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = typeof value === "string" ? value : value.join(", ");
  }
  return flat;
}
