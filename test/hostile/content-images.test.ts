// content/images/ holds images (issue 35, item 3). Only image types are published, decided by the
// file's bytes, and its name must say the same type; anything else is refused by name. An SVG is
// parsed as XML in its own encoding and rebuilt from an allow-list, or refused naming what it
// held. Every hostile SVG of the round is here: each is refused (the build stops, the output
// folder keeps its bytes) or published and inert, opened at its own address in Chromium through
// the preview server (no script runs, no request leaves 127.0.0.1). Through the real CLI.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  folderState,
  freePort,
  projectsOfThisFile,
  runCli,
  startPreviewProcess,
  type CliResult,
  type CliServer,
} from '../helpers.js';
import { launchChromium } from '../support/browser.js';

const project = projectsOfThisFile();
const SVG_NS = 'http://www.w3.org/2000/svg';
const S = `xmlns="${SVG_NS}"`;
const XL = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
const XHTML = 'xmlns:h="http://www.w3.org/1999/xhtml"';
/** What each script would do if it ran: mark the page and call another site. */
const JS = "document.title='RAN';fetch('http://ran.example/x')";
const AWAY = 'http://elsewhere.example';
const svg = (inner: string, attributes = '') => `<svg ${S} width="100" height="100"${attributes}>${inner}</svg>`;
const utf16 = (text: string, order: 'le' | 'be', bom: boolean) => {
  const le = Buffer.from(text, 'utf16le');
  const bytes = order === 'le' ? le : Buffer.from(le).swap16();
  return bom ? Buffer.concat([Buffer.from(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]), bytes]) : bytes;
};

