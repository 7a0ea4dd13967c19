// Hashes for stored secrets: scrypt (memory-hard) for user passwords, SHA-256 for high-entropy API key tokens.

import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

// scrypt with N=2^15, r=8: 32 MiB and tens of milliseconds per hash, which is what makes guessing expensive.
const SCRYPT = { N: 32768, r: 8, p: 1, keyLength: 32, maxmem: 64 * 1024 * 1024 };
const PASSWORD_HASH = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;
const API_KEY_HASH = /^sha256:[0-9a-f]{64}$/;

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keyLength, { N, r, p, maxmem: SCRYPT.maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export function isPasswordHash(text: string): boolean {
  const parts = PASSWORD_HASH.exec(text);
  if (!parts) return false;
  const N = Number(parts[1]);
  return N >= 16384 && (N & (N - 1)) === 0 && Number(parts[2]) >= 1 && Number(parts[3]) >= 1;
}

/** Compares in constant time; a malformed stored hash never verifies. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = PASSWORD_HASH.exec(stored);
  if (!parts || !isPasswordHash(stored)) return false;
  const expected = Buffer.from(parts[5]!, "base64");
  const key = await scryptAsync(password, Buffer.from(parts[4]!, "base64"), Number(parts[1]), Number(parts[2]), Number(parts[3]), expected.length);
  return timingSafeEqual(key, expected);
}

export function hashApiKey(token: string): string {
  return `sha256:${createHash("sha256").update(token, "utf8").digest("hex")}`;
}

export function isApiKeyHash(text: string): boolean {
  return API_KEY_HASH.test(text);
}
