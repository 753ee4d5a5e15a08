// The stub DSL: builders that produce Mountebank imposter JSON (toJSON), and the request
// matchers verify() applies to the journal the same way their predicates match.
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Predicate = { [operator: string]: unknown };
export type Fields = {
  method?: string; path?: string; query?: Record<string, string | string[]>;
  headers?: Record<string, string | string[]>; body?: unknown; requestFrom?: string; [field: string]: unknown;
};

export interface PredicateOptions {
  caseSensitive?: boolean;
  except?: string;
  jsonpath?: { selector: string };
  xpath?: { selector: string; ns?: Record<string, string> };
  keyCaseSensitive?: boolean;
}

const withOptions = (p: Predicate, o?: PredicateOptions): Predicate => (o ? { ...p, ...o } : p);

export const equals = (fields: Fields, options?: PredicateOptions): Predicate => withOptions({ equals: fields }, options);
export const deepEquals = (fields: Fields, options?: PredicateOptions): Predicate => withOptions({ deepEquals: fields }, options);
export const contains = (fields: Fields, options?: PredicateOptions): Predicate => withOptions({ contains: fields }, options);
export const startsWith = (fields: Fields, options?: PredicateOptions): Predicate => withOptions({ startsWith: fields }, options);
export const endsWith = (fields: Fields, options?: PredicateOptions): Predicate => withOptions({ endsWith: fields }, options);
export const matches = (fields: Fields, options?: PredicateOptions): Predicate => withOptions({ matches: fields }, options);
export const exists = (fields: Record<string, boolean | Record<string, boolean>>, options?: PredicateOptions): Predicate => withOptions({ exists: fields }, options);
export const not = (predicate: Predicate): Predicate => ({ not: predicate });
export const or = (...predicates: Predicate[]): Predicate => ({ or: predicates });
export const and = (...predicates: Predicate[]): Predicate => ({ and: predicates });
/** A JavaScript predicate function, as source: `(config) => config.request.path === '/x'`. */
export const injectPredicate = (source: string): Predicate => ({ inject: source });

// ------------------------------------------------------------------------------------ responses

export interface Behaviors {
  wait?: number | string;
  repeat?: number;
  copy?: Array<Record<string, unknown>>;
  lookup?: Array<Record<string, unknown>>;
  decorate?: string;
  shellTransform?: string | string[];
}

export interface ResponseJSON { [key: string]: unknown }

abstract class ResponseBase<Self> {
  protected behaviors: Behaviors = {};
  protected extra: Record<string, unknown> = {};
  /** Delay the answer by ms, or by what a JavaScript function (source) returns. */
  wait(msOrFunction: number | string): Self { this.behaviors.wait = msOrFunction; return this as unknown as Self; }
  /** Answer this response n times before moving to the next one. */
  repeat(times: number): Self { this.behaviors.repeat = times; return this as unknown as Self; }
  /** Copy part of the request into the response (Mountebank's copy behavior). */
  copy(from: string | Record<string, unknown>, into: string, using: { method: 'regex' | 'xpath' | 'jsonpath'; selector: string; options?: Record<string, unknown> }): Self {
    (this.behaviors.copy ??= []).push({ from, into, using });
    return this as unknown as Self;
  }
  lookup(spec: Record<string, unknown>): Self { (this.behaviors.lookup ??= []).push(spec); return this as unknown as Self; }
  /** Post-process the response with a JavaScript function (source): `(config) => { ... }`. */
  decorate(source: string): Self { this.behaviors.decorate = source; return this as unknown as Self; }
  shellTransform(command: string | string[]): Self { this.behaviors.shellTransform = command; return this as unknown as Self; }
  /** Any other response field (e.g. `_rift`). */
  with(key: string, value: unknown): Self { this.extra[key] = value; return this as unknown as Self; }
  protected finish(core: ResponseJSON): ResponseJSON {
    const out: ResponseJSON = { ...core, ...this.extra };
    if (Object.keys(this.behaviors).length) out._behaviors = { ...this.behaviors };
    return out;
  }
  abstract toJSON(): ResponseJSON;
}

