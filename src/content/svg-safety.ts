import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
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

export type CleanSvg = { svg: Buffer } | { reasons: string[] };

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
      const loads = cssLoads(value);
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
