import { describe, expect, it } from 'vitest';
import { classifyExit, stderrErrorLine } from './exit';

const died = (
  patch: Partial<{ code: number | null; signal: NodeJS.Signals | null; childError: string | null; stderr: string; maxOldSpaceMb: number | null }>,
) => classifyExit({ kind: 'died', code: 1, signal: null, childError: null, stderr: '', maxOldSpaceMb: null, ...patch });

describe('classifyExit', () => {
  it('keeps a decision the runner took first (stop, budget, watchdog)', () => {
    expect(classifyExit({ kind: 'decided', outcome: 'out-of-memory', reason: 'RSS 70 MB passed the 64 MB memory budget' })).toEqual({
      outcome: 'out-of-memory',
      reason: 'RSS 70 MB passed the 64 MB memory budget',
    });
  });

  it('lets the lab judge a run whose strategy finished', () => {
    const judged = { outcome: 'data-lost' as const, reason: 'the run ended with 10 of 20 bytes never processed' };
    expect(classifyExit({ kind: 'done', figures: { judge: () => judged } })).toEqual(judged);
  });

  it("tells V8's heap limit from a crash by the child's last words", () => {
    expect(died({ signal: 'SIGABRT', stderr: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', maxOldSpaceMb: 16 })).toEqual(
      {
        outcome: 'out-of-memory',
        reason: 'V8 heap limit reached (--max-old-space-size=16)',
      },
    );
  });

  it("reports a crash with the child's own error, else the signal or code and the telling stderr line", () => {
    expect(died({ childError: 'ENOENT: no such file' })).toEqual({ outcome: 'crashed', reason: 'ENOENT: no such file' });
    expect(died({ code: null, signal: 'SIGSEGV' })).toEqual({ outcome: 'crashed', reason: 'killed by SIGSEGV' });
    expect(died({ code: 7, stderr: 'warning\nTypeError: x is not a function\nNode.js v20.20.2\n' })).toEqual({
      outcome: 'crashed',
      reason: 'exited with code 7: TypeError: x is not a function',
    });
  });

  it('finds no error line in an empty stderr', () => {
    expect(stderrErrorLine('')).toBeNull();
  });
});
