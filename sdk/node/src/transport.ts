// The three carriers behind one interface: embedded (librift), spawn (a child `rift`), connect.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn as spawnChild, type ChildProcess } from 'node:child_process';
import { loadNative, type Native } from './ffi.js';
import { RiftError } from './errors.js';
import { RiftResponse, headerPairs, bodyBytes, type HeadersInit, type BodyInit } from './response.js';

export type TransportKind = 'embedded' | 'spawn' | 'connect';

export interface Transport {
  readonly kind: TransportKind;
  /** The admin API's base URL when there is a socket (spawn, connect, or embedded after serveAdmin). */
  readonly adminUrl: string | undefined;
  /** One admin API call: method, target (path and query), headers, body. */
  admin(method: string, target: string, headers?: HeadersInit, body?: BodyInit): Promise<RiftResponse>;
  /** One request to the imposter on `port`: in process through the gateway when embedded, else HTTP. */
  imposter(port: number, method: string, pathAndQuery: string, headers?: HeadersInit, body?: BodyInit, protocol?: 'http' | 'https'): Promise<RiftResponse>;
  close(): Promise<void>;
}

export type Tier = 'interpreter' | 'jit' | 'auto';

export interface EngineOptions {
  /** Path of librift; default RIFT_LIB, then the per-platform package. */
  libraryPath?: string;
  /** Allow inject/decorate/wait functions and shellTransform (default true, as in tests). */
  allowInjection?: boolean;
  tier?: Tier;
  threads?: number;
  host?: string;
  workdir?: string;
  datadir?: string;
  log?: { level?: 'debug' | 'info' | 'warn' | 'error'; file?: string | null; console?: boolean };
}

// ---------------------------------------------------------------- HTTP (spawn, connect, imposters)

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true, rejectUnauthorized: false }) };

export function httpRequest(url: string, method: string, headers?: HeadersInit, body?: BodyInit,
  agent?: http.Agent): Promise<RiftResponse> {
  const u = new URL(url);
  const isHttps = u.protocol === 'https:';
  const bytes = bodyBytes(body);
  const outHeaders: Record<string, string | string[]> = {};
  for (const [n, v] of headerPairs(headers)) {
    const have = outHeaders[n];
    outHeaders[n] = have === undefined ? v : Array.isArray(have) ? [...have, v] : [have, v];
  }
  if (bytes && !Object.keys(outHeaders).some((n) => n.toLowerCase() === 'content-length' || n.toLowerCase() === 'transfer-encoding')) {
    outHeaders['Content-Length'] = String(bytes.length);
  }
  const lib = isHttps ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request({
      protocol: u.protocol, hostname: u.hostname, port: u.port, path: `${u.pathname}${u.search}`,
      method, headers: outHeaders, agent: agent ?? (isHttps ? agents.https : agents.http),
      ...(isHttps ? { rejectUnauthorized: false } : {}),
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        resolve(new RiftResponse(res.statusCode ?? 0, pairs, Buffer.concat(chunks)));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(bytes ?? undefined);
  });
}

abstract class HttpTransport implements Transport {
  abstract readonly kind: TransportKind;
  protected readonly agent = new http.Agent({ keepAlive: true });
  protected readonly tlsAgent = new https.Agent({ keepAlive: true, rejectUnauthorized: false });
  constructor(protected base: string) {}
  get adminUrl(): string { return this.base; }
  admin(method: string, target: string, headers?: HeadersInit, body?: BodyInit): Promise<RiftResponse> {
    return httpRequest(new URL(target, this.base).toString(), method, headers, body, this.agent);
  }
  imposter(port: number, method: string, pathAndQuery: string, headers?: HeadersInit, body?: BodyInit, protocol: 'http' | 'https' = 'http'): Promise<RiftResponse> {
    const host = new URL(this.base).hostname;
    return httpRequest(`${protocol}://${host}:${port}${pathAndQuery}`, method, headers, body,
      protocol === 'https' ? this.tlsAgent : this.agent);
  }
  async close(): Promise<void> {
    this.agent.destroy();
    this.tlsAgent.destroy();
  }
}

export class ConnectTransport extends HttpTransport {
  readonly kind = 'connect' as const;
  constructor(url: string) { super(url.replace(/\/+$/, '') + '/'); }
  get adminUrl(): string { return this.base.replace(/\/$/, ''); }
}

// ---------------------------------------------------------------- spawn

export interface SpawnOptions {
  /** The rift binary; default RIFT_BIN, then `rift` on PATH. */
  bin?: string;
  allowInjection?: boolean;
  tier?: Tier;
  /** More command-line arguments. */
  args?: string[];
  /** How long to wait for GET / to answer (default 15 s). */
  startTimeoutMs?: number;
}

export function locateBinary(explicit?: string): string {
  const bin = explicit ?? process.env.RIFT_BIN;
  if (bin) {
    if (fs.existsSync(bin)) return path.resolve(bin);
    throw new Error(`rift binary not found at ${bin} (${explicit ? 'bin option' : 'RIFT_BIN'})`);
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'rift');
    try { fs.accessSync(candidate, fs.constants.X_OK); return candidate; } catch { /* next */ }
  }
  throw new Error('rift binary not found: set RIFT_BIN or put rift on PATH');
}

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const live = new Set<ChildProcess>();
let exitHook = false;
function trackChild(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!exitHook) {
    exitHook = true;
    // A host that exits without closing must not leave its servers behind.
    process.once('exit', () => { for (const c of live) { try { c.kill('SIGKILL'); } catch { /* gone */ } } });
  }
}

