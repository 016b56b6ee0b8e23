'use client';

/**
 * The experiment form in the page's URL: a link fills the form once the strategy catalog is known
 * (ids and the size cap are validated against it), and every later change of the form replaces
 * the URL (replaceState: no history entry per keystroke). `autostart=1` only asks; it never starts.
 * A page opened while an experiment runs, from a URL without parameters, shows that experiment's
 * parameters (and lab), so the form matches the charts below it. A link names its lab (`lab=http`;
 * none means streams), and its strategies are checked against that lab's.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { defaultFormValues, formFromQuery, formToQuery, formValuesFromParams, labFromQuery, type ExperimentFormValues } from '@/lib/form/experiment-form';
import { isPageLab, labOf, type LabId } from '@/lib/labs';
import type { Experiment, StrategyInfo } from '@/lib/protocol';

/** The ids of a lab's strategies, in catalog order. */
function idsOf(catalog: readonly StrategyInfo[], lab: LabId): string[] {
  return catalog.filter((s) => s.lab === lab).map((s) => s.id);
}

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
  catalog: readonly StrategyInfo[],
  maxSizeMb: number,
  runningExperiment: Experiment | null = null,
  identified = true,
): ShareableForm {
  // The link as opened; the URL changes later (replaceState), the link does not.
  const [opened] = useState(() => (typeof window === 'undefined' ? '' : window.location.search));
  const [answered, setAnswered] = useState(false);
  // Parsed once the catalog is known (it arrives with the first snapshot, after hydration) and the
  // page knows its own experiments: hello.ok can come a moment after the snapshot, and the running
  // experiment read before it would be none.
  const link = useMemo(() => {
    if (catalog.length === 0 || !identified) return null;
    const query = new URLSearchParams(opened);
    return formFromQuery(query, idsOf(catalog, labFromQuery(query).lab), maxSizeMb);
  }, [opened, catalog, maxSizeMb, identified]);
  // What the URL says now; null until the link was applied (so the defaults never overwrite a link).
  const written = useRef<string | null>(null);
  const write = useCallback(
    (shown: ExperimentFormValues) => {
      const query = formToQuery(shown, idsOf(catalog, shown.lab));
      if (query === written.current) return;
      written.current = query;
      window.history.replaceState(window.history.state, '', `${window.location.pathname}?${query}`);
    },
    [catalog],
  );

  useEffect(() => {
    if (written.current !== null || link === null) return;
    const e = runningExperiment;
    const lab = e ? labOf(e) : null;
    // Only a lab the form knows can be shown (the caller passes no other).
    const running = e && isPageLab(lab) ? formValuesFromParams(e.params, e.strategies, e.parallel, lab) : null;
    const initial = link.present ? link.values : (running ?? values);
    // What the URL as opened stands for: a bare URL is the running experiment's form, else the defaults.
    const urlStandsFor = link.present ? link.values : (running ?? defaultFormValues());
    written.current = formToQuery(urlStandsFor, idsOf(catalog, urlStandsFor.lab));
    // On a bare URL with nothing running, a visitor who changed the form before the link could be
    // read (a lab switched in the first moment) keeps the change, and the URL now says so. A link's
    // values or a running experiment's still take the form over, as they always did.
    write(initial);
    if (initial !== values) onChange(initial);
    // Only once, when the link is first parsed; later changes are the visitor's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [link]);

  useEffect(() => {
    if (written.current !== null) write(values);
  }, [values, write]);

  const answerStart = useCallback(() => {
    setAnswered(true);
    const query = new URLSearchParams(window.location.search);
    if (!query.has('autostart')) return;
    query.delete('autostart');
    window.history.replaceState(window.history.state, '', `${window.location.pathname}?${query.toString().replace(/%2C/g, ',')}`);
  }, []);

  return { notes: link?.notes ?? [], askToStart: Boolean(link?.autostart) && !answered, answerStart };
}