/** Each refused SVG, and what its problem must name. */
const REFUSED_SVGS: [name: string, contents: string | Buffer, names: string[]][] = [
  // Scripts (they ran when opened at their own address on the static target).
  [
    'svg-prefixed-script.svg',
    `<svg:svg xmlns:svg="${SVG_NS}"><svg:script>${JS}</svg:script></svg:svg>`,
    ['it holds a script (<svg:script>)'],
  ],
  ['xhtml-script.svg', `<svg ${S} ${XHTML}><h:script>${JS}</h:script></svg>`, ['it holds a script (<h:script>)']],
  [
    'prefix-declared-on-element.svg',
    svg(`<x:script xmlns:x="${SVG_NS}">${JS}</x:script>`),
    ['it holds a script (<x:script>)'],
  ],
  ['utf16le-bom.svg', utf16(svg(`<script>${JS}</script>`), 'le', true), ['it holds a script (<script>)']],
  ['utf16be-bom.svg', utf16(svg(`<script>${JS}</script>`), 'be', true), ['it holds a script (<script>)']],
  [
    'utf16le-declared-no-bom.svg',
    utf16(`<?xml version="1.0" encoding="UTF-16"?>${svg(`<script>${JS}</script>`)}`, 'le', false),
    ['it holds a script (<script>)'],
  ],
  [
    'latin1-declared.svg',
    Buffer.from(
      `<?xml version="1.0" encoding="ISO-8859-1"?>${svg(`<desc>caf\u00e9</desc><script>${JS}</script>`)}`,
      'latin1',
    ),
    ['it holds a script (<script>)'],
  ],
  [
    'foreignobject-iframe.svg',
    `<svg:svg xmlns:svg="${SVG_NS}" ${XHTML}><svg:foreignObject width="100" height="100">` +
      `<h:iframe srcdoc="&lt;script&gt;${JS}&lt;/script&gt;"/></svg:foreignObject></svg:svg>`,
    ['it holds embedded HTML (<svg:foreignObject>)'],
  ],
  [
    'set-href-javascript.svg',
    svg(`<a><set attributeName="href" to="&#106;avascript:${JS}"/><rect width="100" height="100"/></a>`),
    ['it holds a link (<a>)'],
  ],
  [
    'set-xlink-href-javascript.svg',
    svg(
      `<g><set attributeName="xlink:href" to="&#106;avascript:${JS}"/><rect width="100" height="100"/></g>`,
      ` ${XL}`,
    ),
    ['it holds an animation (<set>)'],
  ],
  ['script.svg', svg(`<script>${JS}</script>`), ['it holds a script (<script>)']],
  ['cdata-script.svg', svg(`<script><![CDATA[${JS}]]></script>`), ['it holds a script (<script>)']],
  ['onload.svg', svg('<rect width="10" height="10"/>', ` onload="${JS}"`), ['it holds an event handler (onload)']],
  [
    'upper-case-onclick.svg',
    svg(`<rect width="100" height="100" ONCLICK="${JS}"/>`),
    ['it holds an event handler (ONCLICK)'],
  ],
  [
    'a-javascript.svg',
    svg(`<a href="javascript:${JS}"><rect width="100" height="100"/></a>`),
    [`it holds a link (<a href="javascript:document.title='RAN'`],
  ],
  [
    'animate-href.svg',
    svg(`<g><animate attributeName="href" values="javascript:${JS}"/></g>`),
    ['it holds an animation (<animate>)'],
  ],
  ['handler.svg', svg(`<handler type="application/ecmascript">${JS}</handler>`), ['it holds a script (<handler>)']],
  [
    'iframe-embed.svg',
    svg(`<iframe src="${AWAY}/"/><embed src="${AWAY}/"/>`),
    ['it holds embedded content (<iframe>)', 'it holds embedded content (<embed>)'],
  ],
  ['xhtml-img-onerror.svg', svg(`<h:img src="x" onerror="${JS}"/>`, ` ${XHTML}`), ['it holds HTML (<h:img>)']],
  [
    'use-data-url.svg',
    svg(`<use href="data:image/svg+xml,&lt;svg xmlns='${SVG_NS}'&gt;&lt;script&gt;${JS}&lt;/script&gt;&lt;/svg&gt;"/>`),
    ['it refers to another file or site (href="data:image/svg+xml'],
  ],
  [
    'use-javascript.svg',
    svg(`<use xlink:href="javascript:${JS}"/>`, ` ${XL}`),
    ['it refers to another file or site (href="javascript:'],
  ],
  [
    'xml-stylesheet-xslt.svg',
    `<?xml-stylesheet type="text/xsl" href="data:text/xsl,x"?>${svg('<rect width="10" height="10"/>')}`,
    ['it links a stylesheet (<?xml-stylesheet?>)'],
  ],
  [
    'entity.svg',
    `<!DOCTYPE svg [<!ENTITY s "&#60;script&#62;${JS}&#60;/script&#62;">]>${svg('&s;')}`,
    ['it declares XML entities'],
  ],
  // Loads from another site.
  ['css-escaped-import.svg', svg(`<style>@\\69mport url(${AWAY}/a.css);</style>`), ['(@import in <style>)']],
  ['xml-reference-import.svg', svg(`<style>&#64;import '${AWAY}/a.css';</style>`), ['(@import in <style>)']],
  [
    'css-escaped-url.svg',
    svg(`<rect width="10" height="10" style="fill:\\75rl(${AWAY}/p.svg#a)"/>`),
    [`(url(${AWAY}/p.svg#a) in style)`],
  ],
  [
    'xml-reference-url.svg',
    svg(`<rect width="10" height="10" fill="u&#114;l(${AWAY}/p.svg#a)"/>`),
    [`(url(${AWAY}/p.svg#a) in fill)`],
  ],
  ['image-set.svg', svg(`<style>rect{fill:image-set("${AWAY}/a.png" 1x)}</style>`), ['(image-set(…) in <style>)']],
  [
    'cdata-split-import.svg',
    svg(`<style><![CDATA[@imp]]><![CDATA[ort url(${AWAY}/a.css);]]></style>`),
    ['(@import in <style>)'],
  ],
  [
    'image-set-href.svg',
    svg(`<image width="10" height="10"><set attributeName="href" to="${AWAY}/a.png"/></image>`),
    ['it holds a picture from another file (<image>)'],
  ],
  [
    'image-href.svg',
    svg(`<image width="10" height="10" href="${AWAY}/a.png"/>`),
    [`it holds a picture from another file (<image href="${AWAY}/a.png">)`],
  ],
  [
    'use-other-site.svg',
    svg(`<use href="${AWAY}/x.svg#a"/>`),
    [`it refers to another file or site (href="${AWAY}/x.svg#a" on <use>)`],
  ],
  [
    'fill-url.svg',
    svg(`<rect width="10" height="10" fill="url(${AWAY}/p.svg#a)"/>`),
    [`(url(${AWAY}/p.svg#a) in fill)`],
  ],
  [
    'font-face.svg',
    svg(`<style>@font-face{font-family:x;src:url(${AWAY}/f.woff)}</style>`),
    ['(@font-face in <style>)'],
  ],
  [
    'feimage.svg',
    svg(`<filter id="f"><feImage href="${AWAY}/a.png"/></filter>`),
    [`it holds a picture from another file (<feImage href="${AWAY}/a.png">)`],
  ],
  [
    'cursor-url.svg',
    svg(`<rect width="10" height="10" style="cursor:url(${AWAY}/c.png),auto"/>`),
    [`(url(${AWAY}/c.png) in style)`],
  ],
  [
    'webkit-image-set.svg',
    svg(`<rect width="10" height="10" style="fill:-webkit-image-set(url(${AWAY}/a.png) 1x)"/>`),
    ['(-webkit-image-set(…) in style)'],
  ],
  ['comment-split-import.svg', svg(`<style>@import/**/'${AWAY}/a.css';</style>`), ['(@import in <style>)']],
  [
    'upper-case-url.svg',
    svg(`<rect width="10" height="10" style="fill:URL(${AWAY}/a)"/>`),
    [`(url(${AWAY}/a) in style)`],
  ],
  [
    'mask-url.svg',
    svg(`<rect width="10" height="10" mask="url('${AWAY}/m.svg#m')"/>`),
    [`(url('${AWAY}/m.svg#m') in mask)`],
  ],
  [
    'style-closes-itself.svg',
    svg(`<style><![CDATA[ rect{fill:red} </style><script>${JS}</script> ]]></style>`),
    ['(fetch(…) in <style>)'],
  ],
  [
    'not-svg-root.svg',
    `<html xmlns="http://www.w3.org/1999/xhtml"><body>${svg('')}</body></html>`,
    ['it holds HTML (<html>)'],
  ],
  // Too much to draw (issue 43, item 5): each level a group that uses the one before twice, nine
  // times over, 2 KB that Chromium never finishes drawing; 30 x 30 x 30 uses of a path, only
  // three deep; 100,000 nested groups (once a stack overflow, SF900 without the file's name); a
  // <use> of its own group.
  [
    'use-nine-levels.svg',
    svg(
      '<defs><path id="l0" d="M0 0h1v1z"/>' +
        Array.from(
          { length: 9 },
          (_, i) => `<g id="l${i + 1}"><use href="#l${i}"/><use href="#l${i}" transform="translate(1 0)"/></g>`,
        ).join('') +
        '</defs><use href="#l9"/>',
    ),
    ['its references (<use>, url(#…)) nest more than 6 deep'],
  ],
  [
    'use-wide.svg',
    svg(
      '<defs><path id="w0" d="M0 0h1v1z"/>' +
        [1, 2, 3].map((i) => `<g id="w${i}">${`<use href="#w${i - 1}"/>`.repeat(50)}</g>`).join('') +
        '</defs><use href="#w3"/>',
    ),
    ['with its references (<use>, url(#…)) expanded it draws more than 100,000 elements'],
  ],
  [
    'deep-groups.svg',
    svg(`${'<g>'.repeat(100_000)}<rect width="1" height="1"/>${'</g>'.repeat(100_000)}`),
    ['its elements nest more than 256 deep'],
  ],
  [
    'use-loop.svg',
    svg('<g id="self"><rect width="1" height="1"/><use href="#self"/></g>'),
    ['its references lead back to where they start (#self)'],
  ],
  [
    'not-utf8.svg',
    Buffer.concat([Buffer.from(svg('<desc>')), Buffer.from([0xff, 0xfe, 0xfd]), Buffer.from('</desc>')]),
    ['it is not valid utf-8 text'],
  ],
];