const tierFlag: Record<Tier, string> = { interpreter: 'interp', jit: 'jit', auto: 'auto' };

export class SpawnTransport extends HttpTransport {
  readonly kind = 'spawn' as const;
  private exited: Promise<void>;
  private closed = false;
  private constructor(private child: ChildProcess, base: string, private dir: string) {
    super(base);
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
  }

  get adminUrl(): string { return this.base.replace(/\/$/, ''); }
  get pid(): number | undefined { return this.child.pid; }

  static async start(options: SpawnOptions = {}): Promise<SpawnTransport> {
    const bin = locateBinary(options.bin);
    let lastError: Error | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rift-sdk-'));
      const args = ['start', '--port', String(port), '--host', '127.0.0.1', '--nologfile',
        '--pidfile', path.join(dir, 'rift.pid')];
      if (options.allowInjection ?? true) args.push('--allowInjection');
      if (options.tier) args.push('--engine', tierFlag[options.tier]);
      args.push(...(options.args ?? []));
      const child = spawnChild(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      trackChild(child);
      let output = '';
      const keep = (c: Buffer) => { output = (output + c.toString()).slice(-4000); };
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      const t = new SpawnTransport(child, `http://127.0.0.1:${port}/`, dir);
      try {
        await t.waitReady(options.startTimeoutMs ?? 15000, () => output);
        return t;
      } catch (error) {
        lastError = error as Error;
        await t.close();
      }
    }
    throw lastError!;
  }

  private async waitReady(timeoutMs: number, output: () => string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => { exited = true; });
    for (;;) {
      if (exited) throw new Error(`rift exited before answering (code ${this.child.exitCode}): ${output()}`);
      try {
        const r = await httpRequest(`${this.base}`, 'GET', undefined, undefined, this.agent);
        if (r.status === 200) return;
      } catch { /* not listening yet */ }
      if (Date.now() > deadline) throw new Error(`rift did not answer GET / within ${timeoutMs} ms: ${output()}`);
      await new Promise((r) => setTimeout(r, 25)); // poll interval of the readiness check
    }
  }

  async close(): Promise<void> {
    if (this.closed) return this.exited;
    this.closed = true;
    await super.close();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10000);
      await this.exited;
      clearTimeout(timer);
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- embedded

export class EmbeddedTransport implements Transport {
  readonly kind = 'embedded' as const;
  private engine: unknown;
  private inflight = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;
  private served: string | undefined;
  readonly native: Native;

  constructor(options: EngineOptions = {}) {
    this.native = loadNative(options.libraryPath);
    const open: Record<string, unknown> = { allowInjection: options.allowInjection ?? true };
    if (options.tier) open.tier = options.tier;
    if (options.threads !== undefined) open.threads = options.threads;
    if (options.host) open.host = options.host;
    if (options.workdir) open.workdir = options.workdir;
    if (options.datadir) open.datadir = options.datadir;
    if (options.log) open.log = options.log;
    this.engine = this.native.open(JSON.stringify(open));
  }

  get adminUrl(): string | undefined { return this.served; }

  /** Every call shares the engine; close waits for them (librift's close must not race calls). */
  private track<T>(work: () => Promise<T>): Promise<T> {
    if (this.closing || !this.engine) return Promise.reject(new RiftError(-3, 'RIFT_ERR_STATE', 'the engine is closed'));
    const p = work();
    this.inflight.add(p);
    const done = () => { this.inflight.delete(p); };
    p.then(done, done);
    return p;
  }

  admin(method: string, target: string, headers?: HeadersInit, body?: BodyInit): Promise<RiftResponse> {
    return this.track(async () => {
      const pairs = headerPairs(headers);
      const answer = await this.native.request(this.engine, method, target,
        pairs.length ? JSON.stringify(pairs) : null, bodyBytes(body));
      return new RiftResponse(answer.status, JSON.parse(answer.headersJson) as Array<[string, string]>, answer.body);
    });
  }

  imposter(port: number, method: string, pathAndQuery: string, headers?: HeadersInit, body?: BodyInit): Promise<RiftResponse> {
    const p = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
    return this.admin(method, `/__rift/${port}${p}`, headers, body);
  }

  /** Binds the admin API on a real socket (once): for code that needs a URL. */
  async serveAdmin(options: { host?: string; port?: number } = {}): Promise<{ adminPort: number; adminUrl: string }> {
    const out = await this.track(() => this.native.serveAdmin(this.engine, JSON.stringify({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 })));
    const parsed = JSON.parse(out) as { adminPort: number; adminUrl: string };
    this.served = parsed.adminUrl;
    return parsed;
  }

  close(): Promise<void> {
    if (!this.closing) {
      this.closing = (async () => {
        await Promise.allSettled([...this.inflight]);
        const engine = this.engine;
        this.engine = null;
        if (engine) await this.native.close(engine);
      })();
    }
    return this.closing;
  }
}
