import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { problem } from '../errors/catalogue.js';
import type { Problem } from '../errors/storefront-error.js';
import { imageFormatOf, type ImageFormat } from '../util/image-signature.js';
import type { ContentImageFile } from './local-image.js';
import { cleanSvg, MAX_SVG_BYTES } from './svg-safety.js';

/**
 * Whether a file of content/images/ may be published at /images/, and what is published. The
 * folder is published as it is, at the site's origin, so it may hold only images: a host serves
 * an .html, .xml or .xhtml file there as a page that runs, and a PDF or an archive is not what
 * the folder is for. The type is decided by the file's first bytes, and its name must say the
 * same type, since a host picks the Content-Type by the name (PNG bytes named .html would be
 * served as a page). An SVG is published as cleanSvg rebuilt it.
 */
type Kind = 'AVIF' | 'WebP' | 'PNG' | 'JPEG' | 'GIF' | 'ICO' | 'SVG';
const BY_EXTENSION: Record<string, Kind> = {
  avif: 'AVIF',
  webp: 'WebP',
  png: 'PNG',
  jpg: 'JPEG',
  jpeg: 'JPEG',
  gif: 'GIF',
  ico: 'ICO',
  svg: 'SVG',
};
const TYPES = 'AVIF, WebP, PNG, JPEG, GIF, SVG or ICO';

const KIND_OF_FORMAT: Record<ImageFormat, Kind> = {
  avif: 'AVIF',
  webp: 'WebP',
  png: 'PNG',
  jpg: 'JPEG',
  gif: 'GIF',
  ico: 'ICO',
};

/** The raster type of these first bytes, or undefined. */
function rasterKind(head: Buffer): Kind | undefined {
  const format = imageFormatOf(head);
  return format && KIND_OF_FORMAT[format];
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export type CheckedImage = { problem: Problem } | { contents: Buffer | undefined };

/**
 * The file's problem, or what to publish: only what the check needs is read (a raster's first
 * bytes, which it copies as it is, so contents is undefined), or an SVG, rebuilt as contents.
 */
export async function checkContentImage(image: ContentImageFile): Promise<CheckedImage> {
  const { name } = image;
  const place = { file: `content/images/${name}` };
  const extension = path.extname(name).slice(1).toLowerCase();
  const named = BY_EXTENSION[extension];
  const head = await readHead(image.real, 64);
  const kind = rasterKind(head);
  if (!named) return { problem: problem('imageTypeNotPublished', { name, types: TYPES, extension, kind }, place) };
  if (named !== 'SVG') {
    if (kind !== named) return { problem: problem('imageNameOtherType', { name, named, kind }, place) };
    return { contents: undefined };
  }
  if (kind) return { problem: problem('imageNameOtherType', { name, named, kind }, place) };
  const size = (await stat(image.real)).size;
  if (size > MAX_SVG_BYTES) return { problem: problem('svgTooLarge', { name, size, limit: MAX_SVG_BYTES }, place) };
  // Read to one byte past the limit, in case the file grew since stat.
  const bytes = await readHead(image.real, Math.min(size, MAX_SVG_BYTES) + 1);
  if (bytes.length > MAX_SVG_BYTES)
    return { problem: problem('svgGrewTooLarge', { name, limit: MAX_SVG_BYTES }, place) };
  const clean = cleanSvg(bytes);
  if ('reasons' in clean) return { problem: problem('svgNotOnlyPicture', { name, reasons: clean.reasons }, place) };
  return { contents: clean.svg };
}
