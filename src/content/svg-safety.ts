/**
 * Why an SVG from content/images/ may not be published as it is, or undefined. An SVG is a
 * document: opened at its own address it runs its scripts with the site's origin, and it can
 * load from elsewhere. The CSP stops much of it on a host that sends it, not on one that sends
 * none (GitHub Pages, a bucket). So an SVG is published only when it is a picture and nothing
 * more. The check is on the text and errs on refusal: a drawing that trips it is exported again
 * without scripts, links and embedded styles from elsewhere.
 */
export function unsafeSvgReason(text: string): string | undefined {
  const rules: [RegExp, string][] = [
    [/<script\b/i, 'it holds a script'],
    [/\bjavascript\s*:/i, 'it holds a javascript: address'],
    [/\son[a-z]+\s*=/i, 'it holds an event handler (an on… attribute)'],
    [/<foreignObject\b/i, 'it embeds HTML (foreignObject)'],
    [/<!ENTITY\b/i, 'it declares XML entities'],
    [/<(?:iframe|embed|object|audio|video)\b/i, 'it embeds other content'],
    // Only references within the drawing itself (#id).
    [/\b(?:xlink:)?href\s*=\s*["']\s*(?!#)/i, 'it refers to another file or site (href)'],
    [/\bsrc\s*=\s*["']/i, 'it refers to another file or site (src)'],
    [/url\(\s*["']?\s*(?!#)/i, 'it refers to another file or site (url(…))'],
    [/@import\b/i, 'it imports a stylesheet'],
  ];
  return rules.find(([pattern]) => pattern.test(text))?.[1];
}
