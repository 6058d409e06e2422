import { decodeHTML } from 'entities';
import MarkdownIt from 'markdown-it';
import type * as z from 'zod';
import { problem, type Place } from '../errors/catalogue.js';
import type { Problem } from '../errors/storefront-error.js';
import { nearest } from '../util/nearest.js';
import { describeCodePoint, disguiseProblem, findDisguise } from '../util/plain-text.js';

/**
 * Rendered Markdown with the links it contains, so the cross-check can verify every internal
 * link of the content without parsing HTML. Plain data told apart by `kind`.
 */
export interface Markdown {
  readonly kind: 'markdown';
  readonly html: string;
  readonly links: readonly string[];
}

export function isMarkdown(value: unknown): value is Markdown {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'markdown';
}

// Raw HTML is off: content/ holds prose, never markup or script. Typographer and linkify are
// off so the text renders exactly as written.
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

type Tokens = ReturnType<InstanceType<typeof MarkdownIt>['parse']>;

function collectLinks(tokens: Tokens, into: string[]): void {
  for (const token of tokens) {
    if (token.type === 'link_open') {
      const href = token.attrGet('href');
      if (href) into.push(String(href));
    }
    if (token.children) collectLinks(token.children, into);
  }
}

/**
 * The addresses of the <img> elements of rendered HTML (Markdown, or sanitised WordPress HTML):
 * the link check refuses foreign ones on pages, the image stage makes the posts'.
 */
export function imageSources(html: string): string[] {
  return [...html.matchAll(/<img\b[^>]*?\ssrc="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

/** A piece of the text a visitor reads, and the line of the Markdown (from 0) it starts on. */
interface Shown {
  text: string;
  line: number;
}

/**
 * What a visitor reads of parsed Markdown, piece by piece: each block's text with its character
 * references decoded (`&#x202E;` is the character, as the browser shows it) and its soft and hard
 * breaks as line feeds, code as written, and the titles of links and images and the language of
 * a fence, which the page carries as attributes. Addresses are left out: markdown-it
 * percent-encodes every character of them that is not plain ASCII.
 */
function shownText(tokens: Tokens): Shown[] {
  const pieces: Shown[] = [];
  // A table cell's text has no line of its own: it is on its row's.
  let line = 0;
  for (const token of tokens) {
    if (token.map) line = token.map[0];
    if (token.type === 'fence' || token.type === 'code_block') {
      // A fence's first line is its opening ```, the code starts on the next.
      pieces.push({ text: token.content, line: token.type === 'fence' ? line + 1 : line });
      if (token.info) pieces.push({ text: token.info, line });
    } else if (token.type === 'inline') {
      let text = '';
      const inline = (children: Tokens) => {
        for (const child of children) {
          if (child.type === 'softbreak' || child.type === 'hardbreak') text += '\n';
          else if (child.type === 'text' || child.type === 'text_special' || child.type === 'code_inline')
            text += child.content;
          const title = child.attrGet('title');
          if (title) pieces.push({ text: title, line: line + text.split('\n').length - 1 });
          // An image's alt is the text of its children.
          if (child.type === 'image' && child.children) inline(child.children);
        }
      };
      inline(token.children ?? []);
      pieces.push({ text, line });
    }
  }
  return pieces;
}

/** A character of rendered Markdown that the prose rule refuses: where, what, and what to do. */
export interface ShownDisguise {
  /** The line of the Markdown it is on, from 1. */
  line: number;
  /** The problem's message, where it is said by the caller: `${what}${where}, ${why}`. */
  what: string;
  why: string;
  hint: string;
}

/**
 * The first character the prose rule (util/plain-text.ts) refuses in what a visitor reads of
 * this Markdown. The rule runs on the decoded text, not on the source: `&#x202E;` and `&#8238;`
 * become the character they name only here, and a post's body has no other check.
 */
function shownDisguise(source: string, tokens: Tokens): ShownDisguise | undefined {
  const found = shownText(tokens).flatMap((piece) => {
    const disguise = findDisguise(piece.text, 'prose');
    return disguise ? [{ piece, disguise }] : [];
  });
  if (found.length === 0) return undefined;
  const { piece, disguise } = found[0]!;
  const others = found.reduce((sum, { disguise: d }) => sum + 1 + d.others, 0) - 1;
  const before = [...piece.text].slice(0, disguise.position - 1).join('');
  // Typed as itself it is invisible in the source; as a reference it can be searched for.
  const written = source.includes(String.fromCodePoint(disguise.codePoint))
    ? ''
    : ' (written as a character reference, &#…;)';
  const more = others > 0 ? ` (and ${others} more such character${others > 1 ? 's' : ''})` : '';
  return {
    line: piece.line + before.split('\n').length,
    what: `contains ${describeCodePoint(disguise.codePoint)}${written}`,
    why: `${disguise.why}${more}`,
    hint:
      `${disguiseProblem(disguise, 'prose').hint} ` +
      'A character reference such as &#x202E; counts as the character it names.',
  };
}

/** Rendered Markdown, and the first character of what it shows that the prose rule refuses. */
export function renderCheckedMarkdown(source: string): { markdown: Markdown; disguise?: ShownDisguise } {
  const env = {};
  const tokens = md.parse(source, env);
  const links: string[] = [];
  collectLinks(tokens, links);
  const markdown: Markdown = { kind: 'markdown', html: md.renderer.render(tokens, md.options, env), links };
  const disguise = shownDisguise(source, tokens);
  return disguise ? { markdown, disguise } : { markdown };
}

/** Only the check of renderCheckedMarkdown, for a text that is rendered in parts (a text page's blocks). */
export function checkMarkdown(source: string): ShownDisguise | undefined {
  return shownDisguise(source, md.parse(source, {}));
}

/**
 * Rendered Markdown. As a schema's transform (`.transform(renderMarkdown)`), a character that
 * the rendered text shows and the prose rule refuses is an issue of the field, with its hint.
 */
export function renderMarkdown(source: string, ctx?: z.RefinementCtx<string>): Markdown {
  const { markdown, disguise } = renderCheckedMarkdown(source);
  if (disguise && ctx) {
    const where = source.includes('\n') ? ` on line ${disguise.line} of the text` : ' once rendered';
    ctx.addIssue({
      code: 'custom',
      message: `${disguise.what}${where}, ${disguise.why}`,
      params: { hint: disguise.hint },
    });
  }
  return markdown;
}

/** A second-level heading of rendered Markdown: its id (the anchor `#id`) and its plain text. */
export interface Heading {
  readonly id: string;
  readonly text: string;
}

/**
 * An anchor from a heading's text, without its section number, so renumbering the sections keeps
 * the links: "7. Your right to cancel" → `your-right-to-cancel`.
 */
export function headingSlug(text: string): string {
  const slug = (text.replace(/^\s*\d+(?:\.\d+)*[.)]?\s+(?=\S)/, '') || text)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'section';
}

/**
 * Gives every `<h2>` and `<h3>` of rendered Markdown an id, so that a link can name a section or
 * a part of one (`/term-of-service#free-refill`), and lists the `<h2>`s in order for a page's
 * contents. The id is the slug of the heading's text, made unique with `-2`, `-3`… against the
 * others and against `taken` (the ids the rest of the page uses); a heading that already has an
 * id keeps it. Raw HTML is off in Markdown, so every `<h2` or `<h3` of the HTML is a heading.
 */
export function withHeadingIds(html: string, taken: Iterable<string> = []): { html: string; headings: Heading[] } {
  const used = new Set(taken);
  for (const match of html.matchAll(/\sid="([^"]*)"/g)) used.add(decodeHTML(match[1]!));
  const headings: Heading[] = [];
  const heading = /<h([23])(\s[^>]*)?>([\s\S]*?)<\/h\1>/g;
  const out = html.replace(heading, (whole, level: string, attrs: string | undefined, inner: string) => {
    const text = decodeHTML(inner.replace(/<[^>]*>/g, ''))
      .replace(/\s+/g, ' ')
      .trim();
    const existing = attrs && /\sid="([^"]*)"/.exec(attrs)?.[1];
    let id = existing && decodeHTML(existing);
    if (!id) {
      const base = headingSlug(text);
      id = base;
      for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
      used.add(id);
    }
    if (level === '2') headings.push({ id, text });
    return existing ? whole : `<h${level} id="${id}"${attrs ?? ''}>${inner}</h${level}>`;
  });
  return { html: out, headings };
}

