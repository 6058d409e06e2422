import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { formatPrice, indexCatalogue } from '../catalogue/catalogue-index.js';
import type { SiteContent } from '../content/site-content.js';
import { blogListPath, type Route } from '../routes/route-table.js';
import { readCacheFile } from '../util/inside-project.js';
import { limitConcurrency } from '../util/run-parallel.js';
import { writeFileAtomic } from '../util/write-atomic.js';
import { markUsed, pruneShareCards, shareDir } from './image-cache.js';
import { isImageOfType } from '../util/image-signature.js';
import { ALL_DRAWN, drawable, FONT_FILES, loadCardFont, type CardFont } from './share-card-font.js';

/** Open Graph and X show a 1.91:1 picture; 1200 x 630 is what they ask for. */
export const SHARE_CARD_SIZE = { width: 1200, height: 630 } as const;
/**
 * Part of every card's key: raise it when the drawing changes, or when sharp or opentype.js is
 * upgraded (either may change a pixel), so that no card kept in .cache/share/ is out of date.
 */
const DESIGN = 6;
/** A page's card: where it is published, and what it shows in words (og:image:alt). */
export interface ShareCard {
  src: string;
  alt: string;
}

export interface ShareCards {
  /**
   * By route path; every route has one. The 404 page shows the home page's, every blog list page
   * and every post the blog's (/blog): a post with a featured image shows that instead
   * (render/pages/blog-post-page.ts), so no card is drawn per post and their number does not grow with the blog.
   */
  byPath: Map<string, ShareCard>;
  /** The PNGs, once drawn: await them after rendering the pages. */
  files: Promise<{ file: string; contents: Buffer }[]>;
  /** Cards this build draws; the others come from .cache/share/. Final once `files` is. */
  readonly made: number;
}

export interface ShareCardOptions {
  root: string;
  /** Where templates/static/favicon.svg, the brand's mark, is. */
  generatorRoot: string;
  brandName: string;
  /** `warnings` receives a line per page whose card cannot draw a character of its heading. */
  content: Pick<SiteContent, 'catalogue' | 'site' | 'warnings'>;
}

/** What a card shows; its key is a hash of all of it. */
interface CardText {
  title: string;
  price?: string;
  /** Where the title is written, for a warning: the file and the field. */
  field: string;
}

/**
 * The share card of every kind of page: the brand's mark and name and the page's heading, and a
 * service page's starting price; one for all the blog's list pages and posts. About twenty,
 * however large the blog. Each is kept in .cache/share/ by a hash of what it shows, so a build
 * draws only the cards whose words changed, and one that draws none loads neither sharp nor the
 * font (the font only when a heading goes beyond ASCII, to name what it lacks in a warning); a
 * card no longer shown (a post's, drawn by earlier versions) is removed from there.
 *
 * Called before the images stage: the cards are drawn while the post images are made.
 */
