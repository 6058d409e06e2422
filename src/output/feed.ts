import type { Post } from '../content/post.js';

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

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An Atom feed (RFC 4287) of the given posts; the summary is the excerpt as plain text. */
export function atomFeed(posts: readonly Post[], info: FeedInfo): string {
  const entries = posts.map((post) => {
    const url = info.postUrl(post);
    return [
      '<entry>',
      `<title>${escapeXml(post.titleText)}</title>`,
      `<link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
      `<id>${escapeXml(url)}</id>`,
      `<published>${post.date.toISOString()}</published>`,
      `<updated>${post.modified.toISOString()}</updated>`,
      `<summary>${escapeXml(post.excerptText)}</summary>`,
      '</entry>',
    ].join('');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-GB">',
    `<title>${escapeXml(info.title)}</title>`,
    `<subtitle>${escapeXml(info.subtitle)}</subtitle>`,
    `<link rel="self" type="application/atom+xml" href="${escapeXml(info.feedUrl)}"/>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(info.blogUrl)}"/>`,
    `<id>${escapeXml(info.blogUrl)}</id>`,
    `<updated>${info.updated.toISOString()}</updated>`,
    `<author><name>${escapeXml(info.author)}</name></author>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
