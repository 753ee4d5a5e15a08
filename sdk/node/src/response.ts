/** An HTTP answer, from the admin API or an imposter, whichever the transport. */
export class RiftResponse {
  readonly status: number;
  /** Response headers as [name, value] pairs, repeats kept, names as sent. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body bytes (they may hold NULs). */
  readonly body: Buffer;

  constructor(status: number, headers: ReadonlyArray<readonly [string, string]>, body: Buffer) {
    this.status = status;
    this.headers = headers;
    this.body = body;
  }

  /** The first value of a header, by case-insensitive name. */
  header(name: string): string | undefined {
    const lower = name.toLowerCase();
    return this.headers.find(([n]) => n.toLowerCase() === lower)?.[1];
  }

  /** Every value of a header, by case-insensitive name. */
  headerValues(name: string): string[] {
    const lower = name.toLowerCase();
    return this.headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
  }

  text(): string {
    return this.body.toString('utf8');
  }

  json<T = unknown>(): T {
    return JSON.parse(this.text()) as T;
  }
}

export type HeadersInit = Record<string, string | string[]> | ReadonlyArray<readonly [string, string]>;

export function headerPairs(headers?: HeadersInit): Array<[string, string]> {
  if (!headers) return [];
  if (Array.isArray(headers)) return headers.map(([n, v]) => [n, v]);
  const out: Array<[string, string]> = [];
  for (const [n, v] of Object.entries(headers as Record<string, string | string[]>)) {
    for (const one of Array.isArray(v) ? v : [v]) out.push([n, String(one)]);
  }
  return out;
}

export type BodyInit = string | Buffer | Uint8Array | object | null | undefined;

/** Strings go as UTF-8, bytes as they are, any other value serialized as JSON. */
export function bodyBytes(body: BodyInit): Buffer | null {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body);
  return Buffer.from(JSON.stringify(body), 'utf8');
}
