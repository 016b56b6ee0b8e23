import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withTempDataDir } from '../test-support';

const fixture = fileURLToPath(new URL('./fixtures/parent-of-run.ts', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a run whose parent dies', () => {
  const data = withTempDataDir('orphan');

  it('ends with its parent even when the parent is killed with SIGKILL', async () => {
    const parent = spawn(process.execPath, ['--import', 'tsx', fixture], {
      env: { ...process.env, STREAM_LAB_DATA_DIR: data.path },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const childPid = await new Promise<number>((resolve, reject) => {
      parent.stdout.on('data', (d: Buffer) => {
        const m = /child (\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      });
      parent.once('exit', (code) => reject(new Error(`fixture exited early with ${code}`)));
    });
    expect(alive(childPid)).toBe(true);
    parent.kill('SIGKILL');
    // The child notices the closed IPC channel ('disconnect') and exits; give it a moment.
    const deadline = Date.now() + 5000;
    while (alive(childPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive(childPid)).toBe(false);
  });
});
