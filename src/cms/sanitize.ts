import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';
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
      const linked = href.startsWith('#') && href.length > 1 ? { ...attribs, href: `#${ID_PREFIX}${href.slice(1)}` } : attribs;
      return /^https?:/i.test(href) ? { tagName, attribs: { ...linked, rel: 'noopener' } } : { tagName, attribs: linked };
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
