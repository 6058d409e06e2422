import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { codes } from '../errors/catalogue.js';
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
  const refuse = (reason: string, hint: string): CheckedImage => ({
    problem: {
      code: codes.badImage,
      file: `content/images/${image.name}`,
      message: `This file cannot be published at /images/${image.name}: ${reason}.`,
      hint,
    },
  });
  const extension = path.extname(image.name).slice(1).toLowerCase();
  const named = BY_EXTENSION[extension];
  const head = await readHead(image.real, 64);
  const kind = rasterKind(head);
  if (!named) {
    return refuse(
      `content/images/ publishes only images (${TYPES}), and a host serves a file named ${extension ? `.${extension}` : 'without an extension'} as something else`,
      kind
        ? `Its bytes are a ${kind} image: name it with that type's extension.`
        : 'Keep documents and pages out of content/images/; put an image there as a file of one of these types.',
    );
  }
  if (named !== 'SVG') {
    if (kind !== named)
      return refuse(
        `its name says ${named} but its bytes are ${kind ? `a ${kind} image` : 'not an image'}`,
        kind ? `Rename it with the ${kind} extension.` : `Export it again as a ${named} file.`,
      );
    return { contents: undefined };
  }
  if (kind)
    return refuse(`its name says SVG but its bytes are a ${kind} image`, `Rename it with the ${kind} extension.`);
  const size = (await stat(image.real)).size;
  if (size > MAX_SVG_BYTES)
    return refuse(
      `it is ${size.toLocaleString('en-GB')} bytes; an SVG may be at most ${MAX_SVG_BYTES.toLocaleString('en-GB')}`,
      'Export the picture as a PNG, JPEG or WebP instead.',
    );
  // Read to one byte past the limit, in case the file grew since stat.
  const bytes = await readHead(image.real, Math.min(size, MAX_SVG_BYTES) + 1);
  if (bytes.length > MAX_SVG_BYTES)
    return refuse(
      `it is more than ${MAX_SVG_BYTES.toLocaleString('en-GB')} bytes, the most an SVG may be`,
      'Export the picture as a PNG, JPEG or WebP instead.',
    );
  const clean = cleanSvg(bytes);
  if ('reasons' in clean) {
    return refuse(
      `this SVG is not only a picture: ${clean.reasons.join('; ')}`,
      "Opened at its own address an SVG acts with the site's origin. Export it again as a plain drawing (no scripts, event handlers, links, animations, HTML or files from elsewhere), or as a PNG.",
    );
  }
  return { contents: clean.svg };
}
