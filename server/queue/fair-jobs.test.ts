import { describe, expect, it } from 'vitest';
import { FairJobs } from './fair-jobs';

const job = (owner: string, id: string) => ({ owner, runIds: [id] });

describe('FairJobs', () => {
  it('takes jobs round-robin by owner, each owner in its own order', () => {
    const jobs = new FairJobs();
    for (const id of ['a1', 'a2', 'a3']) jobs.add(job('A', id));
    jobs.add(job('B', 'b1'));
    jobs.add(job('C', 'c1'));
    jobs.add(job('B', 'b2'));
    expect(jobs.order().map((j) => j.runIds[0])).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    const taken: string[] = [];
    for (let j = jobs.next(); j; j = jobs.next()) taken.push(j.runIds[0]);
    expect(taken).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('puts a newcomer after the owners already waiting, not behind all their jobs', () => {
    const jobs = new FairJobs();
    for (const id of ['a1', 'a2', 'a3']) jobs.add(job('A', id));
    expect(jobs.next()?.runIds).toEqual(['a1']);
    jobs.add(job('B', 'b1'));
    expect(jobs.order().map((j) => j.runIds[0])).toEqual(['a2', 'b1', 'a3']);
  });
});
