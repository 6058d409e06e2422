import type { Html as HtmlValue } from '../view-model.js';

/** Markdown rendered by the content stage (raw HTML is off there), or sanitised CMS HTML. */
export function Html({ value, className = 'prose' }: { value: HtmlValue | undefined; className?: string }) {
  if (!value) return null;
  return <div className={className} dangerouslySetInnerHTML={{ __html: value.html }} />;
}
