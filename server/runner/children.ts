/** The run children alive in this process, and how they are signalled. */
import type { ChildProcess } from 'node:child_process';

/** Children still alive, so a dying server can take them along. */
export const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) killTree(child, 'SIGKILL');
});

/** Signals the run's whole process group (the child leads it), or the child alone if that fails. */
export function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    child.kill(signal);
  }
}

/** Number of run children currently alive in this process (tests assert it returns to 0). */
export function liveChildCount(): number {
  return live.size;
}
