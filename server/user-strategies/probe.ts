/**
 * What a bundle of yours declares, read in a fenced process of its own (probe-child.mjs) so its
 * top-level code never runs in the server: its strategy's fields, or why it did not load.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fenceArgs } from './fence';

const PROBE = fileURLToPath(new URL('./probe-child.mjs', import.meta.url));
/** A load that takes longer is taken as stuck (a busy machine boots Node in well under a second). */
const PROBE_TIMEOUT_MS = 15_000;

export type Probed =
  { ok: true; fields: Record<string, unknown>; hasRun: boolean } | { ok: false; message: string; line: number | null; column: number | null };

/** Loads the bundle in a fenced Node (the server's own) and returns what it found; never throws. */
export function probeBundle(bundlePath: string): Promise<Probed> {
  return new Promise((resolve) => {
    const { NODE_OPTIONS: _drop, ...env } = process.env;
    const child = fork(PROBE, [bundlePath], {
      execArgv: [...fenceArgs(process.versions.node, [PROBE, bundlePath]), '--enable-source-maps'],
      env,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + String(d)).slice(-2000)));
    let answer: Probed | null = null;
    const timer = setTimeout(() => {
      answer ??= { ok: false, message: `loading it took over ${PROBE_TIMEOUT_MS / 1000} s (top-level code that never finishes?)`, line: null, column: null };
      child.kill('SIGKILL');
    }, PROBE_TIMEOUT_MS);
    child.on('message', (m) => (answer ??= m as Probed));
    child.on('error', (err) => (answer ??= { ok: false, message: err.message, line: null, column: null }));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = stderr.trim().split('\n').at(-1);
      resolve(
        answer ?? { ok: false, message: `loading it ended the process (${signal ?? `code ${code}`})${last ? `: ${last}` : ''}`, line: null, column: null },
      );
    });
  });
}
