/**
 * The files of a served folder, looked up by path on every request: `preview` and `dev` serve
 * a folder that each build replaces by renames, so nothing of an earlier folder (a listing, a
 * handle) may be kept. A file is served only when its real location (every link resolved) lies
 * inside the folder's real location: a link to /etc/passwd, to /etc or to the project in the
 * folder answers 404. Nothing is walked at start-up, so a link to a large or unreadable folder
 * costs nothing. Every error of the file system (a file removed by a build between two steps)
 * is a 404, never a thrown error that would end the server.
 */
import { constants, readFileSync, realpathSync } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { isBelow } from '../util/inside-project.js';

/** Content types of what a build writes, and of what people put beside it. */
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wasm: 'application/wasm',
  zip: 'application/zip',
};

/** The content type of a file by its name; a precompressed copy (`.br`, `.gz`) has its original's. */
export function contentType(file: string): string {
  const ext = path.extname(file).slice(1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}

/** Opening the final name never follows a link (realpath resolved them all; one swapped in since is refused). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * A file under `dir` (a path with forward slashes, as in a URL), read whole when its real
 * location is inside the real `dir`; undefined when it is not, is no file, or cannot be read.
 */
export function readInside(dir: string, file: string): string | undefined {
  try {
    const root = realpathSync(dir);
    const real = realpathSync(path.join(root, file));
    return isBelow(root, real) ? readFileSync(real, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

interface Opened {
  handle: FileHandle;
  size: number;
  mtime: Date;
}

/** Opens `file` (relative to the real `root`) when it is a regular file really inside `root`. */
async function openInside(root: string, file: string): Promise<Opened | undefined> {
  let handle: FileHandle | undefined;
  try {
    const real = await realpath(path.join(root, file));
    if (!isBelow(root, real)) return undefined;
    handle = await open(real, constants.O_RDONLY | NO_FOLLOW);
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      return undefined;
    }
    return { handle, size: stats.size, mtime: stats.mtime };
  } catch {
    await handle?.close().catch(() => {});
    return undefined;
  }
}

/**
 * The byte range of a `Range: bytes=…` header for a file of `size` bytes; null when it cannot be met;
 * undefined for none (or several).
 */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | null | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    // The last n bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : null;
}

export interface StaticOptions {
  /** Cache-Control for files when no `_headers` rule gave one (dev: `no-cache`); none by default. */
  cacheControl?: string;
}

/**
 * Serves `pathname` (decoded, starting with `/`, without the base path) from `dir` as sirv did:
 * the file itself, else `<path>.html`, else `<path>/index.html`; its precompressed `.br` or `.gz`
 * copy when the client accepts it; a weak ETag of size and time (304 on `If-None-Match`); one
 * byte range. Headers already set on `res` (from `_headers`) win. Resolves false, having sent
 * nothing, when there is no such file inside the folder.
 */
export async function serveFile(
  dir: string,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
  options: StaticOptions = {},
): Promise<boolean> {
  let root: string;
  try {
    // The folder by its path, now: a build may have swapped another one in since the last request.
    root = await realpath(dir);
  } catch {
    return false;
  }
  const bare = pathname.replace(/\/+$/, '');
  const names =
    pathname === '/'
      ? ['index.html']
      : [bare, `${bare}.html`, `${bare}/index.html`].map((name) => name.replace(/^\/+/, ''));
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const encodings: [string, string][] = [];
  if (/\b(br|brotli)\b/i.test(accepted)) encodings.push(['.br', 'br']);
  if (/\bgzip\b/i.test(accepted)) encodings.push(['.gz', 'gzip']);
  for (const name of names) {
    const original = await openInside(root, name);
    if (!original) continue;
    // The precompressed copy, when there is one and the client takes it.
    let chosen = original;
    let encoding: string | undefined;
    for (const [suffix, coding] of encodings) {
      const copy = await openInside(root, name + suffix);
      if (copy) {
        await original.handle.close().catch(() => {});
        chosen = copy;
        encoding = coding;
        break;
      }
    }
    send(req, res, name, chosen, encoding, options);
    return true;
  }
  return false;
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
  file: Opened,
  encoding: string | undefined,
  options: StaticOptions,
): void {
  const etag = `W/"${file.size}-${file.mtime.getTime()}"`;
  const setDefault = (header: string, value: string | number) => {
    if (!res.hasHeader(header)) res.setHeader(header, value);
  };
  setDefault('Content-Type', contentType(name));
  if (options.cacheControl) setDefault('Cache-Control', options.cacheControl);
  res.setHeader('Last-Modified', file.mtime.toUTCString());
  res.setHeader('ETag', etag);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Accept-Ranges', 'bytes');
  if (encoding) res.setHeader('Content-Encoding', encoding);
  const close = () => void file.handle.close().catch(() => {});
  const matches = String(req.headers['if-none-match'] ?? '')
    .split(',')
    .map((tag) => tag.trim());
  if (matches.includes(etag) || matches.includes('*')) {
    res.statusCode = 304;
    res.end();
    close();
    return;
  }
  const range = byteRange(req.headers.range, file.size);
  if (range === null) {
    res.writeHead(416, { 'Content-Range': `bytes */${file.size}` });
    res.end();
    close();
    return;
  }
  const { start, end } = range ?? { start: 0, end: file.size - 1 };
  if (range) res.setHeader('Content-Range', `bytes ${start}-${end}/${file.size}`);
  res.writeHead(range ? 206 : 200, { 'Content-Length': Math.max(0, end - start + 1) });
  if (req.method === 'HEAD' || file.size === 0) {
    res.end();
    close();
    return;
  }
  const stream = file.handle.createReadStream({ start, end, autoClose: true });
  // A read that fails halfway (the disk, a file truncated by hand) ends this response only.
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}
