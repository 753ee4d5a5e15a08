export { Rift, Imposter, verifyRequests, type CallOptions } from './client.js';
export { RiftError, RiftApiError, VerificationError } from './errors.js';
export { RiftResponse, type HeadersInit, type BodyInit } from './response.js';
export {
  EmbeddedTransport, SpawnTransport, ConnectTransport, locateBinary, freePort,
  type Transport, type TransportKind, type EngineOptions, type SpawnOptions, type Tier,
} from './transport.js';
export { BINDINGS, RIFT_ABI_VERSION, compareBindings, locateLibrary, loadNative, type FunctionSpec } from './ffi.js';
export * from './dsl.js';