/** An `is` response. */
export class IsResponse extends ResponseBase<IsResponse> {
  private fields: { statusCode?: number; headers?: Record<string, string | string[]>; body?: unknown; _mode?: string } = {};
  constructor(statusCode?: number) { super(); if (statusCode !== undefined) this.fields.statusCode = statusCode; }
  status(code: number): this { this.fields.statusCode = code; return this; }
  header(name: string, value: string | string[]): this { (this.fields.headers ??= {})[name] = value; return this; }
  headers(headers: Record<string, string | string[]>): this { this.fields.headers = { ...this.fields.headers, ...headers }; return this; }
  body(body: unknown): this { this.fields.body = body; return this; }
  /** A JSON body with Content-Type: application/json. */
  json(value: unknown): this { return this.header('Content-Type', 'application/json').body(value); }
  /** Binary body (sent base64 with _mode: binary). */
  binary(bytes: Uint8Array): this { this.fields.body = Buffer.from(bytes).toString('base64'); this.fields._mode = 'binary'; return this; }
  toJSON(): ResponseJSON { return this.finish({ is: { ...this.fields } }); }
}

/** A `proxy` response. */
export class ProxyResponse extends ResponseBase<ProxyResponse> {
  private fields: Record<string, unknown>;
  constructor(to: string) { super(); this.fields = { to, mode: 'proxyOnce' }; }
  mode(mode: 'proxyOnce' | 'proxyAlways' | 'proxyTransparent'): this { this.fields.mode = mode; return this; }
  predicateGenerators(...generators: Array<Record<string, unknown>>): this { this.fields.predicateGenerators = generators; return this; }
  addWaitBehavior(on = true): this { this.fields.addWaitBehavior = on; return this; }
  addDecorateBehavior(source: string): this { this.fields.addDecorateBehavior = source; return this; }
  injectHeaders(headers: Record<string, string>): this { this.fields.injectHeaders = headers; return this; }
  toJSON(): ResponseJSON { return this.finish({ proxy: { ...this.fields } }); }
}

/** An `inject` response: a JavaScript function (source) that returns the response. */
export class InjectResponse extends ResponseBase<InjectResponse> {
  constructor(private source: string) { super(); }
  toJSON(): ResponseJSON { return this.finish({ inject: this.source }); }
}

/** A `fault` response (e.g. CONNECTION_RESET_BY_PEER). */
export class FaultResponse extends ResponseBase<FaultResponse> {
  constructor(private fault: string) { super(); }
  toJSON(): ResponseJSON { return this.finish({ fault: this.fault }); }
}

export type Response = IsResponse | ProxyResponse | InjectResponse | FaultResponse | ResponseJSON;

export const response = (statusCode?: number): IsResponse => new IsResponse(statusCode);
export const status = (statusCode: number): IsResponse => new IsResponse(statusCode);
export const ok = (body?: unknown): IsResponse => (body === undefined ? new IsResponse(200) : new IsResponse(200).body(body));
export const okJson = (value: unknown): IsResponse => new IsResponse(200).json(value);
export const json = (statusCode: number, value: unknown): IsResponse => new IsResponse(statusCode).json(value);
export const text = (statusCode: number, body: string): IsResponse => new IsResponse(statusCode).header('Content-Type', 'text/plain').body(body);
export const created = (body?: unknown): IsResponse => (body === undefined ? new IsResponse(201) : new IsResponse(201).body(body));
export const noContent = (): IsResponse => new IsResponse(204);
export const notFound = (body?: unknown): IsResponse => (body === undefined ? new IsResponse(404) : new IsResponse(404).body(body));
export const serverError = (body?: unknown): IsResponse => (body === undefined ? new IsResponse(500) : new IsResponse(500).body(body));
export const proxy = (to: string): ProxyResponse => new ProxyResponse(to);
export const inject = (source: string): InjectResponse => new InjectResponse(source);
export const fault = (name: string): FaultResponse => new FaultResponse(name);

const responseJSON = (r: Response): ResponseJSON =>
  (typeof (r as { toJSON?: unknown }).toJSON === 'function' ? (r as { toJSON(): ResponseJSON }).toJSON() : (r as ResponseJSON));

// ------------------------------------------------------------------------- requests and stubs

/** A journal entry, as GET /imposters/:port records it. */
export interface RecordedRequest {
  method?: string; path?: string; query?: Record<string, string | string[]>;
  headers?: Record<string, string | string[]>; body?: string; requestFrom?: string; timestamp?: string;
  [key: string]: unknown;
}

/**
 * What a request looks like: it becomes a stub's predicates (`equals` on the fields given,
 * `matches` for RegExp ones) and is what verify() counts in the journal.
 */
