// riftTest(): Vitest fixtures, one engine per worker, imposters deleted after each test.
import { test as base, expect, describe } from 'vitest';
import { riftTest } from 'rift-sdk/vitest';
import { imposter, onGet, okJson, times, freePort, VerificationError } from 'rift-sdk';

const test = riftTest(base);
let firstPort;
let firstEngine;

describe('riftTest', () => {
  test('an imposter per test', async ({ rift, imposter: make }) => {
    firstPort = await freePort();
    const users = await make(imposter('users').port(firstPort).record().stub(onGet('/users/1').willReturn(okJson({ id: 1 }))));
    expect((await users.get('/users/1')).json()).toEqual({ id: 1 });
    await users.verify(onGet('/users/1'), times(1));
    await expect(users.verify(onGet('/users/1'), times(3))).rejects.toBeInstanceOf(VerificationError);
    expect(rift.kind).toBe('embedded');
    firstEngine = rift;
  });

  test('is gone in the next test, on the same engine', async ({ rift }) => {
    expect(rift).toBe(firstEngine);
    const ports = (await rift.list()).map((i) => i.port);
    expect(ports).not.toContain(firstPort);
  });
});
