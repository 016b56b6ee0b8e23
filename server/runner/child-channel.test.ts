/**
 * The IPC channel is a way out of a run too: a handle its child sends along (a socket, a server) is
 * an open descriptor in the server. With real processes: every handle nobody takes is closed at
 * once, whatever the message, so a run's code can't use up the server's descriptors.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { attachChild, type ChildHandlers } from './child-channel';

const dir = mkdtempSync(join(tmpdir(), 'child-channel-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A child that sends `count` sockets connected to its own listener, each with `message`, and says
 * over stderr how many of them the parent has closed (the listener's side sees them end).
 */
function handleSender(message: object, count: number): string {
  const file = join(dir, `sender-${Math.random().toString(36).slice(2)}.cjs`);
  writeFileSync(
    file,
    `const net = require('node:net');
    let closed = 0;
    const srv = net.createServer((c) => {
      c.resume();
      c.on('close', () => process.stderr.write('closed ' + ++closed + '\\n'));
    }).listen(0, '127.0.0.1', () => {
      for (let i = 0; i < ${count}; i++) {
        const s = net.connect(srv.address().port, '127.0.0.1', () => process.send(${JSON.stringify(message)}, s, () => s.destroy()));
      }
    });
    process.on('disconnect', () => process.exit(0));`,
  );
  return file;
}

function attachAndWatch(file: string, handlers: Partial<ChildHandlers> = {}): Promise<string> {
  const proc = fork(file, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let err = '';
  const none = () => undefined;
  attachChild(proc, {
    ready: none,
    sample: none,
    live: none,
    done: none,
    inspector: none,
    malformed: none,
    close: none,
    ...handlers,
  });
  proc.stderr!.on('data', (s: string) => (err += s));
  return new Promise((resolve) => {
    setTimeout(() => {
      proc.kill('SIGKILL');
      resolve(err);
    }, 1500);
  });
}

describe('the run channel and the handles a child sends', () => {
  it('closes every socket a child sends with a message that takes none (here a malformed one), so none stays open in the server', async () => {
    const said = await attachAndWatch(handleSender({ type: 'sample' }, 5));
    expect(said).toContain('closed 5');
  });

  it("closes an inspector message's socket its handler did not take (a run not profiled, or a later one than the bootstrap's)", async () => {
    let offered = 0;
    const said = await attachAndWatch(handleSender({ type: 'inspector', url: 'ws://127.0.0.1:1/00000000-0000-0000-0000-000000000000' }, 3), {
      inspector: (_m, socket) => {
        if (socket) offered += 1;
        return false;
      },
    });
    expect(offered).toBe(3);
    expect(said).toContain('closed 3');
  });
});
