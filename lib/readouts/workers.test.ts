import { describe, expect, it } from 'vitest';
import type { RunState, WorkerInfo } from '../protocol';
import { mixedMachinesWarning, workerText } from './workers';

const worker = (over: Partial<WorkerInfo> = {}): WorkerInfo => ({ id: 'vm-a#1', host: 'vm-a', cores: 2, core: 1, node: '20.20.2', ...over });
const run = (w: WorkerInfo | undefined) => ({ worker: w }) as RunState;

describe('worker words', () => {
  it('names the host, the pinned core among those given and Node', () => {
    expect(workerText(worker())).toBe('ran on vm-a · pinned to core 1 · worker of 2 cores · Node 20.20.2');
    expect(workerText(worker({ cores: 1, core: null }))).toBe('ran on vm-a · worker of 1 core · Node 20.20.2');
    expect(workerText(undefined)).toBeNull();
  });

  it('warns only when runs ran on different kinds of machine', () => {
    expect(mixedMachinesWarning([run(worker()), run(worker({ id: 'vm-a#2', core: 0 })), run(undefined)])).toBeNull();
    const warning = mixedMachinesWarning([run(worker()), run(worker({ id: 'vm-b#1', host: 'vm-b', cores: 8 }))]);
    expect(warning).toContain('vm-a (2 cores, Node 20.20.2), vm-b (8 cores, Node 20.20.2)');
  });
});
