/** Shared by server tests: a temporary data directory for the describe block it is called in. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** Points STREAM_LAB_DATA_DIR at a fresh temp dir for the block, restores and removes it after. */
export function withTempDataDir(prefix: string): { readonly path: string } {
  const saved = process.env.STREAM_LAB_DATA_DIR;
  const dir = { path: '' };
  beforeAll(() => {
    dir.path = mkdtempSync(join(tmpdir(), `stream-lab-${prefix}-`));
    process.env.STREAM_LAB_DATA_DIR = dir.path;
  });
  afterAll(() => {
    rmSync(dir.path, { recursive: true, force: true });
    if (saved === undefined) delete process.env.STREAM_LAB_DATA_DIR;
    else process.env.STREAM_LAB_DATA_DIR = saved;
  });
  return dir;
}
