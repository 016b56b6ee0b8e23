/**
 * The second half of the fence (fence.ts is the first): a fenced run's Node runs in a PID, mount and
 * network namespace of its own, made by util-linux's `unshare`. In them, a signal can reach only the
 * run's own processes (the server, other runs and the rest of the machine have no pid there, so
 * kill() answers ESRCH; `kill(-1)` ends only the run), and a connection only what the run itself
 * listens on (its own loopback, brought up for its PostgreSQL, mock API and load; nothing else has
 * a route). The permission model covers neither (Node 20–24), which is why this exists.
 *
 * The process tree, from outside: the runner's child is `unshare` (it leads the run's process
 * group, so a stop still signals all of it), its child is a shell, PID 1 inside, which only brings
 * `lo` up and waits, and Node is that shell's child. Node is not PID 1 on purpose: PID 1 ignores
 * every signal it has no handler for (a stop's SIGTERM would do nothing), and it would have to reap
 * orphans. A SIGKILL from the runner reaches all three; when PID 1 exits, the kernel kills whatever
 * is left in the namespace, so nothing of a run outlives it. `unshare` is started by `setpriv`
 * with a parent-death signal, so a server killed outright takes its runs along too.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { readFile } from 'node:fs/promises';

const UNSHARE = '/usr/bin/unshare';
/** `--kill-child`: if `unshare` itself is killed, its child (PID 1) goes too, and with it the namespace. */
const UNSHARE_ARGS = ['--pid', '--fork', '--kill-child', '--mount-proc', '--net'];
/**
 * In front of `unshare` (util-linux's `setpriv`, which execs it, same pid): SIGKILL when the
 * server dies. A server killed with SIGKILL runs no clean-up, and a run whose event loop is busy
 * never sees its IPC channel close: without this, it would run on, orphaned, for good. `unshare`
 * killed takes PID 1 along (`--kill-child`), and PID 1 the namespace.
 */
const SETPRIV = '/usr/bin/setpriv';
const SETPRIV_ARGS = ['--pdeathsig', 'KILL', '--', UNSHARE];
/**
 * PID 1's script. In the background and waited for so the shell stays PID 1 (not exec'd away) and
 * prints no "Terminated" of its own on a stop (the wait's stderr is dropped, Node's is not).
 */
const INIT_SCRIPT = 'ip link set lo up && { "$@" & wait $! 2>/dev/null; }';
/** How long the runner looks for Node under the wrapper before reading /proc of the wrapper instead. */
const FIND_NODE_MS = 5000;
const FIND_NODE_STEP_MS = 5;

export type NamespaceSupport = { ok: true } | { ok: false; why: string };
let support: NamespaceSupport | null = null;

/**
 * Can this machine make a fenced run's namespaces? Tried once (the real command, with `lo` up) and
 * remembered. STREAM_LAB_FENCE_NAMESPACES=0 answers "no" without trying: for the tests of the path
 * where the kernel refuses, and for an operator who wants the permission model alone.
 */
export function namespaceSupport(env: Record<string, string | undefined> = process.env): NamespaceSupport {
  if (env.STREAM_LAB_FENCE_NAMESPACES === '0') return { ok: false, why: 'STREAM_LAB_FENCE_NAMESPACES=0 turned them off' };
  support ??= tryNamespaces();
  return support;
}

function tryNamespaces(): NamespaceSupport {
  const r = spawnSync(SETPRIV, [...SETPRIV_ARGS, ...UNSHARE_ARGS, '--', '/bin/sh', '-c', INIT_SCRIPT, 'sh', 'true'], { encoding: 'utf8', timeout: 5000 });
  if (r.status === 0) return { ok: true };
  const said = (r.error?.message ?? r.stderr.trim().split('\n').at(-1)) || `exit code ${r.status}`;
  return { ok: false, why: `\`setpriv --pdeathsig KILL unshare ${UNSHARE_ARGS.join(' ')}\` failed here: ${said}` };
}

/** What the server tells at start (and the editor shows) about code of yours on this machine. */
export function fenceNotice(env: Record<string, string | undefined> = process.env): { namespaces: boolean; text: string } {
  const s = namespaceSupport(env);
  if (s.ok) {
    return {
      namespaces: true,
      text: "code of yours runs fenced: Node's permission model (no writes, no child processes of its own, reads only where its run needs) and namespaces of its own (its signals reach only its run's processes; it connects only to what its run listens on)",
    };
  }
  return {
    namespaces: false,
    text: `code of yours runs under Node's permission model only: it CAN signal the server and other processes of this user, and connect to anything this machine reaches (the server's port, Redis, PostgreSQL) — no namespaces here (${s.why})`,
  };
}

/** The command that runs `execPath execArgv…` (a fenced run's Node) inside the run's namespaces. */
export function inNamespaces(execPath: string, execArgv: readonly string[]): { execPath: string; execArgv: string[] } {
  return { execPath: SETPRIV, execArgv: [...SETPRIV_ARGS, ...UNSHARE_ARGS, '--', '/bin/sh', '-c', INIT_SCRIPT, 'sh', execPath, ...execArgv] };
}

/** The first child of `pid` (/proc/<pid>/task/<pid>/children), or null when it has none (yet). */
async function firstChild(pid: number): Promise<number | null> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  const first = Number(text.trim().split(/\s+/)[0]);
  return Number.isInteger(first) && first > 0 ? first : null;
}

/**
 * Node's pid, as the server sees it, under a run's wrapper (`unshare` → PID 1's shell → Node): what
 * /proc readings, priority and the reported pid are about. Null when the run ended before Node came.
 */
export async function nodePidUnder(wrapper: ChildProcess): Promise<number | null> {
  const until = Date.now() + FIND_NODE_MS;
  while (Date.now() < until && wrapper.exitCode === null && wrapper.signalCode === null && wrapper.pid !== undefined) {
    const init = await firstChild(wrapper.pid);
    // The shell's first child is `ip` for a moment, then the shell's fork of Node before its exec:
    // wait until it runs Node's binary.
    const node = init === null ? null : await firstChild(init);
    const comm = node === null ? '' : (await readFile(`/proc/${node}/comm`, 'utf8').catch(() => '')).trim();
    if (node !== null && comm !== '' && comm !== 'ip' && comm !== 'sh') return node;
    await new Promise((r) => setTimeout(r, FIND_NODE_STEP_MS));
  }
  return null;
}

/**
 * How the run's Node ended, from the wrapper's exit: PID 1's shell reports a Node killed by a signal
 * as 128 + its number (it can't die of it itself), so that is turned back into the signal.
 */
export function exitUnderWrapper(code: number | null, signal: NodeJS.Signals | null): { code: number | null; signal: NodeJS.Signals | null } {
  if (signal !== null || code === null || code <= 128) return { code, signal };
  const name = (Object.keys(constants.signals) as NodeJS.Signals[]).find((s) => constants.signals[s] === code - 128);
  return name ? { code: null, signal: name } : { code, signal };
}
