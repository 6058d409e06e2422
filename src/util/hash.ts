import { createHash } from 'node:crypto';

/** A short, stable hash of some text or bytes: cache keys and fingerprints. */
export function hashText(...parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('base64url');
}