/** Each SVG published once rebuilt: what the published file holds, and what it no longer holds. */
const PUBLISHED_SVGS: [name: string, contents: string, holds: string[], lost: string[]][] = [
  [
    'script-in-metadata.svg',
    svg(`<metadata><script>${JS}</script></metadata><rect width="100" height="100" fill="#c00"/>`),
    ['<rect width="100" height="100" fill="#c00"/>'],
    ['script', 'RAN'],
  ],
  [
    'inkscape-export.svg',
    `<svg ${S} xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" ` +
      'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" width="100" height="100">' +
      `<!-- made by hand --><sodipodi:namedview onload="${JS}"/><g inkscape:label="Layer 1" ` +
      'inkscape:groupmode="layer"><path d="M0 0L100 100" stroke="#000"/></g></svg>',
    ['<g><path d="M0 0L100 100" stroke="#000"/></g>'],
    ['sodipodi', 'inkscape', 'RAN', 'made by hand'],
  ],
  [
    'xml-base.svg',
    svg('<defs><rect id="r" width="50" height="50"/></defs><use href="#r"/>', ` xml:base="${AWAY}/"`),
    ['<use xlink:href="#r"/>'],
    ['elsewhere'],
  ],
  [
    'text-that-looks-like-a-script.svg',
    svg(`<text x="10" y="20">&lt;script&gt;${JS}&lt;/script&gt;</text>`),
    ['&lt;script&gt;'],
    ['<script'],
  ],
  [
    'cdata-title.svg',
    svg(`<title><![CDATA[</title><script>${JS}</script>]]></title><circle cx="50" cy="50" r="40"/>`),
    ['<title>&lt;/title&gt;&lt;script&gt;'],
    ['<script'],
  ],
  [
    'prefixed-drawing.svg',
    `<svg:svg xmlns:svg="${SVG_NS}" width="100" height="100"><svg:rect width="100" height="100" fill="#0a0"/>` +
      '</svg:svg>',
    [`<svg xmlns="${SVG_NS}"`, '<rect width="100" height="100" fill="#0a0"/>'],
    ['svg:'],
  ],
  [
    'gradient-and-style.svg',
    svg(
      '<style>@media (min-width: 1px) { .a { fill: url(#g) } }</style><linearGradient id="g">' +
        '<stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient>' +
        '<rect class="a" width="100" height="100"/>',
    ),
    ['<style>@media (min-width: 1px) { .a { fill: url(#g) } }</style>', '<rect class="a" width="100" height="100"/>'],
    [],
  ],
  [
    'unknown-attributes.svg',
    svg(`<rect width="100" height="100" src="${AWAY}/" data-x="javascript:${JS}" formaction="${AWAY}/"/>`),
    ['<rect width="100" height="100"/>'],
    ['elsewhere', 'javascript'],
  ],
  [
    // Illustrator's ids: a name, not CSS (it was refused as loading "layer(…)").
    'illustrator-ids.svg',
    svg('<g id="Layer(1)"><rect id="Rectangle_(2)" class="st0(x)" width="100" height="100" fill="#00a"/></g>'),
    ['<g id="Layer(1)"><rect id="Rectangle_(2)" class="st0(x)" width="100" height="100" fill="#00a"/></g>'],
    [],
  ],
  [
    // A symbol reused, its gradient from another: references three deep are a drawing's own.
    'symbol-reused.svg',
    svg(
      '<defs><linearGradient id="base"><stop offset="0" stop-color="#f00"/></linearGradient>' +
        '<linearGradient id="g" href="#base"/><symbol id="s"><rect width="10" height="10" fill="url(#g)"/></symbol>' +
        '<g id="row"><use href="#s"/><use href="#s" x="10"/></g></defs><use href="#row"/><use href="#row" y="10"/>',
    ),
    ['<use xlink:href="#row" y="10"/>'],
    [],
  ],
  ['control-characters.svg', svg('<text x="0" y="20">a\u0001b\u0008c</text>'), ['<text x="0" y="20">abc</text>'], []],
];

