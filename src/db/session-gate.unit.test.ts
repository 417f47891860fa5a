import { describe, expect, it } from 'vitest';
import { runAsWork } from '../lib/work-context.js';
import { currentPriority, SessionGate, type SessionPriority } from './session-gate.js';

/** Enters the gate as `name`, recording the order in which the session was granted. */
function enterAs(gate: SessionGate, granted: string[], name: string, priority: SessionPriority): Promise<void> {
  return gate.enter(priority).then(() => {
    granted.push(name);
  });
}

describe('SessionGate', () => {
  it('hands the session to waiting requests before waiting jobs, each kind in arrival order', async () => {
    const gate = new SessionGate(1000, () => 0);
    const granted: string[] = [];
    await enterAs(gate, granted, 'job 1', 'background');
    const waits = [
      enterAs(gate, granted, 'job 2', 'background'),
      enterAs(gate, granted, 'job 3', 'background'),
      enterAs(gate, granted, 'request 1', 'request'),
      enterAs(gate, granted, 'request 2', 'request'),
    ];
    for (let i = 0; i < waits.length; i++) {
      gate.leave();
      await Promise.resolve();
    }
    await Promise.all(waits);
    expect(granted).toEqual(['job 1', 'request 1', 'request 2', 'job 2', 'job 3']);
  });

  it('serves a job first once it has waited its longest, so requests cannot starve it', async () => {
    let now = 0;
    const gate = new SessionGate(1000, () => now);
    const granted: string[] = [];
    await enterAs(gate, granted, 'request 1', 'request');
    const job = enterAs(gate, granted, 'job', 'background');
    now = 400;
    const request2 = enterAs(gate, granted, 'request 2', 'request');
    gate.leave(); // the job has waited 400 ms: the request goes first
    await request2;
    const request3 = enterAs(gate, granted, 'request 3', 'request');
    now = 1000;
    gate.leave(); // now 1,000 ms: the job's turn, ahead of request 3
    await job;
    gate.leave();
    await request3;
    expect(granted).toEqual(['request 1', 'request 2', 'job', 'request 3']);
  });

  it('is free again when the last holder leaves', async () => {
    const gate = new SessionGate(1000);
    await gate.enter('background');
    gate.leave();
    let entered = false;
    await gate.enter('background').then(() => {
      entered = true;
    });
    expect(entered).toBe(true);
  });

  it('takes a route as a request and everything else as background work', () => {
    expect(currentPriority()).toBe('background');
    expect(runAsWork({ kind: 'route', name: 'GET /health' }, currentPriority)).toBe('request');
    expect(runAsWork({ kind: 'job', name: 'emails.execute' }, currentPriority)).toBe('background');
    expect(runAsWork({ kind: 'command', name: 'seed demo' }, currentPriority)).toBe('background');
  });
});
