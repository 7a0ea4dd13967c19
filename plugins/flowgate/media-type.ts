// Content types: which are text (so bodies travel as strings) and which charset they name.

const TEXTUAL = /^(text\/.*|application\/(json|xml|javascript|x-www-form-urlencoded|graphql)|application\/[a-z0-9.+-]+\+(json|xml))$/;

export interface MediaType {
  /** Lower-cased, without parameters: `application/json`. */
  readonly type: string;
  readonly charset: string | null;
}

export function parseMediaType(header: string | undefined | null): MediaType | null {
  if (!header) return null;
  const [type, ...parameters] = header.split(";");
  const charset = parameters.map((parameter) => /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(parameter)?.[1]).find(Boolean);
  return { type: type!.trim().toLowerCase(), charset: charset?.toLowerCase() ?? null };
}

/** A body with no content type counts as text, as HTTP clients mostly send text without saying so. */
export function isTextual(media: MediaType | null): boolean {
  return media === null || TEXTUAL.test(media.type);
}
