/**
 * The records option: the file's bytes split into CSV lines before the strategy sees them, so each
 * record is one consumer call, as in the write-up's job (read CSV → call an API per record).
 */
import { Transform, type TransformCallback } from 'node:stream';

/**
 * The whole lines of `carry + text` (without their newlines), and the cut line after the last
 * newline, which waits (as the next carry) for the text that completes it.
 */
export function cutLines(carry: string, text: string): { lines: string[]; carry: string } {
  const lines = (carry + text).split('\n');
  return { lines, carry: lines.pop() ?? '' };
}

/** An object-mode Transform from chunks to lines (latin1 strings, no newline); a last line without one is kept too. */
export function lineSplitter(): Transform {
  let carry = '';
  return new Transform({
    readableObjectMode: true,
    // 256 lines queued ahead of the strategy (~16 KiB of this file): a pull reader's buffer stays that small.
    readableHighWaterMark: 256,
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      const cut = cutLines(carry, chunk.toString('latin1'));
      carry = cut.carry;
      for (const line of cut.lines) this.push(line);
      done();
    },
    flush(done: TransformCallback) {
      if (carry !== '') this.push(carry);
      done();
    },
  });
}
