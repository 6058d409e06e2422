/**
 * A real HTTP server on 127.0.0.1 that answers like WordPress 6's REST posts collection
 * (`/wp-json/wp/v2/posts`): per_page capped at 100, X-WP-Total and X-WP-TotalPages headers,
 * `rest_post_invalid_page_number` past the last page, `_embed` with featured media, `include`
 * (a comma list or `include[]`, as wp_parse_id_list reads it), `_fields` (top-level and dotted
 * fields, as rest_filter_response_fields), WordPress's error bodies, and switchable faults. Read
 * against WordPress 6's class-wp-rest-posts-controller.php and rest-api.php.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from './loopback-server.js';

export interface FakePost {
  id: number;
  date_gmt: string;
  modified_gmt: string;
  slug: string;
  /** WordPress answers a collection request with `publish` posts only, unless asked (with credentials) for others. */
  status: 'publish' | 'future' | 'draft' | 'private' | 'trash';
  title: string;
  excerpt: string;
  content: string;
  protected?: boolean;
  featuredMedia?: { id: number; alt: string; width: number; height: number };
  featured_image_src?: string;
}

export interface Faults {
  /** Delay before answering any request. */
  slowMs?: number;
  /** Answer this many requests with 500 first. */
  fail500?: number;
  /** Answer this many requests with 429 and this Retry-After (seconds) first. */
  rateLimit?: { times: number; retryAfter: string };
  /** Answer with an HTML page instead of JSON. */
  notJson?: boolean;
  /** Answer with a JSON object instead of an array. */
  notArray?: boolean;
  /** Destroy the connection of this many requests first (Infinity: always). */
  reset?: number;
  /** Send no X-WP-Total or X-WP-TotalPages headers. */
  noPagingHeaders?: boolean;
  /** Announce this in X-WP-TotalPages instead of the real number. */
  totalPages?: string;
  /** Answer every page, however far, with a full page of posts (a server that never ends). */
  endless?: boolean;
  /** Add this many bytes of padding to each post's content. */
  padBytes?: number;
  /** Answer as a WordPress older than 4.9.8, which knows no `_fields` (whole posts come back). */
  ignoreFields?: boolean;
  /** Answer as a proxy that drops the query's `include` (the newest posts come back). */
  ignoreInclude?: boolean;
}

export interface RequestRecord {
  url: string;
  authorization?: string;
  at: number;
  /** For a media file: 200, or 304 when the build's If-None-Match named the file it has. */
  status?: number;
}

/**
 * A picture for a media file: a JPEG with gradients and shapes (so it compresses like an
 * illustration or a photo, not like one flat colour), of the given size, the same for the same id.
 */
export async function mediaImage(id: number, width: number, height: number): Promise<Buffer> {
  const hue = (id * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 120 80">
    <defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,55%)"/><stop offset="1"
      stop-color="hsl(${(hue + 120) % 360},60%,35%)"/></linearGradient></defs>
    <rect width="120" height="80" fill="url(#g)"/><circle cx="${30 + (id % 50)}" cy="40" r="22"
      fill="hsl(${(hue + 200) % 360},80%,70%)" opacity="0.8"/>
    <rect x="70" y="${10 + (id % 30)}" width="38" height="30" rx="4" fill="#fff" opacity="0.6"/></svg>`;
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** 250 ordinary posts, newest with the highest id, dates an hour apart, half with images. */
export function makePosts(count: number): FakePost[] {
  const start = Date.parse('2025-01-01T08:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const id = i + 1;
    const date = new Date(start + id * 3_600_000).toISOString().slice(0, 19);
    const modified = new Date(start + id * 3_600_000 + 86_400_000).toISOString().slice(0, 19);
    return {
      id,
      date_gmt: date,
      modified_gmt: modified,
      slug: `growth-note-${id}`,
      status: 'publish' as const,
      title: `Growth note ${id}: what works &#8211; and what doesn&#8217;t`,
      excerpt: `<p>Short advice number ${id} for creators &amp; businesses [&hellip;]</p>\n`,
      content:
        `<p>Body of note ${id}. Post regularly and reply to comments.</p>\n<h2>Why it matters</h2>\n` +
        '<p>Consistency beats bursts.</p>\n',
      featuredMedia:
        id % 2 === 0 ? { id: 10_000 + id, alt: `Illustration ${id}`, width: 1200, height: 800 } : undefined,
    };
  });
}

