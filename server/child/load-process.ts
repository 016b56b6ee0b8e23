/**
 * A lab's load process and its run: the one protocol both sides speak (start → readings… → done,
 * or error), so each lab writes only what its load measures. Child side (compiled into the run's
 * build; no zod). The run's scenario forks the load with `startLoad` and ends it with `endProcess`;
 * the load module calls `serveLoad` with its main function.
 */
import { fork, type ChildProcess } from 'node:child_process';

/** What a load sends its run. `D` is the lab's final report (figures, problem…). */
export type LoadMessage<R, D> = { type: 'readings'; readings: R } | ({ type: 'done' } & D) | { type: 'error'; message: string };

/** Sends to the parent; `then` runs once IPC has taken the message (or at once if the parent is gone). */
export function send(message: unknown, then?: () => void): void {
  if (process.connected) process.send!(message, undefined, undefined, () => then?.());
  else then?.();
}

/** In the load process: runs `main` with the config the run sends, exits when it is done or the run is gone. */
export function serveLoad<C>(main: (config: C) => Promise<void>): void {
  process.once('message', (m: { type: 'start'; config: C }) => {
    main(m.config).then(
      () => process.exit(0),
      (err: Error) => send({ type: 'error', message: `load: ${err.message}` }, () => process.exit(1)),
    );
  });
  process.on('disconnect', () => process.exit(0));
}

/** In the run: forks the load module, starts it, hands on its readings; `done` settles with its final report. */
export function startLoad<C, R, D>(module: string | URL, config: C, onReadings: (readings: R) => void): { child: ChildProcess; done: Promise<D> } {
  // No execArgv: the run's own flags (--expose-gc, a heap limit) are not the load's.
  const child = fork(module, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const done = new Promise<D>((resolve, reject) => {
    child.on('message', (m: LoadMessage<R, D>) => {
      if (m.type === 'readings') onReadings(m.readings);
      else if (m.type === 'done') resolve(m);
      else reject(new Error(m.message));
    });
    child.once('exit', (code, signal) => reject(new Error(`the load process ended early (code ${code}, signal ${signal})`)));
    child.send({ type: 'start', config });
  });
  return { child, done };
}

/** Ends a process the run started and waits until it is gone (the run ends with everything it started). */
export async function endProcess(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exited;
}
