'use client';

/**
 * Which Node the experiment's runs use: the server's own, or one installed with
 * `npm run runtimes -- add` (the list comes from the server's snapshot). A link may name a
 * runtime this server lacks: it stays selected, marked, and the server's refusal says why.
 */
import type { ExperimentFormValues } from '@/lib/form/experiment-form';
import type { RuntimeInfo } from '@/lib/runtimes';

export function RuntimeSelect({
  runtimes,
  values,
  onChange,
}: {
  runtimes: readonly RuntimeInfo[];
  values: ExperimentFormValues;
  onChange(values: ExperimentFormValues): void;
}) {
  const own = runtimes.find((r) => r.own);
  const others = runtimes.filter((r) => !r.own);
  const chosen = values.node ?? '';
  const unknown = chosen !== '' && !runtimes.some((r) => r.version === chosen || r.version.startsWith(`${chosen}.`));
  return (
    <div className="field">
      <label htmlFor="input-node">Node runtime</label>
      <select
        id="input-node"
        data-testid="input-node"
        value={chosen}
        onChange={(e) => onChange({ ...values, node: e.target.value || undefined })}
        aria-describedby="input-node-hint"
      >
        <option value="">the server’s Node{own ? ` ${own.version}` : ''}</option>
        {others.map((r) => (
          <option key={r.version} value={r.version}>
            Node {r.version}
          </option>
        ))}
        {unknown && <option value={chosen}>Node {chosen} (not installed here)</option>}
      </select>
      <span className="hint" id="input-node-hint">
        {others.length === 0
          ? 'only the server’s own; add others with npm run runtimes -- add 22 24'
          : `${others.length + 1} installed; each run’s summary records the version its process reported`}
      </span>
    </div>
  );
}
