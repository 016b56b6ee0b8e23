import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processGroup } from '../runner/proc-status';
import { CorePool, ownCores, parseCpuList, pinToCores } from './cores';

const allowedCores = (pid: number) => parseCpuList(/^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

describe("a worker's cores", () => {
  it("reads taskset's CPU lists", () => {
    expect(parseCpuList('0,1')).toEqual([0, 1]);
    expect(parseCpuList(' 0-2,5\n')).toEqual([0, 1, 2, 5]);
    expect(parseCpuList('3')).toEqual([3]);
  });

  it('gives each concurrent run the least used core, and shares only when all are taken', () => {
    const pool = new CorePool([2, 3]);
    const a = pool.take();
    const b = pool.take();
    expect([a, b]).toEqual([2, 3]);
    expect(pool.take()).toBe(2);
    pool.give(3);
    expect(pool.take()).toBe(3);
  });

  it("pins a run's process and the processes it started before the pin (its group), not others", async (ctx) => {
    const own = await ownCores();
    ctx.skip(!own.pinning || own.cores.length < 2, `pinning needs taskset and two cores: ${own.why ?? `${own.cores.length} core(s)`}`);
    // A group leader (as a run's child is) that has started a child of its own, as a streams run
    // starts its API or database in prepare, before the worker pins it.
    const leader = spawn(
      process.execPath,
      ['-e', "require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); setInterval(() => {}, 1000)"],
      {
        detached: true,
        stdio: 'ignore',
      },
    );
    try {
      let members: number[] = [];
      for (let i = 0; i < 100 && members.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 50));
        members = await processGroup(leader.pid!);
      }
      expect(members).toHaveLength(2);
      expect(members[0]).toBe(leader.pid);
      const core = own.cores[1];
      expect(await pinToCores(leader.pid!, [core])).toBe(true);
      for (const pid of members) expect(allowedCores(pid)).toEqual([core]);
      // This process is in another group: untouched.
      expect(allowedCores(process.pid)).toEqual(own.cores);
    } finally {
      process.kill(-leader.pid!, 'SIGKILL');
    }
  });
});
