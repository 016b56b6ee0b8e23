/**
 * Runs one strategy in a fresh child process and reports its samples and its outcome. Every path
 * out of a run — done, error, crash, V8 OOM, budget, stop, watchdog — goes through finish(), and the
 * child is always reaped: stop = SIGTERM, then SIGKILL after a grace period.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { MIB, type RunParams } from '../../lib/params';
import type { Outcome, ProcSample, RunSummary, Sample } from '../../lib/protocol';
import { libraryVersion } from '../strategies/catalog';
import { findStrategy, strategyModule } from '../strategies/index';
import { ensureChildBuild } from './child-build';
import { parseChildMessage, type ChildConfig } from './child-protocol';
import { readProcRss } from './proc-status';
import { RunRecorder } from './summary';

export const STOP_GRACE_MS = 2000;
/** How often the parent reads /proc when the sampler is off. */
const PROC_INTERVAL_FALLBACK_MS = 100;
const STDERR_TAIL_BYTES = 16 * 1024;

export interface RunRequest {
  runId: string;
  strategy: string;
  params: RunParams;
  file: { path: string; bytes: number };
  onStarted?: (info: { pid: number; startedAt: number }) => void;
  onSample?: (sample: Sample) => void;
  onProc?: (sample: ProcSample) => void;
}

/** Why a run is being ended from outside: a person's Stop, or the server going away. */
export interface StopReason {
  outcome: 'stopped' | 'interrupted';
  reason: string;
}
export const USER_STOP: StopReason = { outcome: 'stopped', reason: 'stopped by the user' };
export const SHUTDOWN_STOP: StopReason = { outcome: 'interrupted', reason: 'server shut down' };

export interface RunHandle {
  readonly runId: string;
  /** Ends the run as 'stopped' (or 'interrupted' at shutdown); no effect once it has ended. */
  stop(why?: StopReason): void;
  readonly done: Promise<RunSummary>;
}

/** Children still alive, so a dying server can take them along. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Number of run children currently alive in this process (tests assert it returns to 0). */
export function liveChildCount(): number {
  return live.size;
}

/** The most telling line of a dead child's stderr: the last one that names an error. */
export function stderrErrorLine(stderr: string): string | null {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.filter((l) => /error|fatal|abort/i.test(l)).at(-1) ?? lines.filter((l) => !/^Node\.js v\d/.test(l)).at(-1) ?? null;
}

