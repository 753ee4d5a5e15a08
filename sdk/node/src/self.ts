// This module's own file, for resolving packages from where the SDK is installed. The CommonJS
// build uses __filename; scripts/build.mjs replaces the ESM build's copy with import.meta.url.
declare const __filename: string;
export const selfFile: string = __filename;
