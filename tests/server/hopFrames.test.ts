import { describe, expect, it } from 'vitest';
import {
  answerRecord,
  answersOf,
  callRecord,
  callsOf,
  FRAME_FLUSH_CHARS,
  FrameBatcher,
  type HopAnswer,
  type HopCall,
} from '../../server/subgraphs/hopFrames.js';

describe("the hop's frames", () => {
  const calls: HopCall[] = [
    { id: 1, signedCaller: 'eyJj.c2ln', traceParent: '', body: '{"operationId":"GetProvider","variables":{}}' },
    {
      id: 2,
      signedCaller: 'eyJk.c2lo',
      traceParent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      // Tabs and line breaks inside a body, and text longer in UTF-8 than in UTF-16 code units.
      body: JSON.stringify({ operationId: 'UpdateProvider', variables: { name: 'Théâtre\t🎭\nNoël' } }),
    },
  ];

  it('carries calls and answers as they were written, several to a frame, bodies whole', () => {
    const frame = calls.map(callRecord).join('');
    // As the socket carries it: UTF-8 there and back.
    expect(callsOf(Buffer.from(frame, 'utf8').toString('utf8'))).toEqual(calls);
    const answers: HopAnswer[] = [
      { id: 2, outcome: 'answer', status: 200, body: '{"name":"Théâtre\\t🎭"}' },
      { id: 1, outcome: 'answer', status: 204, body: '' },
      { id: 3, outcome: 'errors', status: 200, body: '{"errors":[{"message":"Not found"}]}' },
      { id: 4, outcome: 'refused', status: 401, body: '{"errors":[{"message":"Caller refused"}]}' },
    ];
    expect(answersOf(answers.map(answerRecord).join(''))).toEqual(answers);
  });

  it('reads nothing from a frame that is not made of records', () => {
    const record = callRecord(calls[0]);
    for (const frame of [
      '{"query":"{ provider { id } }"}',
      record.slice(0, -1),
      `${record}x`,
      record.replace(/^1\t/, 'one\t'),
      record.replace(`\t${calls[0].body.length}\t`, '\t-4\t'),
    ]) {
      expect(callsOf(frame), frame).toBeNull();
    }
    expect(answersOf('1\tmaybe\t200\t2\t{}')).toBeNull();
    expect(answersOf('1\tanswer\tok\t2\t{}')).toBeNull();
  });

  it('sends the records of one turn of the event loop in one frame', async () => {
    const frames: string[] = [];
    const batcher = new FrameBatcher((frame) => frames.push(frame));
    batcher.push('a');
    batcher.push('b');
    expect(frames).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    batcher.push('c');
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames).toEqual(['ab', 'c']);
  });

  it('sends a frame before the turn ends once it would grow past its size, a larger record alone', async () => {
    const frames: string[] = [];
    const batcher = new FrameBatcher((frame) => frames.push(frame));
    const half = 'h'.repeat(FRAME_FLUSH_CHARS / 2);
    const whole = 'w'.repeat(FRAME_FLUSH_CHARS + 1);
    batcher.push(half);
    batcher.push(half);
    expect(frames).toEqual([]);
    batcher.push('x');
    expect(frames).toEqual([half + half]);
    batcher.push(whole);
    expect(frames).toEqual([half + half, 'x']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames).toEqual([half + half, 'x', whole]);
  });
});