export async function makeShareCards(routes: readonly Route[], options: ShareCardOptions): Promise<ShareCards> {
  const services = indexCatalogue(options.content.catalogue);
  const plainText = (route: Route): CardText | undefined => {
    switch (route.kind) {
      case 'page':
        return { title: route.page.hero.heading, field: `${route.source} › hero.heading` };
      case 'service': {
        const low = services.get(route.page.subCategory)?.lowPrice;
        return {
          title: route.page.hero.heading,
          price: low === undefined ? undefined : `from ${formatPrice(low)}`,
          field: `${route.source} › hero.heading`,
        };
      }
      case 'text':
        return { title: route.page.heading, field: `${route.source} › heading` };
      case 'blog-list':
        // The first list page's card is every list page's and every post's (see below).
        return route.pageNumber === 1
          ? { title: options.content.site.blog.heading, field: 'content/site.yaml › blog.heading' }
          : undefined;
      case 'blog-post':
      case 'not-found':
        return undefined;
    }
  };
  const mark = await readFile(path.join(options.generatorRoot, 'templates', 'static', 'favicon.svg'), 'utf8');
  const drawing = createHash('sha256').update(`${DESIGN}\0${options.brandName}\0${mark}\0`);
  // Every subset: a letter of any may be on a card.
  for (const file of FONT_FILES) drawing.update(readFileSync(file));
  const identity = drawing.digest();
  const dir = shareDir(options.root);
  let font: Promise<CardFont> | undefined;
  const cardFont = () => (font ??= loadCardFont(options.generatorRoot));
  let tools: Promise<Tools> | undefined;
  const byPath = new Map<string, ShareCard>();
  const cards = new Map<string, { file: string; contents: Promise<Buffer> }>();
  let made = 0;

  /** Each card's address and words, by route; its picture from .cache/share/, or drawn. */
  const plan = (texts: [Route, CardText][]) => {
    for (const [route, text] of texts) {
      // Composed: the same words typed with separate accents are the same card.
      const key = createHash('sha256')
        .update(identity)
        .update(`${text.title.normalize('NFC')}\0${text.price ?? ''}\0`)
        .digest('hex');
      const file = `assets/share/${key.slice(0, 16)}.png`;
      byPath.set(route.path, { src: `/${file}`, alt: text.price ? `${text.title} – ${text.price}` : text.title });
      if (!cards.has(key)) cards.set(key, { file, contents: keptOrDrawn(key, text) });
    }
  };
  // librsvg and the PNG encoder run on libuv's threads; two cards at a time is enough to keep
  // them busy without crowding out the images stage.
  const gate = limitConcurrency(2);
  const keptOrDrawn = async (key: string, text: CardText): Promise<Buffer> => {
    const cached = path.join(dir, `${key}.png`);
    const kept = await readCacheFile(cached, options.root);
    // Anything but a PNG under the card's name is drawn again.
    if (kept && isImageOfType(kept, cached)) {
      await markUsed(cached);
      return kept;
    }
    made += 1;
    return gate(async () => {
      tools ??= loadTools(cardFont());
      const drawn = await draw(await tools, text, options.brandName, mark);
      await writeFileAtomic(cached, drawn);
      return drawn;
    });
  };
  const texts = routes.flatMap((route) => {
    const text = plainText(route);
    return text ? [[route, text] as [Route, CardText]] : [];
  });
  // Checked here, not when a card is drawn, so that a warm build, which draws none, says it too;
  // and before any is drawn, so that a font that cannot be read leaves no drawing behind.
  // The font is loaded only for words beyond printable ASCII, all of which it has.
  const words: [where: string, text: string][] = [
    ['content/config.yaml › brandName (every card)', options.brandName],
    ...texts.map(([route, text]) => [`${text.field} (the card of ${route.path})`, text.title] as [string, string]),
  ];
  if (words.some(([, text]) => !ALL_DRAWN.test(text))) {
    const loaded = await cardFont();
    for (const [where, text] of words) {
      const { missing } = drawable(loaded, text);
      if (missing.length) options.content.warnings.push(cannotDraw(where, missing));
    }
  }
  plan(texts);
  // The blog's list pages and posts show the blog's card; the 404 page, which has no address of
  // its own and is never indexed, the home page's (a link to a missing page shows it).
  const blog = byPath.get(blogListPath(1));
  const home = byPath.get('/');
  for (const route of routes) {
    const shared = route.kind === 'blog-list' || route.kind === 'blog-post' ? blog : home;
    if (!byPath.has(route.path) && shared) byPath.set(route.path, shared);
  }

  const files = (async () => {
    const list = await Promise.all(
      [...cards.values()].map(async ({ file, contents }) => ({ file, contents: await contents })),
    );
    await pruneShareCards(options.root, cards.keys());
    // By name: the same site lists its files in the same order.
    return list.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  })();
  // A failure is reported when the write stage waits for the files, not as an unhandled rejection before.
  files.catch(() => {});
  return {
    byPath,
    files,
    get made() {
      return made;
    },
  };
}

interface Tools {
  sharp: typeof import('sharp')['default'];
  font: CardFont;
}

/** sharp and the font's outlines, loaded only when a card is drawn. */
async function loadTools(cardFont: Promise<CardFont>): Promise<Tools> {
  const [{ default: sharp }, font] = await Promise.all([import('sharp'), cardFont]);
  return { sharp, font };
}

/** Characters shown by name: enough to find them, however long a heading in another script is. */
const NAMED = 12;

/** The warning of words a card cannot draw: where they are written, each character and its code point. */
function cannotDraw(where: string, missing: string[]): string {
  const named = missing
    .slice(0, NAMED)
    .map((char) => `"${char}" (U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`);
  const more = missing.length > NAMED ? ` and ${missing.length - NAMED} more` : '';
  return (
    `${where}  The share card cannot draw ${named.join(', ')}${more}: its font, Inter Bold, has no such letter, ` +
    `so the picture leaves ${missing.length === 1 ? 'it' : 'them'} out (og:image:alt keeps every word). ` +
    'Inter draws Latin, Greek and Cyrillic letters: for a card that shows every word, write them in those.'
  );
}

/**
 * A line of text set in Inter Bold: its width, and `draw`, which places each glyph's outline at
 * (x, y) as a path, scaled from font units. (Each path is written out in full: librsvg draws that
 * in two thirds of the time it takes for <use> references to one copy.)
 */