export class RequestMatcher {
  private _method?: string;
  private _path?: string | RegExp;
  private _query: Record<string, string | RegExp> = {};
  private _headers: Record<string, string | RegExp> = {};
  private _body?: string | RegExp | object;
  private _extra: Predicate[] = [];

  constructor(method?: string, path?: string | RegExp) {
    if (method) this._method = method.toUpperCase();
    if (path !== undefined) this._path = path;
  }
  withQuery(name: string, value: string | RegExp): this { this._query[name] = value; return this; }
  withHeader(name: string, value: string | RegExp): this { this._headers[name] = value; return this; }
  /** A string or RegExp (the raw body), or an object (JSON subset, as Mountebank's equals). */
  withBody(body: string | RegExp | object): this { this._body = body; return this; }
  /** More predicates for the stub (not used by verify). */
  and(...predicates: Predicate[]): this { this._extra.push(...predicates); return this; }

  /** Builds a stub from this request with the responses given (cycled in order). */
  willReturn(...responses: Response[]): Stub { return new Stub(this.predicates()).willReturn(...responses); }

  predicates(): Predicate[] {
    const eq: Fields = {};
    const re: Fields = {};
    if (this._method) eq.method = this._method;
    const put = (target: Record<string, unknown>, key: string, value: unknown) => { target[key] = value; };
    if (this._path instanceof RegExp) re.path = this._path.source; else if (this._path !== undefined) eq.path = this._path;
    for (const [k, v] of Object.entries(this._query)) put(((v instanceof RegExp ? re : eq).query ??= {}) as Record<string, unknown>, k, v instanceof RegExp ? v.source : v);
    for (const [k, v] of Object.entries(this._headers)) put(((v instanceof RegExp ? re : eq).headers ??= {}) as Record<string, unknown>, k, v instanceof RegExp ? v.source : v);
    if (this._body instanceof RegExp) re.body = this._body.source; else if (this._body !== undefined) eq.body = this._body;
    const out: Predicate[] = [];
    if (Object.keys(eq).length) out.push({ equals: eq });
    if (Object.keys(re).length) out.push({ matches: re });
    return [...out, ...this._extra];
  }

  /** Whether a journal entry matches, with Mountebank's defaults: case-insensitive values and names. */
  test(request: RecordedRequest): boolean {
    const same = (want: string | RegExp, got: unknown): boolean => {
      const values = Array.isArray(got) ? got.map(String) : got === undefined ? [] : [String(got)];
      return values.some((g) => (want instanceof RegExp ? new RegExp(want.source, want.flags.includes('i') ? want.flags : want.flags + 'i').test(g) : g.toLowerCase() === want.toLowerCase()));
    };
    const lookup = (obj: Record<string, unknown> | undefined, key: string): unknown => {
      if (!obj) return undefined;
      const k = Object.keys(obj).find((n) => n.toLowerCase() === key.toLowerCase());
      return k === undefined ? undefined : obj[k];
    };
    if (this._method && (request.method ?? '').toUpperCase() !== this._method) return false;
    if (this._path !== undefined && !same(this._path, request.path ?? '')) return false;
    for (const [k, v] of Object.entries(this._query)) if (!same(v, lookup(request.query, k))) return false;
    for (const [k, v] of Object.entries(this._headers)) if (!same(v, lookup(request.headers, k))) return false;
    if (this._body !== undefined) {
      const body = request.body ?? '';
      if (typeof this._body === 'string' || this._body instanceof RegExp) {
        if (!same(this._body, typeof body === 'string' ? body : JSON.stringify(body))) return false;
      } else {
        let parsed: unknown = body;
        if (typeof body === 'string') { try { parsed = JSON.parse(body); } catch { return false; } }
        if (!subset(this._body, parsed)) return false;
      }
    }
    return true;
  }

  toString(): string {
    const parts = [this._method ?? '*', String(this._path ?? '*')];
    if (Object.keys(this._query).length) parts.push(`query ${JSON.stringify(this._query, reSource)}`);
    if (Object.keys(this._headers).length) parts.push(`headers ${JSON.stringify(this._headers, reSource)}`);
    if (this._body !== undefined) parts.push(`body ${JSON.stringify(this._body, reSource)}`);
    return parts.join(' ');
  }
}

const reSource = (_k: string, v: unknown) => (v instanceof RegExp ? v.toString() : v);

