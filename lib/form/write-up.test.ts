import { describe, expect, it } from 'vitest';
import { buildStartMessage, formValuesFromParams } from './experiment-form';
import { formOf } from './lab-forms';
import { PAGE_LABS } from '../labs';
import { strategyCatalog } from '../../labs/catalog';
import { LABS } from '../../labs/registry';
import type { LabParams } from '../protocol';

describe("each lab's write-up experiment (the dashboard's one-click button)", () => {
  for (const lab of PAGE_LABS) {
    it(`${lab}: names strategies of its lab and params its schema accepts, and starts as written`, () => {
      const form = formOf(lab);
      const writeUp = form.writeUp;
      expect(writeUp, `${lab} has a write-up experiment`).toBeDefined();
      const ids = strategyCatalog()
        .filter((s) => s.lab === lab)
        .map((s) => s.id);
      expect(ids).toEqual(expect.arrayContaining([...writeUp!.strategies]));
      const params = { ...form.defaults, ...writeUp!.params } as LabParams;
      const built = buildStartMessage(formValuesFromParams(params, writeUp!.strategies, false, lab), ids, 2048);
      expect(built.ok ? built.message.strategies : built.error).toEqual(ids.filter((id) => writeUp!.strategies.includes(id)));
      // Every param the write-up sets reaches the server as set.
      if (built.ok) for (const [k, v] of Object.entries(writeUp!.params)) expect((built.message.params as Record<string, unknown>)[k], k).toEqual(v);
    });
  }

  it("estimates a run with the function the queue's wait uses (the lab's own, not a copy)", () => {
    for (const lab of PAGE_LABS) {
      const form = formOf(lab);
      const parent = LABS.find((l) => l.schema.id === lab)!;
      expect(form.estimateMs).toBe(parent.estimateMs);
      expect(form.estimateMs!(form.defaults as unknown as Record<string, unknown>)).toBeGreaterThan(0);
    }
  });
});

describe('fields that apply', () => {
  const streams = formOf('streams');
  const shown = (choices: Record<string, string>, declares: Array<Record<string, string>>) =>
    streams.fields.filter((f) => !f.appliesWhen || f.appliesWhen({ choices, strategies: declares.map((d) => ({ declares: d }) as never) })).map((f) => f.field);

  it('hides the API and PostgreSQL knobs for the sleep consumer, and Concurrency without a strategy that takes it', () => {
    const fields = shown({ consumer: 'sleep' }, [{ concurrency: 'sequential' }]);
    for (const f of ['apiP99Ms', 'apiErrorRate', 'apiPool', 'dbBatchRows', 'concurrency']) expect(fields).not.toContain(f);
    expect(fields).toEqual(expect.arrayContaining(['sizeMb', 'delayMs', 'chunkKb', 'cpuUs', 'timeoutS']));
  });

  it('shows the API knobs for the http consumer, rows per INSERT (and no delay) for postgres, Concurrency for a bounded strategy', () => {
    expect(shown({ consumer: 'http' }, [])).toEqual(expect.arrayContaining(['apiP99Ms', 'apiErrorRate', 'apiPool', 'delayMs']));
    const pg = shown({ consumer: 'postgres' }, []);
    expect(pg).toContain('dbBatchRows');
    expect(pg).not.toContain('delayMs');
    expect(shown({}, [{ concurrency: 'sequential' }, { concurrency: 'bounded' }])).toContain('concurrency');
  });
});
