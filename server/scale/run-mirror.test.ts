import { describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import type { QueueListener } from '../queue/types';
import { newExperiment } from '../queue/new-experiment';
import { unstartedSummary } from '../runner/unstarted';
import { RunMirror } from './run-mirror';

/** Counts what a mirror tells its listeners. */
function counting(): { listener: QueueListener; seen: Record<string, number> } {
  const seen: Record<string, number> = {};
  const count = (name: string) => () => void (seen[name] = (seen[name] ?? 0) + 1);
  const listener = {
    experimentCreated: count('created'),
    queueChanged: count('queue'),
    runQueued: count('queued'),
    runUpdated: count('updated'),
    runSample: count('sample'),
    runProc: count('proc'),
    runEnded: count('ended'),
    dataProgress: count('data'),
  };
  return { listener, seen };
}

describe("a web server's mirror of the shared queue", () => {
  it('applies each event once: a repeated experiment or end changes nothing, reports after the end are ignored', () => {
    const mirror = new RunMirror();
    const { listener, seen } = counting();
    mirror.subscribe(listener);
    const { experiment, states } = newExperiment('streams', ['for-await', 'rxjs-from'], { ...DEFAULT_STREAMS_PARAMS, sizeMb: 1 }, false, null);
    const jobs = states.map((s, i) => ({ id: `j-${s.id}`, runIds: [s.id], priority: i + 1 }));
    const created = { t: 'experiment' as const, experiment, runs: states, jobs };
    mirror.apply(created);
    mirror.apply(created);
    expect(seen).toMatchObject({ created: 1, queued: 2 });
    expect(mirror.queueOrder().map((q) => q.runId)).toEqual(experiment.runIds);

    const running = { ...states[0], status: 'running' as const, pid: 1, startedAt: Date.now() };
    mirror.apply({ t: 'run', run: running });
    const summary = unstartedSummary(running, 'test end', 'crashed');
    mirror.apply({ t: 'ended', run: running, summary });
    mirror.apply({ t: 'ended', run: running, summary });
    mirror.apply({ t: 'run', run: running });
    expect(seen).toMatchObject({ updated: 1, ended: 1 });
    expect(mirror.book.runs.get(running.id)?.state.status).toBe('crashed');
    expect(mirror.queueOrder().map((q) => q.runId)).toEqual([states[1].id]);
    expect(mirror.jobs.has(`j-${running.id}`)).toBe(false);
  });
});
