/** A new experiment and its queued runs, with fresh ids: the same for every queue back end. */
import { randomBytes } from 'node:crypto';
import type { Experiment, LabParams, Owner, RunState } from '../../lib/protocol';

const newId = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

export function newExperiment(
  labId: string,
  strategies: string[],
  params: LabParams,
  parallel: boolean,
  owner: Owner | null,
): { experiment: Experiment; states: RunState[] } {
  const experiment: Experiment = {
    lab: labId,
    owner,
    id: newId('e'),
    strategies,
    params,
    parallel,
    createdAt: Date.now(),
    runIds: strategies.map(() => newId('r')),
  };
  const states: RunState[] = experiment.runIds.map((id, i) => ({
    lab: labId,
    id,
    experimentId: experiment.id,
    strategy: strategies[i],
    params,
    status: 'queued',
    queuedAt: Date.now(),
    startedAt: null,
    pid: null,
    preparedUnits: null,
    summary: null,
  }));
  return { experiment, states };
}
