import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { answersOf, callRecord } from '../../server/subgraphs/hopFrames.js';
import { acceptHops } from '../../server/subgraphs/hopServer.js';

describe("a service's side of the hop", () => {
  it('on a graceful stop, answers the calls it holds, runs no new one, then closes, and so does its server', async () => {
    const server = createServer((_request, response) => response.end());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const handling = new Promise<void>((resolve) => (started = resolve));
    const handled: number[] = [];
    const hops = acceptHops(server, '/graphql', async (call) => {
      handled.push(call.id);
      started();
      await held;
      return { id: call.id, outcome: 'answer', status: 200, body: '{"ok":true}' };
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`);
    await new Promise((resolve) => socket.once('open', resolve));
    const answered: number[] = [];
    socket.on('message', (data: Buffer) =>
      answered.push(...(answersOf(String(data)) ?? []).map((answer) => answer.id)),
    );
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    const call = (id: number) => callRecord({ id, signedCaller: 'signed', traceParent: '', body: '{}' });

    socket.send(call(4));
    await handling;
    // The HTTP server's close waits for the upgraded socket: it ends once the hop has drained.
    const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    hops.drain();
    socket.send(call(5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();

    expect(await closed).toBe(1001);
    expect(answered).toEqual([4]);
    expect(handled).toEqual([4]);
    await serverClosed;
  });
});
