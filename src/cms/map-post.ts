import * as z from 'zod';
import { isAllowedImage } from '../config/load-config.js';
import type { Post } from '../content/post.js';
import { unsafeSlugReason } from '../content/post-slug.js';
import { problem } from '../errors/catalogue.js';
import type { ProblemList } from '../errors/storefront-error.js';
import { describeCodePoint } from '../util/plain-text.js';
import { escapeMarkup } from '../util/escape.js';
import { findHtmlDisguise, htmlToText, sanitizeBody, sanitizeExcerpt, sanitizeTitle } from './sanitize.js';

/** The fields of a WordPress REST post that the site uses; everything else is ignored. */
const rendered = z.object({ rendered: z.string(), protected: z.boolean().optional() });
const wordpressPost = z.object({
  id: z.number(),
  slug: z.string(),
  status: z.string().optional(),
  date_gmt: z.string(),
  modified_gmt: z.string().optional(),
  link: z.string().optional(),
  title: rendered,
  excerpt: rendered,
  content: rendered,
  featured_image_src: z.string().optional(),
  _embedded: z
    .object({
      'wp:featuredmedia': z.array(z.unknown()).optional(),
    })
    .optional(),
});

const media = z.object({
  source_url: z.string(),
  alt_text: z.string().optional(),
  media_details: z.object({ width: z.number().optional(), height: z.number().optional() }).optional(),
});

/** WordPress's *_gmt fields are UTC without a zone: 2026-03-14T09:00:00. */
function gmtDate(value: string): Date {
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
}

function featuredImage(post: z.infer<typeof wordpressPost>, alt: string): Post['image'] {
  const embedded = media.safeParse(post._embedded?.['wp:featuredmedia']?.[0]);
  // A site that adds featured_image_src (a common plugin field) takes precedence, as the
  // old front end used it; core WordPress only has the embedded media.
  const src = post.featured_image_src || (embedded.success ? embedded.data.source_url : undefined);
  if (!src || !/^https?:\/\//i.test(src)) return undefined;
  const details = embedded.success ? embedded.data.media_details : undefined;
  return {
    src,
    alt: (embedded.success ? embedded.data.alt_text : undefined) || alt,
    // Width and height are always set so the image reserves its space (no layout shift).
    width: details?.width ?? 1200,
    height: details?.height ?? 630,
  };
}

/** The most a post's body may weigh, in characters: a long article is a few hundred kilobytes. */
export const MAX_POST_CHARS = 2 * 1024 * 1024;

export interface MappedPosts {
  posts: Post[];
  /** Password-protected posts left out: a static page cannot enforce a password. */
  skippedProtected: number;
  skippedUnpublished: number;
  /** Images (featured or in a body) from hosts the site's policy does not allow, left out. */
  imagesLeftOut: number;
}

/** Maps raw WordPress posts to the site's post type, sanitising every piece of HTML. */
export function mapWordPressPosts(
  items: readonly unknown[],
  apiUrl: string,
  imageOrigins: readonly string[],
  problems: ProblemList,
): MappedPosts {
  const posts: Post[] = [];
  let skippedProtected = 0;
  let skippedUnpublished = 0;
  let imagesLeftOut = 0;
  const allowed = (src: string) => isAllowedImage(src, imageOrigins);
  const bySlug = new Map<string, number>();
  items.forEach((item, index) => {
    const parsed = wordpressPost.safeParse(item);
    const where = `${apiUrl}/wp/v2/posts`;
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = `[${index}]${issue.path.length ? `.${issue.path.join('.')}` : ''}`;
      problems.add(problem('cmsPostMissingField', { issue: issue.message }, { url: where, field }));
      return;
    }
    const raw = parsed.data;
    if (raw.status !== undefined && raw.status !== 'publish') {
      skippedUnpublished += 1;
      return;
    }
    if (raw.content.protected || raw.excerpt.protected) {
      skippedProtected += 1;
      return;
    }
    let slug: string;
    try {
      slug = decodeURIComponent(raw.slug);
    } catch {
      slug = raw.slug;
    }
    const reason = unsafeSlugReason(slug);
    if (reason) {
      problems.add(
        problem(
          'cmsPostSlugUnsafe',
          { id: raw.id, slug: raw.slug, reason },
          { url: `${where}/${raw.id}`, field: 'slug' },
        ),
      );
      return;
    }
    const other = bySlug.get(slug);
    if (other !== undefined) {
      problems.add(
        problem(
          'cmsPostSlugTaken',
          { first: other, second: raw.id, slug },
          { url: `${where}/${raw.id}`, field: 'slug' },
        ),
      );
      return;
    }
    const titleText = htmlToText(raw.title.rendered);
    if (titleText === '') {
      problems.add(problem('cmsPostUntitled', { id: raw.id, slug }, { url: `${where}/${raw.id}`, field: 'title' }));
      return;
    }
    if (raw.content.rendered.length > MAX_POST_CHARS) {
      const size = { id: raw.id, slug, characters: raw.content.rendered.length, most: MAX_POST_CHARS };
      problems.add(problem('cmsPostTooLarge', size, { url: `${where}/${raw.id}`, field: 'content' }));
      return;
    }
    bySlug.set(slug, raw.id);
    const date = gmtDate(raw.date_gmt);
    let leftOut = 0;
    const contentHtml = sanitizeBody(raw.content.rendered, allowed, () => (leftOut += 1));
    let image = featuredImage(raw, titleText);
    if (image && !allowed(image.src)) {
      image = undefined;
      leftOut += 1;
    }
    const titleHtml = sanitizeTitle(raw.title.rendered);
    const excerptHtml = sanitizeExcerpt(raw.excerpt.rendered);
    // Checked as published: after sanitising, references decoded. The featured image's alt is
    // written into the page as a value, escaped.
    const disguised = (
      [
        ['title', titleHtml],
        ['excerpt', excerptHtml],
        ['content', contentHtml],
        // Its alt when WordPress gives one; else it is the title, checked already.
        ['featured image alt', image && image.alt !== titleText ? escapeMarkup(image.alt) : ''],
      ] as const
    ).flatMap(([field, html]) => {
      const found = findHtmlDisguise(html);
      if (!found) return [];
      const { disguise, after } = found;
      const character = describeCodePoint(disguise.codePoint);
      const { why, others } = disguise;
      problems.add(
        problem(
          'cmsPostDisguisedText',
          { id: raw.id, slug, field, character, after, why, others },
          { url: `${where}/${raw.id}`, field },
        ),
      );
      return [field];
    });
    if (disguised.length) return;
    imagesLeftOut += leftOut;
    posts.push({
      id: String(raw.id),
      slug,
      titleHtml,
      titleText,
      excerptHtml,
      excerptText: htmlToText(raw.excerpt.rendered),
      contentHtml,
      links: [],
      date,
      modified: raw.modified_gmt ? gmtDate(raw.modified_gmt) : date,
      image,
      source: `${where}/${raw.id}`,
    });
  });
  return { posts, skippedProtected, skippedUnpublished, imagesLeftOut };
}
