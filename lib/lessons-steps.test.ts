import { describe, expect, it } from 'vitest';
import { LIMITS, runParamsSchema } from './params';
import type { Experiment } from './protocol';
import { LESSON_STEPS, matchStepExperiments } from './lessons-steps';

const experiment = (id: string, strategies: string[], params: Experiment['params']): Experiment => ({
  id,
  strategies,
  params,
  parallel: false,
  createdAt: 0,
  runIds: strategies.map((s) => `${id}-${s}`),
});

describe('LESSON_STEPS', () => {
  it('numbers the five steps in order', () => {
    expect(LESSON_STEPS.map((s) => s.n)).toEqual([1, 2, 3, 4, 5]);
  });

  it('sends only parameters the server accepts, with small files and short delays', () => {
    for (const step of LESSON_STEPS) {
      for (const preset of step.presets) {
        expect(runParamsSchema.strict().safeParse(preset.params).success).toBe(true);
        expect(preset.strategies.length).toBeLessThanOrEqual(LIMITS.strategies.max);
        expect(preset.params.sizeMb).toBeLessThanOrEqual(48);
        expect(preset.params.delayMs).toBeLessThanOrEqual(5);
      }
    }
  });
});

describe('matchStepExperiments', () => {
  const [step1, , , step4] = LESSON_STEPS;

  it('picks the new experiment with the same strategies and parameters', () => {
    const p = step1.presets[0];
    const old = experiment('e1', p.strategies, p.params);
    const other = experiment('e2', p.strategies, { ...p.params, delayMs: 3 });
    const mine = experiment('e3', p.strategies, p.params);
    expect(matchStepExperiments([old, other, mine], new Set(['e1']), step1.presets)).toEqual([mine]);
  });

  it('gives each preset its own experiment, in order, and null for one not yet created', () => {
    const [plain, retained] = step4.presets;
    const a = experiment('a', plain.strategies, plain.params);
    const b = experiment('b', retained.strategies, retained.params);
    expect(matchStepExperiments([b, a], new Set(), step4.presets)).toEqual([a, b]);
    expect(matchStepExperiments([a], new Set(), step4.presets)).toEqual([a, null]);
  });
});
