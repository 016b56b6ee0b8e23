/**
 * The parent side of one run, for every lab: starts the run's child process and follows it through
 * the phases of lifecycle.ts. Split by concern: child-channel.ts (messages, stderr, exit),
 * proc-poller.ts (/proc RSS and CPU from outside), guards.ts (memory budget, watchdog), inspection.ts
 * (the inspector session: CPU and heap profiles, snapshots), heap-watch.ts (live heap profile, snapshots). Every path out of a run — done, error, crash, V8 OOM, budget, stop, shutdown,
 * watchdog — ends in finish(), and the child is always reaped: stop = SIGTERM, then SIGKILL after a
 * grace.
 */
import type { ChildProcess } from 'node:child_process';
import type { CommonParams } from '../../lib/protocol/params';
import { summarySchema, type LiveUpdate, type Outcome, type ProcSample, type RunSummary, type Sample } from '../../lib/protocol';
import type { ChildConfig, ChildMessage } from '../child/protocol';
import { declaredVersion } from '../../labs/catalog';
import { findStrategy, isUserStrategy, requireLab, scenarioModule, strategyModule } from '../../labs/registry';
import { fenceFor } from '../user-strategies/run-fence';
import { fencedEnv } from '../user-strategies/fence';
import { exitUnderWrapper, inNamespaces, namespaceSupport, nodePidUnder } from '../user-strategies/namespaces';
import type { Prepared } from '../../labs/types';
import { ensureChildBuild } from './child-build';
import { clearStaleLock, removeLockWrittenSince } from '../db/postgres';
import { clusterDirsIn } from '../db/ready';
import { classifyExit, type ExitFacts } from './exit';
import { killTree } from './children';
import { runStarted } from './child-priority';
import { forkRunChild, replenishSpare, takeSpare } from './spare-child';
import { checkedRuntime } from '../runtimes/for-run';
import { nameLongTasks } from './profiler';
import { Inspection, type InspectResult } from './inspection';
import { HEAP_PROFILE_FILE, HeapWatch } from './heap-watch';
import { COMMON_LIMITS } from '../../lib/protocol/params';
import type { HeapSnapshotSummary } from '../../lib/protocol';
import { RunLifecycle } from './lifecycle';
import { attachChild, type ChildChannel } from './child-channel';
import { pollProc, type ProcReading } from './proc-poller';
import { budgetBreach, startWatchdog } from './guards';
import { RunRecorder } from './summary';
import { foldMax } from '../../lib/series';

export { liveChildCount } from './children';

export { stderrErrorLine } from './exit';

export const STOP_GRACE_MS = 2000;
/** How often the parent reads /proc when the sampler is off. */
const PROC_INTERVAL_FALLBACK_MS = 100;

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
  /** A file for the run's record (a heap profile, a compressed heap snapshot), before `done` settles. */
  onFile?: (name: string, data: Buffer) => void;
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
  /** Takes a heap snapshot of the running run now (its summary; a refusal is its error). */
  snapshot(): Promise<HeapSnapshotSummary>;
  readonly done: Promise<RunSummary>;
}

/** Starts a run; the returned handle's `done` settles with the summary, whatever the outcome. */
export function startRun(req: RunRequest): RunHandle {
  const run = new Run(req);
  run.launch().catch((err: unknown) => run.launchFailed(err));
  return { runId: req.runId, stop: (why = USER_STOP) => run.terminate(why.outcome, why.reason), snapshot: () => run.snapshotNow(), done: run.done };
}

type Of<T extends ChildMessage['type']> = Extract<ChildMessage, { type: T }>;

