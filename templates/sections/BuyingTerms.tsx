import type { Html as HtmlValue } from '../view-model.js';

/** Under a grid of packages: how VAT stands and the right to cancel, each linked to its full text. */
export function BuyingTerms({ terms }: { terms: HtmlValue[] }) {
  return (
    <ul className="before-you-buy" aria-label="Before you buy">
      {terms.map((fact, i) => (
        /* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown from site.yaml's beforeYouBuy,
           rendered and checked by content/markdown.ts */
        <li key={i} dangerouslySetInnerHTML={{ __html: fact.html }} />
      ))}
    </ul>
  );
}
