/**
 * The cores a worker is given and pinning each run to one of them (Linux `taskset`, run with
 * execFile: fixed program, numeric arguments only). A worker started as `taskset -c 1 npm run
 * worker` is given core 1; one started plainly, every core this process may use. Where taskset is
 * missing (macOS, a slim container) runs are not pinned and the worker says so at start.
 */
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { processGroup } from '../runner/proc-status';

const run = promisify(execFile);

/** "0-2,5" → [0, 1, 2, 5] */
export function parseCpuList(list: string): number[] {
  const cores = new Set<number>();
  for (const part of list.trim().split(',')) {
    const [a, b] = part.split('-').map(Number);
    if (!Number.isInteger(a)) continue;
    for (let c = a; c <= (Number.isInteger(b) ? b : a); c++) cores.add(c);
  }
  return [...cores].sort((x, y) => x - y);
}

/** The cores this process may run on, and whether runs can be pinned (taskset works here). */
export async function ownCores(): Promise<{ cores: number[]; pinning: boolean; why: string | null }> {
  if (process.platform !== 'linux') return { cores: range(availableParallelism()), pinning: false, why: `no taskset on ${process.platform}` };
  try {
    const { stdout } = await run('taskset', ['-cp', String(process.pid)]);
    const cores = parseCpuList(stdout.slice(stdout.lastIndexOf(':') + 1));
    if (cores.length > 0) return { cores, pinning: true, why: null };
    return { cores: range(availableParallelism()), pinning: false, why: `could not read taskset's answer "${stdout.trim()}"` };
  } catch (err) {
    return { cores: range(availableParallelism()), pinning: false, why: `taskset unavailable (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/**
 * Pins a run's process, all its threads and the processes of its group to these cores (children
 * started later inherit them); false when the run's own process could not be pinned. The group:
 * a streams run starts its consumer's API or database before its first sample (Scenario.prepare),
 * so they exist before the pin.
 */
export async function pinToCores(pid: number, cores: readonly number[]): Promise<boolean> {
  const pin = async (p: number) => {
    try {
      await run('taskset', ['-a', '-cp', cores.join(','), String(p)]);
      return true;
    } catch {
      return false;
    }
  };
  if (!(await pin(pid))) return false;
  // A member that ended meanwhile is no failure of the run's pin.
  for (const member of await processGroup(pid)) if (member !== pid) await pin(member);
  return true;
}

/** Hands out the worker's cores, least used first, so concurrent runs get a core each while there are enough. */
export class CorePool {
  private readonly use: Map<number, number>;

  constructor(cores: readonly number[]) {
    this.use = new Map(cores.map((c) => [c, 0]));
  }

  /** Every core of the pool. */
  all(): number[] {
    return [...this.use.keys()];
  }

  take(): number {
    const [core] = [...this.use].sort((a, b) => a[1] - b[1] || a[0] - b[0])[0];
    this.use.set(core, this.use.get(core)! + 1);
    return core;
  }

  give(core: number): void {
    this.use.set(core, Math.max(0, (this.use.get(core) ?? 1) - 1));
  }
}
