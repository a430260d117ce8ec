import { gql, useMutation } from '@apollo/client';
import { type FormEvent, useState } from 'react';
import { ActionResult, CodeText } from '../../backoffice/client/states.js';
import { MessageDetails } from './Messages.js';

const SEND_TEST_NOTIFICATION = gql`
  mutation SendTestNotification($action: TestNotificationAction!, $venueId: Int) {
    sendTestNotification(action: $action, venueId: $venueId) {
      id
    }
  }
`;

const CHECK_TICKETING = gql`
  mutation CheckTicketing($stockId: Int!) {
    checkTicketing(stockId: $stockId) {
      passed
      bookingId
      steps {
        step
        called
        statusCode
        expectedShape
        shapeProblems
        outcome
        succeeded
        message {
          id
          url
          body
          deliveryAttempts {
            id
            answerBody
            answerTruncated
            error
            signature
          }
        }
      }
    }
  }
`;

interface CheckStep {
  step: 'BOOKING' | 'CANCELLATION';
  called: boolean;
  statusCode: number | null;
  expectedShape: boolean | null;
  shapeProblems: string[];
  outcome: string;
  succeeded: boolean;
  message: {
    id: number;
    url: string;
    body: string;
    deliveryAttempts: {
      id: number;
      answerBody: string | null;
      answerTruncated: boolean;
      error: string | null;
      signature: string | null;
    }[];
  } | null;
}

interface Check {
  passed: boolean;
  bookingId: number | null;
  steps: CheckStep[];
}

const STEP_TITLES: Record<CheckStep['step'], string> = {
  BOOKING: '1. The booking call',
  CANCELLATION: '2. The cancellation call',
};

const positiveId = (value: string) => (/^[1-9]\d{0,9}$/.test(value.trim()) ? Number(value) : null);

/** A signed BOOK or CANCEL notification about no real booking, to the provider's (or a venue's) URL. */
function TestNotification() {
  const [action, setAction] = useState('BOOK');
  const [venue, setVenue] = useState('');
  const [sent, setSent] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [send, sending] = useMutation<{ sendTestNotification: { id: number } }>(SEND_TEST_NOTIFICATION, {
    onError: (error) => setFailure(error.message),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (venue.trim() !== '' && positiveId(venue) === null) {
      setFailure('A venue id is a whole number: leave it empty for your own notification URL.');
      return;
    }
    const result = await send({ variables: { action, venueId: positiveId(venue) } });
    if (result.data) setSent(result.data.sendTestNotification.id);
  };
  return (
    <section aria-labelledby="test-notification">
      <h2 id="test-notification">Send a test notification</h2>
      <p className="bo-hint">
        A notification in the shape of every real one, signed with your messaging secret, about no real booking (booking
        and offer id 0), with the header <code>X-Test-Event: true</code>. It goes to your notification URL, or to a
        venue&apos;s when you name one of yours that has its own, and is listed among your messages.
      </p>
      <form className="bo-filters" onSubmit={(event) => void submit(event)}>
        <label>
          Action
          <select value={action} onChange={(event) => setAction(event.target.value)}>
            <option value="BOOK">BOOK</option>
            <option value="CANCEL">CANCEL</option>
          </select>
        </label>
        <label>
          Venue id (optional)
          <input inputMode="numeric" value={venue} onChange={(event) => setVenue(event.target.value)} />
        </label>
        <button type="submit" className="bo-button" disabled={sending.loading}>
          Send test event
        </button>
      </form>
      <ActionResult error={failure} done={sent ? `Test event queued: message ${sent}.` : null} />
      {sent ? <MessageDetails key={sent} id={sent} summary /> : null}
    </section>
  );
}

/** One step of the ticketing check: the call made, the answer, its shape, and what the platform did. */
function CheckStepView({ step }: { step: CheckStep }) {
  const attempt = step.message?.deliveryAttempts[0];
  const shape =
    step.expectedShape === null
      ? 'not checked (no 2xx answer)'
      : step.expectedShape
        ? 'as expected'
        : 'not as expected';
  return (
    <section aria-labelledby={`step-${step.step}`} className="bo-card">
      <h3 id={`step-${step.step}`}>
        {STEP_TITLES[step.step]}: {step.succeeded ? 'succeeded' : 'failed'}
      </h3>
      <dl className="bo-fields">
        <dt>Called</dt>
        <dd>{step.called && step.message ? step.message.url : 'no'}</dd>
        <dt>Answer</dt>
        <dd>{step.statusCode === null ? 'none' : `HTTP ${step.statusCode}`}</dd>
        <dt>Shape of the answer</dt>
        <dd>{shape}</dd>
        <dt>What the platform did</dt>
        <dd>{step.outcome}</dd>
      </dl>
      {step.shapeProblems.length > 0 ? (
        <>
          <h4>What the answer lacks</h4>
          <ul>
            {step.shapeProblems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </>
      ) : null}
      {step.message ? (
        <>
          <h4>What we sent</h4>
          <CodeText text={step.message.body} />
          {attempt?.signature ? (
            <p>
              Signature: <code>{attempt.signature}</code>
            </p>
          ) : null}
          <h4>What came back</h4>
          {attempt?.error ? <p className="bo-error">{attempt.error}</p> : null}
          {attempt?.answerTruncated ? <p className="bo-hint">Longer: cut here.</p> : null}
          <CodeText text={attempt?.answerBody ?? null} />
        </>
      ) : null}
    </section>
  );
}

/** The real booking call, then the real cancellation call, to the provider's ticketing system, reported step by step. */
function TicketingCheck() {
  const [stock, setStock] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [report, setReport] = useState<Check | null>(null);
  const [check, checking] = useMutation<{ checkTicketing: Check }>(CHECK_TICKETING, {
    onError: (error) => setFailure(error.message),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setReport(null);
    const stockId = positiveId(stock);
    if (stockId === null) {
      setFailure('Give the id of a date (a stock) of one of your events with tickets.');
      return;
    }
    const result = await check({ variables: { stockId } });
    if (result.data) setReport(result.data.checkTicketing);
  };
  return (
    <section aria-labelledby="ticketing-check">
      <h2 id="ticketing-check">Check my ticketing system</h2>
      <p className="bo-hint">
        Books one place of a date of yours (an event with tickets) for your test beneficiary, by the real call to your
        booking URL, then cancels it by the real call to your cancellation URL, and reports each step. Both calls are
        listed among your messages. Sandbox only: it makes a booking.
      </p>
      <form className="bo-filters" onSubmit={(event) => void submit(event)}>
        <label>
          Stock id
          <input inputMode="numeric" value={stock} onChange={(event) => setStock(event.target.value)} />
        </label>
        <button type="submit" className="bo-button" disabled={checking.loading}>
          Run the check
        </button>
      </form>
      {checking.loading ? (
        <p role="status" className="bo-status">
          Calling your ticketing system…
        </p>
      ) : (
        <ActionResult
          error={failure}
          done={
            report
              ? report.passed
                ? 'Passed: both calls succeeded with answers of the expected shape.'
                : 'Failed: see the steps below.'
              : null
          }
        />
      )}
      {report ? report.steps.map((step) => <CheckStepView key={step.step} step={step} />) : null}
    </section>
  );
}

/** Test events on demand: a notification, and a whole round trip with the ticketing system. */
export function TestEvents() {
  return (
    <>
      <h1>Test events</h1>
      <TestNotification />
      <TicketingCheck />
    </>
  );
}
