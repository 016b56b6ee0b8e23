import { describe, expect, it } from 'vitest';
import { seriesStyle, strategyStyle } from './palette';

const CATALOG = [
  'for-await',
  'iterator-helper',
  'ixjs-flat-map',
  'ixjs-from-event',
  'ixjs-from',
  'ixjs-to-array',
  'pipe-writable',
  'pipeline-generator',
  'readable-map',
  'rxjs-from-event',
  'rxjs-from',
  'web-streams',
];
const key = (s: { color: string; dash: readonly number[] }) => `${s.color} ${s.dash.join(',')}`;

describe('strategyStyle', () => {
  it('gives twelve strategies twelve different colour-and-dash pairs', () => {
    expect(new Set(CATALOG.map((id) => key(strategyStyle(id, CATALOG)))).size).toBe(12);
  });

  it('depends on the strategy and the catalog only, not on which runs are shown together', () => {
    expect(strategyStyle('rxjs-from', CATALOG)).toEqual(seriesStyle(CATALOG.indexOf('rxjs-from')));
    expect(strategyStyle('rxjs-from', CATALOG)).toEqual(strategyStyle('rxjs-from', [...CATALOG]));
  });

  it('styles a strategy missing from the catalog stably', () => {
    expect(strategyStyle('gone', CATALOG)).toEqual(strategyStyle('gone', CATALOG));
  });

  it('uses solid lines for the first seven and dashes after', () => {
    expect(seriesStyle(0).dash).toEqual([]);
    expect(seriesStyle(7).dash.length).toBeGreaterThan(0);
    expect(seriesStyle(7).color).toBe(seriesStyle(0).color);
  });
});
