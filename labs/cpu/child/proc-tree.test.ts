/**
 * The server's process tree read from /proc, on real processes: this test's process as the root,
 * a child that burns a core as the rest of the tree.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { watchTree } from './proc-tree';

const children: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('watchTree', () => {
  it("has no CPU % for the root's others until two reads (not 0), then their CPU between the reads", async () => {
    const busy = spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' });
    children.push(busy);
    // Reads only when asked: the timer's first read would come long after the test.
    const tree = watchTree(process.pid, new Set(), 60_000, 200);
    try {
      await new Promise((r) => setTimeout(r, 200));
      const before = Date.now();
      await tree.read();
      // One read is a point, not a rate: the busy child was running all along, and 0 would say it was idle.
      expect(tree.state.othersCpuPct).toBeNull();
      expect(tree.state.now.processes).toBeGreaterThanOrEqual(2);
      expect(tree.state.readAt).toBeGreaterThanOrEqual(before);
      await new Promise((r) => setTimeout(r, 400));
      await tree.read();
      // A core's worth, less what a busy shared machine took from it (10 ms /proc ticks over 400 ms: ±5 %).
      expect(tree.state.othersCpuPct).toBeGreaterThan(30);
    } finally {
      tree.stop();
    }
  });
});
