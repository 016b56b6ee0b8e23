/**
 * Inside a run's process: the one listener for what the runner sends (ParentMessage, from
 * server/child/protocol.ts), with one exhaustive switch. The child waits on it for a spare's config
 * and for the profiler's handshakes; a message nobody waits for is dropped. Child side, no zod.
 */
import type { ChildConfig, ParentMessage } from './protocol';

/** A wait for the parent's next message of a type (null: of any type). */
type Waiter = { type: ParentMessage['type'] | null; resolve: (m: ParentMessage | null) => void; timer: NodeJS.Timeout | null };
const waiters = new Set<Waiter>();
let listening = false;

function deliver(message: ParentMessage): void {
  for (const w of waiters) {
    if (w.type !== null && w.type !== message.type) continue;
    waiters.delete(w);
    if (w.timer) clearTimeout(w.timer);
    w.resolve(message);
  }
  if (waiters.size === 0) stopListening();
}

function onMessage(raw: unknown): void {
  // Only our own runner writes to this channel; anything that is not a ParentMessage is ignored.
  if (typeof raw !== 'object' || raw === null) return;
  const message = raw as ParentMessage;
  switch (message.type) {
    case 'start':
    case 'profiler.started':
    case 'profiler.stopped':
      deliver(message);
      return;
    default: {
      // A new kind of message must be handled above: this fails to compile until it is.
      const never: never = message;
      void never;
    }
  }
}

/**
 * The IPC channel keeps this process alive only while it waits for its parent (a spare's config, the
 * profiler's handshakes). Left to Node, any 'disconnect' or 'message' listener holds the event loop
 * open for good (the bootstrap's 'disconnect' one always), and a strategy whose promise can never
 * settle would wait for the watchdog instead of meeting the bootstrap's beforeExit guard. Explicit
 * ref and unref turn Node's counting of those listeners off.
 */
function holdChannel(hold: boolean): void {
  const channel = process.channel;
  if (hold) channel?.ref();
  else channel?.unref();
}

function startListening(): void {
  if (listening) return;
  listening = true;
  holdChannel(true);
  process.on('message', onMessage);
}

function stopListening(): void {
  if (!listening) return;
  listening = false;
  process.off('message', onMessage);
  holdChannel(false);
}

/** From now on the channel keeps the process alive only while it waits for a message (holdChannel). */
export function releaseChannel(): void {
  if (!listening) holdChannel(false);
}

/** Resolves with the parent's next message of this type, or null after `ms` (null: wait as long as it takes). */
export function parentSays<T extends ParentMessage['type']>(type: T, ms: number | null): Promise<Extract<ParentMessage, { type: T }> | null> {
  return new Promise((resolve) => {
    const waiter: Waiter = { type, resolve: resolve as Waiter['resolve'], timer: null };
    if (ms !== null) {
      waiter.timer = setTimeout(() => {
        waiters.delete(waiter);
        if (waiters.size === 0) stopListening();
        resolve(null);
      }, ms);
    }
    waiters.add(waiter);
    startListening();
  });
}

/** A spare child's config: the first thing its parent sends; anything else first is a bug, and an error. */
export async function awaitStart(): Promise<ChildConfig> {
  const message = await new Promise<ParentMessage | null>((resolve) => {
    waiters.add({ type: null, resolve, timer: null });
    startListening();
  });
  if (message?.type !== 'start') throw new Error(`the first message to a spare child must be start (got ${message?.type})`);
  return message.config;
}
