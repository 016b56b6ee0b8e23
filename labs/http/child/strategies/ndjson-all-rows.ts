import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { ServeContext, Strategy } from '../strategy';

// #region run
async function run(_req: unknown, res: ServerResponse, { pool, sql, batchRows, sent }: ServeContext): Promise<void> {
  // Streamed out (NDJSON, waiting for 'drain')… but the driver still loads every row first.
  const { rows } = await pool.query(sql);
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  for (let i = 0; i < rows.length && !res.destroyed; i += batchRows) {
    const batch = rows.slice(i, i + batchRows);
    const ok = res.write(batch.map((row) => `${JSON.stringify(row)}\n`).join(''));
    sent(batch.length);
    if (!ok) await once(res, 'drain');
  }
  res.end();
}
// #endregion run

export const strategy: Strategy = {
  id: 'ndjson-all-rows',
  role: 'buffered-in',
  comparedWith: ['buffered-json'],
  label: 'pool.query, then NDJSON writes',
  library: 'pg',
  mode: 'pull',
  format: 'ndjson',
  order: 2,
  expects: { outcome: 'completed', wholeResultInHeap: true, respectsBackpressure: true },
  keepsResults: true,
  explanation:
    'The write-up’s surprise: the response is streamed as NDJSON and waits for drain, yet pool.query has already ' +
    'loaded the whole result set. Streamed out, buffered in: the peak heap does not drop.',
  article: { peakMb: '≈1400', note: 'StreamingResponseBody over findAll(), slightly above 1.38 GB' },
  run,
};
