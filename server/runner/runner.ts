/**
 * The parent side of one run, for every lab: starts the run's child process, reads it from outside
 * (/proc RSS and CPU), enforces the memory budget and the watchdog, and reports samples and the
 * outcome. Every path out of a run — done, error, crash, V8 OOM, budget, stop, shutdown, watchdog —
 * goes through finish(), and the child is always reaped: stop = SIGTERM, then SIGKILL after a grace.
 */
import type { ChildProcess } from 'node:child_process';
import { MIB, type CommonParams } from '../../lib/protocol/params';
import { summarySchema, type LiveUpdate, type Outcome, type ProcSample, type RunSummary, type Sample } from '../../lib/protocol';
import type { ChildConfig } from '../child/protocol';
import { parseChildMessage } from '../child/protocol';
import { libraryVersion } from '../../labs/catalog';
import { findStrategy, requireLab, scenarioModule, strategyModule } from '../../labs/registry';
import type { Prepared } from '../../labs/types';
import { ensureChildBuild } from './child-build';
import { classifyExit, type ExitFacts } from './exit';
import { readProcCpuMs, readProcRss } from './proc-status';
import { killTree, live } from './children';
import { runStarted } from './child-priority';
import { forkRunChild, replenishSpare, takeSpare } from './spare-child';
import { checkedRuntime } from '../runtimes/for-run';
import { nameLongTasks, profileRun, type ProfileResult } from './profiler';

export { liveChildCount } from './children';
import { RunRecorder } from './summary';

export { stderrErrorLine } from './exit';

export const STOP_GRACE_MS = 2000;
/** How often the parent reads /proc when the sampler is off. */
const PROC_INTERVAL_FALLBACK_MS = 100;
const STDERR_TAIL_BYTES = 16 * 1024;