/** One run from launch to summary. Its phase lives in `life`; everything else is what it measured. */
class Run {
  readonly done: Promise<RunSummary>;
  private resolveDone!: (s: RunSummary) => void;
  private readonly life = new RunLifecycle();
  private readonly recorder: RunRecorder;
  private readonly library: { name: string; version: string };
  /** The inspector session of a profiled, heap-profiled or snapshotted run (else null). */
  private readonly profiling: Inspection | null;
  private readonly heap: HeapWatch | null;
  private profiled: Promise<void> | null = null;
  private lastRss = 0;
  private child: ChildProcess | null = null;
  /** The run's Node is under a namespaces' wrapper (a fenced run, namespaces.ts): the child's pid is the wrapper's. */
  private wrapped = false;
  /** The run's Node's pid as this server sees it (the child's, unless wrapped). */
  private nodePid: number | null = null;
  /** When the child was forked (wall clock): a lock file written since is the run's own. */
  private spawnedAt = 0;
  private channel: ChildChannel | null = null;
  /** Wall clock and monotonic marks: the run counts from the strategy's start, not the fork. */
  private startedAt = Date.now();
  private startMark = performance.now();
  private endMark: number | null = null;
  /** Wall-clock time the child started the strategy: time zero for its samples and ours. */
  private strategyStartWall: number | null = null;
  private stopPolling: () => void = () => {};
  private stopWatchdog: () => void = () => {};
  private killTimer: NodeJS.Timeout | undefined;

  constructor(private readonly req: RunRequest) {
    const strategy = findStrategy(req.lab, req.strategy);
    if (!strategy) throw new RangeError(`unknown strategy "${req.strategy}" in lab ${req.lab}`);
    this.recorder = new RunRecorder(requireLab(req.lab).newRecorder(req.prepared, req.params));
    this.library = { name: strategy.library, version: declaredVersion(strategy.library) };
    const p = req.params;
    this.profiling =
      p.profile || p.heapProfile || p.heapSnapshot
        ? new Inspection({
            cpuIntervalUs: p.profile ? (p.profileIntervalUs ?? COMMON_LIMITS.profileIntervalUs.default) : null,
            heapIntervalKb: p.heapProfile ? (p.heapIntervalKb ?? COMMON_LIMITS.heapIntervalKb.default) : null,
          })
        : null;
    this.heap =
      this.profiling &&
      new HeapWatch({
        inspection: this.profiling,
        params: p,
        now: () => (this.strategyStartWall === null ? null : Date.now() - this.strategyStartWall),
        last: () => ({ sample: this.recorder.last, proc: this.recorder.lastProc, rss: this.lastRss }),
        live: (update) => this.req.onLive?.(update),
        file: (name, data) => this.req.onFile?.(name, data),
      });
    this.done = new Promise<RunSummary>((resolve) => (this.resolveDone = resolve));
  }

  /** Builds the child (once per server), checks the runtime, forks, and starts watching. */
  async launch(): Promise<void> {
    const entry = await ensureChildBuild();
    const runtime = await checkedRuntime(this.req.lab, this.req.strategy, this.req.params.node);
    this.recorder.nodeVersion = runtime.version;
    // Stopped while the build or the runtime check was under way: it has ended already.
    if (this.life.phase !== 'launching') return;
    const { params } = this.req;
    const config: ChildConfig = {
      scenarioModule: scenarioModule(this.req.lab),
      strategyModule: strategyModule(this.req.lab, this.req.strategy),
      scenario: this.req.prepared.scenario,
      sampleMs: params.sampleMs,
      retained: params.retained,
      ...(this.profiling && { profile: true }),
      ...(requireLab(this.req.lab).schema.watchesBlockedHeap && params.sampleMs !== null && { heapWatch: true }),
    };
    // In a PID namespace, the run's PostgreSQL can't tell a live server's pid from a stale one: told here, outside.
    if (namespaceSupport().ok && isUserStrategy(this.req.lab, this.req.strategy)) await Promise.all(this.clusterDirs().map((d) => clearStaleLock(d)));
    if (this.life.phase !== 'launching') return;
    const proc = this.spawn(entry, config, runtime);
    this.child = proc;
    this.life.go('running');
    this.startedAt = Date.now();
    this.startMark = performance.now();
    this.channel = attachChild(proc, {
      ready: (m) => this.onReady(m),
      sample: (m) => this.onSample(m),
      live: (m) => this.req.onLive?.(m.update),
      done: (m) => this.onDone(m),
      inspector: (m, socket) => this.profiling?.attach(m.url, proc, socket),
      malformed: (error) => this.terminate('crashed', `the run's process sent a malformed message (${error})`, 'SIGKILL'),
      close: (code, signal) => {
        if (this.wrapped) for (const dir of this.clusterDirs()) removeLockWrittenSince(dir, this.spawnedAt);
        return this.profiling ? void this.settleHeap().finally(() => this.settle(code, signal)) : this.settle(code, signal);
      },
    });
    void this.watchProc(proc, params.sampleMs ?? PROC_INTERVAL_FALLBACK_MS);
    this.stopWatchdog = startWatchdog(params.timeoutS, (reason) => this.terminate('timed-out', reason));
  }

