/** Progress of what the server prepares for runs (a run waits in 'preparing' meanwhile): data files, database tables. */
import type { DataStatus } from '@/lib/protocol';
import { formatMb } from '@/lib/readouts/format';
import { failureLine, preparedFraction, preparedThing, progressLine } from '@/lib/readouts/data-progress';

const key = (d: DataStatus) => `${d.lab}-${d.unit}-${d.sizeBytes}`;

/** Shown only while a file or table is being made or after one failed. */
export function DataProgress({ data }: { data: readonly DataStatus[] }) {
  const generating = data.filter((d) => d.state === 'generating');
  const failed = data.filter((d) => d.state === 'failed');
  if (generating.length === 0 && failed.length === 0) return null;
  return (
    <>
      {generating.length > 0 && (
        <div className="panel data-progress" data-testid="data-progress" role="status">
          {generating.map((d) => (
            <div key={key(d)} className="data-row" data-unit={d.unit}>
              <span>{progressLine(d)}</span>
              <progress
                max={1}
                value={preparedFraction(d)}
                aria-label={d.unit === 'bytes' ? `${formatMb(d.sizeBytes)} data file generated` : `${preparedThing(d)} made`}
              />
            </div>
          ))}
        </div>
      )}
      {failed.map((d) => (
        <p key={key(d)} className="panel form-error" role="alert">
          {failureLine(d)}
        </p>
      ))}
    </>
  );
}