export interface RunRequest {
  lab: string;
  runId: string;
  strategy: string;
  /** The lab's params (already validated), common part included. */
  params: CommonParams & Record<string, unknown>;
  /** What the lab prepared for this run (Lab.prepare). */
  prepared: Prepared;
  onStarted?: (info: { pid: number; startedAt: number }) => void;
  onSample?: (sample: Sample) => void;
  onProc?: (sample: ProcSample) => void;
  /** The scenario's live extras (e.g. the CPU lab's request bars), as they change. */
  onLive?: (update: LiveUpdate) => void;
  /** A profiled run's CPU profile (params.profile), once, before `done` settles. */
  onProfile?: (profile: unknown) => void;
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



/** Starts a run; the returned handle's `done` settles with the summary, whatever the outcome. */
export function startRun(req: RunRequest): RunHandle {
  const strategy = findStrategy(req.lab, req.strategy);
  if (!strategy) throw new RangeError(`unknown strategy "${req.strategy}" in lab ${req.lab}`);
  const recorder = new RunRecorder(requireLab(req.lab).newRecorder(req.prepared, req.params));
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
  const profiling = req.params.profile ? profileRun(req.params.profileIntervalUs) : null;
  let profiled: Promise<void> | null = null;
  /** Stops a profiled run's profiler and hands the profile on, once; resolves at once for other runs. */
  const collectProfile = (proc: ChildProcess | null): Promise<void> =>
    (profiled ??= profiling
      ? profiling.stop(proc).then((r: ProfileResult) => {
          recorder.profile = r.summary;
          if (recorder.longTasks) recorder.longTasks = nameLongTasks(recorder.longTasks, r.profile);
          if (r.profile) req.onProfile?.(r.profile);
        })
      : Promise.resolve());

  function finish(outcome: Outcome, reason: string | null): void {
    if (finished) return;
    finished = true;
    clearTimeout(timers.poll);
    clearTimeout(timers.watchdog);
    clearTimeout(timers.kill);
    const facts = { lab: req.lab, runId: req.runId, strategy: req.strategy, outcome, reason, durationMs: Math.round((endMark ?? performance.now()) - startMark), params: req.params, library, startedAt };
    const summary = recorder.summarize(facts);
    // The lab's schema has the last word: a figure the lab forgot would otherwise reach history.
    const checked = summarySchema.safeParse(summary);
    if (checked.success) return resolveDone(checked.data);
    const issue = checked.error.issues[0];
    resolveDone(recorder.summarize({ ...facts, outcome: 'crashed', reason: `the run's summary did not match its lab's schema (${issue.path.join('.')}: ${issue.message})` }));
  }

  /** Decides the outcome now (first decision wins) and makes the child go away. */
  function terminate(outcome: Outcome, reason: string, signal: NodeJS.Signals = 'SIGTERM'): void {
    // Once the child has reported done, the run's outcome is its own: a late stop changes nothing.
    if (decided || finished || doneReceived) return;
    decided = { outcome, reason };
    endMark = performance.now();
    if (!child) return finish(outcome, reason);
    const proc = child;
    const kill = () => {
      killTree(proc, signal);
      if (signal !== 'SIGKILL') timers.kill = setTimeout(() => killTree(proc, 'SIGKILL'), STOP_GRACE_MS);
    };
    // A stop or a timeout keeps what was profiled so far (the inspector answers a busy process); a budget kill waits for nothing.
    if (!profiling || signal === 'SIGKILL') kill();
    else void collectProfile(proc).finally(kill);
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
    const runtime = await checkedRuntime(req.lab, req.strategy, req.params.node);
    recorder.nodeVersion = runtime.version;
    if (decided) return finish(decided.outcome, decided.reason);
    const config: ChildConfig = {
      scenarioModule: scenarioModule(req.lab),
      strategyModule: strategyModule(req.lab, req.strategy),
      scenario: req.prepared.scenario,
      sampleMs: req.params.sampleMs,
      retained: req.params.retained,
      ...(profiling && { profile: true }),
    };
    const execArgv: string[] = [];
    if (req.params.retained) execArgv.push('--expose-gc');
    if (req.params.maxOldSpaceMb !== null) execArgv.push(`--max-old-space-size=${req.params.maxOldSpaceMb}`);
    // The spare child is the server's own Node: a run on another runtime always gets a fresh fork of that binary.
    const proc = (runtime.own ? takeSpare(entry, execArgv, config) : null) ?? forkRunChild(entry, [JSON.stringify(config)], execArgv, runtime.execPath);
    proc.once('close', () => replenishSpare(entry));
    // Into the running runs' share of the CPU (child-priority.ts), until it exits.
    runStarted(proc);
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
          if (message.node) recorder.nodeVersion = message.node;
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
        case 'live':
          req.onLive?.(message.update);
          break;
        case 'done':
          doneReceived = true;
          endMark = performance.now();
          recorder.addSample(message.final);
          recorder.eventLoop = { p50: message.elP50Ms, p99: message.elP99Ms, max: message.elMaxMs };
          recorder.cpu = message.cpu;
          recorder.figures.addFinal(message.extras, message.note, message.details);
          if (message.longTasks) recorder.longTasks = nameLongTasks(message.longTasks, null);
          req.onSample?.(message.final);
          // The child waits for the profiler to stop before it exits (server/child/inspect.ts).
          void collectProfile(proc);
          break;
        case 'inspector':
          profiling?.attach(message.url, proc);
          break;
        case 'error':
          childError = message.message;
          break;
        default: {
          const never: never = message;
          throw new Error(`unhandled child message ${JSON.stringify(never)}`);
        }
      }
    });
    proc.on('error', (err) => {
      childError ??= err.message;
    });
    proc.on('exit', () => {
      live.delete(proc);
      // Whatever the child left in its process group (a lab's database, its load) ends with it,
      // however it ended: a crash or a V8 abort runs none of the child's own clean-up.
      killTree(proc, 'SIGKILL');
    });
    // 'close' comes after 'exit' once stderr and IPC are drained, so a late 'done' message or the
    // tail of a V8 out-of-memory report is never missed.
    proc.on('close', (code, signal) => (profiling ? void collectProfile(null).finally(() => settle(code, signal)) : settle(code, signal)));
    const settle = (code: number | null, signal: NodeJS.Signals | null) => {
      live.delete(proc);
      if (!decided && !doneReceived) endMark = performance.now();
      const facts: ExitFacts = decided
        ? { kind: 'decided', ...decided }
        : doneReceived
          ? { kind: 'done', figures: recorder.figures }
          : { kind: 'died', code, signal, childError, stderr: stderrTail, maxOldSpaceMb: req.params.maxOldSpaceMb };
      const { outcome, reason } = classifyExit(facts);
      finish(outcome, reason);
    };

    const intervalMs = req.params.sampleMs ?? PROC_INTERVAL_FALLBACK_MS;
    let lastCpu: { at: number; ms: number } | null = null;
    const pollProc = async () => {
      if (finished || proc.exitCode !== null || proc.signalCode !== null) return;
      const [rss, cpuMs] = await Promise.all([readProcRss(proc.pid!), readProcCpuMs(proc.pid!)]);
      if (rss !== null && !finished) {
        checkBudget(rss);
        const at = Date.now();
        // CPU % of one core since the last reading (/proc counts in 10 ms ticks: coarse, but from outside).
        const cpuPct = cpuMs !== null && lastCpu && at > lastCpu.at ? Math.round((1000 * (cpuMs - lastCpu.ms)) / (at - lastCpu.at)) / 10 : undefined;
        if (cpuMs !== null) lastCpu = { at, ms: cpuMs };
        // Drawn on the child's clock (t = 0 when the strategy started), so both RSS lines line up;
        // readings taken while the child is still booting count for the peak and the budget only.
        if (strategyStartWall === null) recorder.procPeakRss = Math.max(recorder.procPeakRss, rss);
        else {
          const p: ProcSample = { t: at - strategyStartWall, at, rss, ...(cpuPct !== undefined && { cpuPct }) };
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
    if (child) killTree(child, 'SIGKILL');
    finish('crashed', `could not start the run: ${err instanceof Error ? err.message : String(err)}`);
  });

  return {
    runId: req.runId,
    stop: (why = USER_STOP) => terminate(why.outcome, why.reason),
    done,
  };
}
