import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import QueryStream from 'pg-query-stream';
import type { AuthorRow, ServeContext, Strategy } from '../strategy';

// #region run
async function run(_req: unknown, res: ServerResponse, { pool, sql, batchRows, cursorRows, sent }: ServeContext): Promise<void> {
  const client = await pool.connect();
  try {
    const rows = client.query(new QueryStream(sql, [], { batchSize: cursorRows }));
    res.writeHead(200, { 'content-type': 'application/json' });
    await pipeline(
      rows,
      // The same cursor, written as one valid JSON array for clients that can't read NDJSON.
      async function* (source: AsyncIterable<AuthorRow>) {
        let text = '[';
        let n = 0;
        let first = true;
        for await (const row of source) {
          text += (first ? '' : ',') + JSON.stringify(row);
          first = false;
          if (++n === batchRows) {
            yield text;
            sent(n);
            [text, n] = ['', 0];
          }
        }
        yield `${text}]`;
        sent(n);
      },
      res,
    );
  } finally {
    client.release();
  }
}
// #endregion run

export const strategy: Strategy = {
  id: 'json-array-cursor',
  role: 'cursor',
  comparedWith: ['buffered-json'],
  label: 'cursor → pipeline → JSON array',
  library: 'pg-query-stream',
  mode: 'pull',
  format: 'json-array',
  order: 4,
  expects: { outcome: 'completed', wholeResultInHeap: false, respectsBackpressure: true },
  keepsResults: false,
  explanation:
    'The cursor pipeline again, but the body is one JSON array: "[" first, rows joined by commas, "]" last. Same flat ' +
    'heap and backpressure as NDJSON, for clients that need a single JSON document.',
  article: null,
  run,
};
