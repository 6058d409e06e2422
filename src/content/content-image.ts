import path from 'node:path';
import { problem } from '../errors/catalogue.js';
import { ProblemList, type Problem } from '../errors/storefront-error.js';
import { imageFormatOf, type ImageFormat } from '../util/image-signature.js';
import { readChecked } from '../util/read-bounded.js';
import { IMAGE_FILE, type ContentImageFile } from './local-image.js';
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

export type CheckedImage = { problem: Problem } | { contents: Buffer | undefined };

/**
 * The file's problem, or what to publish: only what the check needs is read (a raster's first
 * bytes, which it copies as it is, so contents is undefined), or an SVG, rebuilt as contents.
 */
export function checkContentImage(image: ContentImageFile): CheckedImage {
  const { name } = image;
  const place = { file: `content/images/${name}` };
  const extension = path.extname(name).slice(1).toLowerCase();
  const named = BY_EXTENSION[extension];
  // Opened without waiting and judged on the open file: a named pipe put in its place since
  // contentImageFiles looked is named, not waited on.
  const problems = new ProblemList();
  const read = readChecked(image.real, place.file, IMAGE_FILE, problems, { most: 64 });
  if (!read) return { problem: problems.items[0]! };
  const kind = rasterKind(read.bytes);
  if (!named) return { problem: problem('imageTypeNotPublished', { name, types: TYPES, extension, kind }, place) };
  if (named !== 'SVG') {
    if (kind !== named) return { problem: problem('imageNameOtherType', { name, named, kind }, place) };
    return { contents: undefined };
  }
  if (kind) return { problem: problem('imageNameOtherType', { name, named, kind }, place) };
  if (read.size > MAX_SVG_BYTES)
    return { problem: problem('svgTooLarge', { name, size: read.size, limit: MAX_SVG_BYTES }, place) };
  // Read to one byte past the limit, in case the file grew since it was opened.
  const whole = readChecked(image.real, place.file, IMAGE_FILE, problems, { most: MAX_SVG_BYTES + 1 });
  if (!whole) return { problem: problems.items[0]! };
  const bytes = whole.bytes;
  if (bytes.length > MAX_SVG_BYTES)
    return { problem: problem('svgGrewTooLarge', { name, limit: MAX_SVG_BYTES }, place) };
  const clean = cleanSvg(bytes);
  if ('reasons' in clean) return { problem: problem('svgNotOnlyPicture', { name, reasons: clean.reasons }, place) };
  if ('tooComplex' in clean) return { problem: problem('svgTooComplex', { name, reason: clean.tooComplex }, place) };
  return { contents: clean.svg };
}
