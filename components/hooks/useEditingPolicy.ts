'use client';

/** Whether this server lets pages edit a copy of a strategy (GET /api/strategies/editing), asked once per page. */
import { useEffect, useState } from 'react';

export interface EditingPolicy {
  allowed: boolean;
  needsToken: boolean;
  reason: string | null;
  /** What code of yours can still reach on this machine (no namespaces: it can signal and connect); null when fully fenced. */
  unfenced: string | null;
}

/** null until the server has answered (or when it could not be asked: then nothing is offered). */
export function useEditingPolicy(): EditingPolicy | null {
  const [policy, setPolicy] = useState<EditingPolicy | null>(null);
  useEffect(() => {
    let live = true;
    fetch('/api/strategies/editing')
      .then((r) => (r.ok ? (r.json() as Promise<EditingPolicy>) : null))
      .then((p) => live && setPolicy(p))
      .catch(() => live && setPolicy(null));
    return () => {
      live = false;
    };
  }, []);
  return policy;
}
