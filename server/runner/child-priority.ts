/**
 * Run children yield the CPU to whoever watches them: the server relaying their samples and a
 * browser on the same machine.
 *
 * Why: every run child starts in its own session (forked detached, so a stop reaches its whole
 * process group), and Linux's autogroup scheduling, on by default, gives every session an equal
 * share of the CPU. Twelve runs had twelve shares against one for the server and the page: on two
 * vCPUs the page's 5–25 ms tasks waited for a core and lasted 100–480 ms while the runs started
 * (docs/results.md §7, traced with scripts/trace-start.mjs: wall time 112 ms, thread CPU 1 ms).
 * A lower priority for the runs keeps the observer responsive; the runs still share the CPU
 * equally among themselves (all at the same priority) and take all of it when nothing else wants it.
 *
 * Two knobs do it, because which one counts depends on the kernel: the session's autogroup nice
 * (/proc/<pid>/autogroup, where autogroup is on) and the process's own nice (where it is off, or
 * cgroups decide). Only servers turn this on (the web server and the worker); the CLI and the tests
 * run children at their own priority, since nothing there watches live.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { readIntSetting, type IntSetting } from '../env';

export const CHILD_NICE: IntSetting = { env: 'STREAM_LAB_CHILD_NICE', min: 0, max: 19, default: 19 };

/** Unprivileged writes to /proc/<pid>/autogroup are limited by the kernel to one per 100 ms. */
const AUTOGROUP_RETRY_MS = 110;

let nice = 0;
let warned = false;
/** Children whose autogroup write was refused with EAGAIN (the rate limit), oldest first. */
const pending: number[] = [];
let retryTimer: NodeJS.Timeout | undefined;

/** Turns lower priority on for every run child forked from now on (STREAM_LAB_CHILD_NICE, 0 = off); returns the nice value. */
export function enableChildPriority(env: Record<string, string | undefined> = process.env): number {
  nice = readIntSetting(CHILD_NICE, env);
  return nice;
}

/** The nice value run children get (0 when off). */
export function childNice(): number {
  return nice;
}

/** Lowers a just-forked run child's priority (a no-op when off or on a system without these knobs). */
export function lowerPriority(pid: number | undefined): void {
  if (!nice || pid === undefined) return;
  // The main thread first: threads it creates from now on inherit its nice; those already made
  // (Node's platform threads start early) are set one by one.
  try {
    setPriority(pid, nice);
    for (const tid of readdirSync(`/proc/${pid}/task`)) if (Number(tid) !== pid) setPriority(Number(tid), nice);
  } catch (err) {
    if (!gone(err)) warnOnce('nice', err);
  }
  setAutogroup(pid);
}

function setAutogroup(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN') return queueRetry(pid);
    // ENOENT: no such process any more, or a kernel without autogroup: nothing to do either way.
    if (!gone(err)) warnOnce('autogroup', err);
  }
}

function queueRetry(pid: number): void {
  pending.push(pid);
  if (retryTimer) return;
  const next = () => {
    retryTimer = undefined;
    const pid = pending.shift();
    if (pid !== undefined) setAutogroup(pid);
    if (pending.length && !retryTimer) retryTimer = setTimeout(next, AUTOGROUP_RETRY_MS).unref();
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
