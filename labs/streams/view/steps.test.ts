import { describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS, LIMITS, streamsParamsSchema } from '../shared/params';
import type { Experiment } from '../../../lib/protocol';
import { BUDGET_PARAMS, LESSON_STEPS, SMALL_PARAMS, buildLessonSteps, concurrencyParams, describeParams, matchStepExperiments, type LessonStep } from './steps';

const experiment = (id: string, strategies: string[], params: Experiment['params']): Experiment => ({
  lab: 'streams',
  owner: null,
  id,
  strategies,
  params,
  parallel: false,
  createdAt: 0,
  runIds: strategies.map((s) => `${id}-${s}`),
});

describe('LESSON_STEPS', () => {
  it('numbers the seven steps in order', () => {
    expect(LESSON_STEPS.map((s) => s.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('sends only parameters the server accepts, with small files and short delays', () => {
    for (const step of LESSON_STEPS) {
      for (const preset of step.presets) {
        expect(streamsParamsSchema.strict().safeParse(preset.params).success).toBe(true);
        expect(preset.strategies.length).toBeLessThanOrEqual(LIMITS.strategies.max);
        expect(preset.params.sizeMb).toBeLessThanOrEqual(48);
        // The consumer sets the pace: every call's delay, overlapped by the calls in flight, at most ~12 s a run.
        const calls = (preset.params.sizeMb * 1024) / preset.params.chunkKb;
        expect((calls * preset.params.delayMs) / (preset.params.concurrency ?? 1)).toBeLessThanOrEqual(12_000);
      }
    }
  });
});

/** Every number a step's title, paragraphs and watch text contain (not digits inside a name such as V8). */
function numbersInText(step: LessonStep): number[] {
  return [step.title, ...step.paragraphs, step.watch].flatMap((t) => (t.match(/(?<![\w.])\d+(?:\.\d+)?(?!\w)/g) ?? []).map(Number));
}

/** The figures a step's presets hold: the only numbers its text may quote. */
function presetFigures(step: LessonStep): Set<number> {
  const at = (p: LessonStep['presets'][number]['params']) => /^at=([\d.]+)$/.exec(p.heapSnapshot ?? '')?.[1];
  return new Set(
    step.presets.flatMap(({ params: p }) => [
      p.sizeMb,
      p.chunkKb,
      p.delayMs,
      ...(p.budgetMb === null ? [] : [p.budgetMb]),
      ...(at(p) ? [Number(at(p))] : []),
      ...(p.consumer === 'http' ? [p.concurrency ?? 1, p.apiP99Ms ?? 0, p.apiPool ?? 0] : []),
    ]),
  );
}

describe('step texts', () => {
  it('quote no number that is not a figure of the step’s own presets', () => {
    for (const step of LESSON_STEPS) {
      const figures = presetFigures(step);
      expect(
        numbersInText(step).filter((n) => !figures.has(n)),
        `step ${step.n}`,
      ).toEqual([]);
    }
  });

  it('follow the presets when they change', () => {
    const small = { ...SMALL_PARAMS, sizeMb: 7, chunkKb: 16, delayMs: 3 };
    const budget = { ...BUDGET_PARAMS, sizeMb: 40, chunkKb: 128, budgetMb: 96 };
    const steps = buildLessonSteps(small, budget);
    expect(steps[0].paragraphs[0]).toContain('Both runs read the same 7 MB file and hand each 16 KB chunk to a consumer that takes 3 ms.');
    expect(steps[4].paragraphs[0]).toContain('Here both runs read a file of 40 MB under an RSS budget of 96 MB,');
    expect(steps.map((s) => s.presets.map((p) => p.params))).toEqual([
      [small],
      [small],
      [small],
      [small, { ...small, retained: true }],
      [budget],
      [{ ...small, delayMs: 5, heapSnapshot: 'at=1' }],
      [concurrencyParams(small).one, concurrencyParams(small).many],
    ]);
    expect(steps[6].presets[1].params).toMatchObject({ consumer: 'http', concurrency: 8, sizeMb: 8, chunkKb: 16, delayMs: 20 });
    expect(steps[5].paragraphs.join(' ')).toContain('take a heap snapshot 1 s after they start');
    for (const step of steps) {
      const figures = presetFigures(step);
      expect(
        numbersInText(step).filter((n) => !figures.has(n)),
        `step ${step.n}`,
      ).toEqual([]);
    }
  });
});

describe('what the steps say is measured', () => {
  it('step 1 does not promise a pull reader stays under one highWaterMark (a recorded pull run is 2.0 ahead)', () => {
    // lessons-conclusions.test.ts quotes a recorded pipeline-generator run 2.0 highWaterMarks ahead.
    expect(LESSON_STEPS[0].watch).not.toMatch(/never leaves the highWaterMark/);
    expect(LESSON_STEPS[0].watch).toContain('a couple of highWaterMarks high');
  });

  it('step 2 says where a heap snapshot puts Buffer bytes instead of claiming it hides them', () => {
    // Measured on Node 20.20.2: holding a 16 MiB file's 64 KiB chunks, v8.writeHeapSnapshot() lists
    // native "system / JSArrayBufferData" at 16.0 MiB.
    const text = LESSON_STEPS[1].paragraphs.join(' ');
    expect(text).not.toMatch(/would not show the file/);
    expect(text).toContain('"system / JSArrayBufferData"');
  });
});

describe('describeParams', () => {
  it('names file size, chunk size and delay, and the budget and retained mode only when a preset sets them', () => {
    const p = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 7, chunkKb: 16, delayMs: 3 };
    expect(describeParams(p)).toBe('7 MB file, 16 KB chunks, 3 ms per chunk');
    expect(describeParams({ ...p, budgetMb: 96, retained: true })).toBe('7 MB file, 16 KB chunks, 3 ms per chunk, 96 MB budget, retained mode');
    expect(describeParams({ ...p, cpuUs: 250, budgetMb: null })).toBe('7 MB file, 16 KB chunks, 3 ms per chunk, 250 µs of CPU per chunk');
  });
});

describe('matchStepExperiments', () => {
  const [step1, , , step4] = LESSON_STEPS;

  it('picks the new experiment with the same strategies and parameters', () => {
    const p = step1.presets[0];
    const old = experiment('e1', p.strategies, p.params);
    const other = experiment('e2', p.strategies, { ...p.params, delayMs: 3 });
    const mine = experiment('e3', p.strategies, p.params);
    expect(matchStepExperiments([old, other, mine], new Set(['e1']), step1.presets, step1.lab)).toEqual([mine]);
  });

  it('gives each preset its own experiment, in order, and null for one not yet created', () => {
    const [plain, retained] = step4.presets;
    const a = experiment('a', plain.strategies, plain.params);
    const b = experiment('b', retained.strategies, retained.params);
    expect(matchStepExperiments([b, a], new Set(), step4.presets, step4.lab)).toEqual([a, b]);
    expect(matchStepExperiments([a], new Set(), step4.presets, step4.lab)).toEqual([a, null]);
  });
});