  /** The embedded PostgreSQL clusters this run was handed (their lock files among its read paths). */
  private clusterDirs(): string[] {
    return clusterDirsIn(this.req.prepared.readPaths ?? []);
  }

  /**
   * Forks the run's child: the spare when it fits, else a fresh process of the run's runtime; a
   * fenced run in namespaces of its own when the machine can make them (namespaces.ts), its
   * strategy's reach beyond them then named by the child's guard.
   */
  private spawn(entry: string, config: ChildConfig, runtime: { own: boolean; execPath: string; version: string }): ChildProcess {
    const { execArgv, env } = this.childFlags(entry, config, runtime.version);
    this.wrapped = env !== undefined && namespaceSupport().ok;
    this.spawnedAt = Date.now();
    if (this.wrapped) config.guard = true;
    const cmd = this.wrapped ? inNamespaces(runtime.execPath, execArgv) : { execPath: runtime.execPath, execArgv };
    // The spare child is the server's own Node: a run on another runtime always gets a fresh fork of that binary.
    const spare = runtime.own && !this.wrapped ? takeSpare(entry, execArgv, config) : null;
    const proc = spare ?? forkRunChild(entry, [JSON.stringify(config)], cmd.execArgv, cmd.execPath, env);
    proc.once('close', () => replenishSpare(entry));
    return proc;
  }

  /**
   * From outside: the run's share of the CPU (child-priority.ts) and its /proc readings, both of
   * its Node — under a namespaces' wrapper, found first. Never found (the run ended first, or no
   * /proc/<pid>/task/<pid>/children here): no outside readings, rather than the wrapper's taken for
   * the run's; its priority then follows the session's autogroup alone.
   */
  private async watchProc(proc: ChildProcess, intervalMs: number): Promise<void> {
    const pid = this.wrapped ? await nodePidUnder(proc) : proc.pid!;
    if (this.finished) return;
    runStarted(proc, pid ?? proc.pid);
    if (pid === null) return;
    this.nodePid = pid;
    this.stopPolling = pollProc(proc, intervalMs, (r) => this.onProcReading(r), pid);
  }

  /**
   * Node's flags for the run's child, and its environment when that is not the server's: a strategy
   * of yours runs fenced (it may read the child build, its bundle and the run's data, nothing else)
   * and sees none of the server's environment (fence.ts).
   */
  private childFlags(entry: string, config: ChildConfig, runtimeVersion: string): { execArgv: string[]; env?: Record<string, string> } {
    const { params } = this.req;
    const execArgv: string[] = [];
    if (params.retained) execArgv.push('--expose-gc');
    if (params.maxOldSpaceMb !== null) execArgv.push(`--max-old-space-size=${params.maxOldSpaceMb}`);
    if (!isUserStrategy(this.req.lab, this.req.strategy)) return { execArgv };
    const fence = fenceFor({
      lab: this.req.lab,
      entry,
      strategyModule: config.strategyModule,
      prepared: this.req.prepared,
      runtime: runtimeVersion,
      params: params as Record<string, unknown>,
    });
    return { execArgv: [...execArgv, ...fence], env: fencedEnv(process.env, requireLab(this.req.lab).userFence?.env) };
  }

  launchFailed(err: unknown): void {
    if (this.child) killTree(this.child, 'SIGKILL');
    // Ended: a later stop finds nothing to do (its close still comes, and changes nothing).
    if (this.life.can('closed')) this.life.go('closed');
    this.finish('crashed', `could not start the run: ${err instanceof Error ? err.message : String(err)}`);
  }

  private onReady(m: Of<'ready'>): void {
    this.recorder.idle = m.idle;
    if (m.node) this.recorder.nodeVersion = m.node;
    // Duration and throughput count from here, not from the fork: Node's boot and the library's
    // load are not the strategy's work.
    this.strategyStartWall = m.at;
    this.startedAt = m.at;
    this.startMark = performance.now();
    this.req.onStarted?.({ pid: this.nodePid ?? this.child!.pid!, startedAt: this.startedAt });
    this.heap?.started();
  }

