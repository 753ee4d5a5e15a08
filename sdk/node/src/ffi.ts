// librift through koffi: the binding table (written once, checked against embed/abi.json by a
// test), library location and loading, and the raw calls. Everything above this file speaks
// JavaScript values only.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import koffi from 'koffi';
import { selfFile } from './self.js';
import { RiftError } from './errors.js';

/** One C function: its name, return type and argument types in order, spelled as in abi.json. */
export interface FunctionSpec {
  readonly name: string;
  readonly returns: string;
  readonly args: ReadonlyArray<readonly [string, string]>;
}

/** The ABI major version this SDK binds. */
export const RIFT_ABI_VERSION = 1;

/** The binding table: the single place the SDK names librift's functions and their C types. */
export const BINDINGS: readonly FunctionSpec[] = [
  { name: 'rift_abi_version', returns: 'uint32_t', args: [] },
  { name: 'rift_build_info', returns: 'const char *', args: [] },
  {
    name: 'rift_engine_open', returns: 'int32_t',
    args: [['options_json', 'const char *'], ['out_engine', 'rift_engine **'], ['out_error', 'char **']],
  },
  { name: 'rift_engine_close', returns: 'int32_t', args: [['engine', 'rift_engine *']] },
  {
    name: 'rift_request', returns: 'int32_t',
    args: [
      ['engine', 'rift_engine *'], ['method', 'const char *'], ['target', 'const char *'],
      ['headers_json', 'const char *'], ['body', 'const char *'], ['body_len', 'size_t'],
      ['out_status', 'int32_t *'], ['out_body', 'char **'], ['out_body_len', 'size_t *'],
      ['out_headers_json', 'char **'], ['out_error', 'char **'],
    ],
  },
  {
    name: 'rift_serve_admin', returns: 'int32_t',
    args: [['engine', 'rift_engine *'], ['options_json', 'const char *'], ['out_json', 'char **'], ['out_error', 'char **']],
  },
  { name: 'rift_free', returns: 'void', args: [['pointer', 'void *']] },
  { name: 'rift_status_name', returns: 'const char *', args: [['status', 'int32_t']] },
];

const normalizeType = (t: string): string => t.replace(/\s+/g, ' ').replace(/\s*\*/g, ' *').replace(/\* \*/g, '**').trim();

/**
 * Compares a binding table with abi.json's content (parsed). Returns the differences, empty when
 * they agree: the same functions, and for each the same return type and argument types in order.
 */
export function compareBindings(abi: { abi?: number; functions: FunctionSpec[] }, table: readonly FunctionSpec[] = BINDINGS): string[] {
  const problems: string[] = [];
  if (abi.abi !== undefined && abi.abi !== RIFT_ABI_VERSION) problems.push(`abi.json is ABI ${abi.abi}, the SDK binds ${RIFT_ABI_VERSION}`);
  const theirs = new Map(abi.functions.map((f) => [f.name, f]));
  const ours = new Map(table.map((f) => [f.name, f]));
  for (const name of theirs.keys()) if (!ours.has(name)) problems.push(`${name}: in abi.json, not in the SDK`);
  for (const [name, mine] of ours) {
    const other = theirs.get(name);
    if (!other) { problems.push(`${name}: in the SDK, not in abi.json`); continue; }
    if (normalizeType(mine.returns) !== normalizeType(other.returns)) problems.push(`${name}: returns ${mine.returns}, abi.json says ${other.returns}`);
    if (mine.args.length !== other.args.length) { problems.push(`${name}: ${mine.args.length} arguments, abi.json says ${other.args.length}`); continue; }
    mine.args.forEach(([argName, type], i) => {
      const [, theirType] = other.args[i];
      if (normalizeType(type) !== normalizeType(theirType)) problems.push(`${name}: argument ${i} (${argName}) is ${type}, abi.json says ${theirType}`);
    });
  }
  return problems;
}

// C type (abi.json spelling) -> koffi type.
// Anonymous: koffi's type names are process-wide, and the ESM and CJS builds may both load.
const engineType = koffi.opaque();
function koffiType(cType: string, isReturn: boolean): unknown {
  switch (normalizeType(cType)) {
    case 'void': case 'uint32_t': case 'int32_t': case 'size_t':
      return normalizeType(cType);
    case 'const char *':
      return 'const char *'; // returns: the static strings of build_info/status_name, never freed
    case 'void *':
      return 'void *';
    case 'rift_engine *':
      return koffi.pointer(engineType);
    case 'rift_engine **':
      return koffi.out(koffi.pointer(koffi.pointer(engineType)));
    case 'char **':
      // Owned strings come back as raw pointers: decoded by length, then given to rift_free.
      return koffi.out(koffi.pointer('void *'));
    case 'int32_t *':
      return koffi.out(koffi.pointer('int32_t'));
    case 'size_t *':
      return koffi.out(koffi.pointer('size_t'));
    default:
      throw new Error(`no koffi mapping for C type ${cType}${isReturn ? ' (return)' : ''}`);
  }
}

type Pointer = unknown; // koffi gives pointers as bigint (or an External); opaque to us
type KoffiFn = ((...args: unknown[]) => unknown) & { async: (...args: unknown[]) => void };

/** The bound library. */
export interface Native {
  readonly path: string;
  abiVersion(): number;
  buildInfo(): { name: string; version: string; abi: number; tiers: string[]; features: string[] };
  open(optionsJson: string | null): Pointer;
  close(engine: Pointer): Promise<number>;
  request(engine: Pointer, method: string, target: string, headersJson: string | null, body: Buffer | null): Promise<NativeAnswer>;
  serveAdmin(engine: Pointer, optionsJson: string | null): Promise<string>;
  statusName(status: number): string;
}

