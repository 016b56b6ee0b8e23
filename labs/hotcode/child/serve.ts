/**
 * The report endpoint in the run's child: `GET /report?rows=N&id=K` runs the strategy over N rows
 * on the event loop, as the write-up's handler did, and answers what it found; `GET /health`
 * answers at once when the loop is free. A sweep's step adds `&limitMs=L`: past L ms the step is
 * ended (step-watchdog.ts) and answered 503 with what it had used (`StoppedAnswer`). Child side.
 */
import { createServer, type ServerResponse } from 'node:http';
import { makeRows, type Report, type SaleRow } from './rows';
import { startStepWatchdog, type StepWatchdog } from './step-watchdog';
import { listenLocal } from '../../../server/child/listen';

/** What /report answers: enough for the load to check every row was counted, and the time it took. */
export interface ReportAnswer {
  id: number;
  rows: number;
  /** The strategy's time in the handler (ms; the rows were made before it started). */
  computeMs: number;
  /**
   * The process's CPU time meanwhile (ms, every thread: the GC's helpers too). Other processes on
   * the machine stretch computeMs, not this: the sweep fits its exponent to it.
   */
  cpuMs: number;
  /** Rows counted by day and by tax rate (null for the part the strategy does not compute). */
  dayRows: number | null;
  rateRows: number | null;
  days: number;
  groups: number;
}

/** What /report answers (503) for a step the watchdog ended: the time and CPU it had used by then. */
export interface StoppedAnswer {
  id: number;
  rows: number;
  stopped: true;
  wallMs: number;
  cpuMs: number;
}

/** Parses `/report?rows=N&id=K[&limitMs=L]`, or null for any other URL. */
export function reportParam(url: string | undefined): { rows: number; id: number; limitMs: number | null } | null {
  const m = /^\/report\?rows=(\d{1,7})&id=(\d{1,9})(?:&limitMs=(\d{1,9}))?$/.exec(url ?? '');
  return m ? { rows: Number(m[1]), id: Number(m[2]), limitMs: m[3] === undefined ? null : Number(m[3]) } : null;
}

function answer(id: number, rows: number, report: Report, computeMs: number, cpuMs: number): ReportAnswer {
  const days = report.days ? Object.values(report.days) : null;
  const rates = report.taxRates ? Object.values(report.taxRates) : null;
  return {
    id,
    rows,
    computeMs,
    cpuMs,
    dayRows: days ? days.reduce((s, n) => s + n, 0) : null,
    rateRows: rates ? rates.reduce((s, g) => s + g.count, 0) : null,
    days: days?.length ?? 0,
    groups: rates?.length ?? 0,
  };
}

/**
 * Serves the strategy's report; `maxRows` bounds what a request may ask for (the run's own rows).
 * `watch` starts the step watchdog (a sweep), so requests may carry a limit.
 */
export async function serveReport(
  run: (rows: readonly SaleRow[]) => Promise<Report>,
  maxRows: number,
  watch = false,
): Promise<{ port: number; close(): Promise<void> }> {
  // Only the latest size is kept: a sweep's steps never hold two tables at once.
  let table: SaleRow[] = [];
  /** Steps under the watchdog, until they answer or are stopped. */
  const watched = new Map<number, { res: ServerResponse; rows: number; t: number; cpu: NodeJS.CpuUsage }>();
  let watchdog: StepWatchdog | null = null;
  const stopped = (id: number) => {
    const step = watched.get(id);
    if (!step) return;
    watched.delete(id);
    const used = process.cpuUsage(step.cpu);
    const body: StoppedAnswer = { id, rows: step.rows, stopped: true, wallMs: performance.now() - step.t, cpuMs: (used.user + used.system) / 1000 };
    // The ended handler never finished reading its request: this connection is done for.
    step.res.writeHead(503, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(body), () => step.res.socket?.destroy());
  };
  const server = createServer((req, res) => {
    if (req.url === '/health') return void res.end('ok');
    const ask = reportParam(req.url);
    if (ask === null || ask.rows < 1 || ask.rows > maxRows) return void res.writeHead(404).end();
    if (table.length !== ask.rows) table = makeRows(ask.rows);
    if (ask.limitMs !== null && watchdog === null) return void res.writeHead(503).end('no watchdog');
    const [t, cpu] = [performance.now(), process.cpuUsage()];
    if (ask.limitMs !== null) watched.set(ask.id, { res, rows: ask.rows, t, cpu });
    // Armed around the strategy's synchronous body only: that is what blocks the thread.
    const release = ask.limitMs !== null ? watchdog!.arm(ask.id, ask.limitMs) : () => undefined;
    let done: Promise<Report>;
    try {
      done = run(table);
    } catch (err) {
      done = Promise.reject(err as Error);
    }
    release();
    done.then(
      (report) => {
        const computeMs = performance.now() - t;
        const used = process.cpuUsage(cpu);
        watched.delete(ask.id);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer(ask.id, ask.rows, report, computeMs, (used.user + used.system) / 1000)));
      },
      (err: Error) => {
        watched.delete(ask.id);
        res.writeHead(500).end(err.message);
      },
    );
  });
  if (watch) watchdog = await startStepWatchdog(stopped);
  const listening = await listenLocal(server);
  return {
    port: listening.port,
    close: async () => {
      await listening.close();
      await watchdog?.close();
    },
  };
}
