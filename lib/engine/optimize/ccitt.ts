import "server-only";

/**
 * CCITT fax encoders for 1-bit images (ITU-T T.4 one-dimensional "Modified Huffman" and T.6
 * "Group 4"), so monochrome images can be stored with PDF's CCITTFaxDecode filter
 * (ISO 32000-1 §7.4.6). MuPDF can decode these but not write them.
 *
 * Input rows are packed 1 bit per pixel, most significant bit first, rows padded to a byte,
 * where a 0 bit is black — the convention of DeviceGray 1-bpc samples and of the filter's
 * default `BlackIs1 false`, so the decoded stream equals the input bytes.
 */

type Code = readonly [bits: number, length: number];

// T.4 Table 2: terminating codes for run lengths 0..63.
// prettier-ignore
const WHITE_TERM: readonly Code[] = codes([
  "00110101", "000111", "0111", "1000", "1011", "1100", "1110", "1111", "10011", "10100", "00111", "01000",
  "001000", "000011", "110100", "110101", "101010", "101011", "0100111", "0001100", "0001000", "0010111",
  "0000011", "0000100", "0101000", "0101011", "0010011", "0100100", "0011000", "00000010", "00000011",
  "00011010", "00011011", "00010010", "00010011", "00010100", "00010101", "00010110", "00010111", "00101000",
  "00101001", "00101010", "00101011", "00101100", "00101101", "00000100", "00000101", "00001010", "00001011",
  "01010010", "01010011", "01010100", "01010101", "00100100", "00100101", "01011000", "01011001", "01011010",
  "01011011", "01001010", "01001011", "00110010", "00110011", "00110100",
]);
// prettier-ignore
const BLACK_TERM: readonly Code[] = codes([
  "0000110111", "010", "11", "10", "011", "0011", "0010", "00011", "000101", "000100", "0000100", "0000101",
  "0000111", "00000100", "00000111", "000011000", "0000010111", "0000011000", "0000001000", "00001100111",
  "00001101000", "00001101100", "00000110111", "00000101000", "00000010111", "00000011000", "000011001010",
  "000011001011", "000011001100", "000011001101", "000001101000", "000001101001", "000001101010",
  "000001101011", "000011010010", "000011010011", "000011010100", "000011010101", "000011010110",
  "000011010111", "000001101100", "000001101101", "000011011010", "000011011011", "000001010100",
  "000001010101", "000001010110", "000001010111", "000001100100", "000001100101", "000001010010",
  "000001010011", "000000100100", "000000110111", "000000111000", "000000100111", "000000101000",
  "000001011000", "000001011001", "000000101011", "000000101100", "000001011010", "000001100110",
  "000001100111",
]);
// T.4 Table 3: make-up codes for 64, 128, ... 1728.
// prettier-ignore
const WHITE_MAKEUP: readonly Code[] = codes([
  "11011", "10010", "010111", "0110111", "00110110", "00110111", "01100100", "01100101", "01101000",
  "01100111", "011001100", "011001101", "011010010", "011010011", "011010100", "011010101", "011010110",
  "011010111", "011011000", "011011001", "011011010", "011011011", "010011000", "010011001", "010011010",
  "011000", "010011011",
]);
// prettier-ignore
const BLACK_MAKEUP: readonly Code[] = codes([
  "0000001111", "000011001000", "000011001001", "000001011011", "000000110011", "000000110100",
  "000000110101", "0000001101100", "0000001101101", "0000001001010", "0000001001011", "0000001001100",
  "0000001001101", "0000001110010", "0000001110011", "0000001110100", "0000001110101", "0000001110110",
  "0000001110111", "0000001010010", "0000001010011", "0000001010100", "0000001010101", "0000001011010",
  "0000001011011", "0000001100100", "0000001100101",
]);
// Extended make-up codes shared by both colours: 1792, 1856, ... 2560.
// prettier-ignore
const EXT_MAKEUP: readonly Code[] = codes([
  "00000001000", "00000001100", "00000001101", "000000010010", "000000010011", "000000010100",
  "000000010101", "000000010110", "000000010111", "000000011100", "000000011101", "000000011110",
  "000000011111",
]);

const EOL: Code = [0b000000000001, 12];
const PASS: Code = [0b0001, 4];
const HORIZONTAL: Code = [0b001, 3];
// Vertical modes indexed by (b1 - a1) + 3: VR3, VR2, VR1, V0, VL1, VL2, VL3.
const VERTICAL: readonly Code[] = codes(["0000011", "000011", "011", "1", "010", "000010", "0000010"]);

function codes(list: string[]): Code[] {
  return list.map((s) => [Number.parseInt(s, 2), s.length] as const);
}

