import MarkdownIt from 'markdown-it';

/**
 * Rendered Markdown with the links it contains, so the cross-check can verify every internal
 * link of the content without parsing HTML.
 */
export class Markdown {
  constructor(
    readonly html: string,
    readonly links: readonly string[],
  ) {}
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

export function renderMarkdown(source: string): Markdown {
  const env = {};
  const tokens = md.parse(source, env);
  const links: string[] = [];
  collectLinks(tokens, links);
  return new Markdown(md.renderer.render(tokens, md.options, env), links);
}
