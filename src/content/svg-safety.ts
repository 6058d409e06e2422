import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element, ParentNode } from 'domhandler';
import { cssLoads } from './svg-css.js';
import { svgText } from './svg-text.js';

/**
 * An SVG from content/images/, rebuilt as a picture and nothing more, or why it cannot be. An SVG
 * is a document: opened at its own address it runs its scripts with the site's origin and loads
 * from elsewhere, and the CSP that stops much of it is not sent by every host (GitHub Pages, a
 * bucket). A list of forbidden patterns cannot hold (namespaces, encodings, entities and CSS
 * escapes each hide a script or a load), so the file is parsed as XML and written out again from
 * an allow-list: elements in the SVG namespace that draw (shapes, paths, text, gradients,
 * patterns, masks, filters but feImage, <use> of a fragment of the same file, <style>), their
 * geometry and presentation attributes, with every value and style checked by svg-css.ts. The
 * browser then parses what this wrote, not what the user gave. What the rebuild drops silently
 * is what does nothing in a picture (an editor's metadata, comments, unknown elements); what
 * would act (a script, a handler, HTML, an animation, a link or a load) is refused by name, so
 * that the picture published is the picture drawn.
 */
const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';
/** An SVG larger than this is a photograph in disguise, or a mistake; parsing it would hold it all in memory. */
export const MAX_SVG_BYTES = 5 * 1024 * 1024;

/**
 * How deep elements may nest: 256 is libxml2's default (librsvg parses with it); an editor's
 * drawing is a few levels deep, and the rebuild below walks the tree by recursion.
 */
export const MAX_SVG_NESTING = 256;
/**
 * How many references (`<use href="#id">`, `fill="url(#id)"`, a gradient's href) may be followed
 * one inside another. A `<use>` of a group that uses the previous one twice, nine times over,
 * is a 2 KB file that Chromium never finishes drawing: the count doubles at each level. Drawings
 * reuse a symbol, its gradient, that gradient's stops: three or four.
 */
export const MAX_SVG_REFERENCE_DEPTH = 6;
/**
 * How many elements the SVG may draw once every reference is expanded. librsvg stops after
 * resolving 500,000 references (MAX_REFERENCED_ELEMENTS in its limits.rs, the "billion laughs"
 * of SVG: GNOME/librsvg issues 323 and 515) and loads at most 1,000,000 elements
 * (MAX_LOADED_ELEMENTS); a browser has no limit, so one far lower holds here.
 */
export const MAX_SVG_EXPANDED_ELEMENTS = 100_000;

const words = (...lists: string[]) => new Set(lists.join(' ').split(' '));

const ELEMENTS = words(
  'svg g defs symbol use title desc style path rect circle ellipse line polyline polygon text tspan textPath',
  'linearGradient radialGradient stop clipPath mask pattern marker switch',
  'filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting feDisplacementMap',
  'feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur feMerge feMergeNode',
  'feMorphology feOffset fePointLight feSpecularLighting feSpotLight feTile feTurbulence',
);

const ATTRIBUTES = words(
  'id class style transform viewBox preserveAspectRatio width height x y x1 y1 x2 y2 cx cy r rx ry fx fy fr d points',
  'pathLength offset gradientUnits gradientTransform spreadMethod patternUnits patternContentUnits patternTransform',
  'clipPathUnits maskUnits maskContentUnits markerUnits markerWidth markerHeight refX refY orient dx dy rotate',
  'textLength lengthAdjust startOffset method spacing side filterUnits primitiveUnits in in2 result stdDeviation mode',
  'operator k1 k2 k3 k4 values type tableValues slope intercept amplitude exponent baseFrequency numOctaves seed',
  'stitchTiles scale xChannelSelector yChannelSelector order kernelMatrix divisor bias targetX targetY edgeMode',
  'kernelUnitLength preserveAlpha surfaceScale diffuseConstant specularConstant specularExponent azimuth elevation z',
  'pointsAtX pointsAtY pointsAtZ limitingConeAngle radius version lang role aria-label aria-hidden systemLanguage',
  // Presentation attributes.
  'fill fill-opacity fill-rule stroke stroke-width stroke-linecap stroke-linejoin stroke-miterlimit stroke-dasharray',
  'stroke-dashoffset stroke-opacity opacity color display visibility clip-path clip-rule mask filter font-family',
  'font-size font-style font-weight font-variant font-stretch font-size-adjust letter-spacing word-spacing text-anchor',
  'text-decoration dominant-baseline alignment-baseline baseline-shift writing-mode direction unicode-bidi stop-color',
  'stop-opacity flood-color flood-opacity lighting-color color-interpolation color-interpolation-filters',
  'color-rendering shape-rendering text-rendering image-rendering marker marker-start marker-mid marker-end overflow',
  'paint-order vector-effect mix-blend-mode isolation transform-origin transform-box',
);

/**
 * Attributes whose value is a name or words, never CSS: a browser loads nothing through them, so
 * they are not read as CSS (Illustrator's `id="Layer(1)"` is no function call).
 */
