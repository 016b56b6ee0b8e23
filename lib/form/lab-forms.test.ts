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
    streams.fields
      .filter((f) => !f.appliesWhen || f.appliesWhen({ choices, switches: {}, numbers: {}, strategies: declares.map((d) => ({ declares: d }) as never) }))
      .map((f) => f.field);

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

describe("other labs' fields that apply", () => {
  const shown = (
    lab: 'deadline' | 'http' | 'hotcode' | 'cpu',
    ctx: { roles?: string[]; numbers?: Record<string, string>; switches?: Record<string, boolean> },
  ) =>
    formOf(lab)
      .fields.filter(
        (f) =>
          !f.appliesWhen ||
          f.appliesWhen({
            choices: {},
            switches: ctx.switches ?? {},
            numbers: ctx.numbers ?? {},
            strategies: (ctx.roles ?? []).map((role) => ({ role }) as never),
          }),
      )
      .map((f) => f.field);

  it('deadlines: each strategy’s own knob only with a strategy of its role', () => {
    const pair = shown('deadline', { roles: ['no-limit', 'offloads'] });
    expect(pair).toContain('workers');
    expect(pair).not.toContain('concurrency');
    expect(pair).not.toContain('shedLagMs');
    expect(shown('deadline', { roles: ['limits', 'sheds'] })).toEqual(expect.arrayContaining(['concurrency', 'shedLagMs']));
  });

  it('CPU: Workers only for cluster and the pools', () => {
    expect(shown('cpu', { roles: ['one-thread', 'per-request'] })).not.toContain('workers');
    expect(shown('cpu', { roles: ['one-thread', 'pool'] })).toContain('workers');
  });

  it('HTTP: the slow clients’ speed only with slow clients, cursor rows only with a cursor, rows per write only with a streamed response', () => {
    const buffered = shown('http', { roles: ['buffered'], numbers: { slowClients: '0' } });
    for (const f of ['slowKbps', 'cursorRows', 'batchRows']) expect(buffered).not.toContain(f);
    expect(shown('http', { roles: ['cursor'], numbers: { slowClients: '2' } })).toEqual(expect.arrayContaining(['slowKbps', 'cursorRows', 'batchRows']));
    expect(shown('http', { roles: ['buffered-in'] })).toEqual(expect.arrayContaining(['batchRows']));
    expect(shown('http', { roles: ['buffered-in'] })).not.toContain('cursorRows');
  });

  it('hot code: Reports only when not sweeping', () => {
    expect(shown('hotcode', {})).toContain('requests');
    expect(shown('hotcode', { switches: { sweep: true } })).not.toContain('requests');
  });
});
