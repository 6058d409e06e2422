import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Glyph } from 'opentype.js/dist/opentype.min.mjs';
import { precompiled } from '../util/precompiled.js';

/**
 * Inter Bold (OFL) from its npm package, so that every machine draws the same letters: the share
 * cards' text is drawn as these outlines, and the rasteriser never looks for a font of its own.
 * Fontsource ships each subset apart: Latin covers English and the pound sign, Latin Extended
 * the accented letters of other European languages.
 */
export const FONT_FILES = ['@fontsource/inter/files/inter-latin-700-normal.woff', '@fontsource/inter/files/inter-latin-ext-700-normal.woff'].map((name) =>
  createRequire(import.meta.url).resolve(name),
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

/** Every character of the two subsets (Latin first), traced with opentype.js, as JSON. */
export async function traceCardFont(): Promise<string> {
  // opentype.js's ES module build: its `main` is a UMD script that takes three times as long to load.
  const opentype = await import('opentype.js/dist/opentype.min.mjs');
  const traced: CardFont = { unitsPerEm: 0, glyphs: {}, kerning: {} };
  for (const file of FONT_FILES) {
    const bytes = readFileSync(file);
    const font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    if (traced.unitsPerEm && traced.unitsPerEm !== font.unitsPerEm) throw new Error(`${file}: ${font.unitsPerEm} units per em, not ${traced.unitsPerEm}`);
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
