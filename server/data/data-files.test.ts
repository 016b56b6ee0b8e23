import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MIB } from '../../lib/protocol/params';
import { CSV_HEADER } from './csv-source';
import { ensureDataFile, findDataFile, removeStaleTempFiles, type DataFile } from './data-files';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function countNewlines(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) n += 1;
  return n;
}

/** ensureDataFile's refusal, whether it throws at once or rejects. */
async function refusal(sizeMb: number): Promise<Error> {
  try {
    await ensureDataFile({ sizeMb });
  } catch (err) {
    return err as Error;
  }
  throw new Error(`ensureDataFile({ sizeMb: ${sizeMb} }) was not refused`);
}

describe('data files', () => {
  const saved = { dir: process.env.STREAM_LAB_DATA_DIR, max: process.env.STREAM_LAB_MAX_SIZE_MB };
  const dirs: string[] = [];
  let dir: string;
  /** 3 MiB, seed 1: shared by the tests that only read it. */
  let file: DataFile;

  function useNewDataDir(): string {
    const d = mkdtempSync(join(tmpdir(), 'stream-lab-data-'));
    dirs.push(d);
    process.env.STREAM_LAB_DATA_DIR = d;
    return d;
  }

  beforeAll(async () => {
    delete process.env.STREAM_LAB_MAX_SIZE_MB;
    dir = useNewDataDir();
    file = await ensureDataFile({ sizeMb: 3, seed: 1 });
  });

  afterEach(() => {
    process.env.STREAM_LAB_DATA_DIR = dir;
    delete process.env.STREAM_LAB_MAX_SIZE_MB;
  });

  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    for (const [key, value] of [['STREAM_LAB_DATA_DIR', saved.dir], ['STREAM_LAB_MAX_SIZE_MB', saved.max]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('writes a file of exactly sizeMb MiB into STREAM_LAB_DATA_DIR, named by size and seed', () => {
    expect(file.path).toBe(join(dir, `stream-lab-${3 * MIB}-s1.csv`));
    expect(file.file).toBe(`stream-lab-${3 * MIB}-s1.csv`);
    expect(file.bytes).toBe(3 * MIB);
    expect(statSync(file.path).size).toBe(3 * MIB);
    expect(file.seed).toBe(1);
  });

  it('records the sha256 of the bytes on disk in the manifest', () => {
    const manifest = JSON.parse(readFileSync(join(dir, `stream-lab-${3 * MIB}-s1.json`), 'utf8')) as Record<string, unknown>;
    expect(manifest.sha256).toBe(sha256(readFileSync(file.path)));
    expect(file.sha256).toBe(manifest.sha256);
  });

  it('counts rows as newlines minus the header, in a CSV that starts with the header and ends with a newline', () => {
    const bytes = readFileSync(file.path);
    expect(file.rows).toBe(countNewlines(bytes) - 1);
    expect(file.rows).toBeGreaterThan(1000);
    expect(bytes.subarray(0, CSV_HEADER.length).toString('latin1')).toBe(CSV_HEADER);
    expect(bytes[bytes.length - 1]).toBe(10);
  });

  it('gives the same bytes for the same size and seed in another directory', async () => {
    const other = useNewDataDir();
    const again = await ensureDataFile({ sizeMb: 3, seed: 1 });
    expect(again.path).toBe(join(other, `stream-lab-${3 * MIB}-s1.csv`));
    expect(again.sha256).toBe(file.sha256);
    expect(readFileSync(again.path).equals(readFileSync(file.path))).toBe(true);
  });

  it('gives different bytes for another seed', async () => {
    const seeded = await ensureDataFile({ sizeMb: 3, seed: 2 });
    expect(seeded.bytes).toBe(3 * MIB);
    expect(seeded.sha256).not.toBe(file.sha256);
  });

  it('reuses a cached file without rewriting it', async () => {
    const before = statSync(file.path).mtimeMs;
    const progress: number[] = [];
    const again = await ensureDataFile({ sizeMb: 3, seed: 1, onProgress: (w) => progress.push(w) });
    expect(again).toEqual(file);
    expect(statSync(file.path).mtimeMs).toBe(before);
    expect(progress).toEqual([]);
    expect(findDataFile(3 * MIB, 1)).toEqual(file);
  });

  it('reports progress with increasing byte counts ending at the size', async () => {
    useNewDataDir();
    const calls: Array<[number, number]> = [];
    const made = await ensureDataFile({ sizeMb: 16, seed: 1, onProgress: (w, total) => calls.push([w, total]) });
    expect(made.bytes).toBe(16 * MIB);
    expect(calls.length).toBeGreaterThan(1);
    for (const [i, [written, total]] of calls.entries()) {
      expect(total).toBe(16 * MIB);
      if (i > 0) expect(written).toBeGreaterThan(calls[i - 1][0]);
    }
    expect(calls[calls.length - 1][0]).toBe(16 * MIB);
  });

  it('shares one generation between concurrent callers for the same file', async () => {
    const d = useNewDataDir();
    const progressA: number[] = [];
    const progressB: number[] = [];
    const [a, b] = await Promise.all([
      ensureDataFile({ sizeMb: 2, seed: 5, onProgress: (w) => progressA.push(w) }),
      ensureDataFile({ sizeMb: 2, seed: 5, onProgress: (w) => progressB.push(w) }),
    ]);
    expect(b).toEqual(a);
    // Only the caller that started the generation hears its progress.
    expect(progressA).toEqual([2 * MIB]);
    expect(progressB).toEqual([]);
    // One CSV and one manifest, no temp file left behind.
    expect(readdirSync(d).sort()).toEqual([`stream-lab-${2 * MIB}-s5.csv`, `stream-lab-${2 * MIB}-s5.json`]);
  });

  it.each([
    [0, 'sizeMb must be between 1 and 2048 (got 0)'],
    [0.5, 'sizeMb must be between 1 and 2048 (got 0.5)'],
    [Number.NaN, 'sizeMb must be between 1 and 2048 (got NaN)'],
  ])('refuses size %s with a message naming sizeMb and the range', async (sizeMb, message) => {
    const d = useNewDataDir();
    const err = await refusal(sizeMb);
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message).toBe(message);
    expect(readdirSync(d)).toEqual([]);
  });

  it('refuses a size above STREAM_LAB_MAX_SIZE_MB, naming the lowered maximum', async () => {
    const d = useNewDataDir();
    process.env.STREAM_LAB_MAX_SIZE_MB = '4';
    const err = await refusal(5);
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message).toBe('sizeMb must be between 1 and 4 (got 5)');
    expect(readdirSync(d)).toEqual([]);
    // The maximum itself is still allowed.
    expect((await ensureDataFile({ sizeMb: 4 })).bytes).toBe(4 * MIB);
  });

  it.each(['abc', '0.5', '0', '99999'])('refuses STREAM_LAB_MAX_SIZE_MB=%s instead of silently using the default', async (value) => {
    useNewDataDir();
    process.env.STREAM_LAB_MAX_SIZE_MB = value;
    const err = await refusal(2);
    expect(err.message).toBe(`STREAM_LAB_MAX_SIZE_MB must be a whole number between 1 and 2048 (got "${value}")`);
  });
});

describe('removeStaleTempFiles', () => {
  it('deletes temp files of dead writers and keeps those of live ones and finished files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stream-lab-stale-'));
    try {
      // Linux pids never exceed 2^22, so no process has pid 2^22 + 1.
      const dead = 'stream-lab-1048576-s1.csv.tmp-4194305-1700000000000';
      const live = `stream-lab-1048576-s1.csv.tmp-${process.pid}-1700000000000`;
      const done = 'stream-lab-1048576-s1.csv';
      for (const f of [dead, live, done]) writeFileSync(join(dir, f), 'x');
      expect(removeStaleTempFiles(dir)).toEqual([dead]);
      expect(readdirSync(dir).sort()).toEqual([done, live].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
