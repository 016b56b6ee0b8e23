import { describe, expect, it } from 'vitest';
import { UsageError } from '../cli/args';
import { parseWorkerArgs } from './worker-args';

const env = { STREAM_LAB_REDIS_URL: 'redis://127.0.0.1:6379' };

describe('npm run worker flags', () => {
  it('takes --concurrency and the Redis URL from the flag or the environment', () => {
    expect(parseWorkerArgs([], env)).toEqual({ concurrency: 1, redisUrl: 'redis://127.0.0.1:6379' });
    expect(parseWorkerArgs(['--concurrency', '2', '--redis-url=redis://10.0.0.5:6380'], {})).toEqual({ concurrency: 2, redisUrl: 'redis://10.0.0.5:6380' });
  });

  it('refuses bad values, naming the flag and its range', () => {
    expect(() => parseWorkerArgs(['--concurrency', '0'], env)).toThrow(new UsageError('--concurrency must be a whole number between 1 and 64 (got "0")'));
    expect(() => parseWorkerArgs(['--concurrency', '1.5'], env)).toThrow(/--concurrency must be a whole number between 1 and 64/);
    expect(() => parseWorkerArgs(['--concurrency'], env)).toThrow('--concurrency needs a value');
    expect(() => parseWorkerArgs(['--redis-url', 'http://x'], env)).toThrow('--redis-url must start with redis:// or rediss:// (got "http://")');
    expect(() => parseWorkerArgs(['--cores', '2'], env)).toThrow(/unknown flag --cores/);
    expect(() => parseWorkerArgs([], {})).toThrow(/--redis-url or STREAM_LAB_REDIS_URL is needed/);
  });
});
