import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { MIB } from '../../lib/protocol/params';
import { readProcRss } from './proc-status';

describe('readProcRss', () => {
  it('reads a live process RSS from /proc, in bytes', async () => {
    const rss = await readProcRss(process.pid);
    expect(rss).not.toBeNull();
    expect(rss! % 1024).toBe(0);
    // The same kernel counter process.memoryUsage() reports, read a moment apart.
    expect(Math.abs(rss! - process.memoryUsage().rss)).toBeLessThan(32 * MIB);
  });

  it('returns null for a process that is gone', async () => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const pid = child.pid!;
    await once(child, 'exit');
    expect(await readProcRss(pid)).toBeNull();
  });
});
