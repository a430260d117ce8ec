/**
 * How the API process's calls and a service's answers travel on the hop's WebSocket (decision
 * 036). A frame holds several records, so that the calls (or answers) of one turn of the event
 * loop cross in one write and one read. A record is its header fields, each followed by a tab,
 * the length of its body in UTF-16 code units and a tab, then the body; records follow each other
 * with nothing between. The body's length is given so that a reader never scans a 50 KB answer
 * for the end of its record. Header fields hold no tab: ids and statuses are digits, an outcome a
 * word, a signed caller base64url, a traceparent hex and dashes.
 */

export interface HopCall {
  id: number;
  /** The `x-platform-caller` header's value: the caller, the route table's digest and the body's digest, signed. */
  signedCaller: string;
  /** The W3C traceparent of the API process's span, empty when nothing is traced. */
  traceParent: string;
  /** `{"operationId":…,"variables":…}`, the text the signature's digest covers. */
  body: string;
}

/**
 * `answer`: the route's answer, its status and JSON text (empty for a 204); `errors`: the route's
 * document failed, `{"errors":[…]}` for the facade to map; `refused`: the call was not run (a
 * signature refused, another route table, a body that is not a call), its HTTP-like status and
 * `{"errors":[…]}`.
 */
export type HopOutcome = 'answer' | 'errors' | 'refused';

export interface HopAnswer {
  id: number;
  outcome: HopOutcome;
  status: number;
  body: string;
}

const OUTCOMES = new Set<string>(['answer', 'errors', 'refused']);

function record(fields: (string | number)[], body: string): string {
  return `${fields.join('\t')}\t${body.length}\t${body}`;
}

export function callRecord(call: HopCall): string {
  return record([call.id, call.signedCaller, call.traceParent], call.body);
}

export function answerRecord(answer: HopAnswer): string {
  return record([answer.id, answer.outcome, answer.status], answer.body);
}

function naturalOf(text: string): number | null {
  const value = Number(text);
  return text.length > 0 && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** Calls and answers alike have three header fields before their body's length. */
const HEADER_FIELDS = 3;

/**
 * Each record of a frame read by `read` (its header fields and its body), or null when the frame
 * is not made of records `read` accepts: the peer does not speak this protocol.
 */
function readFrame<T>(frame: string, read: (fields: string[], body: string) => T | null): T[] | null {
  const items: T[] = [];
  let at = 0;
  while (at < frame.length) {
    const fields: string[] = [];
    for (let index = 0; index <= HEADER_FIELDS; index += 1) {
      const tab = frame.indexOf('\t', at);
      if (tab < 0) return null;
      fields.push(frame.slice(at, tab));
      at = tab + 1;
    }
    const length = naturalOf(fields.pop()!);
    if (length === null || at + length > frame.length) return null;
    const item = read(fields, frame.slice(at, at + length));
    if (item === null) return null;
    items.push(item);
    at += length;
  }
  return items;
}

/** The calls of a frame, or null when one record is not a call. */
export function callsOf(frame: string): HopCall[] | null {
  return readFrame(frame, ([id, signedCaller, traceParent], body) => {
    const callId = naturalOf(id);
    return callId === null ? null : { id: callId, signedCaller, traceParent, body };
  });
}

/** The answers of a frame, or null when one record is not an answer. */
export function answersOf(frame: string): HopAnswer[] | null {
  return readFrame(frame, ([id, outcome, status], body) => {
    const answerId = naturalOf(id);
    const answerStatus = naturalOf(status);
    if (answerId === null || answerStatus === null || !OUTCOMES.has(outcome)) return null;
    return { id: answerId, outcome: outcome as HopOutcome, status: answerStatus, body };
  });
}

/** A frame grows to about this many characters before it leaves without waiting for the turn's end. */
export const FRAME_FLUSH_CHARS = 1024 * 1024;

/**
 * Records written during one turn of the event loop, sent as one frame when the turn ends
 * (setImmediate runs after the turn's I/O): under load many calls share a frame, alone one waits
 * for no one. A frame leaves early once it holds FRAME_FLUSH_CHARS, so that only a record larger
 * than that makes a larger frame, and the reader's frame limit bounds one record, not a turn.
 */
export class FrameBatcher {
  private records: string[] = [];
  private chars = 0;
  private scheduled = false;

  constructor(private readonly send: (frame: string) => void) {}

  push(record: string): void {
    if (this.chars > 0 && this.chars + record.length > FRAME_FLUSH_CHARS) this.flush();
    this.records.push(record);
    this.chars += record.length;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flushAtTurnEnd);
  }

  private flush(): void {
    const records = this.records;
    this.records = [];
    this.chars = 0;
    if (records.length > 0) this.send(records.join(''));
  }

  private readonly flushAtTurnEnd = (): void => {
    this.scheduled = false;
    this.flush();
  };
}
