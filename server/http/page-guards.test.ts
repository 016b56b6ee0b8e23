import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runPageGuards } from '../store/history';
import { missingPage } from './router';

/** The run pages' guards over a store holding one run, "r1". */
const guards = runPageGuards({ record: (id: string) => (id === 'r1' ? ({} as never) : null) });
const missing = (url: string, method = 'GET') => missingPage(guards, { url, method } as IncomingMessage);

describe('run pages for runs that are not there', () => {
  it('are missing when the store has no such run, on the page and its embed', () => {
    expect(missing('/runs/nope')).toBe(true);
    expect(missing('/runs/nope/')).toBe(true);
    expect(missing('/embed/runs/nope?theme=light')).toBe(true);
    expect(missing('/runs/nope', 'HEAD')).toBe(true);
    // A broken escape can't name anything.
    expect(missing('/runs/%E0%A4%A')).toBe(true);
  });

  it('are there for a stored run, and other pages are never guarded', () => {
    expect(missing('/runs/r1')).toBe(false);
    expect(missing('/embed/runs/r1')).toBe(false);
    expect(missing('/runs/r%31')).toBe(false);
    for (const url of ['/runs', '/runs/', '/runs/compare', '/runs/compare?ids=a,b', '/', '/lessons/cpu', '/runs/nope/extra'])
      expect(missing(url), url).toBe(false);
    expect(missing('/runs/nope', 'POST')).toBe(false);
  });
});
