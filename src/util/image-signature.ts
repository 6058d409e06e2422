import path from 'node:path';

/** The first bytes of each format the image stages write. */
const SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  jpg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  webp: (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP',
  avif: (b) => b.toString('latin1', 4, 8) === 'ftyp' && /^avi[fs]$/.test(b.toString('latin1', 8, 12)),
};

/**
 * Whether bytes are the image their file name says (.jpg, .png, .webp, .avif): a file kept in
 * .cache/ is published only when it is, as anyone who can write the cache could put anything there.
 */
export function isImageOfType(bytes: Buffer, file: string): boolean {
  return SIGNATURES[path.extname(file).slice(1)]?.(bytes) === true;
}