  /** A heap snapshot now ("Snapshot now"): refused when the run has no inspector or is not running. */
  snapshotNow(): Promise<HeapSnapshotSummary> {
    const refused = (error: string): HeapSnapshotSummary => ({ n: 0, trigger: 'now', atMs: 0, pauseMs: 0, before: null, bytes: 0, analysis: null, error });
    if (!this.heap)
      return Promise.resolve(refused('this run was started without the inspector: turn on Heap profile (or give a Heap snapshot trigger) to take snapshots'));
    if (this.life.phase !== 'running' || this.strategyStartWall === null) return Promise.resolve(refused('the run is not running'));
    return this.heap.take('now');
  }

  private onSample(m: Of<'sample'>): void {
    this.recorder.addSample(m.sample);
    this.checkBudget(m.sample.rss);
    this.req.onSample?.(m.sample);
    this.heap?.sample(m.sample);
  }

  private onDone(m: Of<'done'>): void {
    // A run already being ended from outside keeps that ending; its late report still counts.
    if (this.life.can('reported')) this.life.go('reported');
    // The scenario's check after the strategy's work (checkMs) is not the strategy's time.
    this.endMark ??= Math.max(this.startMark, performance.now() - (m.checkMs ?? 0));
    const { recorder } = this;
    recorder.addSample(m.final);
    recorder.eventLoop = { p50: m.elP50Ms, p99: m.elP99Ms, max: m.elMaxMs };
    recorder.cpu = m.cpu;
    recorder.figures.addFinal(m.extras, m.note, m.details);
    if (m.longTasks) recorder.longTasks = nameLongTasks(m.longTasks, null);
    this.req.onSample?.(m.final);
    // The child waits for the profiler to stop before it exits (server/child/inspect.ts).
    void this.collectProfile(this.child);
  }

  private onProcReading(r: ProcReading): void {
    if (this.life.phase === 'closed') return;
    this.lastRss = r.rss;
    this.checkBudget(r.rss);
    // Drawn on the child's clock (t = 0 when the strategy started), so both RSS lines line up;
    // readings taken while the child is still booting count for the peak and the budget only.
    if (this.strategyStartWall === null) {
      this.recorder.procPeakRss = foldMax(this.recorder.procPeakRss, r.rss);
      return;
    }
    this.heap?.procRss(r.rss);
    // The child's sampler runs on its main thread: how long it has been silent tells a blocked loop from outside.
    const last = this.recorder.last;
    const sinceSampleMs = this.req.params.sampleMs === null || !last ? null : Math.max(0, r.at - last.at);
    const p: ProcSample = {
      t: r.at - this.strategyStartWall,
      at: r.at,
      rss: r.rss,
      ...(r.cpuPct !== undefined && { cpuPct: r.cpuPct }),
      sinceSampleMs,
      ...r.heap,
    };
    this.recorder.addProc(p);
    this.req.onProc?.(p);
  }

  private checkBudget(rss: number): void {
    const breach = budgetBreach(rss, this.req.params.budgetMb);
    if (breach) this.terminate('out-of-memory', breach, 'SIGKILL');
  }

  /** Decides the outcome now (first decision wins) and makes the child go away. */
  terminate(outcome: Outcome, reason: string, signal: NodeJS.Signals = 'SIGTERM'): void {
    if (!this.life.decide({ outcome, reason })) {
      // Already ending, waiting for its profiles or a snapshot under way: a budget breach still
      // kills at once (the first outcome stands), so nothing outgrows the budget meanwhile.
      if (signal === 'SIGKILL' && this.child && this.life.phase === 'ending') killTree(this.child, 'SIGKILL');
      return;
    }
    this.endMark = performance.now();
    const proc = this.child;
    if (!proc) {
      // Not forked yet: nothing to wait for (launch sees the phase and stops).
      this.life.go('closed');
      return this.finish(outcome, reason);
    }
    const kill = () => {
      killTree(proc, signal);
      if (signal !== 'SIGKILL') this.killTimer = setTimeout(() => killTree(proc, 'SIGKILL'), STOP_GRACE_MS);
    };
    // A stop or a timeout keeps what was profiled so far (the inspector answers a busy process); a budget kill waits for nothing.
    if (!this.profiling || signal === 'SIGKILL') kill();
    else void this.collectProfile(proc).finally(kill);
  }

