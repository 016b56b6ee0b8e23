/**
 * One spare run child kept booted (Node started, nothing of any lab or strategy loaded), so Start
 * does not wait for Node's start-up (~50 ms here). Every run still gets a process nobody used
 * before: the spare is handed over once, then a new one is made when the run ends (not while it
 * runs, so booting it never competes with a run's figures). Only runs with Node's default flags can
 * take it (retained mode and a heap limit need their own execArgv). Off unless a server enables it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { sendToChild, type ChildConfig } from '../child/protocol';
import { lowerPriority } from './child-priority';

let enabled = false;
let spare: { proc: ChildProcess; entry: string } | null = null;

/** The options every run child is forked with: bare Node (no TypeScript loader), its own process group. */
export function forkRunChild(
  entry: string,
  args: string[],
  execArgv: string[],
  execPath: string = process.execPath,
  childEnv?: Record<string, string>,
): ChildProcess {
  // A fenced run (a strategy of yours) gets only the few variables fence.ts lets through.
  const { NODE_OPTIONS: _drop, ...env } = (childEnv ?? process.env) as NodeJS.ProcessEnv;
  const proc = fork(entry, args, {
    // Another runtime's binary (server/runtimes/); advanced serialization was checked to work both
    // ways between Node 20, 22 and 24 (docs/results.md §12).
    execPath,
    // execArgv is set explicitly so the child does not inherit the server's TypeScript loader.
    execArgv,
    env,
    serialization: 'advanced',
    // fd 4: the heap readings a thread of the child takes while its main thread is blocked
    // (server/child/block-heap.ts; read by proc-poller.ts).
    stdio: ['ignore', 'ignore', 'pipe', 'ipc', 'pipe'],
    // Its own process group, so a stop reaches whatever the run started (workers, a database)
    // too; if this process dies, the child still leaves when its IPC channel closes.
    detached: true,
  });
  // Below the server and the pages watching it, when the server turned that on (child-priority.ts).
  lowerPriority(proc);
  return proc;
}

/**
 * Turns spares on (the web server does; the CLI and tests do not) and boots the first one.
 * STREAM_LAB_SPARE_CHILD=0 leaves them off (to measure what the spare saves).
 */
export function enableSpareChild(entry: string): void {
  if (process.env.STREAM_LAB_SPARE_CHILD === '0') return;
  enabled = true;
  replenishSpare(entry);
}

/** Boots a spare if spares are on and there is none (or it belongs to an older child build). */
export function replenishSpare(entry: string): void {
  if (!enabled) return;
  if (spare && spare.entry === entry && spare.proc.exitCode === null && spare.proc.signalCode === null) return;
  discardSpare();
  const proc = forkRunChild(entry, [], []);
  proc.stderr?.resume();
  // A spare that dies on its own (never expected) is simply replaced by the next run's end.
  proc.once('exit', () => {
    if (spare?.proc === proc) spare = null;
  });
  spare = { proc, entry };
}

/** Starts a run in the spare when it fits (same build, default flags); null otherwise. */
export function takeSpare(entry: string, execArgv: readonly string[], config: ChildConfig): ChildProcess | null {
  if (!spare || spare.entry !== entry || execArgv.length > 0 || spare.proc.exitCode !== null || !spare.proc.connected) return null;
  const { proc } = spare;
  spare = null;
  sendToChild(proc, { type: 'start', config });
  return proc;
}

/** Turns spares off for good (server shutdown) and kills the one up; resolves when it has exited. */
export function stopSpares(): Promise<void> {
  enabled = false;
  return discardSpare();
}

/** Kills the spare; returns when it has exited. */
function discardSpare(): Promise<void> {
  const s = spare;
  spare = null;
  if (!s || s.proc.exitCode !== null || s.proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    s.proc.once('exit', () => resolve());
    s.proc.kill('SIGKILL');
  });
}

/** Pid of the spare, if one is up (tests check it goes with the server). */
export function sparePid(): number | null {
  return spare?.proc.pid ?? null;
}

process.once('exit', () => {
  spare?.proc.kill('SIGKILL');
});