const NOT_CSS = words('id class lang role aria-label aria-hidden systemLanguage version result in in2');

/** Elements that would act or load, refused by name (in any namespace: the name is enough to err on refusal). */
const ACTING: Record<string, string> = {
  script: 'a script',
  foreignobject: 'embedded HTML',
  set: 'an animation',
  animate: 'an animation',
  animatemotion: 'an animation',
  animatetransform: 'an animation',
  animatecolor: 'an animation',
  discard: 'an animation',
  a: 'a link',
  image: 'a picture from another file',
  feimage: 'a picture from another file',
  iframe: 'embedded content',
  embed: 'embedded content',
  object: 'embedded content',
  audio: 'embedded content',
  video: 'embedded content',
  handler: 'a script',
  listener: 'an event listener',
  include: 'an included file',
  'font-face-uri': 'a font from another file',
  cursor: 'a cursor from another file',
};

type Names = Map<string, string | undefined>;

/**
 * Splits `prefix:local` and finds the prefix's namespace in scope (xmlns declarations of this element
 * and its ancestors).
 */
function resolve(name: string, scope: Names, isAttribute: boolean): { ns: string | undefined; local: string } {
  const colon = name.indexOf(':');
  if (colon < 0) return { ns: isAttribute ? undefined : (scope.get('') ?? SVG_NS), local: name };
  const prefix = name.slice(0, colon);
  return {
    ns: prefix === 'xml' ? XML_NS : (scope.get(prefix) ?? `undeclared:${prefix}`),
    local: name.slice(colon + 1),
  };
}

// A character XML cannot carry, a high surrogate without its low one, or a low one without its high one.
const XML_INVALID = new RegExp(
  [
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/,
    /[\ud800-\udbff](?![\udc00-\udfff])/,
    /(?<![\ud800-\udbff])[\udc00-\udfff]/,
  ]
    .map((part) => part.source)
    .join('|'),
  'g',
);
const escapeText = (text: string) =>
  text.replace(XML_INVALID, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) =>
  escapeText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
