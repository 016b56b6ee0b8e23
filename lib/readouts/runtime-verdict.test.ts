import { describe, expect, it } from 'vitest';
import { MIB } from '../protocol/params';
import { runtimeChanges, runtimesDiffer, runtimeVerdict, type RuntimeRun } from './runtime-verdict';

const run = (strategy: string, nodeVersion: string, rssMb: number, durationMs = 24_000): RuntimeRun => ({
  strategy,
  nodeVersion,
  outcome: 'completed',
  durationMs,
  peak: { rss: rssMb * MIB, heapUsed: 10 * MIB, arrayBuffers: 2 * MIB },
});

describe('runtime verdict', () => {
  it('names the figure that moved between versions, by how much, beyond the 10 % noise without repeats', () => {
    const verdict = runtimeVerdict([run('rxjs-from', '20.20.2', 200), run('rxjs-from', '22.23.3', 240)]);
    expect(verdict).toHaveLength(1);
    expect(verdict[0].moved).toEqual(['peak RSS 200 MB on Node 20.20.2 → 240 MB on Node 22.23.3: +40 MB (+20 %), more than the 10 % taken as noise']);
    expect(verdict[0].steady).toEqual(['peak heapUsed', 'peak arrayBuffers', 'duration']);
  });

  it('uses the spread of repeated runs as the noise when there are repeats', () => {
    const runs = [run('a', '20.20.2', 100), run('a', '20.20.2', 130), run('a', '24.21.0', 140)];
    const rss = runtimeChanges(runs).find((c) => c.figure === 'rss')!;
    expect(rss.before).toBe(115 * MIB);
    expect(rss.beyondNoise).toBe(false);
    expect(rss.sentence).toContain('+25 MB (+22 %), within the 30 MB spread of repeated runs');
  });

  it('keeps the 10 % floor when repeats happen to agree closely, and says which versions stayed within it', () => {
    const runs = [run('a', '20.20.2', 99.5), run('a', '20.20.2', 100.5), run('a', '22.23.3', 105), run('a', '24.21.0', 150)];
    const [verdict] = runtimeVerdict(runs);
    expect(verdict.moved).toEqual(['peak RSS 100 MB on Node 20.20.2 → 150 MB on Node 24.21.0: +50 MB (+50 %), more than the 10 % taken as noise']);
    expect(verdict.steady).toEqual(['peak RSS on Node 22.23.3', 'peak heapUsed', 'peak arrayBuffers', 'duration']);
  });

  it('orders versions numerically (20 before 22 before 100) and compares each newer one with the oldest', () => {
    const changes = runtimeChanges([run('a', '22.23.3', 50), run('a', '100.0.0', 50), run('a', '20.20.2', 50)]).filter((c) => c.figure === 'rss');
    expect(changes.map((c) => [c.from, c.to])).toEqual([
      ['20.20.2', '22.23.3'],
      ['20.20.2', '100.0.0'],
    ]);
  });

  it('says nothing of strategies run on one runtime only', () => {
    expect(runtimeVerdict([run('a', '20.20.2', 50), run('a', '20.20.2', 60)])).toEqual([]);
    expect(runtimesDiffer([{ summary: { nodeVersion: '20.20.2' } }, { summary: null }])).toBe(false);
    expect(runtimesDiffer([{ summary: { nodeVersion: '20.20.2' } }, { summary: { nodeVersion: '22.23.3' } }])).toBe(true);
  });
});

describe('runtime verdict on small figures', () => {
  it('does not call a change under 1 MB of a small memory figure beyond the noise', () => {
    const small = (v: string, abMb: number): RuntimeRun => ({ ...run('a', v, 60), peak: { rss: 60 * MIB, heapUsed: 6 * MIB, arrayBuffers: abMb * MIB } });
    const ab = runtimeChanges([small('20.20.2', 1.5), small('24.21.0', 2.2)]).find((c) => c.figure === 'arrayBuffers')!;
    expect(ab.beyondNoise).toBe(false);
    expect(ab.sentence).toContain('less than the 1.0 MB taken as noise');
  });
});
