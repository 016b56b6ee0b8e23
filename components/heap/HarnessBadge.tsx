/**
 * The label on what Stream Lab's own code allocated or keeps (its sampler, the lab's scenario and
 * consumers), so a heap profile's allocators and a snapshot's holders are not read as the strategy's.
 */
export function HarnessBadge({ what }: { what: 'allocated' | 'kept' }) {
  const title = `${what === 'allocated' ? 'Allocated' : 'Kept alive'} by Stream Lab's own code (its sampler, the lab's scenario and consumers), not by the strategy`;
  return (
    <span className="badge" title={title} data-testid="harness-badge">
      Stream Lab’s harness
    </span>
  );
}