/** Files that are not images, refused whatever they hold; and images whose name says another type. */
async function refusedOthers(): Promise<[name: string, contents: Buffer | string, names: string[]][]> {
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
    .png()
    .toBuffer();
  const page = `<!doctype html><script>${JS}</script>`;
  return [
    ['page.html', page, ['a host serves a file named .html as something else']],
    [
      'feed.xml',
      `<?xml version="1.0"?><x:html xmlns:x="http://www.w3.org/1999/xhtml"><x:script>${JS}</x:script></x:html>`,
      ['a file named .xml'],
    ],
    ['page.htm', page, ['a file named .htm']],
    ['page.xhtml', `<html xmlns="http://www.w3.org/1999/xhtml"><script>${JS}</script></html>`, ['a file named .xhtml']],
    [
      'png-polyglot.html',
      Buffer.concat([png, Buffer.from(page)]),
      ['a file named .html', 'Its bytes are a PNG image: name it with that type'],
    ],
    ['brochure.pdf', '%PDF-1.4\n', ['a file named .pdf']],
    ['no-extension', png, ['a file named without an extension']],
    ['png-named.jpg', png, ['its name says JPEG but its bytes are a PNG image', 'Rename it with the PNG extension']],
    ['html-named.png', page, ['its name says PNG but its bytes are not an image']],
    ['svg-named.png', svg('<rect width="1" height="1"/>'), ['its name says PNG but its bytes are not an image']],
    ['png-named.svg', png, ['its name says SVG but its bytes are a PNG image']],
    ['two-bytes.png', 'ab', ['its name says PNG but its bytes are not an image']],
    ['empty.gif', '', ['its name says GIF but its bytes are not an image']],
    ['too-large.svg', svg(' '.repeat(5 * 1024 * 1024)), ['an SVG may be at most 5,242,880']],
  ];
}

