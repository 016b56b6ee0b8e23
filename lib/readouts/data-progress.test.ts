import { describe, expect, it } from 'vitest';
import { MIB } from '../protocol/params';
import { failureLine, progressLine } from './data-progress';

describe('data progress in words', () => {
  it('counts the HTTP lab’s table in rows', () => {
    const table = { lab: 'http', unit: 'rows' as const, sizeBytes: 100_000, writtenBytes: 40_000, state: 'generating' as const, message: null };
    expect(progressLine(table)).toBe('Making the 100,000-row author table: 40,000 rows (40%)');
    expect(failureLine({ ...table, state: 'failed', message: 'initdb failed' })).toBe('The 100,000-row author table could not be made: initdb failed');
  });

  it('names a database, with nothing to count', () => {
    const db = { lab: 'streams', unit: 'database' as const, sizeBytes: 1, writtenBytes: 0, state: 'generating' as const, message: null };
    expect(progressLine(db)).toBe('Making the PostgreSQL database');
    expect(failureLine({ ...db, state: 'failed', message: 'initdb failed' })).toBe('The PostgreSQL database could not be made: initdb failed');
  });

  it('counts the streams lab’s file in MB, as before', () => {
    const file = { lab: 'streams', unit: 'bytes' as const, sizeBytes: 150 * MIB, writtenBytes: 40 * MIB, state: 'generating' as const, message: null };
    expect(progressLine(file)).toBe('Generating the 150 MB data file: 40 MB written (27%)');
    expect(failureLine({ ...file, state: 'failed', message: null })).toBe('The 150 MB data file could not be generated.');
  });
});
