import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { threadNices } from '../test-support';
import { childNice, enableChildPriority } from './child-priority';
import { forkRunChild } from './spare-child';

/** A stand-in run child: starts a worker thread after it is up, says so, then waits to be killed. */
const dir = mkdtempSync(join(tmpdir(), 'child-priority-'));
const entry = join(dir, 'child.mjs');
writeFileSync(
  entry,
  `import { Worker } from 'node:worker_threads';
const w = new Worker('setInterval(() => {}, 1000)', { eval: true });
w.once('online', () => process.send('ready'));`,
);

async function startChild() {
  const proc = forkRunChild(entry, [], []);
  await new Promise((resolve, reject) => {
    proc.once('message', resolve);
    proc.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
  return proc;
}

afterAll(() => {
  enableChildPriority({ STREAM_LAB_CHILD_NICE: '0' });
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('run children below the server', () => {
  it('gives every thread of a child (those made after the fork too) and its session the nice value asked for', async () => {
    expect(enableChildPriority({ STREAM_LAB_CHILD_NICE: '7' })).toBe(7);
    const proc = await startChild();
    try {
      const nices = threadNices(proc.pid!);
      // Node's own threads, libuv's, and the worker thread started after the fork.
      expect(nices.length).toBeGreaterThan(5);
      expect(new Set(nices)).toEqual(new Set([7]));
      if (existsSync(`/proc/${proc.pid}/autogroup`)) {
        expect(readFileSync(`/proc/${proc.pid}/autogroup`, 'utf8')).toMatch(/ nice 7$/m);
      } else {
        console.log('child-priority test: this kernel has no autogroup scheduling; only the nice values were checked');
      }
    } finally {
      proc.kill('SIGKILL');
    }
  });

  it('leaves children at the server’s own priority when off (0)', async () => {
    expect(enableChildPriority({ STREAM_LAB_CHILD_NICE: '0' })).toBe(0);
    const own = threadNices(process.pid)[0];
    const proc = await startChild();
    try {
      expect(new Set(threadNices(proc.pid!))).toEqual(new Set([own]));
    } finally {
      proc.kill('SIGKILL');
    }
  });

  it('is on at 19 by default and names the variable and the range for a bad value', () => {
    expect(enableChildPriority({})).toBe(19);
    expect(childNice()).toBe(19);
    expect(() => enableChildPriority({ STREAM_LAB_CHILD_NICE: '20' })).toThrow('STREAM_LAB_CHILD_NICE must be a whole number between 0 and 19 (got "20")');
    expect(() => enableChildPriority({ STREAM_LAB_CHILD_NICE: '-5' })).toThrow(/between 0 and 19/);
  });
});
