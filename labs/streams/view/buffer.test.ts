import { describe, expect, it } from 'vitest';
import { makeSample } from '../../../lib/test-fixtures';
import { bufferedBytes, bufferLevel, highWaterMarkBytes, peakOf } from './buffer';

describe('bufferLevel', () => {
  it('takes bytesRead − bytesProcessed and readableLength per sample', () => {
    const samples = [
      makeSample({ t: 0, bytesRead: 0, bytesProcessed: 0, readableLength: 0 }),
      makeSample({ t: 50, bytesRead: 196_608, bytesProcessed: 65_536, readableLength: 65_536 }),
      makeSample({ t: 100, bytesRead: 262_144, bytesProcessed: 262_144, readableLength: 0 }),
    ];
    expect(bufferLevel(samples)).toEqual({
      buffered: [
        { x: 0, y: 0 },
        { x: 50, y: 131_072 },
        { x: 100, y: 0 },
      ],
      readableLength: [
        { x: 0, y: 0 },
        { x: 50, y: 65_536 },
        { x: 100, y: 0 },
      ],
    });
  });

  it('never reports a negative level when a sample counted processing before reading', () => {
    expect(bufferedBytes(makeSample({ bytesRead: 10, bytesProcessed: 20 }))).toBe(0);
  });
});

describe('peakOf', () => {
  it('finds the first highest point, or null for nothing', () => {
    expect(
      peakOf([
        { x: 0, y: 1 },
        { x: 1, y: 5 },
        { x: 2, y: 5 },
        { x: 3, y: 2 },
      ]),
    ).toEqual({ x: 1, y: 5 });
    expect(peakOf([])).toBeNull();
  });
});

it('highWaterMarkBytes turns chunkKb into bytes', () => {
  expect(highWaterMarkBytes(64)).toBe(65_536);
});
