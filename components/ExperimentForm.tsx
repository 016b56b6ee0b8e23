'use client';

/**
 * Picks strategies and parameters and starts an experiment. Validates with the same schema the
 * server uses, so a bad value is named here and nothing is sent.
 */
import { useMemo, useState, type FormEvent } from 'react';
import type { ClientRequest, Experiment, StrategyInfo } from '@/lib/protocol';
import { buildStartMessage, formValuesFromParams, type ExperimentFormValues } from '@/lib/form/experiment-form';
import { fieldLabel, formFieldErrors, NO_STRATEGY } from '@/lib/form/form-fields';
import { formOf } from '@/lib/form/lab-forms';
import type { LabError } from '@/lib/lab-state';
import { markStartClicked } from '@/components/instrumentation';
import { useShareableForm } from '@/components/hooks/useShareableForm';
import { StrategyPicker } from '@/components/StrategyPicker';
import { ParamFields } from '@/components/ParamFields';
import { RuntimeSelect } from '@/components/RuntimeSelect';
import { ExperimentActions } from '@/components/ExperimentActions';
import type { RuntimeInfo } from '@/lib/runtimes';

export interface ExperimentFormProps {
  /** The strategies of the form's lab (values.lab), in catalog order. */
  strategies: readonly StrategyInfo[];
  /** Every lab's strategies: a link may name another lab than the form's. */
  catalog: readonly StrategyInfo[];
  maxSizeMb: number;
  connected: boolean;
  values: ExperimentFormValues;
  onChange(values: ExperimentFormValues): void;
  send(message: ClientRequest): boolean;
  serverError: LabError | null;
  /** The experiment going on when the page opened: the form shows it unless the URL carries parameters. */
  runningExperiment?: Experiment | null;
  /** False until the page knows which experiments are its own (hello.ok): a link waits for it, see useShareableForm. */
  identified?: boolean;
  /** Called once an experiment.start was sent. */
  onStarted?(): void;
  /** With the operator token Stop all stops everyone's runs; without it, this browser's own. */
  operator?: boolean;
  /** True while a run Stop all would stop is going (any run for the operator, else this browser's): the button shows only then. */
  stoppable?: boolean;
  /** The Node runtimes the server offers (its own first); none known yet = the select offers the server's. */
  runtimes?: readonly RuntimeInfo[];
}

/** The experiment form: strategies grouped push/pull, parameters, Start and Stop all. */
export function ExperimentForm(props: ExperimentFormProps) {
  const {
    strategies,
    catalog,
    maxSizeMb,
    connected,
    values,
    onChange,
    send,
    serverError,
    runningExperiment = null,
    identified = true,
    onStarted,
    operator = false,
    stoppable = false,
    runtimes = [],
  } = props;
  const form = formOf(values.lab);
  const [clientError, setClientError] = useState<string | null>(null);
  // Server errors stay up until the next Start or until dismissed.
  const [dismissedSeq, setDismissedSeq] = useState(0);
  // A refused "Snapshot now" is shown on the card that asked (components/heap/SnapshotButton.tsx), not here.
  const shownServerError = serverError && serverError.seq > dismissedSeq && serverError.requestType !== 'run.snapshot' ? serverError : null;
  const error = clientError ?? (shownServerError ? `Server: ${shownServerError.message}` : null);
  // The form lives in the URL too, so a link reopens the same experiment (of its lab).
  const share = useShareableForm(values, onChange, catalog, maxSizeMb, runningExperiment, identified);
  // Checked as typed: a bad field is marked where it is and Start stays off until it is fixed.
  const fieldErrors = useMemo(() => formFieldErrors(values.numbers, maxSizeMb, form, values.texts), [values.numbers, values.texts, maxSizeMb, form]);
  const badFields = Object.keys(fieldErrors);
  const noStrategy = strategies.length > 0 && values.strategies.length === 0;
  const blocked = badFields.length > 0 || noStrategy;
  const picked = useMemo(() => strategies.filter((s) => values.strategies.includes(s.id)), [strategies, values.strategies]);
  const blockedText = [...badFields.map((f) => fieldLabel(f, form)), ...(noStrategy ? ['no strategy picked'] : [])].join(', ');

  const dismiss = () => {
    setClientError(null);
    setDismissedSeq(serverError?.seq ?? 0);
  };

  const start = (chosen: ExperimentFormValues) => {
    markStartClicked();
    dismiss();
    share.answerStart();
    const built = buildStartMessage(
      chosen,
      strategies.map((s) => s.id),
      maxSizeMb,
    );
    if (!built.ok) setClientError(built.error);
    else if (!send(built.message)) setClientError('Not connected to the server: wait until the status says connected.');
    else onStarted?.();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    start(values);
  };

  // One click: the form shows the write-up's params and strategies (so the cards and a link match them) and they start.
  const writeUp = form.writeUp;
  const runWriteUp = () => {
    if (!writeUp) return;
    const known = new Set(strategies.map((s) => s.id));
    const params = { ...form.defaults, ...writeUp.params } as typeof form.defaults;
    const chosen = formValuesFromParams(
      params,
      writeUp.strategies.filter((id) => known.has(id)),
      false,
      values.lab,
    );
    onChange(chosen);
    start(chosen);
  };

  const stopAll = () => {
    if (!send({ type: 'stop.all' })) setClientError('Not connected to the server: nothing was stopped.');
  };

  return (
    <form className="panel experiment-form" onSubmit={onSubmit} noValidate aria-labelledby="experiment-heading">
      <h2 id="experiment-heading">Experiment</h2>
      <ExperimentActions
        values={values}
        strategies={strategies}
        maxSizeMb={maxSizeMb}
        connected={connected}
        blockedText={blocked ? blockedText : null}
        error={error}
        onDismiss={dismiss}
        stoppable={stoppable}
        operator={operator}
        onStopAll={stopAll}
        onWriteUp={writeUp ? runWriteUp : undefined}
      />
      {share.askToStart && (
        <div className="autostart-banner" role="alert" data-testid="autostart-banner">
          <p>
            <strong>Start this experiment?</strong> The link you opened asks to run it with the parameters below.
          </p>
          <button type="submit" className="primary" data-testid="autostart-confirm" disabled={!connected || blocked}>
            Start
          </button>
          <button type="button" data-testid="autostart-decline" onClick={share.answerStart}>
            Not now
          </button>
        </div>
      )}
      {share.notes.length > 0 && (
        <p className="note share-notes" data-testid="share-notes">
          Ignored in the link: {share.notes.join('; ')}
        </p>
      )}
      <div className="form-grid">
        <StrategyPicker
          lab={values.lab}
          strategies={strategies}
          selected={values.strategies}
          error={noStrategy ? NO_STRATEGY : null}
          onChange={(ids) => onChange({ ...values, strategies: ids })}
        />
        <fieldset className="params">
          <legend>Parameters</legend>
          <ParamFields values={values} maxSizeMb={maxSizeMb} errors={fieldErrors} onChange={onChange} picked={picked} />
          <RuntimeSelect runtimes={runtimes} values={values} onChange={onChange} />
        </fieldset>
      </div>
    </form>
  );
}
