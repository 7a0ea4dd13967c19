// Reading column values the same way from both databases (SQLite gives 0/1 for booleans, PostgreSQL true/false).

export function json<T>(value: unknown): T {
  return JSON.parse(String(value)) as T;
}

export function flag(value: unknown): boolean {
  return value === true || value === 1;
}

export function optionalNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
