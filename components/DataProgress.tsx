/** Progress of data files the server is generating (a run waits in 'preparing' meanwhile). */
import type { DataStatus } from '@/lib/protocol';
import { formatMb, formatPercent } from '@/lib/readouts/format';

/** Shown only while a file is generating or after one failed. */
export function DataProgress({ data }: { data: readonly DataStatus[] }) {
  const generating = data.filter((d) => d.state === 'generating');
  const failed = data.filter((d) => d.state === 'failed');
  if (generating.length === 0 && failed.length === 0) return null;
  return (
    <>
      {generating.length > 0 && (
        <div className="panel data-progress" data-testid="data-progress" role="status">
          {generating.map((d) => {
            const fraction = d.sizeBytes > 0 ? d.writtenBytes / d.sizeBytes : 0;
            return (
              <div key={d.sizeBytes} className="data-row">
                <span>
                  Generating the {formatMb(d.sizeBytes)} data file: {formatMb(d.writtenBytes)} written ({formatPercent(fraction)})
                </span>
                <progress max={1} value={fraction} aria-label={`${formatMb(d.sizeBytes)} data file generated`} />
              </div>
            );
          })}
        </div>
      )}
      {failed.map((d) => (
        <p key={d.sizeBytes} className="panel form-error" role="alert">
          The {formatMb(d.sizeBytes)} data file could not be generated{d.message ? `: ${d.message}` : '.'}
        </p>
      ))}
    </>
  );
}
