import { EmbeddedTransport, SpawnTransport, ConnectTransport, type Transport, type EngineOptions, type SpawnOptions } from './transport.js';
import { RiftApiError, VerificationError } from './errors.js';
import { RiftResponse, type HeadersInit, type BodyInit } from './response.js';
import { ImposterBuilder, RequestMatcher, Times, times as timesN, stubJSON, type RecordedRequest, type StubLike } from './dsl.js';

export interface CallOptions { headers?: HeadersInit; body?: BodyInit }

type ImposterInput = ImposterBuilder | Record<string, unknown> | string;

/** Counts the requests in `requests` that match, and throws VerificationError unless `times` holds. */
export function verifyRequests(requests: RecordedRequest[], matcher: RequestMatcher, times: Times = timesN(1), where = ''): number {
  const count = requests.filter((r) => matcher.test(r)).length;
  if (!times.test(count)) {
    const seen = requests.map((r) => `  ${r.method} ${r.path}${r.query && Object.keys(r.query).length ? ' ' + JSON.stringify(r.query) : ''}`).join('\n');
    throw new VerificationError(
      `expected ${times} request(s) matching ${matcher}${where}, got ${count}. Recorded:\n${seen || '  (none: is recordRequests on? use .record())'}`,
      times.description, count);
  }
  return count;
}

/** A Rift engine or server, whichever carrier: the same calls on each. */
export class Rift {
  private constructor(readonly transport: Transport) {}

  /** In process through librift (RIFT_LIB or the per-platform package). */
  static async embedded(options: EngineOptions = {}): Promise<Rift> {
    return new Rift(new EmbeddedTransport(options));
  }
  /** A child `rift` process on a free port (RIFT_BIN or PATH), stopped by close(). */
  static async spawn(options: SpawnOptions = {}): Promise<Rift> {
    return new Rift(await SpawnTransport.start(options));
  }
  /** A running server at `url` (e.g. http://127.0.0.1:2525). */
  static async connect(url: string): Promise<Rift> {
    const rift = new Rift(new ConnectTransport(url));
    const r = await rift.request('GET', '/');
    if (r.status !== 200) throw new RiftApiError(`GET ${url}/`, r.status, r.text());
    return rift;
  }

  get kind(): Transport['kind'] { return this.transport.kind; }
  get adminUrl(): string | undefined { return this.transport.adminUrl; }

  /** Raw admin API call (the escape hatch): any method and path, body a string, bytes or JSON value. */
  request(method: string, path: string, body?: BodyInit, headers?: HeadersInit): Promise<RiftResponse> {
    const h = headers ?? (body !== undefined && body !== null && typeof body === 'object' && !(body instanceof Uint8Array) ? { 'Content-Type': 'application/json' } : undefined);
    return this.transport.admin(method, path, h, body);
  }

  /** A request to the imposter on `port` (in process through the gateway when embedded). */
  call(port: number, method: string, path: string, options: CallOptions = {}): Promise<RiftResponse> {
    return this.transport.imposter(port, method, path, options.headers, options.body);
  }

  private async expect(what: string, response: Promise<RiftResponse>, ok: number[]): Promise<RiftResponse> {
    const r = await response;
    if (!ok.includes(r.status)) throw new RiftApiError(what, r.status, r.text());
    return r;
  }

  /** Creates an imposter from a builder, a plain object, or a JSON string. */
  async create(input: ImposterInput): Promise<Imposter> {
    const body = typeof input === 'string' ? input : JSON.stringify(input instanceof ImposterBuilder ? input.toJSON() : input);
    const r = await this.expect('POST /imposters', this.transport.admin('POST', '/imposters', { 'Content-Type': 'application/json' }, body), [201]);
    const created = r.json<{ port: number; protocol: string }>();
    return new Imposter(this, created.port, created.protocol === 'https' ? 'https' : 'http');
  }

  /** A handle on an existing imposter. */
  imposter(port: number, protocol: 'http' | 'https' = 'http'): Imposter { return new Imposter(this, port, protocol); }

  async get(port: number): Promise<Record<string, unknown> & { requests?: RecordedRequest[] }> {
    return (await this.expect(`GET /imposters/${port}`, this.transport.admin('GET', `/imposters/${port}`), [200])).json();
  }

  async list(): Promise<Array<Record<string, unknown>>> {
    return (await this.expect('GET /imposters', this.transport.admin('GET', '/imposters'), [200])).json<{ imposters: Array<Record<string, unknown>> }>().imposters;
  }

  async deleteImposter(port: number): Promise<void> {
    await this.expect(`DELETE /imposters/${port}`, this.transport.admin('DELETE', `/imposters/${port}`), [200]);
  }

  /** Deletes every imposter. */
  async reset(): Promise<void> {
    await this.expect('DELETE /imposters', this.transport.admin('DELETE', '/imposters'), [200]);
  }

  async requests(port: number): Promise<RecordedRequest[]> {
    return (await this.get(port)).requests ?? [];
  }

  /** Throws VerificationError unless the journal of `port` holds `times` requests matching. */
  async verify(port: number, matcher: RequestMatcher, times?: Times): Promise<number> {
    return verifyRequests(await this.requests(port), matcher, times, ` on imposter ${port}`);
  }

  async addStub(port: number, s: StubLike, index?: number): Promise<void> {
    const body = index === undefined ? { stub: stubJSON(s) } : { index, stub: stubJSON(s) };
    await this.expect(`POST /imposters/${port}/stubs`, this.transport.admin('POST', `/imposters/${port}/stubs`, { 'Content-Type': 'application/json' }, JSON.stringify(body)), [200, 201]);
  }

  async replaceStubs(port: number, stubs: StubLike[]): Promise<void> {
    await this.expect(`PUT /imposters/${port}/stubs`, this.transport.admin('PUT', `/imposters/${port}/stubs`, { 'Content-Type': 'application/json' }, JSON.stringify({ stubs: stubs.map(stubJSON) })), [200]);
  }

  async clearRequests(port: number): Promise<void> {
    await this.expect(`DELETE /imposters/${port}/savedRequests`, this.transport.admin('DELETE', `/imposters/${port}/savedRequests`), [200]);
  }

  /** Stops the engine or the child server; closing twice is fine. */
  close(): Promise<void> { return this.transport.close(); }
}

/** One imposter on one port. */
export class Imposter {
  constructor(readonly rift: Rift, readonly port: number, readonly protocol: 'http' | 'https' = 'http') {}
  /** Its URL on the real socket. */
  get url(): string { return `${this.protocol}://127.0.0.1:${this.port}`; }
  call(method: string, path: string, options?: CallOptions): Promise<RiftResponse> {
    return this.rift.transport.imposter(this.port, method, path, options?.headers, options?.body, this.protocol);
  }
  get(path: string, headers?: HeadersInit): Promise<RiftResponse> { return this.call('GET', path, { headers }); }
  post(path: string, body?: BodyInit, headers?: HeadersInit): Promise<RiftResponse> { return this.call('POST', path, { body, headers }); }
  requests(): Promise<RecordedRequest[]> { return this.rift.requests(this.port); }
  verify(matcher: RequestMatcher, times?: Times): Promise<number> { return this.rift.verify(this.port, matcher, times); }
  addStub(s: StubLike, index?: number): Promise<void> { return this.rift.addStub(this.port, s, index); }
  replaceStubs(stubs: StubLike[]): Promise<void> { return this.rift.replaceStubs(this.port, stubs); }
  clearRequests(): Promise<void> { return this.rift.clearRequests(this.port); }
  delete(): Promise<void> { return this.rift.deleteImposter(this.port); }
}