class BitWriter {
  private buf: Uint8Array;
  private pos = 0; // bytes written
  private acc = 0; // pending bits (up to 31)
  private n = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(64, capacity));
  }

  put(code: Code): void {
    const [bits, len] = code;
    this.acc = ((this.acc << len) | bits) >>> 0;
    this.n += len;
    while (this.n >= 8) {
      this.n -= 8;
      this.byte((this.acc >>> this.n) & 0xff);
    }
    this.acc &= (1 << this.n) - 1;
  }

  private byte(b: number): void {
    if (this.pos === this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.pos++] = b;
  }

  finish(): Uint8Array {
    if (this.n > 0) this.byte((this.acc << (8 - this.n)) & 0xff);
    this.n = 0;
    this.acc = 0;
    return this.buf.subarray(0, this.pos);
  }
}

function putRun(w: BitWriter, run: number, black: boolean): void {
  const term = black ? BLACK_TERM : WHITE_TERM;
  const makeup = black ? BLACK_MAKEUP : WHITE_MAKEUP;
  while (run > 2560) {
    w.put(EXT_MAKEUP[EXT_MAKEUP.length - 1]);
    run -= 2560;
  }
  if (run >= 64) {
    const m = run >> 6; // multiples of 64: 1..40
    w.put(m <= 27 ? makeup[m - 1] : EXT_MAKEUP[m - 28]);
    run -= m << 6;
  }
  w.put(term[run]);
}

/**
 * The changing elements of row `y` (T.4 §4.2.1.3.1): positions where a pixel differs from
 * the one before it, the imaginary pixel before the row being white. Written into `out`,
 * followed by two `width` sentinels; returns the number of changes. Whole bytes of one colour
 * are skipped at once, which is most of a scanned page.
 */
function rowChanges(packed: Uint8Array, y: number, width: number, stride: number, out: Int32Array): number {
  const base = y * stride;
  let n = 0;
  let black = false; // current colour
  let x = 0;
  while (x < width) {
    const byte: number = packed[base + (x >> 3)];
    if ((x & 7) === 0 && x + 8 <= width && byte === (black ? 0x00 : 0xff)) {
      x += 8;
      continue;
    }
    const isBlack: boolean = ((byte >> (7 - (x & 7))) & 1) === 0;
    if (isBlack !== black) {
      out[n++] = x;
      black = isBlack;
    }
    x++;
  }
  out[n] = width;
  out[n + 1] = width;
  return n;
}

/** Group 4 (T.6, `/K -1`) encoding of a packed 1-bit image; ends with EOFB. */
export function encodeCcittG4(packed: Uint8Array, width: number, height: number): Uint8Array {
  const stride = (width + 7) >> 3;
  const w = new BitWriter(packed.length >> 2);
  let ref = new Int32Array(width + 3);
  let cur = new Int32Array(width + 3);
  ref[0] = width; // imaginary all-white line above the first row: no changes
  ref[1] = width;
  for (let y = 0; y < height; y++) {
    rowChanges(packed, y, width, stride, cur);
    // T.6 §2.2: a0 starts on the imaginary white pixel before the row. Change i of a line
    // turns it black when i is even, white when i is odd.
    let a0 = -1;
    let a0Black = false;
    let ai = 0; // index of a1 in cur: the first change after a0
    let bi = 0; // index of the first change in ref after a0 (before the colour check)
    for (;;) {
      while (ai < width && cur[ai] <= a0) ai++;
      while (ref[bi] <= a0 && ref[bi] < width) bi++;
      // b1: the first change after a0 to the colour opposite a0's (even index = to black).
      let b = bi;
      if (((b & 1) === 0) === a0Black) b++;
      const a1 = cur[ai];
      const b1 = ref[b];
      const b2 = b1 >= width ? width : ref[b + 1];
      if (b2 < a1) {
        w.put(PASS);
        a0 = b2;
      } else {
        const d = b1 - a1;
        if (d >= -3 && d <= 3) {
          w.put(VERTICAL[d + 3]);
          a0 = a1;
          a0Black = !a0Black;
        } else {
          const a2 = a1 >= width ? width : cur[ai + 1];
          w.put(HORIZONTAL);
          putRun(w, a1 - (a0 < 0 ? 0 : a0), a0Black);
          putRun(w, a2 - a1, !a0Black);
          a0 = a2;
        }
      }
      if (a0 >= width) break;
    }
    const t = ref;
    ref = cur;
    cur = t;
  }
  w.put(EOL);
  w.put(EOL);
  return w.finish();
}

/** Group 3 one-dimensional (T.4 Modified Huffman, `/K 0`) encoding; ends with RTC. */
export function encodeCcittG3(packed: Uint8Array, width: number, height: number): Uint8Array {
  const stride = (width + 7) >> 3;
  const w = new BitWriter(packed.length >> 1);
  const changes = new Int32Array(width + 3);
  for (let y = 0; y < height; y++) {
    const n = rowChanges(packed, y, width, stride, changes);
    // Runs alternate white/black, starting with a (possibly empty) white run.
    let x = 0;
    for (let i = 0; i <= n; i++) {
      const end = i < n ? changes[i] : width;
      if (i === n && end === x && n > 0) break;
      putRun(w, end - x, (i & 1) === 1);
      x = end;
    }
  }
  for (let i = 0; i < 6; i++) w.put(EOL);
  return w.finish();
}