let root: string;
let before: string;
let refused: CliResult;
let after: string;
const REFUSED_OTHERS: Awaited<ReturnType<typeof refusedOthers>> = [];

beforeAll(async () => {
  ({ root } = await project());
  const first = await runCli(['--root', root, 'build']);
  expect(first.code, first.stderr).toBe(0);
  before = await folderState(path.join(root, 'dist'));
  REFUSED_OTHERS.push(...(await refusedOthers()));
  for (const [name, contents] of [...REFUSED_SVGS, ...REFUSED_OTHERS])
    await writeFile(path.join(root, 'content', 'images', name), contents);
  refused = await runCli(['--root', root, 'build']);
  after = await folderState(path.join(root, 'dist'));
  for (const [name] of [...REFUSED_SVGS, ...REFUSED_OTHERS]) await rm(path.join(root, 'content', 'images', name));
}, 60_000);

/** The printed problem of one file of content/images/. */
function problemOf(name: string): string {
  const block = refused.stderr
    .split('\n\n')
    .find((part) => part.trimStart().startsWith(`SF206  content/images/${name}\n`));
  expect(block, `${name}\n${refused.stderr}`).toBeDefined();
  return block!;
}

describe('refused: the build stops, names the file and what it held, and the output folder keeps its bytes', () => {
  it('one problem for each file, together, with no stack; dist/ as it was', () => {
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Found ${REFUSED_SVGS.length + REFUSED_OTHERS.length} problems`);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(after).toBe(before);
  });

  for (const [name, , names] of REFUSED_SVGS) {
    it(`SVG ${name}`, () => {
      const problem = problemOf(name);
      expect(problem).toContain(`This file cannot be published at /images/${name}:`);
      for (const part of names) expect(problem).toContain(part);
      expect(problem).toContain('hint: ');
    });
  }

  it('files that are not images, or whose name says another type than their bytes', () => {
    expect(REFUSED_OTHERS).toHaveLength(14);
    for (const [name, , names] of REFUSED_OTHERS) {
      const problem = problemOf(name);
      for (const part of names) expect(problem, name).toContain(part);
    }
  });
});

describe('published: rebuilt, and inert at its own address in Chromium', () => {
  let preview: CliServer | undefined;
  let browser: Browser | undefined;
  const images: [name: string, bytes: Buffer][] = [];

  beforeAll(async () => {
    for (const [name, contents] of PUBLISHED_SVGS)
      await writeFile(path.join(root, 'content', 'images', name), contents);
    const blue = sharp({ create: { width: 8, height: 8, channels: 3, background: '#1d4ed8' } });
    // An icon file: a one-image directory (6 bytes, 16 per image) before a PNG, as browsers read it.
    const pngIcon = await blue.clone().png().toBuffer();
    const icoHead = Buffer.from([0, 0, 1, 0, 1, 0, 8, 8, 0, 0, 1, 0, 32, 0, 0, 0, 0, 0, 22, 0, 0, 0]);
    icoHead.writeUInt32LE(pngIcon.length, 14);
    images.push(
      ['photo.png', pngIcon],
      ['photo.jpg', await blue.clone().jpeg().toBuffer()],
      ['photo.JPEG', await blue.clone().jpeg().toBuffer()],
      ['photo.webp', await blue.clone().webp().toBuffer()],
      ['photo.avif', await blue.clone().avif().toBuffer()],
      ['photo.gif', await blue.clone().gif().toBuffer()],
      ['icon.ico', Buffer.concat([icoHead, pngIcon])],
    );
    for (const [name, bytes] of images) await writeFile(path.join(root, 'content', 'images', name), bytes);
    const built = await runCli(['--root', root, 'build']);
    expect(built.code, built.stderr).toBe(0);
    preview = await startPreviewProcess(['--root', root, '--port', String(await freePort())]);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await preview?.stop();
  });

  /** What Chromium did with one address of the preview: opened, clicked in, given a moment. */
  async function visit(address: string) {
    const context = await browser!.newContext();
    const elsewhere: string[] = [];
    const dialogs: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${preview!.url}/`)) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      const answer = await page.goto(`${preview!.url}${address}`);
      await page.mouse.click(50, 50);
      await page.waitForTimeout(200);
      const inPage = await page.evaluate(() => ({
        ns: document.documentElement.namespaceURI,
        ran: document.title === 'RAN',
        scripts: document.getElementsByTagName('script').length,
        parseError: document.getElementsByTagName('parsererror').length,
      }));
      return { type: answer?.headers()['content-type']?.split(';')[0], ...inPage, elsewhere, dialogs };
    } finally {
      await context.close();
    }
  }

  it('the check itself sees a script run and a request leave: an SVG put in the output folder by hand', async () => {
    await writeFile(path.join(root, 'dist', 'images', 'control.svg'), svg(`<script>${JS}</script>`));
    const seen = await visit('/images/control.svg');
    expect(seen.ran).toBe(true);
    expect(seen.elsewhere).toEqual(['http://ran.example/x']);
  });

  it('images of each type are published byte for byte', async () => {
    for (const [name, bytes] of images)
      expect((await readFile(path.join(root, 'dist', 'images', name))).equals(bytes), name).toBe(true);
  });

  for (const [name, , holds, lost] of PUBLISHED_SVGS) {
    it(`SVG ${name}`, async () => {
      const published = await readFile(path.join(root, 'dist', 'images', name), 'utf8');
      for (const part of holds) expect(published).toContain(part);
      for (const part of lost) expect(published).not.toContain(part);

      const seen = await visit(`/images/${name}`);
      expect(seen).toEqual({
        type: 'image/svg+xml',
        ns: SVG_NS,
        ran: false,
        scripts: 0,
        parseError: 0,
        elsewhere: [],
        dialogs: [],
      });
    });
  }
});