function subset(want: unknown, got: unknown): boolean {
  if (want === null || typeof want !== 'object') {
    return typeof want === 'string' && typeof got === 'string' ? want.toLowerCase() === got.toLowerCase() : want === got || String(want) === String(got);
  }
  if (Array.isArray(want)) return Array.isArray(got) && want.length === got.length && want.every((w, i) => subset(w, got[i]));
  if (got === null || typeof got !== 'object') return false;
  return Object.entries(want as Record<string, unknown>).every(([k, v]) => subset(v, (got as Record<string, unknown>)[k]));
}

export const on = (method: string, path?: string | RegExp): RequestMatcher => new RequestMatcher(method, path);
export const onRequest = (): RequestMatcher => new RequestMatcher();
export const onGet = (path?: string | RegExp): RequestMatcher => new RequestMatcher('GET', path);
export const onPost = (path?: string | RegExp): RequestMatcher => new RequestMatcher('POST', path);
export const onPut = (path?: string | RegExp): RequestMatcher => new RequestMatcher('PUT', path);
export const onPatch = (path?: string | RegExp): RequestMatcher => new RequestMatcher('PATCH', path);
export const onDelete = (path?: string | RegExp): RequestMatcher => new RequestMatcher('DELETE', path);

/** A stub: predicates (all must match) and responses (cycled). */
export class Stub {
  private responses: Response[] = [];
  constructor(private predicates: Predicate[] = []) {}
  when(...predicates: Predicate[]): this { this.predicates.push(...predicates); return this; }
  willReturn(...responses: Response[]): this { this.responses.push(...responses); return this; }
  toJSON(): { predicates: Predicate[]; responses: ResponseJSON[] } {
    return { predicates: [...this.predicates], responses: this.responses.map(responseJSON) };
  }
}

export const stub = (...predicates: Predicate[]): Stub => new Stub(predicates);

// ------------------------------------------------------------------------------------ imposters

export type StubLike = Stub | RequestMatcher | { predicates?: Predicate[]; responses?: unknown[]; [k: string]: unknown };

export const stubJSON = (s: StubLike): Record<string, unknown> => {
  if (s instanceof RequestMatcher) return new Stub(s.predicates()).toJSON(); // no responses: the default
  if (s instanceof Stub) return s.toJSON();
  return s as Record<string, unknown>;
};

export class ImposterBuilder {
  private fields: Record<string, unknown> = { protocol: 'http' };
  private stubs: StubLike[] = [];
  constructor(name?: string) { if (name) this.fields.name = name; }
  port(port: number): this { this.fields.port = port; return this; }
  protocol(protocol: 'http' | 'https' | 'tcp' | string): this { this.fields.protocol = protocol; return this; }
  /** HTTPS with Rift's default self-signed certificate, or the key and cert given (PEM). */
  https(keyAndCert?: { key: string; cert: string }): this {
    this.fields.protocol = 'https';
    if (keyAndCert) { this.fields.key = keyAndCert.key; this.fields.cert = keyAndCert.cert; }
    return this;
  }
  /** Keep a journal of requests (recordRequests), which verify() reads. */
  record(on = true): this { this.fields.recordRequests = on; return this; }
  defaultResponse(r: IsResponse | Record<string, unknown>): this {
    this.fields.defaultResponse = r instanceof IsResponse ? (r.toJSON().is as Record<string, unknown>) : r;
    return this;
  }
  allowCORS(on = true): this { this.fields.allowCORS = on; return this; }
  host(host: string): this { this.fields.host = host; return this; }
  stub(...stubs: StubLike[]): this { this.stubs.push(...stubs); return this; }
  /** Any other imposter field. */
  with(key: string, value: unknown): this { this.fields[key] = value; return this; }
  toJSON(): Record<string, unknown> { return { ...this.fields, stubs: this.stubs.map(stubJSON) }; }
}

export const imposter = (name?: string): ImposterBuilder => new ImposterBuilder(name);

// ------------------------------------------------------------------------------------ times

export class Times {
  constructor(readonly description: string, private check: (n: number) => boolean) {}
  test(count: number): boolean { return this.check(count); }
  toString(): string { return this.description; }
}
export const times = (n: number): Times => new Times(`exactly ${n}`, (c) => c === n);
export const once = (): Times => times(1);
export const never = (): Times => new Times('exactly 0', (c) => c === 0);
export const atLeast = (n: number): Times => new Times(`at least ${n}`, (c) => c >= n);
export const atMost = (n: number): Times => new Times(`at most ${n}`, (c) => c <= n);
export const between = (min: number, max: number): Times => new Times(`between ${min} and ${max}`, (c) => c >= min && c <= max);
