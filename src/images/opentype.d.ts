// The part of opentype.js (2.x, which ships no types) that share-card-font.ts uses.
declare module 'opentype.js/dist/opentype.min.mjs' {
  export interface Path {
    toPathData(decimalPlaces?: number): string;
  }
  export interface Glyph {
    /** 0 is .notdef: the font has no glyph for the character. */
    index: number;
    advanceWidth?: number;
    getPath(x: number, y: number, fontSize: number): Path;
  }
  export interface Font {
    unitsPerEm: number;
    charToGlyph(char: string): Glyph;
    getKerningValue(left: Glyph, right: Glyph): number;
    /** The character map: glyph index by code point. */
    tables: { cmap: { glyphIndexMap: Record<string, number> } };
  }
  export function parse(buffer: ArrayBuffer): Font;
}