  /**
   * Ends an inspected run's profiling and hands the profiles on, once; resolves at once for other
   * runs. No snapshot starts after this; one being captured is waited for (the inspection's queue),
   * its analysis is not: that is `settleHeap`'s, after the child is gone.
   */
  private collectProfile(proc: ChildProcess | null): Promise<void> {
    const { profiling, recorder } = this;
    const at = this.strategyStartWall === null ? 0 : Date.now() - this.strategyStartWall;
    this.heap?.stopTaking();
    this.profiled ??= profiling
      ? profiling
          .stop(proc, at)
          .then(({ cpu, heap }: InspectResult) => {
            if (cpu) {
              recorder.profile = cpu.summary;
              if (recorder.longTasks) recorder.longTasks = nameLongTasks(recorder.longTasks, cpu.profile);
              if (cpu.profile) this.req.onProfile?.(cpu.profile);
            }
            if (heap) {
              recorder.heapProfile = heap.summary;
              if (heap.profile) this.req.onFile?.(HEAP_PROFILE_FILE, Buffer.from(JSON.stringify(heap.profile)));
            }
          })
          // A listener that throws (the CLI's --files on a full disk) must not leave the run unsettled.
          .catch((err: unknown) => console.error(`run ${this.req.runId}: its profiles were not handed on: ${err instanceof Error ? err.message : String(err)}`))
      : Promise.resolve();
    return this.profiled;
  }

  /** After the profiles: the snapshots asked for, analysed, into the summary. */
  private async settleHeap(): Promise<void> {
    await this.collectProfile(null);
    if (!this.heap) return;
    await this.heap.settled();
    if (this.heap.snapshots.length) this.recorder.heapSnapshots = this.heap.snapshots;
  }

  /** The child has closed: the outcome from what was seen (exit.ts), then the summary. */
  private settle(exitCode: number | null, exitSignal: NodeJS.Signals | null): void {
    const { code, signal } = this.wrapped ? exitUnderWrapper(exitCode, exitSignal) : { code: exitCode, signal: exitSignal };
    const reported = this.life.phase === 'reported';
    const decision = this.life.decision;
    if (this.life.phase !== 'closed') this.life.go('closed');
    this.endMark ??= performance.now();
    const facts: ExitFacts = decision
      ? { kind: 'decided', ...decision }
      : reported
        ? { kind: 'done', figures: this.recorder.figures }
        : {
            kind: 'died',
            code,
            signal,
            childError: this.channel!.childError(),
            childDenied: this.channel!.childDenied(),
            stderr: this.channel!.stderrTail(),
            maxOldSpaceMb: this.req.params.maxOldSpaceMb,
          };
    const { outcome, reason } = classifyExit(facts);
    this.finish(outcome, reason);
  }

  private finished = false;

  /** The one way out: stops the watchers and settles `done` with the summary, checked by the lab's schema. */
  private finish(outcome: Outcome, reason: string | null): void {
    if (this.finished) return;
    this.finished = true;
    this.stopPolling();
    this.stopWatchdog();
    clearTimeout(this.killTimer);
    const { req } = this;
    const facts = {
      lab: req.lab,
      runId: req.runId,
      strategy: req.strategy,
      outcome,
      reason,
      durationMs: Math.round((this.endMark ?? performance.now()) - this.startMark),
      params: req.params,
      library: this.library,
      startedAt: this.startedAt,
    };
    const summary = this.recorder.summarize(facts);
    // The lab's schema has the last word: a figure the lab forgot would otherwise reach history.
    const checked = summarySchema.safeParse(summary);
    if (checked.success) return this.resolveDone(checked.data);
    const issue = checked.error.issues[0];
    this.resolveDone(
      this.recorder.summarize({
        ...facts,
        outcome: 'crashed',
        reason: `the run's summary did not match its lab's schema (${issue.path.join('.')}: ${issue.message})`,
      }),
    );
  }
}
