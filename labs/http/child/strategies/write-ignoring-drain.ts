import type { ServerResponse } from 'node:http';
import QueryStream from 'pg-query-stream';
import type { AuthorRow, ServeContext, Strategy } from '../strategy';

// #region run
async function run(_req: unknown, res: ServerResponse, { pool, sql, batchRows, cursorRows, sent }: ServeContext): Promise<void> {
  const client = await pool.connect();
  try {
    const rows: AsyncIterable<AuthorRow> = client.query(new QueryStream(sql, [], { batchSize: cursorRows }));
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    let lines = '';
    let n = 0;
    // Reads the cursor as fast as the database answers; res.write's `false` is ignored (push).
    for await (const row of rows) {
      if (res.destroyed) break;
      lines += `${JSON.stringify(row)}\n`;
      if (++n === batchRows) {
        res.write(lines);
        sent(n);
        [lines, n] = ['', 0];
      }
    }
    res.end(lines);
    sent(n);
  } finally {
    client.release();
  }
}
// #endregion run

export const strategy: Strategy = {
  id: 'write-ignoring-drain',
  role: 'ignores-drain',
  comparedWith: ['ndjson-cursor', 'json-array-cursor'],
  label: 'cursor + res.write, drain ignored',
  library: 'pg-query-stream',
  mode: 'push',
  format: 'ndjson',
  order: 5,
  expects: { outcome: 'completed', wholeResultInHeap: false, respectsBackpressure: false },
  keepsResults: false,
  explanation:
    'The cursor without backpressure: every batch goes to res.write whatever it returns. With fast clients it looks ' +
    'like the cursor pipeline; with a slow reader the rows pile up in the socket’s buffer (writableLength) outside the heap.',
  article: null,
  run,
};
