/**
 * Closing on SIGINT/SIGTERM, the one way for every server entry, in the order that keeps the
 * record honest: the queue ends its runs as interrupted ("server shut down", viewers are told),
 * the spare child goes, the server closes viewers' sockets with 1001, then the history writes what
 * it still buffers.
 * A close that hangs is cut short after five seconds.
 */
import type { LabServer } from './app-server';
import type { ExperimentQueue } from './queue/backend';
import { stopSpares } from './runner/spare-child';

export function closeOnSignals(
  parts: { queue: ExperimentQueue; server: LabServer; history: { close(): Promise<void> } },
  log: (line: string) => void = console.log,
): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      log(`${signal}: stopping runs and closing`);
      // No new spare while runs end; then the one up goes too.
      stopSpares()
        .then(() => parts.queue.close())
        .then(() => parts.server.close())
        .then(() => parts.history.close())
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
      setTimeout(() => process.exit(1), 5000).unref();
    });
  }
}
