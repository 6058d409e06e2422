import path from 'node:path';

/** The image formats known by their first bytes, by the extension that names them. */
export type ImageFormat = 'jpg' | 'png' | 'webp' | 'avif' | 'gif' | 'ico';

/**
 * The format of an image by its first bytes (a dozen suffice; an AVIF's brands may need its whole
 * ftyp box), or undefined when they are no image's.
 */
export function imageFormatOf(b: Buffer): ImageFormat | undefined {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg';
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  // An AVIF's ftyp box names avif or avis as its brand, or among its compatible brands (mif1 files).
  if (
    b.length >= 12 &&
    b.toString('latin1', 4, 8) === 'ftyp' &&
    /avi[fs]/.test(b.toString('latin1', 8, Math.min(b.length, b.readUInt32BE(0))))
  )
    return 'avif';
  if (/^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'gif';
  if (b.length >= 6 && b.readUInt32BE(0) === 0x00000100 && b.readUInt16LE(4) > 0) return 'ico';
  return undefined;
}

/**
 * Whether bytes are the image their file name says (.jpg, .png, .webp, .avif…): a file kept in
 * .cache/ is published only when it is, as anyone who can write the cache could put anything there.
 */
export function isImageOfType(bytes: Buffer, file: string): boolean {
  const format = imageFormatOf(bytes);
  return format !== undefined && format === path.extname(file).slice(1);
}