/** Starts a run; the returned handle's `done` settles with the summary, whatever the outcome. */
export function startRun(req: RunRequest): RunHandle {
  const strategy = findStrategy(req.strategy);
  if (!strategy) throw new RangeError(`unknown strategy "${req.strategy}"`);
  const recorder = new RunRecorder();
  const library = { name: strategy.library, version: libraryVersion(strategy.library) };
  let child: ChildProcess | null = null;
  let decided: { outcome: Outcome; reason: string | null } | null = null;
  let startedAt = Date.now();
  let startMark = performance.now();
  let endMark: number | null = null;
  let childError: string | null = null;
  let doneReceived = false;
  let stderrTail = '';
  const timers = { poll: undefined as NodeJS.Timeout | undefined, watchdog: undefined as NodeJS.Timeout | undefined, kill: undefined as NodeJS.Timeout | undefined };
  let resolveDone!: (s: RunSummary) => void;
  const done = new Promise<RunSummary>((resolve) => (resolveDone = resolve));
  let finished = false;

  function finish(outcome: Outcome, reason: string | null): void {
    if (finished) return;
    finished = true;
    clearTimeout(timers.poll);
    clearTimeout(timers.watchdog);
    clearTimeout(timers.kill);
    resolveDone(
      recorder.summarize({
        runId: req.runId,
        strategy: req.strategy,
        outcome,
        reason,
        fileBytes: req.file.bytes,
        durationMs: Math.round((endMark ?? performance.now()) - startMark),
        params: req.params,
        library,
        startedAt,
      }),
    );
  }

  /** Decides the outcome now (first decision wins) and makes the child go away. */
  function terminate(outcome: Outcome, reason: string, signal: NodeJS.Signals = 'SIGTERM'): void {
    // Once the child has reported done, the run's outcome is its own: a late stop changes nothing.
    if (decided || finished || doneReceived) return;
    decided = { outcome, reason };
    endMark = performance.now();
    if (!child) return finish(outcome, reason);
    child.kill(signal);
    if (signal !== 'SIGKILL') timers.kill = setTimeout(() => child?.kill('SIGKILL'), STOP_GRACE_MS);
  }

  function checkBudget(rss: number): void {
    const budget = req.params.budgetMb;
    if (budget !== null && rss > budget * MIB) {
      // Like a container's memory limit: no grace, the process is killed on the spot.
      terminate('out-of-memory', `RSS ${(rss / MIB).toFixed(0)} MB passed the ${budget} MB memory budget`, 'SIGKILL');
    }
  }

  async function launch(): Promise<void> {
    const entry = await ensureChildBuild();
    if (decided) return finish(decided.outcome, decided.reason);
    const config: ChildConfig = {
      strategyModule: strategyModule(req.strategy),
      filePath: req.file.path,
      fileBytes: req.file.bytes,
      highWaterMark: req.params.chunkKb * 1024,
      delayMs: req.params.delayMs,
      cpuUs: req.params.cpuUs,
      sampleMs: req.params.sampleMs,
      retained: req.params.retained,
    };
    const execArgv: string[] = [];
    if (req.params.retained) execArgv.push('--expose-gc');
    if (req.params.maxOldSpaceMb !== null) execArgv.push(`--max-old-space-size=${req.params.maxOldSpaceMb}`);
    // execArgv is set explicitly so the child does not inherit the server's TypeScript loader.
    const { NODE_OPTIONS: _drop, ...env } = process.env;
    const proc = fork(entry, [JSON.stringify(config)], {
      execArgv,
      env,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    child = proc;
    live.add(proc);
    startedAt = Date.now();
    startMark = performance.now();

    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (text: string) => {
      stderrTail = (stderrTail + text).slice(-STDERR_TAIL_BYTES);
    });
    /** Wall-clock time the child started the strategy: time zero for its samples and ours. */
    let strategyStartWall: number | null = null;
    proc.on('message', (raw: unknown) => {
      const parsed = parseChildMessage(raw);
      if (!parsed.ok) {
        terminate('crashed', `the run's process sent a malformed message (${parsed.error})`, 'SIGKILL');
        return;
      }
      const message = parsed.message;
      switch (message.type) {
        case 'ready':
          recorder.idle = message.idle;
          // Duration and throughput count from here, not from the fork: Node's boot and the
          // library's load are not the strategy's work.
          strategyStartWall = message.at;
          startedAt = message.at;
          startMark = performance.now();
          req.onStarted?.({ pid: proc.pid!, startedAt });
          break;
        case 'sample':
          recorder.addSample(message.sample);
          checkBudget(message.sample.rss);
          req.onSample?.(message.sample);
          break;
        case 'done':
          doneReceived = true;
          endMark = performance.now();
          recorder.addSample(message.final);
          recorder.eventLoop = { p50: message.elP50Ms, p99: message.elP99Ms, max: message.elMaxMs };
          recorder.peakInFlight = Math.max(recorder.peakInFlight, message.peakInFlight);
          req.onSample?.(message.final);
          break;
        case 'error':
          childError = message.message;
          break;
      }
    });
    proc.on('error', (err) => {
      childError ??= err.message;
    });
    proc.on('exit', () => live.delete(proc));
    // 'close' comes after 'exit' once stderr and IPC are drained, so a late 'done' message or the
    // tail of a V8 out-of-memory report is never missed.
    proc.on('close', (code, signal) => {
      live.delete(proc);
      if (decided) return finish(decided.outcome, decided.reason);
      if (doneReceived) {
        const lost = req.file.bytes - (recorder.last?.bytesProcessed ?? 0);
        if (lost <= 0) return finish('completed', null);
        return finish('data-lost', `the run ended with ${lost} of ${req.file.bytes} bytes never processed`);
      }
      endMark = performance.now();
      if (/heap out of memory|Reached heap limit/i.test(stderrTail)) {
        return finish('out-of-memory', `V8 heap limit reached (--max-old-space-size=${req.params.maxOldSpaceMb ?? 'default'})`);
      }
      const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
      finish('crashed', childError ?? (stderrErrorLine(stderrTail) ? `${how}: ${stderrErrorLine(stderrTail)}` : how));
    });

    const intervalMs = req.params.sampleMs ?? PROC_INTERVAL_FALLBACK_MS;
    const pollProc = async () => {
      if (finished || proc.exitCode !== null || proc.signalCode !== null) return;
      const rss = await readProcRss(proc.pid!);
      if (rss !== null && !finished) {
        checkBudget(rss);
        // Drawn on the child's clock (t = 0 when the strategy started), so both RSS lines line up;
        // readings taken while the child is still booting count for the peak and the budget only.
        if (strategyStartWall === null) recorder.procPeakRss = Math.max(recorder.procPeakRss, rss);
        else {
          const at = Date.now();
          const p = { t: at - strategyStartWall, at, rss };
          recorder.addProc(p);
          req.onProc?.(p);
        }
      }
      if (!finished) timers.poll = setTimeout(pollProc, intervalMs);
    };
    void pollProc();
    timers.watchdog = setTimeout(
      () => terminate('timed-out', `watchdog: no result after ${req.params.timeoutS} s`),
      req.params.timeoutS * 1000,
    );
  }

  launch().catch((err: unknown) => {
    if (child) child.kill('SIGKILL');
    finish('crashed', `could not start the run: ${err instanceof Error ? err.message : String(err)}`);
  });

  return {
    runId: req.runId,
    stop: (why = USER_STOP) => terminate(why.outcome, why.reason),
    done,
  };
}
