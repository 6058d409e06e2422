import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Glyph } from 'opentype.js/dist/opentype.min.mjs';
import { precompiled } from '../util/precompiled.js';

/**
 * Inter Bold (OFL) from its npm package, so that every machine draws the same letters: the share
 * cards' text is drawn as these outlines, and the rasteriser never looks for a font of its own.
 * Fontsource ships each subset apart: Latin covers English and the pound sign, Latin Extended
 * the accented letters of other European languages, and Cyrillic, Greek (each with its extended
 * subset) and Vietnamese the other scripts Inter has, so that a heading in Russian or Greek is
 * drawn, not left out. Inter has no Chinese, Japanese, Korean or Arabic: those are named in a
 * warning (share-cards.ts).
 */
export const FONT_FILES = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese'].map(
  (subset) => createRequire(import.meta.url).resolve(`@fontsource/inter/files/inter-${subset}-700-normal.woff`),
);

/** What the cards need of the font, in font units: each character's advance and outline, and the kerning of pairs. */
export interface CardFont {
  unitsPerEm: number;
  /** By character: its advance, and its outline as SVG path data (y downwards, baseline at 0). */
  glyphs: Record<string, [advance: number, outline: string]>;
  /** By pair of characters (both of one subset), the kerning to add to the first's advance. */
  kerning: Record<string, number>;
}

/**
 * The font's outlines, traced by `npm run compile` into lib/assets/share-card-font.json: loading
 * opentype.js and tracing at build time took about 0.15 s of a cold build's CPU.
 */
export async function loadCardFont(generatorRoot: string): Promise<CardFont> {
  return JSON.parse(await precompiled(generatorRoot, 'share-card-font.json', FONT_FILES, traceCardFont)) as CardFont;
}

/** Every character of the subsets (Latin first), traced with opentype.js, as JSON. */
export async function traceCardFont(): Promise<string> {
  // opentype.js's ES module build: its `main` is a UMD script that takes three times as long to load.
  const opentype = await import('opentype.js/dist/opentype.min.mjs');
  const traced: CardFont = { unitsPerEm: 0, glyphs: {}, kerning: {} };
  for (const file of FONT_FILES) {
    const bytes = readFileSync(file);
    const font = opentype.parse(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
    if (traced.unitsPerEm && traced.unitsPerEm !== font.unitsPerEm)
      throw new Error(`${file}: ${font.unitsPerEm} units per em, not ${traced.unitsPerEm}`);
    traced.unitsPerEm = font.unitsPerEm;
    const chars: [string, Glyph][] = [];
    for (const code of Object.keys(font.tables.cmap.glyphIndexMap)) {
      const char = String.fromCodePoint(Number(code));
      const glyph = font.charToGlyph(char);
      if (traced.glyphs[char] || glyph.index === 0) continue;
      traced.glyphs[char] = [glyph.advanceWidth ?? 0, glyph.getPath(0, 0, font.unitsPerEm).toPathData(0)];
      chars.push([char, glyph]);
    }
    for (const [a, first] of chars) {
      for (const [b, second] of chars) {
        const kerning = font.getKerningValue(first, second);
        if (kerning) traced.kerning[a + b] = kerning;
      }
    }
  }
  return JSON.stringify(traced);
}

/** What a card can draw of a text, and the characters it cannot, each once, in order. */
export interface Drawable {
  text: string;
  missing: string[];
}

/**
 * `text` as the card draws it. Composed first (NFC), so that a letter typed as a base and an
 * accent is the font's accented letter, not two glyphs side by side. A character the font lacks
 * is drawn as its compatibility form when the font has all of that (the ligature "ﬁ" as "fi",
 * a full-width "Ａ" as "A"), and otherwise left out and named in `missing`, never dropped
 * without a word. Characters that draw nothing anyway (controls, zero-width and direction marks,
 * variation selectors, the soft hyphen) are left out and not named.
 */
export function drawable(font: CardFont, text: string): Drawable {
  let kept = '';
  const missing = new Set<string>();
  for (const char of text.normalize('NFC')) {
    // Every space (a tab, a no-break space) is a word's end; U+FEFF, which \s counts, is none.
    if (/\s/.test(char) && char !== '\uFEFF') kept += ' ';
    else if (INVISIBLE.test(char)) continue;
    else if (font.glyphs[char]) kept += char;
    else {
      const compatible = char.normalize('NFKC');
      if (compatible !== char && [...compatible].every((part) => font.glyphs[part])) kept += compatible;
      else missing.add(char);
    }
  }
  // A word left out leaves one space, not two.
  return { text: kept.replace(/ {2,}/g, ' ').trim(), missing: [...missing] };
}

const INVISIBLE = /^[\p{Cc}\p{Default_Ignorable_Code_Point}]$/u;

/**
 * Printable ASCII, every character of which Inter's Latin subset has (a test checks it): a text of
 * only these needs no look at the font to know the card draws all of it.
 */
export const ALL_DRAWN = /^[\x20-\x7e]*$/;
