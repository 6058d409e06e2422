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
  contentHtml: string;
  /** Internal links found in the body, for the link check (local posts only). */
  links: readonly string[];
  date: Date;
  modified: Date;
  image?: { src: string; alt: string; width: number; height: number };
  /** Where it came from, for messages: a file path or a URL. */
  source: string;
  /** `draft: true` in a local post's front matter. */
  draft?: boolean;
  /** Set only in a build that shows unpublished posts (`--drafts`, `dev`): why this one is not public. */
  unpublished?: 'draft' | 'scheduled';
}
