/**
 * Why a slug cannot be one safe path segment of /blog/{slug}, or undefined when it can.
 * Non-ASCII letters are allowed (WordPress stores them percent-encoded).
 */
export function unsafeSlugReason(slug: string): string | undefined {
  if (slug.length === 0) return 'it is empty';
  if (slug.includes('/') || slug.includes('\\')) return 'it contains a slash';
  if (slug === '.' || slug === '..' || slug.includes('..')) return 'it contains ".."';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(slug)) return 'it contains a control character';
  if (/[\s?#%]/.test(slug)) return 'it contains a space, "?", "#" or "%"';
  // Invisible characters that reorder or hide text: an address that reads as another.
  if (/[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/.test(slug)) return 'it contains an invisible or text-direction character';
  return undefined;
}
