/**
 * A streams run straight through the runner, over a data file already made: what the bench CLI,
 * its overhead benchmark and the tests use when they don't need the queue.
 */
import { summaryOfLab } from '../../../lib/protocol';
import type { StreamsSummary } from '../shared/schema';
import { startRun, type RunHandle, type RunRequest } from '../../../server/runner/runner';
import { preparedFor } from './index';
import { consumerConfigOf, type PreparedConsumer } from './consumers';
import type { StreamsParams } from '../shared/params';
import { LAB_ID } from '../shared/id';

export function startStreamsRun(
  req: Omit<RunRequest, 'lab' | 'prepared' | 'params'> & { params: StreamsParams; file: { path: string; bytes: number }; consumer?: PreparedConsumer },
): Omit<RunHandle, 'done'> & { done: Promise<StreamsSummary> } {
  const { file, consumer, ...rest } = req;
  const handle = startRun({ ...rest, lab: LAB_ID, prepared: preparedFor(req.params, file, consumer ?? consumerConfigOf(req.params)) });
  return { runId: handle.runId, stop: (why) => handle.stop(why), snapshot: () => handle.snapshot(), done: handle.done.then((s) => summaryOfLab(s, LAB_ID)) };
}