/**
 * What a text page's conditional blocks may depend on, each true or false for this build:
 * `newsletter` is true when a newsletter sign-up form is shown (`newsletterUrl` is set).
 */
export type Conditions = Readonly<Record<string, boolean>>;

const IF_LINE = /^[ \t]*<!--[ \t]*if[ \t]+([A-Za-z][A-Za-z0-9-]*)[ \t]*-->[ \t]*$/;
const END_LINE = /^[ \t]*<!--[ \t]*end[ \t]+if[ \t]*-->[ \t]*$/;
/** A line that looks meant as a marker; one that is not exactly one is a mistake, not text. */
const MARKER_LIKE = /^[ \t]*<!--[ \t]*(?:if|end)\b/i;
/**
 * Keeps or drops the blocks of a Markdown body wrapped in marker lines:
 *
 *     <!-- if newsletter -->
 *     ## When you sign up to our newsletter
 *     ...
 *     <!-- end if -->
 *
 * The lines between are kept when the condition is true and dropped otherwise; the marker lines
 * themselves never reach the page. Each marker is a line of its own; blocks do not nest. A
 * mistake in the blocks is a problem at `at(line)`, its line in the body (1 for the first).
 */
export function keepConditionalBlocks(
  body: string,
  conditions: Conditions,
  at: (line: number) => Place = (line) => ({ line }),
): { body: string; problems: Problem[] } {
  const problems: Problem[] = [];
  const kept: string[] = [];
  let open: { name: string; line: number; keep: boolean } | undefined;
  const lines = body.split('\n');
  lines.forEach((text, i) => {
    const line = i + 1;
    const start = IF_LINE.exec(text.replace(/\r$/, ''));
    if (start) {
      const name = start[1]!;
      if (open) {
        problems.push(problem('blockNested', { name, opened: open.line }, at(line)));
      } else if (!(name in conditions)) {
        const known = Object.keys(conditions);
        problems.push(problem('blockConditionUnknown', { name, known, guess: nearest(name, known) }, at(line)));
        open = { name, line, keep: true };
      } else open = { name, line, keep: conditions[name]! };
      return;
    }
    if (END_LINE.test(text.replace(/\r$/, ''))) {
      if (!open) problems.push(problem('blockEndUnopened', {}, at(line)));
      open = undefined;
      return;
    }
    if (MARKER_LIKE.test(text)) {
      problems.push(problem('blockMarkerMalformed', { written: text.trim() }, at(line)));
      return;
    }
    if (!open || open.keep) kept.push(text);
  });
  if (open) {
    problems.push(problem('blockNeverClosed', { name: open.name }, at(open.line)));
  }
  return { body: kept.join('\n'), problems };
}
