import { createHash, hash } from 'node:crypto';

/** A short, stable hash of some text or bytes: cache keys and fingerprints. */
export function hashText(...parts: readonly (string | Uint8Array)[]): string {
  // The one-shot hash costs a third of a Hash object, and a large blog's rebuild makes thousands.
  if (parts.every((part) => typeof part === 'string')) return hash('sha1', `${parts.join('\0')}\0`, 'base64url');
  const hasher = createHash('sha1');
  for (const part of parts) hasher.update(part).update('\0');
  return hasher.digest('base64url');
}
