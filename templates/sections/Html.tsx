import type { Html as HtmlValue } from '../view-model.js';

/** Markdown rendered by the content stage (raw HTML is off there), or sanitised CMS HTML. */
export function Html({
  value,
  className = 'prose',
  id,
}: {
  value: HtmlValue | undefined;
  className?: string;
  id?: string;
}) {
  if (!value) return null;
  /* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown rendered and checked by the content stage
     (content/markdown.ts) */
  return <div className={className} id={id} dangerouslySetInnerHTML={{ __html: value.html }} />;
}
