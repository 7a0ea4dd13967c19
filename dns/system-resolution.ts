// Whether a name resolves publicly, as a caller's machine would see it; a resolver that does not answer in time
// counts as "not yet".

import { promises as dns } from "node:dns";

export async function resolvesPublicly(host: string, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const lookup = dns.lookup(host).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
