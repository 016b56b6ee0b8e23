/**
 * The runner's end of a run's child process: every message it sends is checked (parseChildMessage)
 * and handed to one handler per kind in one exhaustive switch; its stderr's tail and any error it
 * reported are kept for the exit's verdict; and whatever it leaves in its process group ends when
 * it exits. 'close' (after 'exit', once stderr and IPC are drained) is handed on last, so a late
 * 'done' or the tail of a V8 out-of-memory report is never missed.
 */
import type { ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import { parseChildMessage, type ChildMessage } from '../child/protocol';
import { killTree, live } from './children';

const STDERR_TAIL_BYTES = 16 * 1024;

type Of<T extends ChildMessage['type']> = Extract<ChildMessage, { type: T }>;

export interface ChildHandlers {
  ready(m: Of<'ready'>): void;
  sample(m: Of<'sample'>): void;
  live(m: Of<'live'>): void;
  done(m: Of<'done'>): void;
  /**
   * `socket`: connected to that inspector, from a run in a network namespace of its own
   * (server/child/inspect.ts). True when the handler took the socket; otherwise it is closed here.
   */
  inspector(m: Of<'inspector'>, socket?: Socket): boolean | void;
  /** A message that failed its schema: never trusted. */
  malformed(error: string): void;
  close(code: number | null, signal: NodeJS.Signals | null): void;
}

export interface ChildChannel {
  /** The last 16 KiB of the child's stderr. */
  stderrTail(): string;
  /** The first error the child reported (its 'error' message) or the process emitted, if any. */
  childError(): string | null;
  /** The child's error was the permission model's: a fenced strategy tried what its fence forbids. */
  childDenied(): boolean;
}

export function attachChild(proc: ChildProcess, on: ChildHandlers): ChildChannel {
  let stderrTail = '';
  let childError: string | null = null;
  let childDenied = false;
  live.add(proc);
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (text: string) => {
    stderrTail = (stderrTail + text).slice(-STDERR_TAIL_BYTES);
  });
  proc.on(
    'message',
    closingUntaken((raw: unknown, handle: unknown) => {
      const parsed = parseChildMessage(raw);
      if (!parsed.ok) return on.malformed(parsed.error);
      const message = parsed.message;
      switch (message.type) {
        case 'ready':
          return on.ready(message);
        case 'sample':
          return on.sample(message);
        case 'live':
          return on.live(message);
        case 'done':
          return on.done(message);
        case 'inspector':
          return on.inspector(message, handle instanceof Socket ? handle : undefined);
        case 'error':
          childError = message.message;
          childDenied = message.denied === true;
          return;
        default: {
          const never: never = message;
          throw new Error(`unhandled child message ${JSON.stringify(never)}`);
        }
      }
    }),
  );
  proc.on('error', (err) => {
    childError ??= err.message;
  });
  proc.on('exit', () => {
    live.delete(proc);
    // Whatever the child left in its process group (a lab's database, its load) ends with it,
    // however it ended: a crash or a V8 abort runs none of the child's own clean-up.
    killTree(proc, 'SIGKILL');
  });
  proc.on('close', (code, signal) => {
    live.delete(proc);
    on.close(code, signal);
  });
  return { stderrTail: () => stderrTail, childError: () => childError, childDenied: () => childDenied };
}

/**
 * A handle (socket, server) the child sent along with a message is an open descriptor in this
 * process: one no handler took (returned true for) is closed at once, or a run's code could send
 * them until the server has none left (EMFILE: no more viewers, no history) — the IPC channel
 * would be a way out of its run.
 */
function closingUntaken(dispatch: (raw: unknown, handle: unknown) => boolean | void): (raw: unknown, handle: unknown) => void {
  return (raw, handle) => {
    let taken = false;
    try {
      taken = dispatch(raw, handle) === true;
    } finally {
      if (handle !== undefined && handle !== null && !taken) closeHandle(handle);
    }
  };
}

/** Closes a handle received over IPC (a net.Socket, a net.Server, a dgram socket), whatever it is. */
function closeHandle(handle: unknown): void {
  const h = handle as { destroy?: () => void; close?: () => void };
  try {
    if (typeof h.destroy === 'function') h.destroy();
    else if (typeof h.close === 'function') h.close();
  } catch {
    // Already closed.
  }
}
