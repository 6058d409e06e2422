import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';
import { findDisguise, type Disguise } from '../util/plain-text.js';
import { VIDEO_HOSTS } from './video-hosts.js';

/**
 * CMS HTML is untrusted: it is sanitised before it is written into a page. No script or style,
 * no event handlers, links only to http(s), mailto and tel, iframes only from video hosts.
 */

/** What every id from CMS HTML starts with: the page's own ids (main, the header's menus, faq) never do. */
export const ID_PREFIX = 'post-';

/** The attributes with the id (if any) prefixed; links to `#id` in the post are prefixed alike. */
function prefixId(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  return attribs.id ? { ...attribs, id: `${ID_PREFIX}${attribs.id}` } : attribs;
}

const bodyOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags.filter((tag) => tag !== 'style'),
    'img',
    'figure',
    'figcaption',
    // No <picture> or <source>: the image stage makes each image's own from its <img>.
    'iframe',
    'del',
    'ins',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen'],
    th: ['scope', 'colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    ol: ['start', 'reversed'],
    // Prefixed by the transform below, so that a post's ids never clash with the page's own.
    '*': ['id'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'], iframe: ['https'] },
  allowProtocolRelative: false,
  allowedIframeHostnames: VIDEO_HOSTS,
  allowIframeRelativeUrls: false,
  // An iframe whose src was refused (not a video host) is dropped rather than left empty.
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !frame.attribs.src,
  transformTags: {
    '*': (tagName, attribs) => ({ tagName, attribs: prefixId(attribs) }),
    // The '*' transform runs after these as well: they leave the id alone.
    a: (tagName, attribs) => {
      const href = attribs.href ?? '';
      const linked =
        href.startsWith('#') && href.length > 1 ? { ...attribs, href: `#${ID_PREFIX}${href.slice(1)}` } : attribs;
      return /^https?:/i.test(href)
        ? { tagName, attribs: { ...linked, rel: 'noopener' } }
        : { tagName, attribs: linked };
    },
  },
};

const excerptOptions: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'em', 'strong', 'b', 'i', 'br', 'span'],
  allowedAttributes: {},
};

/**
 * A post's body, safe to write into a page. Images from hosts the site's policy does not allow
 * (see imageOrigins) would not show: they are left out, and `leftOut` is told of each.
 */
export function sanitizeBody(html: string, isAllowedImage: (src: string) => boolean, leftOut: () => void): string {
  return sanitizeHtml(html, {
    ...bodyOptions,
    exclusiveFilter: (frame) => {
      const refused = frame.tag === 'img' && !isAllowedImage(frame.attribs.src ?? '');
      if (refused) leftOut();
      return refused || bodyOptions.exclusiveFilter!(frame);
    },
  });
}

export function sanitizeExcerpt(html: string): string {
  return sanitizeHtml(html, excerptOptions);
}

/** Title HTML with every tag removed; entities stay encoded so it is safe as HTML. */
export function sanitizeTitle(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} });
}

/** Plain text of CMS HTML: tags removed, entities decoded (`&#8217;` → ’), spaces collapsed. */
export function htmlToText(html: string): string {
  return decodeHTML(sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Tags inside a line of text: a direction isolate may open before one and close after it. */
const INLINE_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'del',
  'dfn',
  'em',
  'i',
  'ins',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
]);

/** A character of sanitised HTML that the prose rule refuses, and the visible text before it. */
export interface HtmlDisguise {
  disguise: Disguise;
  /** Up to 40 characters of the text before it, to find it by in the editor. */
  after: string;
}

/**
 * The first character the prose rule (util/plain-text.ts) refuses in what a visitor gets of
 * sanitised HTML: its text with character references decoded (`&#x202E;` is the character), a
 * block tag or a `<br>` ending a line, and each attribute's value (an image's alt, a link's
 * title), which a browser shows or reads aloud. sanitize-html writes `<`, `>` and `"` inside
 * text and values as references, so every `<` of its output opens a tag.
 */
export function findHtmlDisguise(html: string): HtmlDisguise | undefined {
  let text = '';
  const values: string[] = [];
  let last = 0;
  for (const tag of html.matchAll(/<(\/?)([a-zA-Z0-9]+)([^>]*)>/g)) {
    text += decodeHTML(html.slice(last, tag.index));
    last = tag.index + tag[0].length;
    if (!INLINE_TAGS.has(tag[2]!.toLowerCase())) text += '\n';
    for (const value of tag[3]!.matchAll(/="([^"]*)"/g)) values.push(decodeHTML(value[1]!));
  }
  text += decodeHTML(html.slice(last));
  const found = [text, ...values].flatMap((piece) => {
    const disguise = findDisguise(piece, 'prose');
    return disguise ? [{ piece, disguise }] : [];
  });
  if (found.length === 0) return undefined;
  const { piece, disguise } = found[0]!;
  const others = found.reduce((sum, { disguise: d }) => sum + 1 + d.others, 0) - 1;
  const before = [...piece]
    .slice(0, disguise.position - 1)
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return { disguise: { ...disguise, others }, after: [...before].slice(-40).join('') };
}
