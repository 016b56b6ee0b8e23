import { Readable } from 'node:stream';

import { prng } from '../child/numbers';

/** The seeded generator the data files are made with (the same seed always gives the same file). */
export { prng };

const CATEGORIES = ['invoice', 'receipt', 'contract', 'estimate', 'order', 'refund'];
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
export const CSV_HEADER = 'id,date,customer,category,amount,note\n';
const PIECE_BYTES = 64 * 1024;

/**
 * A Readable of exactly `sizeBytes` bytes of deterministic CSV (ASCII, one byte per character).
 * It makes a piece only when asked (read()), so writing it to disk follows the disk's pace.
 * The last row is cut to fit the size and ends with a newline.
 */
export function csvStream(sizeBytes: number, seed: number): Readable {
  const rand = prng(seed);
  let produced = 0;
  let row = 0;
  let carry = CSV_HEADER;

  function nextRow(): string {
    row += 1;
    const day = 1 + Math.floor(rand() * 28);
    const month = 1 + Math.floor(rand() * 12);
    const customer = `C${String(Math.floor(rand() * 1e6)).padStart(6, '0')}`;
    const category = CATEGORIES[Math.floor(rand() * CATEGORIES.length)];
    const amount = (rand() * 100000).toFixed(2);
    const note = `${WORDS[Math.floor(rand() * WORDS.length)]} ${WORDS[Math.floor(rand() * WORDS.length)]}`;
    return `${row},2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')},${customer},${category},${amount},${note}\n`;
  }

  return new Readable({
    highWaterMark: PIECE_BYTES,
    read() {
      const remaining = sizeBytes - produced;
      if (remaining <= 0) {
        this.push(null);
        return;
      }
      let piece = carry;
      while (piece.length < PIECE_BYTES) piece += nextRow();
      const take = Math.min(PIECE_BYTES, remaining);
      carry = piece.slice(take);
      piece = piece.slice(0, take);
      produced += take;
      if (produced === sizeBytes && !piece.endsWith('\n')) piece = `${piece.slice(0, -1)}\n`;
      this.push(Buffer.from(piece, 'latin1'));
    },
  });
}
