/**
 * A page for a site served from a folder of its origin (`basePath`, e.g. a GitHub Pages project
 * site at /shop): every root-relative address in the attributes of its tags (links, images, the
 * stylesheet, the script, srcset candidates, form actions) gets the folder in front. Only inside
 * tags: text that shows `href="/x"` (a post about HTML) stays as written. Templates and content
 * keep writing `/about`; structured data and Open Graph use absolute URLs made with the folder.
 */
export function withBasePath(html: string, base: string): string {
  if (!base) return html;
  const prefix = (address: string) => (address.startsWith('/') && !address.startsWith('//') ? base + address : address);
  return html.replace(/<[a-zA-Z][^>]*>/g, (tag) =>
    tag
      .replace(
        /(\s(?:href|src|action)=")(\/[^"]*)"/g,
        (_, start: string, address: string) => `${start}${prefix(address)}"`,
      )
      .replace(
        /(\s(?:srcset|srcSet)=")([^"]*)"/g,
        (_, start: string, list: string) => `${start}${list.split(', ').map(prefix).join(', ')}"`,
      ),
  );
}