/**
 * rest_filter_response_fields: keep the fields named (comma list; `content.rendered` names a
 * nested one); `_embedded` only when named.
 */
function onlyFields(json: Record<string, unknown>, fields: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)) {
    const [top, ...rest] = field.split('.');
    if (!(top! in json)) continue;
    if (rest.length === 0) out[top!] = json[top!];
    else {
      const inner = json[top!] as Record<string, unknown> | undefined;
      if (inner && typeof inner === 'object' && rest[0]! in inner)
        out[top!] = { ...(out[top!] as object), [rest[0]!]: inner[rest[0]!] };
    }
  }
  return out;
}

function restError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify({ code, message, data: { status } }));
}

export class FakeWordPress extends LoopbackServer {
  posts: FakePost[];
  faults: Faults = {};
  /** The media files' size, against what the API announces: a tenth keeps 250 posts' images quick to make. */
  mediaScale = 0.1;
  /** Every media file the same picture (made once per build); false: a picture of its own each. */
  sameMedia = true;
  /** Answer this many media requests with an HTML page (a bot check) instead of the image. */
  mediaAsPage = 0;
  /** Raised when the media files are replaced in place (a plugin that keeps their addresses). */
  mediaVersion = 0;
  /** Send media files with an ETag (as nginx and Apache do by default), or with Last-Modified only. */
  mediaEtags = true;
  /** Answer media requests with this status instead (403: a firewall blocking the build's address). */
  mediaStatus?: number;
  readonly requests: RequestRecord[] = [];
  private served = 0;

  constructor(posts: FakePost[] = makePosts(250)) {
    super();
    this.posts = posts;
  }

