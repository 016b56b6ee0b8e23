import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import QueryStream from 'pg-query-stream';
import type { AuthorRow, ServeContext, Strategy } from '../strategy';

// #region run
async function run(_req: unknown, res: ServerResponse, { pool, sql, batchRows, cursorRows, sent }: ServeContext): Promise<void> {
  const client = await pool.connect();
  try {
    // A server-side cursor: cursorRows rows per read, the next read only when the response drains.
    const rows = client.query(new QueryStream(sql, [], { batchSize: cursorRows }));
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    await pipeline(
      rows,
      async function* (source: AsyncIterable<AuthorRow>) {
        let lines = '';
        let n = 0;
        for await (const row of source) {
          lines += `${JSON.stringify(row)}\n`;
          if (++n === batchRows) {
            yield lines;
            sent(n);
            [lines, n] = ['', 0];
          }
        }
        if (n > 0) {
          yield lines;
          sent(n);
        }
      },
      res,
    );
  } finally {
    // A client that hung up mid-response destroys the pipeline, and with it the cursor (closed on
    // this connection), so the connection goes back to the pool either way.
    client.release();
  }
}
// #endregion run

export const strategy: Strategy = {
  id: 'ndjson-cursor',
  role: 'cursor',
  comparedWith: ['buffered-json'],
  label: 'cursor → pipeline → NDJSON',
  library: 'pg-query-stream',
  mode: 'pull',
  format: 'ndjson',
  order: 3,
  expects: { outcome: 'completed', wholeResultInHeap: false, respectsBackpressure: true },
  keepsResults: false,
  explanation:
    'A pg-query-stream cursor piped with stream.pipeline into the response: rows are fetched batch by batch and the ' +
    'next batch is read only when the socket has drained. Backpressure from the client to the database; the heap stays flat.',
  article: { peakMb: '240', note: 'R2DBC reactive repository + NDJSON' },
  run,
};
