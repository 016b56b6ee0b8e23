/**
 * Run children yield the CPU to whoever watches them (the server relaying their samples, a browser
 * on the same machine) without starving behind anything else: all running runs together weigh as
 * much as one ordinary program.
 *
 * Why: every run child starts in its own session (forked detached, so a stop reaches its whole
 * process group), and Linux's autogroup scheduling, on by default, gives every session an equal
 * share of the CPU. Twelve runs had twelve shares against one for the server and the page: on two
 * vCPUs the page's 5–25 ms tasks waited for a core and lasted 100–480 ms while the runs started
 * (docs/results.md §7, traced with scripts/trace-start.mjs: wall time 112 ms, thread CPU 1 ms).
 * A fixed nice 19 fixed that but starved the runs behind any other busy program at normal priority
 * (two busy loops left a run ~1.5 % of a core: the CI machine's tests timed out, and a user's
 * figures on a loaded laptop would be stretched beyond use). So the nice follows the number of
 * runs: with n running, each gets the lowest nice whose scheduler weight is at most 1/n of nice 0's
 * (one run: nice 0; two: 4; four: 7; twelve: 12), never above STREAM_LAB_CHILD_NICE.
 *
 * Two knobs do it, because which one counts depends on the kernel: the session's autogroup nice
 * (/proc/<pid>/autogroup, where autogroup is on; any value ≥ 0 may be set, at most one write per
 * 100 ms system-wide without CAP_SYS_ADMIN) and the nice of every thread (where it is off, or
 * cgroups decide; without CAP_SYS_NICE a nice can only be raised, so there it stays at its highest).
 * Only servers turn this on (the web server and the worker); the CLI and the tests run children at
 * their own priority, since nothing there watches live.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { readIntSetting, type IntSetting } from '../env';

export const CHILD_NICE: IntSetting = { env: 'STREAM_LAB_CHILD_NICE', min: 0, max: 19, default: 19 };

/** The kernel's CFS weight of nice 0…19 (kernel/sched/core.c, sched_prio_to_weight). */
const WEIGHT = [1024, 820, 655, 526, 423, 335, 272, 215, 172, 137, 110, 87, 70, 56, 45, 36, 29, 23, 18, 15];

/** Unprivileged writes to /proc/<pid>/autogroup are limited by the kernel to one per 100 ms. */
const AUTOGROUP_RETRY_MS = 110;

let maxNice = 0;
let warned = false;
/** Running run children and the nice each was last given (a spare waiting for a run is not one). */
const running = new Map<ChildProcess, number>();
/** The pid whose threads get the nice: the run's Node (not a wrapper in front of it). */
const nodePids = new WeakMap<ChildProcess, number>();
/** Autogroup writes refused with EAGAIN (the rate limit): pid → nice wanted. */
const pending = new Map<number, number>();
let retryTimer: NodeJS.Timeout | undefined;

/** Turns lower priority on for run children from now on (STREAM_LAB_CHILD_NICE is the most they get, 0 = off); returns it. */
export function enableChildPriority(env: Record<string, string | undefined> = process.env): number {
  maxNice = readIntSetting(CHILD_NICE, env);
  return maxNice;
}

/** The most a run child is niced (0 when off). */
export function childNice(): number {
  return maxNice;
}

/** The nice each of `n` running runs gets so that together they weigh at most one nice-0 program, capped at `max`. */
export function niceForRuns(n: number, max: number): number {
  if (n <= 1 || max <= 0) return 0;
  const nice = WEIGHT.findIndex((w) => w * n <= WEIGHT[0]);
  return Math.min(max, nice === -1 ? WEIGHT.length - 1 : nice);
}

/** The nice a run child gets now (for tests and the priority of a spare). */
export function currentRunNice(): number {
  return niceForRuns(running.size, maxNice);
}

/**
 * A just-forked child not yet running a run (the spare, or a fresh fork) gets its session's
 * lowest priority, so its start-up never competes with running runs; `runStarted` brings it into
 * the runs' share. Only the autogroup: a thread's nice, once raised, could not come down again
 * without CAP_SYS_NICE.
 */
export function lowerPriority(proc: ChildProcess): void {
  if (!maxNice || proc.pid === undefined) return;
  setAutogroup(proc.pid, maxNice);
}

/**
 * A run child starts its run: every running run's nice is set again for the new count, and again
 * when it exits. `pid`: the run's Node when it is not `proc` itself (under a fenced run's namespaces' wrapper).
 */
export function runStarted(proc: ChildProcess, pid: number | undefined = proc.pid): void {
  if (!maxNice || pid === undefined || running.has(proc) || proc.exitCode !== null || proc.signalCode !== null) return;
  nodePids.set(proc, pid);
  running.set(proc, -1);
  proc.once('exit', () => {
    running.delete(proc);
    rebalance();
  });
  rebalance();
}

function rebalance(): void {
  const nice = currentRunNice();
  for (const [proc, given] of running) {
    const pid = nodePids.get(proc);
    if (given === nice || pid === undefined) continue;
    running.set(proc, nice);
    apply(pid, nice);
  }
}

function apply(pid: number, nice: number): void {
  // The main thread first: threads it creates from now on inherit its nice; those already made
  // (Node's platform threads start early) are set one by one.
  try {
    setPriority(pid, nice);
    for (const tid of readdirSync(`/proc/${pid}/task`)) if (Number(tid) !== pid) setPriority(Number(tid), nice);
  } catch (err) {
    // EACCES: lowering a nice needs CAP_SYS_NICE; the autogroup below still follows.
    const code = (err as NodeJS.ErrnoException).code;
    if (!gone(err) && code !== 'EACCES') warnOnce('nice', err);
  }
  setAutogroup(pid, nice);
}

function setAutogroup(pid: number, nice: number): void {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
    pending.delete(pid);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN') return queueRetry(pid, nice);
    pending.delete(pid);
    // ENOENT: no such process any more, or a kernel without autogroup: nothing to do either way.
    if (!gone(err)) warnOnce('autogroup', err);
  }
}

function queueRetry(pid: number, nice: number): void {
  // The latest wish per process wins: a retry never writes a count that has passed.
  pending.set(pid, nice);
  if (retryTimer) return;
  const next = () => {
    retryTimer = undefined;
    const first = pending.entries().next();
    if (!first.done) {
      pending.delete(first.value[0]);
      setAutogroup(first.value[0], first.value[1]);
    }
    if (pending.size && !retryTimer) retryTimer = setTimeout(next, AUTOGROUP_RETRY_MS).unref();
  };
  retryTimer = setTimeout(next, AUTOGROUP_RETRY_MS).unref();
}

function gone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ESRCH';
}

function warnOnce(what: string, err: unknown): void {
  if (warned) return;
  warned = true;
  console.warn(`run children keep the server's priority (could not set their ${what}: ${err instanceof Error ? err.message : String(err)})`);
}