export interface NativeAnswer { status: number; body: Buffer; headersJson: string }

const cache = new Map<string, Native>();

/** Where librift is: RIFT_LIB, else the per-platform optional package (rift-sdk-<platform>-<arch>). */
export function locateLibrary(explicit?: string): string {
  const tried: string[] = [];
  const candidate = explicit ?? process.env.RIFT_LIB;
  if (candidate) {
    if (fs.existsSync(candidate)) return path.resolve(candidate);
    throw new Error(`librift not found at ${candidate} (${explicit ? 'libraryPath option' : 'RIFT_LIB'})`);
  }
  const pkg = `rift-sdk-${process.platform}-${process.arch}`;
  try {
    const req = createRequire(selfFile);
    const lib = req(pkg) as string;
    if (fs.existsSync(lib)) return lib;
    tried.push(`${pkg} (installed, but ${lib} is missing)`);
  } catch {
    tried.push(`${pkg} (not installed)`);
  }
  throw new Error(`librift not found: set RIFT_LIB to librift.so.1, or install ${tried.join('; ')}`);
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Loads (once per path, never unloaded) and checks the ABI version. */
export function loadNative(libraryPath?: string): Native {
  const file = locateLibrary(libraryPath);
  const hit = cache.get(file);
  if (hit) return hit;
  let lib: ReturnType<typeof koffi.load> | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      lib = koffi.load(file); // RTLD_LOCAL, and never unloaded
      break;
    } catch (error) {
      // The file may be being relinked right now: a few short retries while it exists.
      if (attempt >= 4 || !fs.existsSync(file)) throw new Error(`could not load librift from ${file}: ${(error as Error).message}`);
      sleepSync(250);
    }
  }
  const fns: Record<string, KoffiFn> = {};
  for (const spec of BINDINGS) {
    fns[spec.name] = lib.func(spec.name, koffiType(spec.returns, true) as string,
      spec.args.map(([, t]) => koffiType(t, false)) as string[]) as unknown as KoffiFn;
  }
  const abi = fns.rift_abi_version() as number;
  if (abi !== RIFT_ABI_VERSION) {
    throw new RiftError(-4, 'RIFT_ERR_UNSUPPORTED', `librift at ${file} has ABI ${abi}; this SDK needs ABI ${RIFT_ABI_VERSION}`);
  }
  const free = (p: Pointer) => { if (p) fns.rift_free(p); };
  const take = (p: Pointer, len = -1): string => {
    if (!p) return '';
    try { return koffi.decode(p, 'char', len) as string; } finally { free(p); }
  };
  const takeBuffer = (p: Pointer, len: number): Buffer => {
    if (!p) return Buffer.alloc(0);
    try { return len > 0 ? Buffer.from(new Uint8Array(koffi.view(p, len) as ArrayBuffer)) : Buffer.alloc(0); } finally { free(p); }
  };
  const statusName = (s: number) => fns.rift_status_name(s) as string;
  const fail = (status: number, errorPtr: Pointer): RiftError => {
    const text = take(errorPtr);
    try {
      const e = JSON.parse(text) as { code: number; name: string; message: string };
      return new RiftError(e.code ?? status, e.name ?? statusName(status), e.message ?? text);
    } catch {
      return new RiftError(status, statusName(status), text || statusName(status));
    }
  };
  const callAsync = (fn: KoffiFn, args: unknown[]): Promise<number> => new Promise((resolve, reject) => {
    fn.async(...args, (error: Error | null, result: number) => (error ? reject(error) : resolve(result)));
  });

  const native: Native = {
    path: file,
    abiVersion: () => abi,
    buildInfo: () => JSON.parse(fns.rift_build_info() as string),
    statusName,
    open(optionsJson) {
      const engine: Pointer[] = [null];
      const error: Pointer[] = [null];
      const status = fns.rift_engine_open(optionsJson, engine, error) as number;
      if (status !== 0) throw fail(status, error[0]);
      free(error[0]);
      return engine[0];
    },
    close: (engine) => callAsync(fns.rift_engine_close, [engine]), // off the event loop: it drains workers
    async request(engine, method, target, headersJson, body) {
      const status = [0];
      const outBody: Pointer[] = [null];
      const outLen = [0];
      const outHeaders: Pointer[] = [null];
      const error: Pointer[] = [null];
      const rc = await callAsync(fns.rift_request, [engine, method, target, headersJson,
        body && body.length ? body : null, body ? body.length : 0, status, outBody, outLen, outHeaders, error]);
      if (rc !== 0) {
        free(outBody[0]); free(outHeaders[0]);
        throw fail(rc, error[0]);
      }
      free(error[0]);
      const len = Number(outLen[0]);
      return { status: status[0], body: takeBuffer(outBody[0], len), headersJson: take(outHeaders[0]) || '[]' };
    },
    async serveAdmin(engine, optionsJson) {
      const out: Pointer[] = [null];
      const error: Pointer[] = [null];
      const rc = await callAsync(fns.rift_serve_admin, [engine, optionsJson, out, error]);
      if (rc !== 0) { free(out[0]); throw fail(rc, error[0]); }
      free(error[0]);
      return take(out[0]);
    },
  };
  cache.set(file, native);
  return native;
}
