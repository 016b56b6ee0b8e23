/**
 * Closing on SIGINT/SIGTERM, the one way for every server entry: runs end as interrupted ("server
 * shut down") and viewers get close 1001, then the history writes what it still buffers. A close
 * that hangs is cut short after five seconds.
 */
import type { LabServer } from './app-server';

export function closeOnSignals(lab: LabServer, after: () => Promise<void> = async () => {}, log: (line: string) => void = console.log): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      log(`${signal}: stopping runs and closing`);
      // Runs end (and are recorded as such) before the store writes its last buffered samples.
      lab
        .close()
        .then(after)
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
      setTimeout(() => process.exit(1), 5000).unref();
    });
  }
}
