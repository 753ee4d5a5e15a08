// The `mountebank` package's create(options) for code written against it: an in-process engine
// whose admin API listens on options.port (default 2525), closed with close(callback).
import { EmbeddedTransport } from './transport.js';

export interface MountebankOptions {
  port?: number;
  /** Default 127.0.0.1 (Mountebank listens on every interface; this SDK only on loopback unless asked). */
  host?: string;
  allowInjection?: boolean;
  libraryPath?: string;
  /** Mountebank's other options (pidfile, logfile, ipWhitelist, ...) are accepted and ignored. */
  [option: string]: unknown;
}

export interface MountebankServer {
  readonly port: number;
  readonly url: string;
  /** As mountebank's: stops, then calls back; also returns a promise. */
  close(callback?: () => void): Promise<void>;
}

export async function create(options: MountebankOptions = {}): Promise<MountebankServer> {
  const transport = new EmbeddedTransport({ allowInjection: options.allowInjection ?? false, libraryPath: options.libraryPath });
  try {
    const served = await transport.serveAdmin({ host: options.host ?? '127.0.0.1', port: options.port ?? 2525 });
    return {
      port: served.adminPort,
      url: served.adminUrl,
      async close(callback?: () => void) {
        await transport.close();
        callback?.();
      },
    };
  } catch (error) {
    await transport.close();
    throw error;
  }
}

export default { create };
