/**
 * The fence a strategy of yours runs in: Node's permission model, which lets its process read the
 * few paths named here (the child build, its own bundle, the run's data) and nothing else, and
 * refuses file writes, child processes, worker threads and, before Node 24, the inspector.
 * What it does not stop (the network, on these Node versions) is in the README's Security section.
 */
import { compareVersions } from '../../lib/runtimes';

/** The first Node whose permission model is no longer experimental (`--permission`). */
const STABLE_FLAG_FROM = '22.13.0';
/** The first Node with `--allow-inspector` (20 and 22 turn the inspector off under the model). */
const INSPECTOR_FROM = '24.0.0';

/** Can a fenced run on this Node be profiled (the inspector allowed inside the fence)? */
export function fencedInspector(nodeVersion: string): boolean {
  return compareVersions(nodeVersion, INSPECTOR_FROM) >= 0;
}

/**
 * Node's flags for a fenced process on this runtime: read access to `readPaths` only (each a file
 * or a folder and everything under it), and the inspector when asked for and the runtime has it.
 */
export function fenceArgs(
  nodeVersion: string,
  readPaths: readonly string[],
  opts: { inspector?: boolean; childProcess?: boolean; worker?: boolean } = {},
): string[] {
  const flag = compareVersions(nodeVersion, STABLE_FLAG_FROM) >= 0 ? '--permission' : '--experimental-permission';
  return [
    flag,
    // Node 20 prints an ExperimentalWarning for the model on every start; it is not the strategy's.
    '--disable-warning=ExperimentalWarning',
    // One flag per path: Node 20 read commas as part of the path (checked on 20.20 and 22.23).
    ...readPaths.map((p) => `--allow-fs-read=${p}`),
    ...(opts.inspector && fencedInspector(nodeVersion) ? ['--allow-inspector'] : []),
    // A lab whose harness starts processes (a database, a load) in the run's child; processes
    // started with fork() inherit these flags, so a forked Node is fenced alike.
    ...(opts.childProcess ? ['--allow-child-process'] : []),
    // A lab whose harness starts a thread of its own (the hot-code lab's step watchdog).
    ...(opts.worker ? ['--allow-worker'] : []),
  ];
}

/**
 * The environment of a fenced process: a few harmless variables, never the server's secrets
 * (STREAM_LAB_OPERATOR_TOKEN, a Redis URL with its password), which a strategy of yours could
 * otherwise read and send out over the network the fence leaves open; `labNeeds`: what the lab's
 * harness reads itself (the HTTP lab's DATABASE_URL).
 */
export function fencedEnv(env: Record<string, string | undefined> = process.env, labNeeds: readonly string[] = []): Record<string, string> {
  // STREAM_LAB_DATA_DIR is a path, no secret: it marks the process as the run's (leftover checks look for it).
  const keep = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'NODE_ENV', 'STREAM_LAB_LONG_TASKS', 'STREAM_LAB_DATA_DIR', ...labNeeds];
  return Object.fromEntries(keep.flatMap((k) => (env[k] === undefined ? [] : [[k, env[k]!]])));
}

/** STREAM_LAB_UNFENCED_PROFILING=1: the operator lets strategies of yours be profiled unfenced on a Node that can't do both. */
export function unfencedProfilingAllowed(env: Record<string, string | undefined> = process.env): boolean {
  return env.STREAM_LAB_UNFENCED_PROFILING === '1';
}
