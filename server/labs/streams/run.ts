/**
 * A streams run straight through the runner, over a data file already made: what the bench CLI,
 * its overhead benchmark and the tests use when they don't need the queue.
 */
import { startRun, type RunHandle, type RunRequest } from '../../runner/runner';
import { preparedFor } from './index';
import type { StreamsParams } from './params';

export function startStreamsRun(req: Omit<RunRequest, 'lab' | 'prepared' | 'params'> & { params: StreamsParams; file: { path: string; bytes: number } }): RunHandle {
  const { file, ...rest } = req;
  return startRun({ ...rest, lab: 'streams', prepared: preparedFor(req.params, file) });
}
