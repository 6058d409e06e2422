import * as z from 'zod';
import { isAllowedImage } from '../config/load-config.js';
import type { Post } from '../content/post.js';
import { unsafeSlugReason } from '../content/post-slug.js';
import { codes } from '../errors/catalogue.js';
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
      problems.add({
        code: codes.cmsBadPost,
        url: where,
        field: `[${index}]${issue.path.length ? `.${issue.path.join('.')}` : ''}`,
        message: `A post from WordPress is missing a field the site needs: ${issue.message}.`,
        hint: 'The site reads id, slug, date_gmt, title, excerpt and content of /wp/v2/posts.',
      });
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
      problems.add({
        code: codes.badPostSlug,
        url: `${where}/${raw.id}`,
        field: 'slug',
        message: `The post ${raw.id} has the slug ${JSON.stringify(raw.slug)}, which cannot be a page address: ${reason}.`,
        hint: "Edit the post's slug (permalink) in WordPress.",
      });
      return;
    }
    const other = bySlug.get(slug);
    if (other !== undefined) {
      problems.add({
        code: codes.duplicatePostSlug,
        url: `${where}/${raw.id}`,
        field: 'slug',
        message: `The posts ${other} and ${raw.id} both have the slug "${slug}", so they would share one address.`,
        hint: 'Give one of them another slug in WordPress.',
      });
      return;
    }
    const titleText = htmlToText(raw.title.rendered);
    if (titleText === '') {
      problems.add({
        code: codes.cmsBadPost,
        url: `${where}/${raw.id}`,
        field: 'title',
        message: `The post ${raw.id} (${slug}) has no title once its HTML is removed, so its page would have an empty heading and title.`,
        hint: 'Give the post a title in WordPress.',
      });
      return;
    }
    if (raw.content.rendered.length > MAX_POST_CHARS) {
      problems.add({
        code: codes.cmsBadPost,
        url: `${where}/${raw.id}`,
        field: 'content',
        message: `The post ${raw.id} (${slug}) is ${Math.round(raw.content.rendered.length / 1024)} KB of HTML, more than the ${MAX_POST_CHARS / 1024 / 1024} MB a post may be.`,
        hint: 'Split the post, or move large embedded data (images as data: URLs) to media files.',
      });
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
      const more =
        disguise.others > 0 ? ` (and ${disguise.others} more such character${disguise.others > 1 ? 's' : ''})` : '';
      problems.add({
        code: codes.cmsBadPost,
        url: `${where}/${raw.id}`,
        field,
        message: `The post ${raw.id} (${slug}) has ${describeCodePoint(disguise.codePoint)} in its ${field}${after ? ` after "${after}"` : ' at the start'}, ${disguise.why}${more}.`,
        hint: 'Edit the post in WordPress and delete the character: it may be invisible (retype the words around it), or a reference such as &#x202E; in the code editor. Right-to-left text may use the marks U+200F and U+200E, or wrap a phrase in U+2067 … U+2069 on one line.',
      });
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
