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

/** What XML 1.0 cannot carry, even as a reference: controls but tab, LF and CR; U+FFFE, U+FFFF; half a character. */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/u;

/**
 * Text for the feed. The content check refuses such characters in every published text (plain
 * text's prose rule): one here is the generator's mistake, so it stops the build rather than
 * write a feed that no reader can parse, or alter a text without saying so.
 */
function xmlText(text: string, what: string): string {
  const bad = NOT_XML.exec(text);
  if (bad) {
    const codePoint = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new Error(`${what} holds U+${codePoint}, which XML cannot carry; the content check should have refused it`);
  }
  return escapeMarkup(text);
}

/** An Atom feed (RFC 4287) of the given posts; the summary is the excerpt as plain text. */
export function atomFeed(posts: readonly Post[], info: FeedInfo): string {
  const entries = posts.map((post) => {
    const url = info.postUrl(post);
    return [
      '<entry>',
      `<title>${xmlText(post.titleText, `The title of ${post.source}`)}</title>`,
      `<link rel="alternate" type="text/html" href="${escapeMarkup(url)}"/>`,
      `<id>${escapeMarkup(url)}</id>`,
      `<published>${post.date.toISOString()}</published>`,
      `<updated>${post.modified.toISOString()}</updated>`,
      `<summary>${xmlText(post.excerptText, `The excerpt of ${post.source}`)}</summary>`,
      '</entry>',
    ].join('');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-GB">',
    `<title>${xmlText(info.title, "The blog's title")}</title>`,
    `<subtitle>${xmlText(info.subtitle, "The blog's description")}</subtitle>`,
    `<link rel="self" type="application/atom+xml" href="${escapeMarkup(info.feedUrl)}"/>`,
    `<link rel="alternate" type="text/html" href="${escapeMarkup(info.blogUrl)}"/>`,
    `<id>${escapeMarkup(info.blogUrl)}</id>`,
    `<updated>${info.updated.toISOString()}</updated>`,
    `<author><name>${xmlText(info.author, 'The author')}</name></author>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
