/**
 * Runs the stream-modes probe in a fresh `node` (no TypeScript loader, nothing already imported)
 * against a real temp file, and returns its validated report.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeZodError } from '../../lib/params';
import { modesReportSchema, probeOutputSchema, type ModesReport } from '../../lib/lessons';

const PROBE = fileURLToPath(new URL('./modes-probe.mjs', import.meta.url));
/** Several highWaterMarks (64 KiB each), so a flowing stream is still reading when it is measured. */
const SOURCE_BYTES = 1024 * 1024;
/** Each case settles in milliseconds; a probe still running after this is stuck. */
const PROBE_TIMEOUT_MS = 20_000;

function runProbe(filePath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [PROBE, filePath], { timeout: PROBE_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`modes probe failed: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
  });
}

/** Measures readableFlowing for every case, in a new process each call. */
export async function measureModes(): Promise<ModesReport> {
  const dir = await mkdtemp(join(tmpdir(), 'stream-lab-modes-'));
  try {
    const source = join(dir, 'source.bin');
    await writeFile(source, Buffer.alloc(SOURCE_BYTES, 'x'));
    const startedAt = Date.now();
    const stdout = await runProbe(source);
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
