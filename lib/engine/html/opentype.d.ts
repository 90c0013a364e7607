/** The part of opentype.js (2.x, no bundled types) that the web-font builder uses. */
declare module "opentype.js" {
  export class Path {
    constructor();
    moveTo(x: number, y: number): void;
    lineTo(x: number, y: number): void;
    curveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void;
    quadTo(x1: number, y1: number, x: number, y: number): void;
    close(): void;
    commands: unknown[];
  }
  export class Glyph {
    constructor(options: { name: string; unicode?: number; unicodes?: number[]; advanceWidth: number; path: Path });
  }
  export class Font {
    constructor(options: {
      familyName: string;
      styleName: string;
      unitsPerEm: number;
      ascender: number;
      descender: number;
      glyphs: Glyph[];
      weightClass?: number;
      italicAngle?: number;
    });
    substitution: {
      addLigature(feature: string, ligature: { sub: number[]; by: number }, script?: string, language?: string): void;
    };
    toArrayBuffer(): ArrayBuffer;
  }
  /** Node loads the UMD build (everything on the default export); bundlers the ES module. */
  const opentype: { Path: typeof Path; Glyph: typeof Glyph; Font: typeof Font } | undefined;
  export default opentype;
}

declare module "wawoff2" {
  export function compress(input: Uint8Array): Promise<Uint8Array>;
  export function decompress(input: Uint8Array): Promise<Uint8Array>;
}