const shown = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** The text of a node and all below it (a <style> split into text and CDATA sections is one stylesheet). */
function textOf(node: ChildNode): string {
  if (node.type === 'text' || node.type === 'comment') return node.type === 'text' ? node.data : '';
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

/**
 * Why drawing the SVG would not end in reasonable time or memory, or undefined: its elements nest
 * deeper than MAX_SVG_NESTING, its references than MAX_SVG_REFERENCE_DEPTH, or, every reference
 * expanded, it would draw more than MAX_SVG_EXPANDED_ELEMENTS elements. Checked before the
 * rebuild, which recurses: 100,000 nested groups would overflow the stack.
 */
function tooComplex(document: ParentNode): string | undefined {
  const ids = new Map<string, Element>();
  // The nesting first, without recursion.
  const stack: [node: ParentNode, depth: number][] = [[document, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    for (const child of node.children) {
      if (child.type !== 'tag') continue;
      if (depth + 1 > MAX_SVG_NESTING) return `its elements nest more than ${MAX_SVG_NESTING} deep`;
      const id = child.attribs.id?.trim();
      if (id && !ids.has(id)) ids.set(id, child);
      stack.push([child, depth + 1]);
    }
  }
  // Then each element's count of drawn elements and depth of references, each worked out once.
  const counted = new Map<Element, { count: number; depth: number }>();
  const open = new Set<Element>();
  const references = (element: Element): Element[] => {
    const found: Element[] = [];
    for (const [name, value] of Object.entries(element.attribs)) {
      const local = name.slice(name.indexOf(':') + 1);
      const targets =
        local === 'href'
          ? [/^\s*#(.*)$/s.exec(value)?.[1]]
          : [...value.matchAll(/url\(\s*["']?\s*#([^"')]*)/gi)].map((match) => match[1]);
      for (const target of targets) {
        const element = target === undefined ? undefined : ids.get(target.trim());
        if (element) found.push(element);
      }
    }
    return found;
  };
  class Refused extends Error {}
  const expand = (element: Element, followed: number): { count: number; depth: number } => {
    const known = counted.get(element);
    if (known) return known;
    const id = element.attribs.id ? ` (#${shown(element.attribs.id)})` : '';
    if (open.has(element)) throw new Refused(`its references lead back to where they start${id}`);
    open.add(element);
    let count = 1;
    let depth = 0;
    for (const child of element.children) {
      if (child.type !== 'tag') continue;
      const below = expand(child, followed);
      count += below.count;
      depth = Math.max(depth, below.depth);
    }
    for (const target of references(element)) {
      if (followed + 1 > MAX_SVG_REFERENCE_DEPTH)
        throw new Refused(`its references (<use>, url(#…)) nest more than ${MAX_SVG_REFERENCE_DEPTH} deep`);
      const below = expand(target, followed + 1);
      count += below.count;
      depth = Math.max(depth, below.depth + 1);
    }
    if (depth > MAX_SVG_REFERENCE_DEPTH)
      throw new Refused(`its references (<use>, url(#…)) nest more than ${MAX_SVG_REFERENCE_DEPTH} deep`);
    if (count > MAX_SVG_EXPANDED_ELEMENTS)
      throw new Refused(
        `with its references (<use>, url(#…)) expanded it draws more than ` +
          `${MAX_SVG_EXPANDED_ELEMENTS.toLocaleString('en-GB')} elements`,
      );
    open.delete(element);
    const result = { count, depth };
    counted.set(element, result);
    return result;
  };
  try {
    for (const child of document.children) if (child.type === 'tag') expand(child, 0);
  } catch (error) {
    if (error instanceof Refused) return error.message;
    throw error;
  }
  return undefined;
}

export type CleanSvg = { svg: Buffer } | { reasons: string[] } | { tooComplex: string };

/** The SVG rebuilt from the allow-list, or every reason it is refused (each at most once). */
export function cleanSvg(bytes: Buffer): CleanSvg {
  const decoded = svgText(bytes);
  if ('reason' in decoded) return { reasons: [decoded.reason] };
  const reasons = new Set<string>();
  const document = parseDocument(decoded.text, { xmlMode: true });
  for (const node of document.children) {
    if (node.type === 'directive' && /<!ENTITY|^!DOCTYPE[^>]*\[/i.test(`<${node.data}`))
      reasons.add('it declares XML entities');
    if (node.type === 'directive' && /^\?xml-stylesheet/i.test(node.data))
      reasons.add('it links a stylesheet (<?xml-stylesheet?>)');
  }
  const root = document.children.find((node): node is Element => node.type === 'tag');
  if (!root) return { reasons: [...reasons, 'it holds no drawing: it is not an SVG file'] };
  const complex = tooComplex(document);
  if (complex) return { tooComplex: complex };

  const rebuild = (element: Element, parentScope: Names): string => {
    const scope: Names = new Map(parentScope);
    for (const [name, value] of Object.entries(element.attribs)) {
      if (name === 'xmlns') scope.set('', value);
      else if (name.startsWith('xmlns:')) scope.set(name.slice(6), value);
    }
    const { ns, local } = resolve(element.name, scope, false);
    const acting = ACTING[local.toLowerCase()];
    const link = Object.entries(element.attribs).find(([name]) => name === 'href' || name.endsWith(':href'))?.[1];
    if (acting)
      reasons.add(`it holds ${acting} (<${element.name}${link === undefined ? '' : ` href="${shown(link)}"`}>)`);
    else if (ns === XHTML_NS) reasons.add(`it holds HTML (<${element.name}>)`);
    if (acting || ns !== SVG_NS || !ELEMENTS.has(local)) return '';

    let attributes = '';
    for (const [name, value] of Object.entries(element.attribs)) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
      const attribute = resolve(name, scope, true);
      if (/^on/i.test(attribute.local)) {
        reasons.add(`it holds an event handler (${name})`);
        continue;
      }
      if (attribute.local === 'href') {
        if (!/^\s*#/.test(value))
          reasons.add(`it refers to another file or site (href="${shown(value)}" on <${element.name}>)`);
        else if (attribute.ns === undefined || attribute.ns === XLINK_NS)
          attributes += ` xlink:href="${escapeAttribute(value.trim())}"`;
        continue;
      }
      const kept =
        attribute.ns === undefined
          ? ATTRIBUTES.has(name)
          : attribute.ns === XML_NS && (attribute.local === 'space' || attribute.local === 'lang');
      if (!kept) continue;
      const loads = attribute.ns === undefined && NOT_CSS.has(name) ? undefined : cssLoads(value);
      if (loads) reasons.add(`it loads from another file or site (${shown(loads)} in ${name})`);
      else attributes += ` ${attribute.ns === XML_NS ? `xml:${attribute.local}` : name}="${escapeAttribute(value)}"`;
    }

    let inner = '';
    if (local === 'style') {
      const css = textOf(element);
      const loads = cssLoads(css);
      if (loads) reasons.add(`it loads from another file or site (${shown(loads)} in <style>)`);
      else inner = escapeText(css);
    } else {
      for (const child of element.children) {
        if (child.type === 'tag') inner += rebuild(child, scope);
        else if (child.type === 'text') inner += escapeText(child.data);
        else if (child.type === 'cdata') inner += escapeText(textOf(child));
        else if (child.type === 'directive' && /^\?xml-stylesheet/i.test(child.data))
          reasons.add('it links a stylesheet (<?xml-stylesheet?>)');
      }
    }
    const declarations = element === root ? ` xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"` : '';
    return inner
      ? `<${local}${declarations}${attributes}>${inner}</${local}>`
      : `<${local}${declarations}${attributes}/>`;
  };

  const svg = rebuild(root, new Map());
  if (reasons.size > 0) return { reasons: [...reasons] };
  if (!svg.startsWith('<svg ')) return { reasons: [`its first element is <${root.name}>, not an SVG drawing's <svg>`] };
  return { svg: Buffer.from(svg) };
}