  /** The REST API root to give the build, like https://example.com/wp-json */
  get apiUrl(): string {
    return `${this.origin}/wp-json`;
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const record: RequestRecord = {
      url: url.pathname + url.search,
      authorization: req.headers.authorization,
      at: Date.now(),
    };
    this.requests.push(record);
    const n = this.served++;
    const f = this.faults;
    if (f.slowMs) await new Promise((resolve) => setTimeout(resolve, f.slowMs));
    const media = /^\/media\/(\d+)\.jpg$/.exec(url.pathname);
    if (media && this.mediaAsPage > 0) {
      this.mediaAsPage -= 1;
      res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' });
      res.end('<!doctype html><title>Checking your browser</title>');
      return;
    }
    if (media) {
      // Each post's featured image, at a tenth of the size the API announces unless told otherwise.
      const id = Number(media[1]);
      const declared = this.posts.find((post) => post.featuredMedia?.id === id)?.featuredMedia ?? {
        width: 1200,
        height: 800,
      };
      const scale = this.mediaScale;
      if (this.mediaStatus) {
        record.status = this.mediaStatus;
        res.writeHead(this.mediaStatus, { 'Content-Type': 'text/html; charset=UTF-8' });
        res.end('<!doctype html><title>Refused</title>');
        return;
      }
      // As nginx or Apache serve wp-content/uploads: an ETag and Last-Modified, and 304 when
      // If-None-Match names the file as it is, or (without it) If-Modified-Since is not older.
      const seed = (this.sameMedia ? 0 : id) + 1000 * this.mediaVersion;
      const etag = `"media-${seed}-${scale}"`;
      const modified = Date.UTC(2025, 0, 1 + this.mediaVersion);
      const validators = {
        ...(this.mediaEtags ? { ETag: etag } : {}),
        'Last-Modified': new Date(modified).toUTCString(),
      };
      const since = Date.parse(String(req.headers['if-modified-since'] ?? ''));
      const unchanged =
        req.headers['if-none-match'] !== undefined
          ? this.mediaEtags && req.headers['if-none-match'] === etag
          : since >= modified;
      if (unchanged) {
        record.status = 304;
        res.writeHead(304, validators);
        res.end();
        return;
      }
      record.status = 200;
      res.writeHead(200, { 'Content-Type': 'image/jpeg', ...validators });
      res.end(await mediaImage(seed, Math.round(declared.width * scale), Math.round(declared.height * scale)));
      return;
    }
    if (f.reset !== undefined && n < f.reset) {
      req.socket.destroy();
      return;
    }
    if (f.fail500 !== undefined && n < f.fail500) {
      return restError(res, 500, 'internal_server_error', 'There has been a critical error on this website.');
    }
    if (f.rateLimit && n < f.rateLimit.times) {
      res.writeHead(429, { 'Retry-After': f.rateLimit.retryAfter, 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify({ code: 'too_many_requests', message: 'Slow down.', data: { status: 429 } }));
      return;
    }
    if (f.notJson) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' });
      res.end('<!DOCTYPE html><html><body>Briefly unavailable for scheduled maintenance.</body></html>');
      return;
    }
    if (url.pathname !== '/wp-json/wp/v2/posts') {
      return restError(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
    }
    if (f.notArray) {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify({ posts: [] }));
      return;
    }
    const perPage = Number(url.searchParams.get('per_page') ?? 10);
    const page = Number(url.searchParams.get('page') ?? 1);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
      return restError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): per_page');
    }
    if (!Number.isInteger(page) || page < 1)
      return restError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): page');
    // The `status` argument defaults to publish; other statuses need credentials (rest_invalid_param without them).
    const status = url.searchParams.get('status') ?? 'publish';
    if (status !== 'publish' && !req.headers.authorization)
      return restError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): status');
    // `include`: wp_parse_id_list, absint of each part of a comma list or of include[].
    const includeParts = [...url.searchParams.getAll('include'), ...url.searchParams.getAll('include[]')]
      .flatMap((value) => value.split(/[\s,]+/))
      .filter(Boolean);
    const include =
      f.ignoreInclude || includeParts.length === 0
        ? undefined
        : includeParts.map((v) => Math.abs(parseInt(v, 10) || 0));
    const sorted = this.posts
      .filter((post) => post.status === status && (!include || include.includes(post.id)))
      .sort((a, b) => b.date_gmt.localeCompare(a.date_gmt));
    const total = sorted.length;
    const totalPages = Math.ceil(total / perPage);
    if (page > totalPages && total > 0 && !f.endless) {
      return restError(
        res,
        400,
        'rest_post_invalid_page_number',
        'The page number requested is larger than the number of pages available.',
      );
    }
    const embed = url.searchParams.has('_embed');
    const start = f.endless ? 0 : (page - 1) * perPage;
    const fields = f.ignoreFields ? null : url.searchParams.get('_fields');
    const body = sorted
      .slice(start, start + perPage)
      .map((post) => (fields ? onlyFields(this.toJson(post, embed), fields) : this.toJson(post, embed)));
    if (f.padBytes)
      for (const post of body) (post.content as { rendered: string }).rendered += `<p>${'x'.repeat(f.padBytes)}</p>`;
    const paging = f.noPagingHeaders
      ? {}
      : { 'X-WP-Total': String(total), 'X-WP-TotalPages': f.totalPages ?? String(totalPages) };
    res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8', ...paging });
    res.end(JSON.stringify(body));
  }

  private toJson(post: FakePost, embed: boolean): Record<string, unknown> {
    const json: Record<string, unknown> = {
      id: post.id,
      date: post.date_gmt,
      date_gmt: post.date_gmt,
      modified: post.modified_gmt,
      modified_gmt: post.modified_gmt,
      slug: post.slug,
      status: post.status,
      type: 'post',
      link: `${this.origin}/${post.slug}/`,
      title: { rendered: post.title },
      content: { rendered: post.protected ? '' : post.content, protected: Boolean(post.protected) },
      excerpt: { rendered: post.protected ? '' : post.excerpt, protected: Boolean(post.protected) },
      author: 1,
      featured_media: post.featuredMedia?.id ?? 0,
      categories: [1],
    };
    if (post.featured_image_src) json.featured_image_src = post.featured_image_src;
    if (embed && post.featuredMedia) {
      const m = post.featuredMedia;
      json._embedded = {
        'wp:featuredmedia': [
          {
            id: m.id,
            type: 'attachment',
            alt_text: m.alt,
            media_type: 'image',
            mime_type: 'image/jpeg',
            source_url: `${this.origin}/media/${m.id}.jpg`,
            media_details: { width: m.width, height: m.height, file: `${m.id}.jpg`, sizes: {} },
          },
        ],
      };
    }
    return json;
  }
}
