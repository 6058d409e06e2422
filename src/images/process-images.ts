import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Sharp } from 'sharp';
import { isAllowedImage } from '../config/load-config.js';
import type { Post } from '../content/post.js';
import { problem } from '../errors/catalogue.js';
import { ProblemList } from '../errors/storefront-error.js';
import { limitConcurrency, runParallel } from '../util/run-parallel.js';
import { writeFileAtomic } from '../util/write-atomic.js';
import { IMAGE_FILE, localImageFile } from '../content/local-image.js';
import { readBounded } from '../util/read-bounded.js';
import { readCacheFile } from '../util/inside-project.js';
import { isImageOfType } from '../util/image-signature.js';
import { imageSources } from '../content/markdown.js';
import { defaultCmsOptions } from '../cms/retry.js';
import { fetchImage, ImageUnavailable, type FetchImageOptions } from './fetch-image.js';
import { entryFolder, madeDir, markUsed, pruneImageCaches } from './image-cache.js';

/** The widths made of each raster image: a phone at 1x to a wide screen at 2x. */
const IMAGE_WIDTHS = [360, 720, 1080, 1440];
/** Open Graph and X cards show a 1.91:1 picture; 1200 x 630 is what they ask for. */
const SHARE_SIZE = { width: 1200, height: 630 };
/** A larger image is a mistake (a 100-megapixel scan), and would take minutes and gigabytes. */
export const MAX_PIXELS = 40_000_000;
/**
 * A post with hundreds of images, or a blog with thousands, is a mistake or an attack (a 2 MB
 * body can name 35,000): each new image takes a third of a second and several files. Past these
 * the build stops before reading any image, naming the posts.
 */
export const MAX_IMAGES_PER_POST = 40;
export const MAX_IMAGES_PER_BUILD = 2_000;
/** Part of every cache key: raise it when the variants made change. */
const PIPELINE = 2;

/** One image as the pages show it: the fallback, its intrinsic size, and a srcset per format. */
export interface ImageSet {
  src: string;
  width: number;
  height: number;
  /** Best first: AVIF, WebP, then the source's own format. Empty for an SVG, which scales itself. */
  sources: { type: string; srcset: string }[];
}

export interface SiteImages {
  /** By the address a post uses (its image.src, or an <img src> in its body). */
  sets: Map<string, ImageSet>;
  /** The 1200 x 630 share image of each post image, by the same address. */
  shares: Map<string, string>;
  files: { file: string; contents: Buffer }[];
}

export interface ImageOptions extends FetchImageOptions {
  contentDir: string;
  /** Where images may be downloaded from (the site, the CMS, the image hosts). */
  imageOrigins: readonly string[];
}

interface Made {
  set: Omit<ImageSet, 'src'> & { src: string };
  share: string;
  files: { file: string; contents: Buffer }[];
}

/**
 * The name the files made of an image carry: a hash of its bytes, so the same bytes make the
 * same files whatever they are called and whichever post names them first.
 */
function stemOf(key: string): string {
  return `assets/img/${key.slice(0, 16)}`;
}

/**
 * What `make` made of these bytes, kept in .cache/images/ by their hash (and PIPELINE), so that a
 * later build reads the files instead of encoding them again: AVIF takes a good part of a second,
 * and loading sharp (libvips) a tenth, which a build with nothing new to make does not pay.
 */
async function cached(key: string, root: string, address: string, make: () => Promise<Made>): Promise<Made> {
  const dir = madeDir(root);
  // Read only when no link leads it out of the project (see readCacheFile).
  const kept = await readCacheFile(path.join(dir, `${key}.json`), root).then((bytes) => bytes && parseEntry(bytes));
  // An entry that names anything but the files this stage makes of this image is not used: one
  // written by someone else could publish any file at any address (index.html).
  if (kept && namesOwnFiles(kept, key, address)) {
    // A file of the entry deleted by hand, or not the image it says: the entry is made again.
    const contents = await Promise.all(
      kept.files.map((file) => readCacheFile(path.join(dir, key, path.basename(file)), root)),
    );
    if (contents.every((bytes, i) => bytes !== undefined && isImageOfType(bytes, kept.files[i]!))) {
      await markUsed(path.join(dir, key), path.join(dir, `${key}.json`));
      return { ...kept, files: kept.files.map((file, i) => ({ file, contents: contents[i]! })) };
    }
  }
  const made = await make();
  if (!(await entryFolder(path.join(dir, key)))) return made;
  for (const { file, contents } of made.files)
    await writeFileAtomic(path.join(dir, key, path.basename(file)), contents);
  await writeFileAtomic(
    path.join(dir, `${key}.json`),
    JSON.stringify({ set: made.set, share: made.share, files: made.files.map((f) => f.file) }),
  );
  return made;
}

