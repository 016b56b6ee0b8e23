import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { threadNices } from '../test-support';
import { childNice, currentRunNice, enableChildPriority, niceForRuns, runStarted } from './child-priority';
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

const autogroupNice = (pid: number) => Number(/ nice (-?\d+)$/m.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'))?.[1]);
/** Waits for `read()` to give `want`: an unprivileged autogroup write may wait out the kernel's 100 ms rate limit. */
async function settles<T>(read: () => T, want: T): Promise<T> {
  const deadline = Date.now() + 5000;
  let got = read();
  while (JSON.stringify(got) !== JSON.stringify(want) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    got = read();
  }
  return got;
}

describe('how much the running runs yield', () => {
  it('together they weigh at most one ordinary program, never above the cap', () => {
    // Kernel weights: nice 4 = 423 (× 2 = 846 ≤ 1024, where nice 3's 526 × 2 is not), nice 7 = 215, nice 12 = 70.
    expect([1, 2, 3, 4, 6, 12, 64].map((n) => niceForRuns(n, 19))).toEqual([0, 4, 5, 7, 9, 12, 19]);
    expect(niceForRuns(12, 5)).toBe(5);
    expect(niceForRuns(12, 0)).toBe(0);
    expect(niceForRuns(0, 19)).toBe(0);
  });
});

describe.runIf(process.platform === 'linux')('run children below the server', () => {
  const autogroup = existsSync(`/proc/${process.pid}/autogroup`);
  // Lowering a thread's nice again needs CAP_SYS_NICE (root has it); the autogroup's follows for anyone.
  const canLowerNice = process.getuid?.() === 0;

  it('a waiting child sits at the cap; running ones share one program’s weight, following the count', async () => {
    expect(enableChildPriority({ STREAM_LAB_CHILD_NICE: '19' })).toBe(19);
    const own = threadNices(process.pid)[0];
    const [a, b] = [await startChild(), await startChild()];
    try {
      if (autogroup) expect(await settles(() => autogroupNice(a.pid!), 19)).toBe(19);
      // Threads are left alone until the child runs: a nice once raised could not come down again.
      expect(new Set(threadNices(a.pid!))).toEqual(new Set([own]));
      runStarted(a);
      expect(currentRunNice()).toBe(0);
      if (autogroup) expect(await settles(() => autogroupNice(a.pid!), 0)).toBe(0);
      runStarted(b);
      expect(currentRunNice()).toBe(4);
      for (const p of [a, b]) {
        if (autogroup) expect(await settles(() => autogroupNice(p.pid!), 4)).toBe(4);
        // Node's own threads, libuv's, and the worker thread started after the fork.
        const nices = threadNices(p.pid!);
        expect(nices.length).toBeGreaterThan(5);
        expect(new Set(nices)).toEqual(new Set([4]));
      }
      const bGone = new Promise((r) => b.once('exit', r));
      b.kill('SIGKILL');
      await bGone;
      expect(currentRunNice()).toBe(0);
      if (autogroup) expect(await settles(() => autogroupNice(a.pid!), 0)).toBe(0);
      if (canLowerNice) expect(new Set(threadNices(a.pid!))).toEqual(new Set([0]));
      if (!autogroup) console.log('child-priority test: this kernel has no autogroup scheduling; only the nice values were checked');
    } finally {
      a.kill('SIGKILL');
      b.kill('SIGKILL');
    }
  });

  it('leaves children at the server’s own priority when off (0)', async () => {
    expect(enableChildPriority({ STREAM_LAB_CHILD_NICE: '0' })).toBe(0);
    const own = threadNices(process.pid)[0];
    const proc = await startChild();
    try {
      runStarted(proc);
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
