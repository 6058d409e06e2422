// The part of opentype.js (2.x, which ships no types) that share-cards.ts uses.
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
  }
  export function parse(buffer: ArrayBuffer): Font;
}
