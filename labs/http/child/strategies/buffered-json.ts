import type { ServerResponse } from 'node:http';
import type { ServeContext, Strategy } from '../strategy';

// #region run
async function run(_req: unknown, res: ServerResponse, { pool, sql, sent }: ServeContext): Promise<void> {
  // Every row in memory as objects, then the whole document as one string, then one write.
  const { rows } = await pool.query(sql);
  const body = JSON.stringify(rows);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  sent(rows.length);
}
// #endregion run

export const strategy: Strategy = {
  id: 'buffered-json',
  role: 'buffered',
  label: 'pool.query + JSON.stringify',
  library: 'pg',
  mode: 'push',
  format: 'json-array',
  order: 1,
  expects: { outcome: 'completed', wholeResultInHeap: true, respectsBackpressure: false },
  keepsResults: true,
  explanation:
    'The usual endpoint: the driver loads every row, JSON.stringify builds the whole body, res.end sends it. ' +
    'Each request in flight holds its rows and its body string in the heap at once; nothing is sent until all of it is built.',
  article: { peakMb: '1380', note: 'findAll(), Spring/Java heap' },
  run,
};
