import type { Post } from '../content/post.js';
import { escapeMarkup } from '../util/escape.js';

export interface FeedInfo {
  title: string;
  subtitle: string;
  siteUrl: string;
  feedUrl: string;
  blogUrl: string;
  postUrl: (post: Post) => string;
  updated: Date;
  author: string;
}

/** An Atom feed (RFC 4287) of the given posts; the summary is the excerpt as plain text. */
export function atomFeed(posts: readonly Post[], info: FeedInfo): string {
  const entries = posts.map((post) => {
    const url = info.postUrl(post);
    return [
      '<entry>',
      `<title>${escapeMarkup(post.titleText)}</title>`,
      `<link rel="alternate" type="text/html" href="${escapeMarkup(url)}"/>`,
      `<id>${escapeMarkup(url)}</id>`,
      `<published>${post.date.toISOString()}</published>`,
      `<updated>${post.modified.toISOString()}</updated>`,
      `<summary>${escapeMarkup(post.excerptText)}</summary>`,
      '</entry>',
    ].join('');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-GB">',
    `<title>${escapeMarkup(info.title)}</title>`,
    `<subtitle>${escapeMarkup(info.subtitle)}</subtitle>`,
    `<link rel="self" type="application/atom+xml" href="${escapeMarkup(info.feedUrl)}"/>`,
    `<link rel="alternate" type="text/html" href="${escapeMarkup(info.blogUrl)}"/>`,
    `<id>${escapeMarkup(info.blogUrl)}</id>`,
    `<updated>${info.updated.toISOString()}</updated>`,
    `<author><name>${escapeMarkup(info.author)}</name></author>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
