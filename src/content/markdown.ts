import MarkdownIt from 'markdown-it';

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

export function renderMarkdown(source: string): Markdown {
  const env = {};
  const tokens = md.parse(source, env);
  const links: string[] = [];
  collectLinks(tokens, links);
  return { kind: 'markdown', html: md.renderer.render(tokens, md.options, env), links };
}
