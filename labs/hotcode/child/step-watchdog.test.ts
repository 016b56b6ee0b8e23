/**
 * The step watchdog on a real server and real sockets: a report that blocks the thread past its
 * limit is ended and answered 503 with what it used, and the same server then serves /health and
 * the next report as usual. (The whole run with a sweep is in hotcode.test.ts.)
 */
import { Agent } from 'node:http';
import { describe, expect, it } from 'vitest';
import { get } from '../../../server/child/http-get';
import type { Report, SaleRow } from './rows';
import { reportParam, serveReport, type ReportAnswer, type StoppedAnswer } from './serve';

/** Blocks the thread for `ms` (or until ended), then counts the rows as one day. */
function blockFor(ms: number) {
  return async (rows: readonly SaleRow[]): Promise<Report> => {
    const until = performance.now() + ms;
    while (performance.now() < until);
    return { days: { '2024-01-01': rows.length }, taxRates: null };
  };
}

describe('step watchdog', () => {
  it('ends a step past its limit, answers what it used, and the server goes on serving', async () => {
    let blockMs = 60_000;
    const server = await serveReport((rows) => blockFor(blockMs)(rows), 5000, true);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const t = performance.now();
      const stopped = await get(server.port, '/report?rows=1000&id=1&limitMs=300', agent, 20_000);
      const tookMs = performance.now() - t;
      expect(stopped.status).toBe(503);
      const body = JSON.parse(stopped.body) as StoppedAnswer;
      expect(body).toMatchObject({ id: 1, rows: 1000, stopped: true });
      // Ended at its limit, not after the minute it would have taken: the limit, plus at most the
      // time a busy machine takes to deliver the termination and the answer (well under 20 s).
      expect(body.wallMs).toBeGreaterThanOrEqual(300);
      expect(tookMs).toBeLessThan(20_000);
      expect(body.cpuMs).toBeGreaterThan(0);
      // The same server: /health and a report within its limit are answered as usual.
      expect((await get(server.port, '/health', agent, 20_000)).status).toBe(200);
      blockMs = 5;
      const ok = await get(server.port, '/report?rows=2000&id=2&limitMs=60000', agent, 20_000);
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body) as ReportAnswer).toMatchObject({ id: 2, rows: 2000, dayRows: 2000 });
      // A report without a limit is never ended.
      blockMs = 400;
      const unwatched = await get(server.port, '/report?rows=2000&id=3', agent, 20_000);
      expect(unwatched.status).toBe(200);
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('a server without the watchdog refuses a limit rather than ignoring it', async () => {
    const server = await serveReport(blockFor(1), 5000);
    const agent = new Agent();
    try {
      const r = await get(server.port, '/report?rows=1000&id=1&limitMs=100', agent, 20_000);
      expect(r.status).toBe(503);
      expect(r.body).toBe('no watchdog');
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('parses a limit only where it belongs', () => {
    expect(reportParam('/report?rows=10&id=2')).toEqual({ rows: 10, id: 2, limitMs: null });
    expect(reportParam('/report?rows=10&id=2&limitMs=500')).toEqual({ rows: 10, id: 2, limitMs: 500 });
    expect(reportParam('/report?rows=10&id=2&limitMs=')).toBeNull();
    expect(reportParam('/report?rows=10&limitMs=5&id=2')).toBeNull();
  });
});
