// Mountebank's calling conventions, written in JavaScript and evaluated once per engine.
//
// Keeping them in JavaScript means the C++ side only moves strings: it passes the request and
// response as JSON text and reads back one JSON outcome, {"value":...}, {"error":"..."} or
// {"pending":true}. The argument lists mirror Mountebank 2.9.1 (predicates.js, responseResolver.js,
// behaviors.js), so functions written for Mountebank run unchanged.
#include "runtime/script/prelude.h"

namespace rift::script {

const char* prelude_source() {
  // Evaluates to the object whose methods the engine calls; __riftLog is the native log sink.
  return R"JS((function (global, log) {
  'use strict';
  const imposters = new Map();  // id -> { state, injectState, logger }
  const functions = new Map();  // source -> compiled function (each source compiled once)
  const calls = new Map();      // call id -> { settled, value, error } for asynchronous answers
  let timers = [];
  let nextTimer = 1;

  // Node's timers, for injections that answer through callback() later.
  global.setTimeout = function (fn, ms, ...args) {
    const id = nextTimer++;
    timers.push({ id, due: Date.now() + (Number(ms) > 0 ? Number(ms) : 0), fn, args });
    return id;
  };
  global.clearTimeout = function (id) { timers = timers.filter(timer => timer.id !== id); };
  global.setImmediate = (fn, ...args) => global.setTimeout(fn, 0, ...args);
  global.clearImmediate = global.clearTimeout;

  function text(value) {
    return typeof value === 'string' ? value : (value instanceof Error ? String(value) : JSON.stringify(value));
  }
  function makeLogger(label) {
    const at = level => (...parts) => log(level, label + ' ' + parts.map(text).join(' '));
    return { debug: at(0), info: at(1), warn: at(2), error: at(3) };
  }
  function compile(source) {
    let fn = functions.get(source);
    if (fn === undefined) {
      fn = (0, eval)('(' + source + ')');  // global scope, as a function expression
      functions.set(source, fn);
    }
    return fn;
  }
  // compatibility.downcastInjectionConfig: request fields on config for legacy functions.
  function downcast(config) {
    if (config.request.method || config.request.data) {
      Object.keys(config.request).forEach(key => { config[key] = config.request[key]; });
    }
    return config;
  }
  function messageOf(error) {
    return error && error.message !== undefined ? String(error.message) : String(error);
  }
  function outcome(call) {
    if (!call.settled) return '{"pending":true}';
    if (call.error !== undefined) return JSON.stringify({ error: call.error });
    try {
      return JSON.stringify({ value: call.value === undefined ? null : call.value });
    } catch (error) {
      return JSON.stringify({ error: messageOf(error) });
    }
  }
  function isThenable(value) {
    return value !== null && (typeof value === 'object' || typeof value === 'function') &&
      typeof value.then === 'function';
  }
  // A returned promise is adopted, as Q's deferred.resolve(promise) does in Mountebank.
  function settleWith(call, value) {
    if (isThenable(value)) {
      value.then(result => settleWith(call, result),
                 error => { if (!call.settled) { call.settled = true; call.error = messageOf(error); } });
    } else if (!call.settled) {
      call.settled = true;
      call.value = value;
    }
  }

  function run(kind, id, source, requestText, responseText, callId) {
    const imposter = imposters.get(id);
    const call = { settled: false };
    calls.set(callId, call);
    if (imposter === undefined) {  // closed: its state is gone with it
      call.settled = true;
      call.error = 'the imposter has been deleted';
      return poll(callId);
    }
    try {
      const fn = compile(source);
      const request = requestText === '' ? {} : JSON.parse(requestText);
      const logger = imposter.logger;
      if (kind === 'predicate') {
        const config = downcast({ request, state: imposter.state, logger });
        settleWith(call, !!fn(config, logger, imposter.state));
      } else if (kind === 'response') {
        const callback = response => settleWith(call, response);
        const config = downcast({ request, state: imposter.state, logger, callback });
        const value = fn(config, imposter.injectState, logger, callback, imposter.state);
        if (value !== undefined) settleWith(call, value);
      } else if (kind === 'decorate') {
        const response = JSON.parse(responseText);
        const config = downcast({ request, response, logger, state: imposter.state });
        const value = fn(config, response, logger);
        settleWith(call, value ? value : response);
      } else if (kind === 'generator') {
        // predicateGenerators inject: Mountebank spreads the result into its predicate list
        // (predicates.push(...result)), so anything not iterable fails there.
        settleWith(call, [...fn({ request, logger })]);
      } else if (kind === 'endOfRequest') {
        // A tcp imposter's endOfRequestResolver: (requestData, logger), the data gathered so far
        // as text in text mode and as a Buffer in binary mode (tcpServer.js isEndOfRequest).
        const data = request.binary ? Buffer.from(request.data, 'base64') : request.data;
        settleWith(call, !!fn(data, logger));
      } else {  // wait: called with no arguments, returns milliseconds
        settleWith(call, fn());
      }
    } catch (error) {
      logger_error(imposter, kind, source, error);
      call.settled = true;
      call.error = messageOf(error);
    }
    return poll(callId);
  }
  function logger_error(imposter, kind, source, error) {
    imposter.logger.error('injection X=> ' + String(error));
    imposter.logger.error('    full source: ' + JSON.stringify(source));
  }
  function poll(callId) {
    const call = calls.get(callId);
    if (call === undefined) return '{"pending":true}';
    const answer = outcome(call);
    if (call.settled) calls.delete(callId);
    return answer;
  }
  // Runs every timer that is due; returns the milliseconds until the next one, or -1.
  function tick() {
    const now = Date.now();
    const due = timers.filter(timer => timer.due <= now);
    timers = timers.filter(timer => timer.due > now);
    for (const timer of due) {
      try { timer.fn(...timer.args); } catch (error) { log(3, 'timer X=> ' + String(error)); }
    }
    if (timers.length === 0) return -1;
    return Math.max(0, Math.min(...timers.map(timer => timer.due)) - Date.now());
  }

  // _rift.script (docs/scripts.md): the reference Rift's Script API v2. The script's own
  // declarations live in one call's scope (a sloppy function's direct eval), so a `respond`
  // one script declares is never seen by another; the eval's completion value is the answer of
  // a script without `respond`.
  const evalScript = new Function('ctx', 'http', 'delay', 'reset', 'pass', '__riftCode',
    'var __riftValue = eval(__riftCode);' +
    'return [__riftValue, typeof respond === "function" ? respond : undefined];');
  // A script that declared `respond` once is compiled once into a function that runs its top
  // level and hands `respond` back (the completion value is not read when there is one):
  // eval would parse the source again on every request.
  const compiledScripts = new Map();  // source -> function, for scripts with `respond`
  function runScriptSource(ctx, code) {
    const compiled = compiledScripts.get(code);
    if (compiled !== undefined) return [undefined, compiled(ctx, riftHttp, riftDelay, riftReset, riftPass)];
    const answer = evalScript(ctx, riftHttp, riftDelay, riftReset, riftPass, code);
    if (answer[1] !== undefined && compiledScripts.size < 10000) {
      try {
        compiledScripts.set(code, new Function('ctx', 'http', 'delay', 'reset', 'pass',
          code + '\n;return typeof respond === "function" ? respond : undefined;'));
      } catch (error) {
        // Valid as a script, not as a function body: it stays on eval.
      }
    }
    return answer;
  }
  const results = new WeakSet();
  const resultMethods = {
    header(name, value) {
      if (typeof name !== 'string') throw new TypeError('header(name, value): name must be a string');
      if (typeof value !== 'string') throw new TypeError('header(name, value): value must be a string');
      if (this.kind === 'http') {
        this.headers = this.headers.filter(([written]) => written !== name);
        this.headers.push([name, value]);
      }
      return this;
    },
  };
  function result(fields) {
    const made = Object.assign(Object.create(resultMethods), fields);
    results.add(made);
    return made;
  }
  function riftHttp(status, body) {
    let code = 200;
    if (typeof status === 'number') code = Math.min(Math.max(Math.trunc(status) || 0, 0), 65535);
    return result({ kind: 'http', status: code, headers: [], body });
  }
  // Whole numbers JSON and C++ both hold exactly (a script may pass 1e300).
  const whole = n => Math.max(Math.min(Math.trunc(n) || 0, Number.MAX_SAFE_INTEGER), -Number.MAX_SAFE_INTEGER);
  const riftDelay = ms => result({ kind: 'delay', ms: typeof ms === 'number' && ms > 0 ? Math.min(whole(ms), 86400000) : 0 });
  const riftReset = () => result({ kind: 'reset' });
  const riftPass = () => result({ kind: 'pass' });

  // A value as JSON stores it, the reference's way: undefined is null, NaN and the infinities
  // are 0, a function is null (never walked), objects give their own enumerable properties.
  function plain(value, depth) {
    if (depth > 64) throw new RangeError('the value is nested deeper than 64 levels');
    if (value === undefined || value === null || typeof value === 'function' || typeof value === 'symbol') return null;
    if (typeof value === 'number') return Number.isFinite(value) ? value : 0;
    if (typeof value === 'bigint') return Number(value);
    if (typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(item => plain(item, depth + 1));
    const out = {};
    for (const key of Object.keys(value)) out[key] = plain(value[key], depth + 1);
    return out;
  }
  function stateOf(flow) {
    const call = (op, fields) => {
      const answer = JSON.parse(__riftState(JSON.stringify(Object.assign({ op, flow }, fields))));
      if (answer.error !== undefined) throw new Error(answer.error);
      return answer;
    };
    const key = name => {
      if (typeof name !== 'string') throw new TypeError('key must be a string');
      return name;
    };
    return {
      get: name => call('get', { key: key(name) }).value,
      getOr(name, fallback) {
        const answer = call('get', { key: key(name) });
        return answer.present ? answer.value : (fallback === undefined ? null : fallback);
      },
      set: (name, value) => call('set', { key: key(name), value: plain(value, 0) }).value,
      exists: name => call('get', { key: key(name) }).present,
      delete: name => call('delete', { key: key(name) }).value,
      incr: name => call('incrBy', { key: key(name), n: 1 }).value,
      incrBy(name, n) {
        key(name);
        if (typeof n !== 'number') throw new TypeError('n must be a number');
        return call('incrBy', { key: name, n: whole(n) }).value;
      },
      cas(name, expected, next) {
        const fields = { key: key(name), value: plain(next, 0) };
        if (expected !== undefined && expected !== null) fields.expected = plain(expected, 0);
        return call('cas', fields).value;
      },
      ttl(first, seconds) {
        if (typeof first === 'number' && seconds === undefined) {
          return call('ttlFlow', { seconds: whole(first) }).value;
        }
        if (typeof first === 'string') {
          if (typeof seconds !== 'number') throw new TypeError('ttl(key, seconds): seconds must be a number');
          return call('ttl', { key: first, seconds: whole(seconds) }).value;
        }
        throw new TypeError('expected ttl(seconds) or ttl(key, seconds): a number, or a string key and a number');
      },
      clear: () => call('clear', {}).value,
    };
  }
  function describe(error) {
    if (typeof error === 'string') return JSON.stringify(error);
    return error instanceof Error ? String(error) : String(error);
  }
  function script(id, code, ctxText) {
    const imposter = imposters.get(id);
    const failed = message => JSON.stringify({ error: message });
    if (imposter === undefined) return failed('the imposter has been deleted');
    const data = JSON.parse(ctxText);
    const request = data.request;
    request.header = name => {
      if (typeof name !== 'string') return null;
      const value = request.headers[name.toLowerCase()];
      return value === undefined ? null : value;
    };
    const ctx = {
      request,
      flowId: data.flowId,
      stub: data.stub,
      logger: imposter.logger,
      state: stateOf(data.flowId),
      store: {
        flow(flow) {
          if (typeof flow !== 'string') throw new TypeError('flow_id must be a string');
          return stateOf(flow);
        },
      },
    };
    let value;
    let respond;
    try {
      [value, respond] = runScriptSource(ctx, code);
    } catch (error) {
      return failed('Failed to execute script: ' + describe(error));
    }
    if (respond !== undefined) {
      try {
        value = respond(ctx);
      } catch (error) {
        return failed('Failed to call respond(ctx): ' + describe(error));
      }
    } else if ((value === undefined || value === null) && /\bfunction\s*\*?\s*[A-Za-z_$][\w$]*\s*\(/.test(code)) {
      return failed('script defines function(s) but none is the `respond` entrypoint (and there ' +
                    'is no bare expression to evaluate); did you mean `respond`?');
    }
    if (value === undefined || value === null) value = riftPass();
    if (!results.has(value)) {
      return failed('respond(ctx) must return http(...)/delay(...)/reset()/pass() or nothing');
    }
    try {
      const answer = { kind: value.kind };
      if (value.kind === 'http') {
        answer.status = value.status;
        answer.headers = value.headers;
        if (typeof value.body === 'string') answer.text = value.body;
        else if (value.body !== undefined && value.body !== null) answer.json = plain(value.body, 0);
      } else if (value.kind === 'delay') {
        answer.ms = value.ms;
      }
      return JSON.stringify({ value: answer });
    } catch (error) {
      return failed(describe(error));
    }
  }
  return {
    open(id, label) {
      imposters.set(id, { state: {}, injectState: {}, logger: makeLogger(label) });
    },
    close(id) { imposters.delete(id); },
    run,
    poll,
    forget(callId) { calls.delete(callId); },
    tick,
    script,
  };
})(globalThis, __riftLog))JS";
}

}  // namespace rift::script
