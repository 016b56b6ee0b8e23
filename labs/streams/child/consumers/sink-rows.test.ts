import { describe, expect, it } from 'vitest';
import { insertSql, lineHash, RowTaker, rowValues, tableLoss } from './sink-rows';

const FILE = 'id,date,customer,category,amount,note\n1,2024-01-02,C000001,invoice,12.30,alpha bravo\n2,2024-02-03,C000002,refund,0.50,echo golf\n3,2024-0\n';

/** The file cut into chunks of `size` bytes, each taken in turn: every row the taker hands out. */
function takeInChunks(size: number): string[] {
  const taker = new RowTaker();
  const rows: string[] = [];
  for (let at = 0; at < FILE.length; at += size) rows.push(...taker.take(Buffer.from(FILE.slice(at, at + size), 'latin1')));
  return [...rows, ...taker.rest()];
}

describe("the postgres consumer's rows", () => {
  it('gives every row of the file once, whole, however the chunks cut its lines; the header is no row', () => {
    const rows = FILE.split('\n').slice(1, -1);
    for (const size of [1, 2, 7, 38, 39, 40, 64, FILE.length]) expect(takeInChunks(size), `chunks of ${size} bytes`).toEqual(rows);
  });

  it('takes a record as one row, the first (the header) aside, and a last line without a newline at the end', () => {
    const taker = new RowTaker();
    expect(['id,date', '1,a', '2,b'].flatMap((r) => taker.take(r))).toEqual(['1,a', '2,b']);
    const chunks = new RowTaker();
    expect([...chunks.take(Buffer.from('h\n1,a\n2,b')), ...chunks.rest()]).toEqual(['1,a', '2,b']);
  });

  it('splits a line at its first five commas (a note keeps its commas) and fills a cut row with nulls', () => {
    expect(rowValues('1,2024-01-02,C000001,invoice,12.30,alpha, bravo')).toEqual(['1', '2024-01-02', 'C000001', 'invoice', '12.30', 'alpha, bravo']);
    expect(rowValues('3,2024-0')).toEqual(['3', '2024-0', null, null, null, null]);
    expect(rowValues('4,,C1,,1.00,')).toEqual(['4', '', 'C1', '', '1.00', '']);
  });

  it('hashes a line to the first 32 bits of its md5, as PostgreSQL is asked to', () => {
    // md5('') = d41d8cd98f00b204e9800998ecf8427e
    expect(lineHash('')).toBe(0xd41d8cd9n);
  });

  it('writes a multi-row INSERT with one parameter per value', () => {
    expect(insertSql('t', 2)).toBe('INSERT INTO t (id, date, customer, category, amount, note) VALUES ($1, $2, $3, $4, $5, $6), ($7, $8, $9, $10, $11, $12)');
  });

  it('names what the table lost: fewer rows, more rows, or other rows', () => {
    const sent = { rows: 10_000, sum: 123n };
    const none = { rows: 0, first: null };
    expect(tableLoss({ rows: 10_000, sum: 123n }, sent, none)).toBeNull();
    expect(tableLoss({ rows: 9_950, sum: 100n }, sent, { rows: 50, first: 'boom' })).toBe(
      'the table has 9,950 of 10,000 rows (INSERTs of 50 rows failed: boom)',
    );
    expect(tableLoss({ rows: 10_002, sum: 130n }, sent, none)).toBe('the table has 10,002 rows, 2 more than the 10,000 sent');
    expect(tableLoss({ rows: 10_000, sum: 124n }, sent, none)).toBe("the table's 10,000 rows are not the ones sent (their checksum differs)");
  });
});