function setLine(
  { font }: Tools,
  text: string,
  size: number,
): { width: number; draw: (x: number, y: number) => string } {
  // `text` has been through drawable(): the font has every character of it.
  const chars = [...text];
  const scale = size / font.unitsPerEm;
  const advances = chars.map(
    (char, i) => (font.glyphs[char]![0] + (font.kerning[char + (chars[i + 1] ?? '')] ?? 0)) * scale,
  );
  return {
    width: advances.reduce((sum, advance) => sum + advance, 0),
    draw: (x, y) => {
      let paths = '';
      chars.forEach((char, i) => {
        const outline = font.glyphs[char]![1];
        if (outline) {
          const transform = `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale.toFixed(5)})`;
          paths += `<path d="${outline}" transform="${transform}"/>`;
        }
        x += advances[i]!;
      });
      return paths;
    },
  };
}

/** Words onto lines no wider than `width`, greedily (a word longer than a line has one to itself). */
function wrap(tools: Tools, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && setLine(tools, `${last} ${word}`, size).width <= width)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

const MARGIN = 80;
const TEXT_WIDTH = SHARE_CARD_SIZE.width - 2 * MARGIN;
/** The title's sizes, largest first: the first that fits it on three lines (four at the last). */
const TITLE_SIZES = [76, 68, 60, 52, 46];

/**
 * `text` as it is when it fits in `width`, else cut at a word (a word wider than the line, at a
 * letter) and ended with an ellipsis.
 */
function shorten(tools: Tools, text: string, size: number, width: number): string {
  if (setLine(tools, text, size).width <= width) return text;
  let kept = text;
  while (kept.length > 1 && setLine(tools, `${kept}…`, size).width > width) {
    kept = kept.includes(' ') ? kept.slice(0, kept.lastIndexOf(' ')) : [...kept].slice(0, -1).join('');
  }
  return `${kept}…`;
}

/** The title at the largest size that fits, the last line cut with an ellipsis when none does. */
function fitTitle(tools: Tools, title: string): { lines: string[]; size: number } {
  const fitted = (lines: string[], size: number) => ({
    lines: lines.map((line) => shorten(tools, line, size, TEXT_WIDTH)),
    size,
  });
  for (const size of TITLE_SIZES.slice(0, -1)) {
    const lines = wrap(tools, title, size, TEXT_WIDTH);
    if (lines.length <= 3) return fitted(lines, size);
  }
  const size = TITLE_SIZES.at(-1)!;
  const lines = wrap(tools, title, size, TEXT_WIDTH);
  // More than four lines: the rest, which no line can hold, is cut on the fourth.
  return fitted(lines.length <= 4 ? lines : [...lines.slice(0, 3), lines.slice(3).join(' ')], size);
}

/**
 * One card as a PNG. Everything is drawn as shapes in one SVG (the mark as it is, the words as
 * paths), which sharp rasterises with librsvg.
 */
async function draw(tools: Tools, text: CardText, brandName: string, mark: string): Promise<Buffer> {
  const { width, height } = SHARE_CARD_SIZE;
  const markSize = 72;
  const brandX = MARGIN + markSize + 22;
  const brandText = drawable(tools.font, brandName).text;
  const brand = setLine(tools, shorten(tools, brandText, 40, SHARE_CARD_SIZE.width - MARGIN - brandX), 40).draw(
    brandX,
    MARGIN - 8 + markSize / 2 + 14,
  );
  const title = fitTitle(tools, drawable(tools.font, text.title).text);
  const lineHeight = Math.round(title.size * 1.15);
  // The title sits in the middle of the room between the brand line and the price (or the foot).
  const top = 190;
  const bottom = text.price ? 470 : height - MARGIN;
  const firstBaseline = top + (bottom - top - title.lines.length * lineHeight) / 2 + title.size * 0.9;
  const titleText = title.lines
    .map((line, i) => setLine(tools, line, title.size).draw(MARGIN, firstBaseline + i * lineHeight))
    .join('');
  let price = '';
  if (text.price) {
    const set = setLine(tools, text.price, 44);
    const pill = { height: 80, padding: 32, y: height - MARGIN - 80 };
    const pillWidth = (set.width + 2 * pill.padding).toFixed(1);
    price =
      `<rect x="${MARGIN}" y="${pill.y}" width="${pillWidth}" height="${pill.height}" rx="${pill.height / 2}" ` +
      `fill="#ffffff"/><g fill="#312e81">${set.draw(MARGIN + pill.padding, pill.y + 56)}</g>`;
  }
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    // One flat colour: librsvg fills a gradient pixel by pixel, which doubled the time of a card.
    '<rect width="100%" height="100%" fill="#282566"/>',
    // The favicon is an <svg> with a viewBox: nested, it scales into its place.
    mark.replace(/<svg\b/, `<svg x="${MARGIN}" y="${MARGIN - 8}" width="${markSize}" height="${markSize}"`),
    `<g fill="#ffffff">${brand}${titleText}</g>`,
    price,
    '</svg>',
  ].join('');
  // Opaque, so RGB: a quarter less to compress. At sharp's default level (6): 9 took twice as long.
  return tools.sharp(Buffer.from(svg)).removeAlpha().png().toBuffer();
}