type Entry = Omit<Made, 'files'> & { files: string[] };

function parseEntry(bytes: Buffer): Entry | undefined {
  try {
    return JSON.parse(bytes.toString('utf8')) as Entry;
  } catch {
    return undefined;
  }
}

/** The image files of one image: `assets/img/{stem}-{width}.{avif,webp,jpg,png}` and its share image. */
const ownFile = (key: string) => new RegExp(`^${stemOf(key)}-(?:[1-9]\\d{0,4}\\.(?:avif|webp|jpg|png)|share\\.jpg)$`);

/**
 * Whether a kept entry names only what rasterImage or svgImage make of this image: its own files,
 * its share image, and as its picture one of its files, or the SVG's own address.
 */
function namesOwnFiles(entry: Entry, key: string, address: string): boolean {
  const own = ownFile(key);
  if (!Array.isArray(entry.files) || !entry.files.every((file) => typeof file === 'string' && own.test(file)))
    return false;
  const listed = new Set(entry.files.map((file) => `/${file}`));
  const set = entry.set as Partial<ImageSet> | undefined;
  if (!set || !Array.isArray(set.sources) || !Number.isInteger(set.width) || !Number.isInteger(set.height))
    return false;
  const srcsets = set.sources.flatMap((source) =>
    typeof source?.srcset === 'string' ? source.srcset.split(', ').map((part) => part.replace(/ \d+w$/, '')) : [''],
  );
  return (
    entry.share === `/${stemOf(key)}-share.jpg` &&
    listed.has(entry.share) &&
    (listed.has(set.src ?? '') || (set.src === address && set.sources.length === 0)) &&
    srcsets.every((src) => listed.has(src))
  );
}

