'use client';

/**
 * The experiment form in the page's URL: a link fills the form once the strategy catalog is known
 * (ids and the size cap are validated against it), and every later change of the form replaces
 * the URL (replaceState: no history entry per keystroke). `autostart=1` only asks; it never starts.
 * A page opened while an experiment runs, from a URL without parameters, shows that experiment's
 * parameters, so the form matches the charts below it.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { formFromQuery, formToQuery, formValuesFromParams, type ExperimentFormValues } from '@/lib/form/experiment-form';
import type { Experiment } from '@/lib/protocol';

export interface ShareableForm {
  /** Values of the link that were ignored, one line each. */
  notes: string[];
  /** The link asked to start the experiment and the visitor has not answered yet. */
  askToStart: boolean;
  /** The visitor answered (started or declined): the question goes, and so does autostart in the URL. */
  answerStart(): void;
}

export function useShareableForm(
  values: ExperimentFormValues,
  onChange: (values: ExperimentFormValues) => void,
  catalog: readonly string[],
  maxSizeMb: number,
  runningExperiment: Experiment | null = null,
): ShareableForm {
  // The link as opened; the URL changes later (replaceState), the link does not.
  const [opened] = useState(() => (typeof window === 'undefined' ? '' : window.location.search));
  const [answered, setAnswered] = useState(false);
  // Parsed once the catalog is known (it arrives with the first snapshot, after hydration).
  const link = useMemo(() => (catalog.length > 0 ? formFromQuery(new URLSearchParams(opened), catalog, maxSizeMb) : null), [opened, catalog, maxSizeMb]);
  // What the URL says now; null until the link was applied (so the defaults never overwrite a link).
  const written = useRef<string | null>(null);

  useEffect(() => {
    if (written.current !== null || link === null) return;
    const running = runningExperiment && formValuesFromParams(runningExperiment.params, runningExperiment.strategies, runningExperiment.parallel);
    const initial = link.present ? link.values : (running ?? values);
    written.current = formToQuery(initial, catalog);
    if (initial !== values) onChange(initial);
    // Only once, when the link is first parsed; later changes are the visitor's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [link]);

  useEffect(() => {
    if (written.current === null) return;
    const query = formToQuery(values, catalog);
    if (query === written.current) return;
    written.current = query;
    window.history.replaceState(window.history.state, '', `${window.location.pathname}?${query}`);
  }, [values, catalog]);

  const answerStart = useCallback(() => {
    setAnswered(true);
    const query = new URLSearchParams(window.location.search);
    if (!query.has('autostart')) return;
    query.delete('autostart');
    window.history.replaceState(window.history.state, '', `${window.location.pathname}?${query.toString().replace(/%2C/g, ',')}`);
  }, []);

  return { notes: link?.notes ?? [], askToStart: Boolean(link?.autostart) && !answered, answerStart };
}
