/**
 * What a piece of CSS in an SVG (a <style>, a style attribute, a presentation attribute such as
 * fill) would load from another file or site, or undefined. CSS loads through functions
 * (url(), image-set(), src()…) and at-rules (@import, @font-face); both can be written with
 * escapes (`\75rl(`, `@\69mport`), so escapes and comments are undone first, then every function
 * must be one of a known harmless list, url() may name only a fragment of the same file (#id),
 * and the only at-rules are @media, @supports and @keyframes. XML references (`&#64;import`) were
 * decoded by the XML parser already.
 */
const HARMLESS_FUNCTIONS = new Set(
  [
    'rgb rgba hsl hsla hwb lab lch oklab oklch color color-mix calc min max clamp var',
    'translate translatex translatey translatez translate3d rotate rotatex rotatey rotatez rotate3d',
    'scale scalex scaley scalez scale3d skew skewx skewy matrix matrix3d perspective cubic-bezier steps',
    'blur brightness contrast drop-shadow grayscale hue-rotate invert opacity saturate sepia',
  ]
    .join(' ')
    .split(' '),
);
const HARMLESS_AT_RULES = new Set(['media', 'supports', 'keyframes', '-webkit-keyframes']);

/** The CSS as its parser sees the characters: comments removed, escapes replaced, lower case. */
function unescapeCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, ' ')
    .replace(
      /\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\r\n|[\n\r\f]|([\s\S]))/g,
      (_, hex: string | undefined, other: string | undefined) => {
        if (hex) {
          const point = parseInt(hex, 16);
          return point > 0 && point <= 0x10ffff && !(point >= 0xd800 && point <= 0xdfff)
            ? String.fromCodePoint(point)
            : '\ufffd';
        }
        return other ?? '';
      },
    )
    .toLowerCase();
}

export function cssLoads(css: string): string | undefined {
  const plain = unescapeCss(css);
  for (const [, name] of plain.matchAll(/@([a-z0-9_-]*)/g)) if (!HARMLESS_AT_RULES.has(name!)) return `@${name}`;
  for (const match of plain.matchAll(/([a-z0-9_-]+)\(/g)) {
    const name = match[1]!;
    if (name === 'url') {
      if (!/^\s*(["']?)\s*#/.test(plain.slice(match.index + match[0].length)))
        return `url(${plain.slice(match.index + 4, match.index + 40).split(')')[0]})`;
    } else if (!HARMLESS_FUNCTIONS.has(name)) return `${name}(…)`;
  }
  return undefined;
}
