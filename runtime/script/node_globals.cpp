// Node's globals and built-in modules for injected functions, written in JavaScript.
//
// Mountebank evaluates `inject` functions inside Node, so configs reach for process.env, Buffer,
// console and require('crypto'). Only what cannot be done in JavaScript is native: digests,
// HMACs and random bytes come from OpenSSL (native_crypto.cpp), the environment and clocks from
// the operating system (native_process.cpp). docs/javascript.md lists what exists.
#include "runtime/script/node_globals.h"

namespace rift::script {

const char* node_globals_source() {
  // Evaluated once per engine, before the prelude, for its side effect on the global.
  return R"JS((function (global, log, hashNative, randomNative, processNative) {
  'use strict';

  // ---- bytes and text ------------------------------------------------------------------------
  // Binary strings (char codes 0-255) are how bytes cross to the natives.
  function toBinary(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length; i += 8192) {
      out += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
    }
    return out;
  }
  function fromBinary(text) {
    const bytes = new Buffer(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 255;
    return bytes;
  }
  function utf8Encode(str) {
    const out = new Uint8Array(str.length * 3);
    let n = 0;
    for (let i = 0; i < str.length; i++) {
      let c = str.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < str.length ? str.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        } else {
          c = 0xfffd;  // a lone surrogate, as Node writes it
        }
      }
      if (c < 0x80) {
        out[n++] = c;
      } else if (c < 0x800) {
        out[n++] = 0xc0 | (c >> 6);
        out[n++] = 0x80 | (c & 63);
      } else if (c < 0x10000) {
        out[n++] = 0xe0 | (c >> 12);
        out[n++] = 0x80 | ((c >> 6) & 63);
        out[n++] = 0x80 | (c & 63);
      } else {
        out[n++] = 0xf0 | (c >> 18);
        out[n++] = 0x80 | ((c >> 12) & 63);
        out[n++] = 0x80 | ((c >> 6) & 63);
        out[n++] = 0x80 | (c & 63);
      }
    }
    return out.slice(0, n);
  }
  function codeUnitsToString(units) {
    let out = '';
    for (let i = 0; i < units.length; i += 8192) {
      out += String.fromCharCode.apply(null, units.slice(i, i + 8192));
    }
    return out;
  }
  // The WHATWG decoder: each maximal invalid subsequence becomes one U+FFFD, as in Node.
  function utf8Decode(b, start, end) {
    const units = [];
    let i = start;
    while (i < end) {
      const c = b[i];
      if (c < 0x80) {
        units.push(c);
        i++;
        continue;
      }
      let need = 0;
      let cp = 0;
      let lower = 0x80;
      let upper = 0xbf;
      if (c >= 0xc2 && c <= 0xdf) {
        need = 1;
        cp = c & 0x1f;
      } else if (c >= 0xe0 && c <= 0xef) {
        need = 2;
        cp = c & 0xf;
        if (c === 0xe0) lower = 0xa0;
        if (c === 0xed) upper = 0x9f;
      } else if (c >= 0xf0 && c <= 0xf4) {
        need = 3;
        cp = c & 7;
        if (c === 0xf0) lower = 0x90;
        if (c === 0xf4) upper = 0x8f;
      } else {
        units.push(0xfffd);
        i++;
        continue;
      }
      let j = i + 1;
      let ok = true;
      for (let k = 0; k < need; k++, j++) {
        const d = j < end ? b[j] : -1;
        if (d < (k === 0 ? lower : 0x80) || d > (k === 0 ? upper : 0xbf)) {
          ok = false;
          break;
        }
        cp = (cp << 6) | (d & 0x3f);
      }
      i = j;
      if (!ok) {
        units.push(0xfffd);
      } else if (cp >= 0x10000) {
        cp -= 0x10000;
        units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      } else {
        units.push(cp);
      }
    }
    return codeUnitsToString(units);
  }
  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const BASE64_VALUE = new Map();
  for (let i = 0; i < 64; i++) BASE64_VALUE.set(BASE64[i], i);
  BASE64_VALUE.set('-', 62);  // Node decodes both alphabets
  BASE64_VALUE.set('_', 63);
  function base64Encode(b, start, end, url) {
    const alphabet = url ? BASE64.slice(0, 62) + '-_' : BASE64;
    let out = '';
    let i = start;
    for (; i + 2 < end; i += 3) {
      const n = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
      out += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + alphabet[(n >> 6) & 63] + alphabet[n & 63];
    }
    if (end - i === 1) {
      const n = b[i] << 16;
      out += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + (url ? '' : '==');
    } else if (end - i === 2) {
      const n = (b[i] << 16) | (b[i + 1] << 8);
      out += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + alphabet[(n >> 6) & 63] + (url ? '' : '=');
    }
    return out;
  }
  // Lenient like Node: characters outside both alphabets are skipped, '=' ends the data.
  function base64Decode(str) {
    const out = new Buffer(Math.ceil(str.length * 3 / 4));
    let n = 0;
    let bits = 0;
    let count = 0;
    for (let i = 0; i < str.length; i++) {
      const ch = str[i];
      if (ch === '=') break;
      const v = BASE64_VALUE.get(ch);
      if (v === undefined) continue;
      bits = (bits << 6) | v;
      count += 6;
      if (count >= 8) {
        count -= 8;
        out[n++] = (bits >> count) & 255;
      }
    }
    return out.subarray(0, n);
  }
  function hexDecode(str) {
    const out = new Buffer(str.length >> 1);
    let n = 0;
    for (; n < out.length; n++) {
      const pair = str.substr(n * 2, 2);
      if (!/^[0-9a-fA-F]{2}$/.test(pair)) break;  // Node stops at the first bad pair
      out[n] = parseInt(pair, 16);
    }
    return out.subarray(0, n);
  }
  function normalizeEncoding(encoding) {
    if (encoding === undefined || encoding === null || encoding === '') return 'utf8';
    switch (String(encoding).toLowerCase()) {
      case 'utf8': case 'utf-8': return 'utf8';
      case 'hex': return 'hex';
      case 'base64': return 'base64';
      case 'base64url': return 'base64url';
      case 'latin1': case 'binary': return 'latin1';
      case 'ascii': return 'ascii';
      case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
      default: return undefined;
    }
  }
  function checkedEncoding(encoding) {
    const known = normalizeEncoding(encoding);
    if (known === undefined) {
      const error = new TypeError('Unknown encoding: ' + encoding);
      error.code = 'ERR_UNKNOWN_ENCODING';
      throw error;
    }
    return known;
  }
  function encode(str, encoding) {
    switch (checkedEncoding(encoding)) {
      case 'utf8': return Buffer.from(utf8Encode(str));
      case 'hex': return hexDecode(str);
      case 'base64': case 'base64url': return base64Decode(str);
      case 'utf16le': {
        const out = new Buffer(str.length * 2);
        for (let i = 0; i < str.length; i++) {
          const c = str.charCodeAt(i);
          out[i * 2] = c & 255;
          out[i * 2 + 1] = c >> 8;
        }
        return out;
      }
      default: return fromBinary(str);  // latin1 and ascii keep each code unit's low byte
    }
  }
  function decode(b, encoding, start, end) {
    switch (checkedEncoding(encoding)) {
      case 'utf8': return utf8Decode(b, start, end);
      case 'hex': {
        let out = '';
        for (let i = start; i < end; i++) out += (b[i] < 16 ? '0' : '') + b[i].toString(16);
        return out;
      }
      case 'base64': return base64Encode(b, start, end, false);
      case 'base64url': return base64Encode(b, start, end, true);
      case 'ascii': return codeUnitsToString(Array.from(b.subarray(start, end), c => c & 0x7f));
      case 'utf16le': {
        const units = [];
        for (let i = start; i + 1 < end; i += 2) units.push(b[i] | (b[i + 1] << 8));
        return codeUnitsToString(units);
      }
      default: return toBinary(b.subarray(start, end));
    }
  }

  // ---- Buffer --------------------------------------------------------------------------------
  // A Uint8Array subclass, as Node's is, so typed-array code and Buffer code mix freely; the
  // species constructor (subarray, map, filter) calls it with (length) or (buffer, offset, length).
  class Buffer extends Uint8Array {
    constructor(value, encodingOrOffset, length) {
      if (typeof value === 'number' || value instanceof ArrayBuffer) {
        super(value, encodingOrOffset, length);
      } else {
        return Buffer.from(value, encodingOrOffset, length);  // Node's deprecated new Buffer(x)
      }
    }
    static from(value, encodingOrOffset, length) {
      if (typeof value === 'string') return encode(value, encodingOrOffset);
      if (value instanceof ArrayBuffer) return new Buffer(value, encodingOrOffset, length);
      if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
        const out = new Buffer(value.length);
        for (let i = 0; i < value.length; i++) out[i] = Number(value[i]) & 255;
        return out;
      }
      if (value !== null && typeof value === 'object') {
        if (value.type === 'Buffer' && Array.isArray(value.data)) return Buffer.from(value.data);
        if (typeof value.length === 'number' || Array.isArray(value)) {
          const out = new Buffer(value.length >>> 0);
          for (let i = 0; i < out.length; i++) out[i] = value[i] & 255;
          return out;
        }
        const primitive = value.valueOf();
        if (primitive !== value && primitive !== null && primitive !== undefined) {
          return Buffer.from(primitive, encodingOrOffset, length);
        }
      }
      const error = new TypeError('The first argument must be of type string or an instance of ' +
        'Buffer, ArrayBuffer, or Array or an Array-like Object. Received ' + describeReceived(value));
      error.code = 'ERR_INVALID_ARG_TYPE';
      throw error;
    }
    static alloc(size, fill, encoding) {
      const out = new Buffer(checkedSize(size));
      if (fill !== undefined && fill !== 0 && out.length > 0) out.fill(fill, 0, out.length, encoding);
      return out;
    }
    static allocUnsafe(size) { return new Buffer(checkedSize(size)); }
    static allocUnsafeSlow(size) { return new Buffer(checkedSize(size)); }
    static isBuffer(value) { return value instanceof Buffer; }
    static isEncoding(encoding) { return typeof encoding === 'string' && normalizeEncoding(encoding) !== undefined; }
    static byteLength(value, encoding) {
      if (typeof value !== 'string') {
        if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value.byteLength;
        const error = new TypeError('The "string" argument must be of type string or an instance of ' +
          'Buffer or ArrayBuffer. Received ' + describeReceived(value));
        error.code = 'ERR_INVALID_ARG_TYPE';
        throw error;
      }
      const known = normalizeEncoding(encoding) || 'utf8';
      if (known === 'latin1' || known === 'ascii') return value.length;
      if (known === 'utf16le') return value.length * 2;
      return encode(value, known).length;
    }
    static concat(list, totalLength) {
      if (!Array.isArray(list)) {
        throw new TypeError('The "list" argument must be an instance of Array. Received ' + describeReceived(list));
      }
      const total = totalLength === undefined ? list.reduce((sum, item) => sum + item.length, 0) : checkedSize(totalLength);
      const out = Buffer.alloc(total);
      let at = 0;
      for (const item of list) {
        if (!(item instanceof Uint8Array)) {
          throw new TypeError('The "list" argument must contain only Buffer or Uint8Array instances');
        }
        if (at >= total) break;
        const part = item.subarray(0, total - at);
        out.set(part, at);
        at += part.length;
      }
      return out;
    }
    static compare(a, b) { return Buffer.prototype.compare.call(a, b); }

    toString(encoding, start, end) {
      const from = Math.max(0, Math.min(this.length, start === undefined ? 0 : Math.trunc(start) || 0));
      const to = Math.max(from, Math.min(this.length, end === undefined ? this.length : Math.trunc(end) || 0));
      return decode(this, encoding, from, to);
    }
    toJSON() { return { type: 'Buffer', data: Array.from(this) }; }
    equals(other) {
      if (!(other instanceof Uint8Array)) {
        throw new TypeError('The "otherBuffer" argument must be an instance of Buffer or Uint8Array.');
      }
      return this.compare(other) === 0;
    }
    compare(other) {
      const n = Math.min(this.length, other.length);
      for (let i = 0; i < n; i++) {
        if (this[i] !== other[i]) return this[i] < other[i] ? -1 : 1;
      }
      return this.length === other.length ? 0 : (this.length < other.length ? -1 : 1);
    }
    // Node's slice shares memory, unlike Uint8Array's.
    slice(start, end) { return this.subarray(start, end); }
    copy(target, targetStart = 0, sourceStart = 0, sourceEnd = this.length) {
      const part = this.subarray(sourceStart, Math.min(sourceEnd, sourceStart + target.length - targetStart));
      target.set(part, targetStart);
      return part.length;
    }
    fill(value, offset = 0, end = this.length, encoding) {
      if (typeof offset === 'string') {
        encoding = offset;
        offset = 0;
        end = this.length;
      } else if (typeof end === 'string') {
        encoding = end;
        end = this.length;
      }
      if (typeof value === 'number' || typeof value === 'boolean') {
        return super.fill(Number(value) & 255, offset, end);
      }
      const pattern = typeof value === 'string' ? encode(value, encoding) : Buffer.from(value);
      if (pattern.length === 0) return super.fill(0, offset, end);
      for (let i = offset, j = 0; i < end; i++, j = (j + 1) % pattern.length) this[i] = pattern[j];
      return this;
    }
    write(string, offset = 0, length, encoding) {
      if (typeof offset === 'string') {
        encoding = offset;
        offset = 0;
      } else if (typeof length === 'string') {
        encoding = length;
        length = undefined;
      }
      const room = this.length - offset;
      const bytes = encode(string, encoding).subarray(0, length === undefined ? room : Math.min(room, length));
      this.set(bytes, offset);
      return bytes.length;
    }
    indexOf(value, byteOffset = 0, encoding) {
      if (typeof value === 'number') return super.indexOf(value & 255, byteOffset);
      const needle = typeof value === 'string' ? encode(value, encoding) : value;
      const from = byteOffset < 0 ? Math.max(0, this.length + byteOffset) : byteOffset;
      outer: for (let i = from; i + needle.length <= this.length; i++) {
        for (let j = 0; j < needle.length; j++) if (this[i + j] !== needle[j]) continue outer;
        return i;
      }
      return -1;
    }
    includes(value, byteOffset, encoding) { return this.indexOf(value, byteOffset, encoding) !== -1; }
    readUInt8(offset = 0) { return view(this).getUint8(offset); }
    readInt8(offset = 0) { return view(this).getInt8(offset); }
    readUInt16BE(offset = 0) { return view(this).getUint16(offset, false); }
    readUInt16LE(offset = 0) { return view(this).getUint16(offset, true); }
    readInt16BE(offset = 0) { return view(this).getInt16(offset, false); }
    readInt16LE(offset = 0) { return view(this).getInt16(offset, true); }
    readUInt32BE(offset = 0) { return view(this).getUint32(offset, false); }
    readUInt32LE(offset = 0) { return view(this).getUint32(offset, true); }
    readInt32BE(offset = 0) { return view(this).getInt32(offset, false); }
    readInt32LE(offset = 0) { return view(this).getInt32(offset, true); }
  }
  for (const [alias, name] of [['readUint8', 'readUInt8'], ['readUint16BE', 'readUInt16BE'],
    ['readUint16LE', 'readUInt16LE'], ['readUint32BE', 'readUInt32BE'], ['readUint32LE', 'readUInt32LE']]) {
    Buffer.prototype[alias] = Buffer.prototype[name];
  }
  Buffer.poolSize = 8192;
  function view(buffer) { return new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength); }
  function checkedSize(size) {
    if (typeof size !== 'number' || !(size >= 0) || size > 4294967296) {
      const error = new RangeError('The argument \'size\' is invalid. Received ' + describeReceived(size));
      error.code = 'ERR_INVALID_ARG_VALUE';
      throw error;
    }
    return Math.trunc(size);
  }
  function describeReceived(value) {
    if (value === null || value === undefined) return String(value);
    if (typeof value === 'function') return 'function ' + value.name;
    if (typeof value === 'object') {
      return value.constructor && value.constructor.name ? 'an instance of ' + value.constructor.name : inspect(value, { depth: -1 });
    }
    return 'type ' + typeof value + ' (' + inspect(value) + ')';
  }
  function bytesOf(data, encoding, name) {
    if (typeof data === 'string') return encode(data, encoding);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    const error = new TypeError('The "' + name + '" argument must be of type string or an instance of ' +
      'Buffer, TypedArray, or DataView. Received ' + describeReceived(data));
    error.code = 'ERR_INVALID_ARG_TYPE';
    throw error;
  }

  // ---- util ----------------------------------------------------------------------------------
  const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
  function quote(str) {
    const q = str.includes("'") ? (str.includes('"') ? (str.includes('`') ? "'" : '`') : '"') : "'";
    return q + str.replace(/[\\\n\r\t\b\f\v]/g, c => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t',
      '\b': '\\b', '\f': '\\f', '\v': '\\v' })[c]).split(q).join('\\' + q) + q;
  }
  function inspect(value, options) {
    const depth = options && options.depth !== undefined ? (options.depth === null ? Infinity : options.depth) : 2;
    return inspectValue(value, depth, []);
  }
  inspect.custom = Symbol.for('nodejs.util.inspect.custom');
  function inspectValue(value, depth, seen) {
    switch (typeof value) {
      case 'string': return quote(value);
      case 'number': return Object.is(value, -0) ? '-0' : String(value);
      case 'bigint': return value + 'n';
      case 'undefined': return 'undefined';
      case 'boolean': return String(value);
      case 'symbol': return value.toString();
      case 'function': {
        if (/^class\b/.test(Function.prototype.toString.call(value))) return '[class ' + (value.name || '(anonymous)') + ']';
        return value.name ? '[Function: ' + value.name + ']' : '[Function (anonymous)]';
      }
    }
    if (value === null) return 'null';
    if (typeof value[inspect.custom] === 'function') return String(value[inspect.custom](depth, {}));
    if (seen.includes(value)) return '[Circular *1]';
    if (value instanceof Buffer) {
      const shown = Array.from(value.subarray(0, 50), b => (b < 16 ? '0' : '') + b.toString(16)).join(' ');
      const more = value.length > 50 ? ' ... ' + (value.length - 50) + ' more byte' + (value.length - 50 > 1 ? 's' : '') : '';
      return '<Buffer' + (shown ? ' ' + shown : '') + more + '>';
    }
    if (value instanceof Date) return isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
    if (value instanceof RegExp) return String(value);
    if (value instanceof Error) {
      const frames = typeof value.stack === 'string' ? value.stack.trimEnd() : '';
      return frames ? String(value) + '\n' + frames.split('\n').map(line => '    at ' + line).join('\n') : '[' + String(value) + ']';
    }
    if (value instanceof Promise) return 'Promise { <unknown> }';
    const nested = seen.concat([value]);
    const inner = item => inspectValue(item, depth - 1, nested);
    const wrap = (prefix, items, open, close) => (items.length === 0 ? prefix + open + close
      : prefix + open + ' ' + items.join(', ') + ' ' + close);
    if (Array.isArray(value)) {
      if (depth < 0) return '[Array]';
      const items = value.slice(0, 100).map(inner);
      if (value.length > 100) items.push('... ' + (value.length - 100) + ' more item' + (value.length - 100 > 1 ? 's' : ''));
      return wrap('', items, '[', ']');
    }
    if (value instanceof Map) {
      if (depth < 0) return '[Map]';
      return wrap('Map(' + value.size + ') ', Array.from(value, ([k, v]) => inner(k) + ' => ' + inner(v)), '{', '}');
    }
    if (value instanceof Set) {
      if (depth < 0) return '[Set]';
      return wrap('Set(' + value.size + ') ', Array.from(value, inner), '{', '}');
    }
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      return wrap(value.constructor.name + '(' + value.length + ') ', Array.from(value, inner), '[', ']');
    }
    const proto = Object.getPrototypeOf(value);
    let prefix = '';
    if (proto === null) prefix = '[Object: null prototype] ';
    else if (proto !== Object.prototype && proto.constructor && proto.constructor.name) prefix = proto.constructor.name + ' ';
    if (depth < 0) return '[' + (prefix ? prefix.trim() : 'Object') + ']';
    const items = Object.keys(value).map(key => (IDENTIFIER.test(key) ? key : quote(key)) + ': ' + inner(value[key]));
    return wrap(prefix, items, '{', '}');
  }
  function formatValue(value) {
    return typeof value === 'string' ? value : inspect(value);
  }
  function format(...args) {
    if (typeof args[0] !== 'string') return args.map(formatValue).join(' ');
    let next = 1;
    const first = args[0].replace(/%([sdifjoOc%])/g, (match, kind) => {
      if (kind === '%') return '%';
      if (next >= args.length) return match;
      const arg = args[next++];
      switch (kind) {
        case 's':
          if (typeof arg === 'bigint') return arg + 'n';
          if (typeof arg === 'object' && arg !== null) return inspect(arg, { depth: 0 });
          return Object.is(arg, -0) ? '-0' : String(arg);
        case 'd':
          if (typeof arg === 'bigint') return arg + 'n';
          if (typeof arg === 'object' && arg !== null) return 'NaN';
          return formatValue(Number(arg));
        case 'i':
          if (typeof arg === 'bigint') return arg + 'n';
          if (typeof arg === 'object' && arg !== null) return 'NaN';
          return String(parseInt(arg, 10));
        case 'f': return typeof arg === 'symbol' ? 'NaN' : String(parseFloat(arg));
        case 'j':
          try {
            return JSON.stringify(arg);
          } catch (error) {
            return '[Circular]';
          }
        case 'o': return inspect(arg, { depth: 4 });
        case 'O': return inspect(arg);
        default: return '';  // %c: CSS, ignored as Node does
      }
    });
    return [first].concat(args.slice(next).map(formatValue)).join(' ');
  }
  function isDeepStrictEqual(a, b) {
    if (Object.is(a, b)) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    if (a instanceof Date) return a.getTime() === b.getTime();
    if (a instanceof RegExp) return String(a) === String(b);
    if (ArrayBuffer.isView(a)) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
      return true;
    }
    if (a instanceof Map || a instanceof Set) {
      if (a.size !== b.size) return false;
      for (const [key, item] of a.entries()) {
        if (!b.has(key) || (a instanceof Map && !isDeepStrictEqual(item, b.get(key)))) return false;
      }
      return true;
    }
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every(key => Object.prototype.hasOwnProperty.call(b, key) && isDeepStrictEqual(a[key], b[key]));
  }
  function promisify(fn) {
    if (typeof fn !== 'function') throw new TypeError('The "original" argument must be of type function');
    return function (...args) {
      return new Promise((resolve, reject) => {
        fn.call(this, ...args, (error, value) => (error ? reject(error) : resolve(value)));
      });
    };
  }
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(input = '') { return utf8Encode(String(input)); }
  }
  class TextDecoder {
    constructor(label = 'utf-8') {
      if (!/^utf-?8$/i.test(label)) throw new RangeError('The "' + label + '" encoding is not supported');
    }
    get encoding() { return 'utf-8'; }
    decode(input) {
      if (input === undefined) return '';
      const bytes = input instanceof ArrayBuffer ? new Uint8Array(input)
        : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
      const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
      return utf8Decode(bytes, start, bytes.length);
    }
  }
  const util = {
    format,
    inspect,
    isDeepStrictEqual,
    promisify,
    inherits(child, parent) { Object.setPrototypeOf(child.prototype, parent.prototype); child.super_ = parent; },
    deprecate: fn => fn,
    TextEncoder,
    TextDecoder,
  };

  // ---- console -------------------------------------------------------------------------------
  // Node writes to stdout; Rift has no terminal for injections, so it goes to Rift's log.
  const at = level => (...args) => log(level, format(...args));
  const console = {
    log: at(1), info: at(1), warn: at(2), error: at(3), debug: at(0), trace: at(0),
    dir: (value, options) => log(1, inspect(value, options)),
  };

  // ---- process -------------------------------------------------------------------------------
  const started = processNative('hrtime');
  function hrtime(previous) {
    const [s, ns] = processNative('hrtime');
    if (!previous) return [s, ns];
    const d = (s - previous[0]) * 1e9 + (ns - previous[1]);
    return [Math.floor(d / 1e9), d % 1e9];
  }
  hrtime.bigint = () => {
    const [s, ns] = processNative('hrtime');
    return BigInt(s) * 1000000000n + BigInt(ns);
  };
  const process = {
    env: processNative('env'),  // read once, when the engine starts
    argv: processNative('argv'),
    execArgv: [],
    execPath: processNative('execPath'),
    // Mountebank 2.9.1's test baseline is Node 20; a version string scripts can parse.
    version: 'v20.11.1',
    versions: { node: '20.11.1', rift: 'inject sandbox', spidermonkey: '102' },
    release: { name: 'node' },
    platform: 'linux',
    arch: processNative('arch'),
    title: 'rift',
    pid: processNative('pid'),
    ppid: processNative('ppid'),
    exitCode: undefined,
    cwd: () => processNative('cwd'),
    nextTick(fn, ...args) {
      global.setImmediate(fn, ...args);
    },
    hrtime,
    uptime() {
      const [s, ns] = processNative('hrtime');
      return (s - started[0]) + (ns - started[1]) / 1e9;
    },
    memoryUsage() {
      const [rss, heap] = processNative('memory');
      return { rss, heapTotal: heap, heapUsed: heap, external: 0, arrayBuffers: 0 };
    },
    emitWarning: message => log(2, 'Warning: ' + String(message)),
    on() { return process; },
    once() { return process; },
    off() { return process; },
  };

  // ---- crypto --------------------------------------------------------------------------------
  class Hash {
    constructor(algorithm, key, kind) {
      this._algorithm = String(algorithm).toLowerCase();
      this._key = key;
      this._chunks = [];
      this._done = false;
      if (hashNative(this._algorithm, key === undefined ? null : '', '') === null) {
        throw kind === 'hmac' ? new TypeError('Invalid digest: ' + algorithm) : new Error('Digest method not supported');
      }
    }
    update(data, encoding) {
      if (this._done) throw new Error('Digest already called');
      this._chunks.push(Buffer.from(bytesOf(data, encoding, 'data')));
      return this;
    }
    digest(encoding) {
      if (this._done) throw new Error('Digest already called');
      this._done = true;
      const key = this._key === undefined ? null : toBinary(this._key);
      const out = fromBinary(hashNative(this._algorithm, key, toBinary(Buffer.concat(this._chunks))));
      return encoding === undefined || encoding === 'buffer' ? out : out.toString(encoding);
    }
    copy() {
      if (this._done) throw new Error('Digest already called');
      const twin = Object.create(Object.getPrototypeOf(this));
      return Object.assign(twin, this, { _chunks: this._chunks.slice() });
    }
  }
  class Hmac extends Hash {}
  function randomBytes(size, callback) {
    if (typeof size !== 'number' || !(size >= 0) || size > 2147483647) {
      const error = new RangeError('The value of "size" is out of range. It must be >= 0 && <= 2147483647. Received ' + size);
      error.code = 'ERR_OUT_OF_RANGE';
      throw error;
    }
    const bytes = fromBinary(randomNative(size));
    if (typeof callback === 'function') {
      global.setImmediate(callback, null, bytes);
      return undefined;
    }
    return bytes;
  }
  function randomUUID() {
    const b = randomBytes(16);
    b[6] = (b[6] & 0x0f) | 0x40;  // version 4
    b[8] = (b[8] & 0x3f) | 0x80;  // RFC 4122 variant
    const hex = b.toString('hex');
    return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' + hex.slice(16, 20) + '-' + hex.slice(20);
  }
  function read48(bytes) { return bytes.reduce((n, b) => n * 256 + b, 0); }
  const crypto = {
    createHash: (algorithm) => new Hash(algorithm, undefined, 'hash'),
    createHmac: (algorithm, key) => new Hmac(algorithm, Buffer.from(bytesOf(key, 'utf8', 'key')), 'hmac'),
    randomBytes,
    randomUUID,
    randomInt: (min, max, callback) => randomIntWith(read48, min, max, callback),
    getRandomValues(array) {
      const bytes = fromBinary(randomNative(array.byteLength));
      new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(bytes);
      return array;
    },
    timingSafeEqual(a, b) {
      if (a.byteLength !== b.byteLength) {
        const error = new RangeError('Input buffers must have the same byte length');
        error.code = 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH';
        throw error;
      }
      const x = bytesOf(a, undefined, 'buf1');
      const y = bytesOf(b, undefined, 'buf2');
      let diff = 0;
      for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
      return diff === 0;
    },
    getHashes: () => ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'],
    Hash,
    Hmac,
  };
  function randomIntWith(read, min, max, callback) {
    if (max === undefined || typeof max === 'function') {
      callback = max;
      max = min;
      min = 0;
    }
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min || max - min >= 2 ** 48) {
      const error = new RangeError('The "max" argument must be greater than "min", both safe integers less than 2^48 apart');
      error.code = 'ERR_OUT_OF_RANGE';
      throw error;
    }
    const range = max - min;
    const limit = Math.floor(2 ** 48 / range) * range;  // rejection keeps it uniform
    let n;
    do n = read(randomBytes(6)); while (n >= limit);
    const value = min + (n % range);
    if (typeof callback === 'function') {
      global.setImmediate(callback, null, value);
      return undefined;
    }
    return value;
  }

  // ---- querystring ---------------------------------------------------------------------------
  function unescapeBuffer(str, decodeSpaces) {
    const out = [];
    for (let i = 0; i < str.length; i++) {
      const c = str[i];
      if (c === '+' && decodeSpaces) {
        out.push(32);
      } else if (c === '%' && /^[0-9a-fA-F]{2}$/.test(str.substr(i + 1, 2))) {
        out.push(parseInt(str.substr(i + 1, 2), 16));
        i += 2;
      } else {
        const code = str.codePointAt(i);
        if (code > 0xffff) i++;
        out.push(...utf8Encode(String.fromCodePoint(code)));
      }
    }
    return Buffer.from(out);
  }
  function qsUnescape(str, decodeSpaces) {
    try {
      return decodeURIComponent(str);
    } catch (error) {
      return unescapeBuffer(str, decodeSpaces).toString();
    }
  }
  function qsEscape(str) {
    if (typeof str !== 'string') str = typeof str === 'object' ? String(str) : str + '';
    return encodeURIComponent(str);
  }
  const querystring = {
    unescapeBuffer,
    unescape: qsUnescape,
    escape: qsEscape,
    parse(str, sep = '&', eq = '=', options) {
      const out = Object.create(null);
      if (typeof str !== 'string' || str.length === 0) return out;
      const maxKeys = options && typeof options.maxKeys === 'number' ? options.maxKeys : 1000;
      const decodeComponent = options && typeof options.decodeURIComponent === 'function'
        ? options.decodeURIComponent : querystring.unescape;
      let parts = str.split(sep || '&');
      if (maxKeys > 0) parts = parts.slice(0, maxKeys);
      const separator = eq || '=';
      for (const part of parts) {
        if (part.length === 0) continue;
        const index = part.indexOf(separator);
        const rawKey = index >= 0 ? part.slice(0, index) : part;
        const rawValue = index >= 0 ? part.slice(index + separator.length) : '';
        const key = decodeComponent(rawKey.replace(/\+/g, ' '), true);
        const value = decodeComponent(rawValue.replace(/\+/g, ' '), true);
        if (!(key in out)) out[key] = value;
        else if (Array.isArray(out[key])) out[key].push(value);
        else out[key] = [out[key], value];
      }
      return out;
    },
    stringify(obj, sep = '&', eq = '=', options) {
      const encodeComponent = options && typeof options.encodeURIComponent === 'function'
        ? options.encodeURIComponent : querystring.escape;
      const primitive = v => (typeof v === 'string' ? v
        : (typeof v === 'number' && isFinite(v)) || typeof v === 'bigint' || typeof v === 'boolean' ? String(v) : '');
      if (obj === null || typeof obj !== 'object') return '';
      return Object.keys(obj).map(key => {
        const k = encodeComponent(primitive(key)) + (eq || '=');
        const value = obj[key];
        if (Array.isArray(value)) return value.map(v => k + encodeComponent(primitive(v))).join(sep || '&');
        return k + encodeComponent(primitive(value));
      }).filter(part => part.length > 0).join(sep || '&');
    },
  };
  querystring.decode = querystring.parse;
  querystring.encode = querystring.stringify;

  // ---- url -----------------------------------------------------------------------------------
  // SpiderMonkey without a browser has no URL or URLSearchParams; these follow the WHATWG
  // rules for the common cases (http(s) URLs, form-encoded queries), not every edge of the spec.
  function formEncode(str) {
    return Array.from(utf8Encode(String(str)), b => {
      const c = String.fromCharCode(b);
      if (/[A-Za-z0-9*\-._]/.test(c)) return c;
      return b === 32 ? '+' : '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();
    }).join('');
  }
  function formDecode(str) { return unescapeBuffer(str, true).toString(); }
  class URLSearchParams {
    constructor(init = '') {
      this._list = [];
      this._url = null;
      if (init instanceof URLSearchParams) {
        this._list = init._list.map(pair => pair.slice());
      } else if (typeof init === 'object' && init !== null) {
        if (typeof init[Symbol.iterator] === 'function') {
          for (const pair of init) {
            const items = Array.from(pair);
            if (items.length !== 2) throw new TypeError('Each query pair must be an iterable [name, value] tuple');
            this._list.push([String(items[0]), String(items[1])]);
          }
        } else {
          for (const key of Object.keys(init)) this._list.push([key, String(init[key])]);
        }
      } else {
        this._parse(String(init));
      }
    }
    _parse(str) {
      this._list = [];
      for (const part of (str[0] === '?' ? str.slice(1) : str).split('&')) {
        if (part.length === 0) continue;
        const index = part.indexOf('=');
        this._list.push(index >= 0 ? [formDecode(part.slice(0, index)), formDecode(part.slice(index + 1))]
          : [formDecode(part), '']);
      }
    }
    _changed() {
      if (this._url) {
        const text = this.toString();
        this._url._search = text ? '?' + text : '';
      }
    }
    get size() { return this._list.length; }
    append(name, value) { this._list.push([String(name), String(value)]); this._changed(); }
    delete(name) { this._list = this._list.filter(([key]) => key !== String(name)); this._changed(); }
    get(name) {
      const found = this._list.find(([key]) => key === String(name));
      return found ? found[1] : null;
    }
    getAll(name) { return this._list.filter(([key]) => key === String(name)).map(([, value]) => value); }
    has(name) { return this._list.some(([key]) => key === String(name)); }
    set(name, value) {
      const key = String(name);
      const index = this._list.findIndex(([k]) => k === key);
      if (index < 0) {
        this._list.push([key, String(value)]);
      } else {
        this._list[index][1] = String(value);
        this._list = this._list.filter(([k], i) => k !== key || i === index);
      }
      this._changed();
    }
    sort() {
      this._list = this._list.map((pair, i) => [pair, i])
        .sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1])).map(([pair]) => pair);
      this._changed();
    }
    forEach(fn, thisArg) { for (const [key, value] of this._list) fn.call(thisArg, value, key, this); }
    keys() { return this._list.map(([key]) => key)[Symbol.iterator](); }
    values() { return this._list.map(([, value]) => value)[Symbol.iterator](); }
    entries() { return this._list.map(pair => pair.slice())[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this._list.map(([key, value]) => formEncode(key) + '=' + formEncode(value)).join('&'); }
    [inspect.custom]() { return 'URLSearchParams { ' + this._list.map(([k, v]) => quote(k) + ' => ' + quote(v)).join(', ') + ' }'; }
  }
  const SPECIAL_PORTS = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21', 'file:': '' };
  function percentEncode(str, keep) {
    return Array.from(utf8Encode(str), b => {
      const c = String.fromCharCode(b);
      return b > 0x20 && b < 0x7f && !keep.includes(c) ? c : '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();
    }).join('');
  }
  function removeDotSegments(path) {
    const out = [];
    const segments = path.split('/');
    segments.forEach((segment, i) => {
      const last = i === segments.length - 1;
      if (segment === '..' || segment.toLowerCase() === '%2e%2e') {
        if (out.length > 1) out.pop();
        if (last) out.push('');
      } else if (segment === '.' || segment.toLowerCase() === '%2e') {
        if (last) out.push('');
      } else {
        out.push(segment);
      }
    });
    return out.join('/');
  }
  function invalidUrl(input) {
    const error = new TypeError('Invalid URL');
    error.code = 'ERR_INVALID_URL';
    error.input = input;
    return error;
  }
  class URL {
    constructor(input, base) {
      let text = String(input).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
      let parsed = URL._absolute(text);
      if (!parsed) {
        if (base === undefined) throw invalidUrl(String(input));
        const from = base instanceof URL ? base : new URL(base);
        if (!(from._protocol in SPECIAL_PORTS)) throw invalidUrl(String(input));
        if (text.startsWith('//') || text.startsWith('\\\\')) {
          parsed = URL._absolute(from._protocol + text);
        } else {
          const hashAt = text.indexOf('#');
          const hash = hashAt >= 0 ? text.slice(hashAt) : '';
          const rest = hashAt >= 0 ? text.slice(0, hashAt) : text;
          const queryAt = rest.indexOf('?');
          const search = queryAt >= 0 ? rest.slice(queryAt) : null;
          let path = queryAt >= 0 ? rest.slice(0, queryAt) : rest;
          if (path === '') path = from._pathname;
          else if (!path.startsWith('/')) path = from._pathname.replace(/[^/]*$/, '') + path;
          parsed = URL._absolute(from._protocol + '//' + from._authority() + path +
            (search !== null ? search : (rest === '' ? from._search : '')) + hash);
        }
        if (!parsed) throw invalidUrl(String(input));
      }
      Object.assign(this, parsed);
      this._params = new URLSearchParams(this._search);
      this._params._url = this;
    }
    static _absolute(text) {
      const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text);
      if (!scheme) return null;
      const protocol = scheme[1].toLowerCase() + ':';
      let rest = text.slice(scheme[0].length);
      const hashAt = rest.indexOf('#');
      const hash = hashAt >= 0 ? rest.slice(hashAt) : '';
      if (hashAt >= 0) rest = rest.slice(0, hashAt);
      const queryAt = rest.indexOf('?');
      const query = queryAt >= 0 ? rest.slice(queryAt) : '';
      if (queryAt >= 0) rest = rest.slice(0, queryAt);
      const url = {
        _protocol: protocol, _username: '', _password: '', _hostname: '', _port: '',
        _pathname: '', _search: query === '?' ? '' : percentEncode(query, '"#<>\''),
        _hash: hash === '#' ? '' : percentEncode(hash, '"<>`'),
      };
      if (protocol in SPECIAL_PORTS) {
        rest = rest.replace(/\\/g, '/').replace(/^\/*/, '');
        const slash = rest.indexOf('/');
        let authority = slash >= 0 ? rest.slice(0, slash) : rest;
        const path = slash >= 0 ? rest.slice(slash) : '/';
        const at = authority.lastIndexOf('@');
        if (at >= 0) {
          const userinfo = authority.slice(0, at);
          authority = authority.slice(at + 1);
          const colon = userinfo.indexOf(':');
          url._username = percentEncode(colon >= 0 ? userinfo.slice(0, colon) : userinfo, '"#<>?`{}/:;=@[\\]^|');
          url._password = colon >= 0 ? percentEncode(userinfo.slice(colon + 1), '"#<>?`{}/:;=@[\\]^|') : '';
        }
        const hostPort = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(authority);
        if (!hostPort || (hostPort[1] === '' && protocol !== 'file:')) return null;
        if (/[\s#%/:<>?@[\\\]^|]/.test(hostPort[1].replace(/^\[.*\]$/, 'ipv6'))) return null;
        url._hostname = hostPort[1].toLowerCase();
        const port = hostPort[2] === undefined || hostPort[2] === '' ? '' : String(Number(hostPort[2]));
        if (port !== '' && Number(port) > 65535) return null;
        url._port = port === SPECIAL_PORTS[protocol] ? '' : port;
        url._pathname = removeDotSegments(percentEncode(path, '"#<>?`{}'));
      } else {
        url._pathname = percentEncode(rest, '"#<>?`{}');
        url._opaque = true;
      }
      return url;
    }
    _authority() {
      const userinfo = this._username || this._password
        ? this._username + (this._password ? ':' + this._password : '') + '@' : '';
      return userinfo + this.host;
    }
    get protocol() { return this._protocol; }
    get username() { return this._username; }
    get password() { return this._password; }
    get hostname() { return this._hostname; }
    get port() { return this._port; }
    get host() { return this._hostname + (this._port ? ':' + this._port : ''); }
    get pathname() { return this._pathname; }
    set pathname(value) {
      if (!this._opaque) this._pathname = removeDotSegments(percentEncode('/' + String(value).replace(/^\//, ''), '"#<>?`{}'));
    }
    get search() { return this._search; }
    set search(value) {
      const text = String(value).replace(/^\?/, '');
      this._search = text ? '?' + percentEncode(text, '"#<>\'') : '';
      this._params._parse(this._search);
    }
    get searchParams() { return this._params; }
    get hash() { return this._hash; }
    set hash(value) {
      const text = String(value).replace(/^#/, '');
      this._hash = text ? '#' + percentEncode(text, '"<>`') : '';
    }
    get origin() { return this._protocol in SPECIAL_PORTS && this._protocol !== 'file:' ? this._protocol + '//' + this.host : 'null'; }
    get href() {
      return this._protocol + (this._opaque ? '' : '//' + this._authority()) + this._pathname + this._search + this._hash;
    }
    toString() { return this.href; }
    toJSON() { return this.href; }
    [inspect.custom]() { return 'URL { href: ' + quote(this.href) + ' }'; }
    static canParse(input, base) {
      try {
        new URL(input, base);
        return true;
      } catch (error) {
        return false;
      }
    }
  }
  // url.parse, Node's legacy parser: enough to split a request URL or an http(s) address.
  function Url() {
    Object.assign(this, { protocol: null, slashes: null, auth: null, host: null, port: null, hostname: null,
      hash: null, search: null, query: null, pathname: null, path: null, href: '' });
  }
  function parseUrl(input, parseQueryString, slashesDenoteHost) {
    if (typeof input !== 'string') {
      throw new TypeError('The "url" argument must be of type string. Received ' + describeReceived(input));
    }
    const url = new Url();
    let rest = input.trim();
    const hashAt = rest.indexOf('#');
    if (hashAt >= 0) {
      url.hash = rest.slice(hashAt);
      rest = rest.slice(0, hashAt);
    }
    const queryAt = rest.indexOf('?');
    if (queryAt >= 0) {
      url.search = rest.slice(queryAt);
      url.query = rest.slice(queryAt + 1);
      rest = rest.slice(0, queryAt);
    } else if (parseQueryString) {
      url.search = '';
    }
    if (parseQueryString) url.query = querystring.parse(url.query || '');
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*:)/.exec(rest);
    if (scheme) {
      url.protocol = scheme[1].toLowerCase();
      rest = rest.slice(scheme[1].length);
    }
    if ((scheme || slashesDenoteHost) && rest.startsWith('//')) {
      url.slashes = true;
      rest = rest.slice(2);
      const slash = rest.search(/[/]/);
      let authority = slash >= 0 ? rest.slice(0, slash) : rest;
      rest = slash >= 0 ? rest.slice(slash) : '';
      const at = authority.lastIndexOf('@');
      if (at >= 0) {
        url.auth = decodeURIComponent(authority.slice(0, at));
        authority = authority.slice(at + 1);
      }
      const port = /:(\d*)$/.exec(authority);
      if (port) {
        url.port = port[1] || null;
        authority = authority.slice(0, port.index);
      }
      url.hostname = authority.toLowerCase();
      url.host = url.hostname + (url.port ? ':' + url.port : '');
      if (rest === '' && url.protocol in SPECIAL_PORTS) rest = '/';
    }
    url.pathname = rest === '' ? null : rest;
    url.path = url.pathname === null && url.search === null ? null : (url.pathname || '') + (url.search || '');
    url.href = (url.protocol || '') + (url.slashes ? '//' : '') + (url.auth ? url.auth + '@' : '') +
      (url.host || '') + (url.pathname || '') + (url.search || '') + (url.hash || '');
    return url;
  }
  const url = {
    URL,
    URLSearchParams,
    parse: parseUrl,
    format(value) {
      if (value instanceof URL) return value.href;
      if (typeof value === 'string') return parseUrl(value).href;
      const search = value.search || (value.query && typeof value.query === 'object'
        ? '?' + querystring.stringify(value.query) : value.query ? '?' + value.query : '');
      const host = value.host || (value.hostname ? value.hostname + (value.port ? ':' + value.port : '') : '');
      const protocol = value.protocol ? (value.protocol.endsWith(':') ? value.protocol : value.protocol + ':') : '';
      return protocol + (host || value.slashes ? '//' : '') + (value.auth ? value.auth + '@' : '') + host +
        (value.pathname || '') + (search && !search.startsWith('?') ? '?' + search : search) + (value.hash || '');
    },
  };

  // ---- require -------------------------------------------------------------------------------
  const modules = { buffer: { Buffer }, crypto, querystring, url, util };
  function require(name) {
    const bare = typeof name === 'string' && name.startsWith('node:') ? name.slice(5) : name;
    if (typeof bare === 'string' && Object.prototype.hasOwnProperty.call(modules, bare)) return modules[bare];
    const error = new Error("Cannot find module '" + name + "' (Rift's inject sandbox provides only " +
      Object.keys(modules).sort().join(', ') + ')');
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }

  const globals = { global, Buffer, process, console, require, URL, URLSearchParams, TextEncoder, TextDecoder };
  if (typeof global.queueMicrotask !== 'function') {
    globals.queueMicrotask = fn => { Promise.resolve().then(fn); };
  }
  if (typeof global.crypto !== 'object') {
    globals.crypto = { randomUUID, getRandomValues: crypto.getRandomValues };
  }
  for (const name of Object.keys(globals)) {
    Object.defineProperty(global, name, { value: globals[name], writable: true, configurable: true, enumerable: false });
  }
})(globalThis, __riftLog, __riftHash, __riftRandomBytes, __riftProcess))JS";
}

}  // namespace rift::script
