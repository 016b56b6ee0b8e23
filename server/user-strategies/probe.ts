/**
 * What a bundle of yours declares, read in a fenced process of its own (probe-child.mjs) so its
 * top-level code never runs in the server: its strategy's fields, or why it did not load.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fenceArgs, fencedEnv } from './fence';

const PROBE = fileURLToPath(new URL('./probe-child.mjs', import.meta.url));
/** A load that takes longer is taken as stuck (a busy machine boots Node in well under a second). */
const PROBE_TIMEOUT_MS = 15_000;

export type Probed =
  | { ok: true; fields: Record<string, unknown>; hasRun: boolean }
  /** `transient`: it did not answer in time (a busy machine?): worth trying again at the next look. */
  | { ok: false; message: string; line: number | null; column: number | null; transient?: boolean };

/** Probes still going: ended with the server (a file whose top-level code never returns would outlive it). */
const probing = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of probing) p.kill('SIGKILL');
});

/** The probe's answer, checked: the file's own top-level code could send a message first. */
function answerOf(m: unknown): Probed | null {
  if (!m || typeof m !== 'object') return null;
  const a = m as Record<string, unknown>;
  if (a.ok === true && a.fields && typeof a.fields === 'object' && !Array.isArray(a.fields) && typeof a.hasRun === 'boolean') {
    return { ok: true, fields: a.fields as Record<string, unknown>, hasRun: a.hasRun };
  }
  if (a.ok === false && typeof a.message === 'string') {
    const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);
    return { ok: false, message: a.message.slice(0, 2000), line: n(a.line), column: n(a.column) };
  }
  return null;
}

/** Loads the bundle (its probe copy, with the source map) in a fenced Node (the server's own; `readPaths`: what its imports need) and returns what it found; never throws. */
export function probeBundle(bundlePath: string, readPaths: readonly string[] = []): Promise<Probed> {
  return new Promise((resolve) => {
    const child = fork(PROBE, [bundlePath], {
      execArgv: [...fenceArgs(process.versions.node, [PROBE, bundlePath, ...readPaths]), '--enable-source-maps'],
      env: fencedEnv() as NodeJS.ProcessEnv,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + String(d)).slice(-2000)));
    let answer: Probed | null = null;
    const timer = setTimeout(() => {
      answer ??= {
        ok: false,
        message: `loading it took over ${PROBE_TIMEOUT_MS / 1000} s (top-level code that never finishes?)`,
        line: null,
        column: null,
        transient: true,
      };
      child.kill('SIGKILL');
    }, PROBE_TIMEOUT_MS);
    probing.add(child);
    child.on('message', (m) => (answer ??= answerOf(m)));
    child.on('error', (err) => (answer ??= { ok: false, message: err.message, line: null, column: null }));
    child.on('close', (code, signal) => {
      probing.delete(child);
      clearTimeout(timer);
      const last = stderr.trim().split('\n').at(-1);
      resolve(
        answer ?? { ok: false, message: `loading it ended the process (${signal ?? `code ${code}`})${last ? `: ${last}` : ''}`, line: null, column: null },
      );
    });
  });
}
