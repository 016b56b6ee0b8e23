/**
 * The postgres consumer's rows, without the database: which CSV lines an item holds, the columns a
 * line goes into, the checksum both sides compute, and what a mismatch says. Pure (postgres.ts does
 * the I/O).
 */
import { createHash } from 'node:crypto';
import { cutLines } from '../records';

/** The data file's columns (server/data/csv-source.ts), in its header's order. */
export const SINK_COLUMNS = ['id', 'date', 'customer', 'category', 'amount', 'note'] as const;

/**
 * The lines (rows) in each item, taken in the order the consumer's calls start. A chunk cuts a
 * line at each of its edges. The cut head waits, as in records.ts, and the next call takes it whole
 * with its tail. That is exact however the calls overlap. The taking is synchronous at a call's
 * start, and every strategy starts its calls in the order it read the chunks. Overlapping calls
 * only finish out of order, after their lines were taken. Keeping fragments keyed by offset would
 * need each chunk's offset, which a consumer call does not get. Storing fragments as rows would make
 * the table's rows differ from the file's.
 *
 * A record (the records option) is one whole line already. The file's first line, its header, is
 * not a row.
 */
export class RowTaker {
  private carry = '';
  private headerSeen = false;

  /** The whole rows this item completes (the header left out). */
  take(item: Buffer | string): string[] {
    let lines: string[];
    if (typeof item === 'string') lines = [item];
    else ({ lines, carry: this.carry } = cutLines(this.carry, item.toString('latin1')));
    return this.withoutHeader(lines);
  }

  /** At the end: a last line with no newline after it (the generated file always ends with one). */
  rest(): string[] {
    const last = this.carry === '' ? [] : [this.carry];
    this.carry = '';
    return this.withoutHeader(last);
  }

  private withoutHeader(lines: string[]): string[] {
    if (this.headerSeen || lines.length === 0) return lines;
    this.headerSeen = true;
    return lines.slice(1);
  }
}

/**
 * A line's values for SINK_COLUMNS: split at its first five commas, so a note holding commas stays
 * whole; a line with fewer fields (the file's last row, cut to fit its size) gets nulls after them.
 * The columns are text for the same reason: any field of that last row may be cut, and the check
 * rebuilds each line from its columns (ROW_TEXT_SQL), which must give back exactly the line.
 */
export function rowValues(line: string): (string | null)[] {
  const values: (string | null)[] = [];
  let from = 0;
  for (let i = 0; i < SINK_COLUMNS.length - 1; i++) {
    const comma = line.indexOf(',', from);
    if (comma === -1) break;
    values.push(line.slice(from, comma));
    from = comma + 1;
  }
  values.push(line.slice(from));
  while (values.length < SINK_COLUMNS.length) values.push(null);
  return values;
}

/** A row's line as the table gives it back: concat_ws skips the nulls rowValues left, and keeps empty fields. */
export const ROW_TEXT_SQL = `concat_ws(',', ${SINK_COLUMNS.join(', ')})`;

/** The first 32 bits of the md5 of a row's text (UTF-8): lineHash in SQL, summed by the check. */
export const ROW_HASH_SQL = `('x' || left(md5(${ROW_TEXT_SQL}), 8))::bit(32)::bigint`;

/**
 * The first 32 bits of the md5 of a line (UTF-8, as PostgreSQL hashes the text): summed over the
 * rows sent and over the table's rows, a lost, doubled or altered row changes the sum.
 */
export function lineHash(line: string): bigint {
  return BigInt(`0x${createHash('md5').update(line).digest('hex').slice(0, 8)}`);
}

/**
 * A multi-row INSERT of `rows` rows into `table`, parameterised ($1…). The knob's most, 10,000
 * rows of 6 columns, is 60,000 parameters: under PostgreSQL's 65,535 a statement.
 */
export function insertSql(table: string, rows: number): string {
  const n = SINK_COLUMNS.length;
  const tuples = Array.from({ length: rows }, (_, r) => `(${SINK_COLUMNS.map((_c, c) => `$${r * n + c + 1}`).join(', ')})`);
  return `INSERT INTO ${table} (${SINK_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`;
}

/** Rows and the sum of their lineHash: what was sent, or what the table holds. */
export interface Tally {
  rows: number;
  sum: bigint;
}

/** 10000 as "10,000", for messages. */
export const countText = (n: number) => n.toLocaleString('en-US');

/** What the table lost against what was sent, in words, or null when it holds exactly those rows. */
export function tableLoss(table: Tally, sent: Tally, failed: { rows: number; first: string | null }): string | null {
  const why = failed.rows > 0 ? ` (INSERTs of ${countText(failed.rows)} rows failed: ${failed.first})` : '';
  if (table.rows < sent.rows) return `the table has ${countText(table.rows)} of ${countText(sent.rows)} rows${why}`;
  if (table.rows > sent.rows)
    return `the table has ${countText(table.rows)} rows, ${countText(table.rows - sent.rows)} more than the ${countText(sent.rows)} sent`;
  if (table.sum !== sent.sum) return `the table's ${countText(table.rows)} rows are not the ones sent (their checksum differs)`;
  return null;
}
