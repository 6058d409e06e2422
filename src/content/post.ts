import { hashText } from '../util/hash.js';

/**
 * A blog post, the same whether it comes from a local Markdown file or from WordPress.
 * HTML fields are safe to write into a page (rendered from our Markdown, or sanitised).
 */
export interface Post {
  id: string;
  /** One path segment, as it appears in /blog/{slug}. */
  slug: string;
  titleHtml: string;
  /** The title as plain text, for <title>, meta tags and feeds. */
  titleText: string;
  excerptHtml: string;
  excerptText: string;
  /** The body. Read only when the post's page is rendered (see cache/post-cache.ts). */
  readonly contentHtml: string;
  /**
   * Changes whenever anything of the post may change, its body included: the file's stamp for
   * a local post, a hash of every field for a CMS post. The page cache compares this instead of
   * the post, so an unchanged post's body need not even be read.
   */
  contentKey: string;
  /**
   * Changes whenever what other pages show of the post changes (its card on the blog's list
   * pages, its feed entry, its sitemap line: see `cardKeyOf`), not with its body. A list page
   * is keyed by its posts' card keys, so an edit of a body leaves it alone.
   */
  cardKey: string;
  /** Internal links found in the body, for the link check (local posts only). */
  links: readonly string[];
  date: Date;
  modified: Date;
  image?: { src: string; alt: string; width: number; height: number };
  /** Where it came from, for messages: a file path or a URL. */
  source: string;
}

/** What pages other than its own show of a post: its address, title, excerpt, dates and image. */
export type PostCard = Pick<Post, 'slug' | 'titleHtml' | 'titleText' | 'excerptHtml' | 'excerptText' | 'date' | 'modified' | 'image'>;

/** The card key of a post (see `Post.cardKey`). */
export function cardKeyOf(post: PostCard): string {
  return hashText(
    post.slug,
    post.titleHtml,
    post.titleText,
    post.excerptHtml,
    post.excerptText,
    String(post.date.getTime()),
    String(post.modified.getTime()),
    post.image ? JSON.stringify(post.image) : '',
  );
}