/** The share image: the picture cut to 1200 x 630, on white where it is transparent. */
function shareImage(image: Sharp): Promise<Buffer> {
  return image
    .resize(SHARE_SIZE.width, SHARE_SIZE.height, { fit: 'cover' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}

/**
 * The variants of one raster image: AVIF, WebP and its own format (JPEG, or PNG when it is
 * transparent) at each width up to its own, and the share image.
 */
async function rasterImage(bytes: Buffer, key: string): Promise<Made> {
  const { default: sharp } = await import('sharp');
  const image = () => sharp(bytes, { limitInputPixels: MAX_PIXELS }).rotate();
  const meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
  // EXIF orientations 5 to 8 turn the picture a quarter: its width is the stored height.
  const [fullWidth, fullHeight] = (meta.orientation ?? 1) >= 5 ? [meta.height, meta.width] : [meta.width, meta.height];
  const stem = stemOf(key);
  const own = meta.hasAlpha ? { ext: 'png', type: 'image/png' } : { ext: 'jpg', type: 'image/jpeg' };
  const widths = [
    ...new Set([...IMAGE_WIDTHS.filter((w) => w < fullWidth), Math.min(fullWidth, IMAGE_WIDTHS.at(-1)!)]),
  ];
  // Settings measured on a 1200 x 800 picture at four widths: AVIF at effort 2 with 4:2:0 colour
  // made 12 KB in 0.34 s (4:4:4: 15 KB, 0.5 s), WebP at effort 2 20 KB in 0.11 s (effort 4: the
  // same size in 0.22 s). The fallback is for browsers without WebP, almost none: plain JPEG, 0.05 s
  // (mozjpeg: a quarter smaller, in three times as long).
  const formats = [
    {
      ext: 'avif',
      type: 'image/avif',
      encode: (s: Sharp) => s.avif({ quality: 50, effort: 2, chromaSubsampling: '4:2:0' }),
    },
    { ext: 'webp', type: 'image/webp', encode: (s: Sharp) => s.webp({ quality: 72, effort: 2 }) },
    {
      ext: own.ext,
      type: own.type,
      encode: (s: Sharp) => (own.ext === 'png' ? s.png({ compressionLevel: 9 }) : s.jpeg({ quality: 78 })),
    },
  ];
  const files: Made['files'] = [];
  const sources = [];
  for (const format of formats) {
    const srcset: string[] = [];
    for (const width of widths) {
      const file = `${stem}-${width}.${format.ext}`;
      files.push({ file, contents: await format.encode(image().resize({ width })).toBuffer() });
      srcset.push(`/${file} ${width}w`);
    }
    sources.push({ type: format.type, srcset: srcset.join(', ') });
  }
  const largest = widths.at(-1)!;
  files.push({ file: `${stem}-share.jpg`, contents: await shareImage(image()) });
  return {
    set: {
      src: `/${stem}-${largest}.${own.ext}`,
      width: largest,
      height: Math.round((fullHeight * largest) / fullWidth),
      sources,
    },
    share: `/${stem}-share.jpg`,
    files,
  };
}

/**
 * An SVG stays as it is (it scales itself, and content/images/ is published as it is); only its
 * share image is drawn, as link previews show no SVG.
 */
async function svgImage(bytes: Buffer, address: string, key: string): Promise<Made> {
  const { default: sharp } = await import('sharp');
  const meta = await sharp(bytes).metadata();
  const share = `${stemOf(key)}-share.jpg`;
  return {
    set: { src: address, width: meta.width, height: meta.height, sources: [] },
    share: `/${share}`,
    files: [{ file: share, contents: await shareImage(sharp(bytes, { density: 144 })) }],
  };
}

/**
 * The image stage: every image the posts show (their featured image and the images of their
 * bodies), read from content/images/ or downloaded, made into AVIF, WebP and the source's format
 * in several widths, with a share image each. A local SVG is kept as it is. An image that cannot
 * be read or made is a problem naming the post and the image. The files go to the output stage.
 */
export async function processSiteImages(
  posts: readonly Post[],
  options: ImageOptions,
  problems: ProblemList,
): Promise<SiteImages> {
  const wanted = new Map<string, Post>();
  for (const post of posts) {
    const addresses = new Set([...(post.image ? [post.image.src] : []), ...imageSources(post.contentHtml)]);
    if (addresses.size > MAX_IMAGES_PER_POST) {
      const count = addresses.size;
      problems.add(problem('imagesTooManyInPost', { count, most: MAX_IMAGES_PER_POST }, { file: post.source }));
    }
    for (const address of addresses) if (!wanted.has(address)) wanted.set(address, post);
  }
  if (wanted.size > MAX_IMAGES_PER_BUILD) {
    problems.add(problem('imagesTooManyInBuild', { count: wanted.size, most: MAX_IMAGES_PER_BUILD }));
  }
  const images: SiteImages = { sets: new Map(), shares: new Map(), files: [] };
  if (problems.size > 0) return images;
  // The same bytes are made once, however many posts or addresses name them.
  const making = new Map<string, Promise<Made>>();
  // Downloads (and the checks of kept ones) wait on the network: as many at once as the CMS is
  // asked. Making waits on the cores, and libvips uses a thread per core for each image already:
  // two at a time keep them busy.
  const encoder = limitConcurrency(2);
  await runParallel([...wanted], defaultCmsOptions.concurrency, async ([address, post]) => {
    try {
      // WordPress's bodies lost such images in the sanitiser already; a local post's did not.
      if (!local(address) && !isAllowedImage(address, options.imageOrigins))
        throw new ImageUnavailable(
          `it comes from ${URL.canParse(address) ? new URL(address).origin : address}, ` +
            'not a host the build takes images from (the site, the CMS, imageHosts)',
        );
      const file = local(address) && localImageFile(options.contentDir, address);
      if (local(address) && !file) throw new ImageUnavailable('it is not a file in content/images/');
      // Read as a buffer (sharp given a path would open it itself), without waiting: a named pipe
      // put in the file's place since the content stage looked is named, not waited on.
      const unread = new ProblemList();
      const bytes = file
        ? readBounded(file, path.relative(options.root, file).split(path.sep).join('/'), IMAGE_FILE, unread)
        : await fetchImage(address, options);
      if (!bytes) {
        for (const item of unread.items) problems.add(item);
        return;
      }
      const svg = local(address) && /\.svg$/i.test(address);
      // An SVG is kept at its own address; the key tells the two apart.
      const key = createHash('sha256')
        .update(`${PIPELINE}\0${svg ? address : ''}\0`)
        .update(bytes)
        .digest('hex');
      let made = making.get(key);
      if (!made) {
        made = cached(key, options.root, address, () =>
          encoder(() => (svg ? svgImage(bytes, address, key) : rasterImage(bytes, key))),
        );
        making.set(key, made);
        images.files.push(...(await made).files);
      }
      images.sets.set(address, (await made).set);
      images.shares.set(address, (await made).share);
    } catch (error) {
      const reason =
        error instanceof ImageUnavailable
          ? { unavailable: error.message }
          : { unreadable: String((error as Error).message) };
      const from = local(address) ? 'content/images' : /^https?:/.test(post.source) ? 'WordPress' : 'another host';
      problems.add(problem('imageUnusable', { address, from, ...reason }, { file: post.source, url: address }));
    }
  });
  await pruneImageCaches(options.root);
  return images;
}

const local = (address: string) => address.startsWith('/images/');
