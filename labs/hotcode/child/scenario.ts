/**
 * The hot-code lab inside the run's process: serves the strategy's report over HTTP and forks the
 * load (load.ts), which asks for reports and probes /health. Done when the load has its answers.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { booleanAt, limitAt, numberAt } from '../../../server/child/check-config';
import { HOTCODE_LIMITS } from '../shared/limits';
import { COMMON_LIMITS } from '../../../lib/protocol/limits';
import type { Scenario } from '../../../server/child/scenario';
import { endProcess, startLoad } from '../../../server/child/load-process';
import { endIfDenied } from '../../../server/child/denied';
import type { HotcodeLoadConfig, HotcodeLoadDone, HotcodeLoadReadings } from './load';
import { serveReport } from './serve';
import type { SweepStep } from './sweep-steps';
import type { Strategy } from './strategy';
import type { Report } from './rows';

interface HotcodeConfig {
  rows: number;
  requests: number;
  probeMs: number;
  sweep: boolean;
  timeoutS: number;
}

const NO_LOAD: HotcodeLoadReadings = { reportsOk: 0, badReports: 0, lastReportMs: 0, reportRows: 0 };

export const scenario: Scenario<HotcodeConfig> = {
  parseConfig: (c) => ({
    rows: limitAt(c, 'rows', HOTCODE_LIMITS.rows, { int: true }),
    requests: limitAt(c, 'requests', HOTCODE_LIMITS.requests, { int: true }),
    probeMs: limitAt(c, 'probeMs', HOTCODE_LIMITS.probeMs, { int: true }),
    sweep: booleanAt(c, 'sweep'),
    timeoutS: limitAt(c, 'timeoutS', COMMON_LIMITS.timeoutS, { int: true }),
  }),

  start(raw, config) {
    const strategy = raw as Strategy;
    let load = NO_LOAD;
    let loadChild: ChildProcess | null = null;
    let final: Record<string, number> = {};
    let steps: SweepStep[] = [];
    let problem: string | null = null;
    const killOnExit = () => loadChild?.kill('SIGKILL');
    process.once('exit', killOnExit);

    const done = (async () => {
      // A failed report is answered 500 and counted bad; one the fence refused ends the run refused.
      const server = await serveReport(
        (rows) => {
          let report: Promise<Report>;
          try {
            // Called now, not deferred: its synchronous body is what the watchdog times. A strategy
            // of yours may return the report itself rather than a promise.
            report = Promise.resolve(strategy.run(rows));
          } catch (err) {
            endIfDenied(err);
            throw err;
          }
          report.catch(endIfDenied);
          return report;
        },
        config.rows,
        config.sweep,
      );
      try {
        const loadConfig: HotcodeLoadConfig = {
          port: server.port,
          rows: config.rows,
          requests: config.requests,
          probeMs: config.probeMs,
          sweep: config.sweep,
          timeoutS: config.timeoutS,
        };
        const started = startLoad<HotcodeLoadConfig, HotcodeLoadReadings, HotcodeLoadDone>(
          fileURLToPath(new URL('./load.mjs', import.meta.url)),
          loadConfig,
          (r) => (load = r),
        );
        loadChild = started.child;
        const report = await started.done;
        [final, problem, steps] = [report.figures, report.problem, report.sweepSteps];
      } finally {
        await endProcess(loadChild);
        await server.close();
        process.off('exit', killOnExit);
      }
    })();

    return {
      readings: () => ({ ...load }),
      done,
      extras: () => final,
      note: () => problem,
      details: () => ({ sweepSteps: steps }),
      dispose: () => undefined,
    };
  },
};
