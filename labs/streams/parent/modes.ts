/**
 * Runs the stream-modes probe in a fresh `node` (no TypeScript loader, nothing already imported)
 * against a real temp file, and returns its validated report: on the server's Node, or on any
 * installed runtime (server/runtimes/), one after another for a comparison.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeZodError } from '../../../lib/protocol/params';
import { modesReportSchema, probeOutputSchema, type ModesReport } from '../view/modes';
import { listRuntimes, ownRuntime, verifyRuntime, type Runtime } from '../../../server/runtimes/store';

const PROBE = fileURLToPath(new URL('./modes-probe.mjs', import.meta.url));
/** Several highWaterMarks (64 KiB each), so a flowing stream is still reading when it is measured. */
const SOURCE_BYTES = 1024 * 1024;
/** Each case settles in milliseconds; a probe still running after this is stuck. */
const PROBE_TIMEOUT_MS = 20_000;

function runProbe(filePath: string, execPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(execPath, [PROBE, filePath], { timeout: PROBE_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`modes probe failed: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
  });
}

/** Measures readableFlowing for every case, in a new process of the runtime each call. */
export async function measureModes(runtime: Runtime = ownRuntime()): Promise<ModesReport> {
  await verifyRuntime(runtime);
  const dir = await mkdtemp(join(tmpdir(), 'stream-lab-modes-'));
  try {
    const source = join(dir, 'source.bin');
    await writeFile(source, Buffer.alloc(SOURCE_BYTES, 'x'));
    const startedAt = Date.now();
    const stdout = await runProbe(source, runtime.execPath);
    const durationMs = Date.now() - startedAt;
    let json: unknown;
    try {
      json = JSON.parse(stdout);
    } catch {
      throw new Error(`modes probe printed something that is not JSON: ${stdout.slice(0, 200)}`);
    }
    const parsed = probeOutputSchema.safeParse(json);
    if (!parsed.success) throw new Error(`modes probe output is invalid: ${describeZodError(parsed.error)}`);
    return modesReportSchema.parse({ ...parsed.data, measuredAt: startedAt, durationMs });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let pending: Promise<ModesReport> | null = null;

/**
 * measureModes(), shared by callers that ask while a measurement is under way, so a burst of
 * "Measure again" clicks starts one process, not one each.
 */
export function measureModesShared(): Promise<ModesReport> {
  pending ??= measureModes().finally(() => {
    pending = null;
  });
  return pending;
}

let pendingAll: Promise<ModesReport[]> | null = null;

/** The probe on every runtime (the server's first), one at a time; shared like measureModesShared. */
export function measureModesOnRuntimes(): Promise<ModesReport[]> {
  pendingAll ??= (async () => {
    const reports: ModesReport[] = [];
    for (const runtime of listRuntimes()) reports.push(await measureModes(runtime));
    return reports;
  })().finally(() => {
    pendingAll = null;
  });
  return pendingAll;
}
