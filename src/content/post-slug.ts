/**
 * The longest slug, in bytes of UTF-8: its page is written as blog/{slug}.html, and with
 * --precompress {slug}.html.br, and a file name may be 255 bytes on Linux, macOS and Windows
 * (ext4, APFS, NTFS). Refused here, before anything is written, rather than by the system
 * halfway through writing the site (ENAMETOOLONG).
 */
export const MAX_SLUG_BYTES = 255 - '.html.br'.length;

/**
 * Why a slug cannot be one safe path segment of /blog/{slug}, or undefined when it can.
 * Non-ASCII letters are allowed (WordPress stores them percent-encoded).
 */
export function unsafeSlugReason(slug: string): string | undefined {
  if (slug.length === 0) return 'it is empty';
  const bytes = Buffer.byteLength(slug);
  if (bytes > MAX_SLUG_BYTES)
    return (
      `it is ${bytes} bytes long, and a slug may be at most ${MAX_SLUG_BYTES} ` +
      "(its page's file, {slug}.html.br, at most 255, the longest file name a disk takes)"
    );
  if (slug.includes('/') || slug.includes('\\')) return 'it contains a slash';
  if (slug === '.' || slug === '..' || slug.includes('..')) return 'it contains ".."';
  if (/[\u0000-\u001f\u007f]/.test(slug)) return 'it contains a control character';
  if (/[\s?#%]/.test(slug)) return 'it contains a space, "?", "#" or "%"';
  // Invisible characters that reorder or hide text: an address that reads as another.
  if (/[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/.test(slug))
    return 'it contains an invisible or text-direction character';
  return undefined;
}
