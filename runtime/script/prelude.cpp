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
  return {
    open(id, label) {
      imposters.set(id, { state: {}, injectState: {}, logger: makeLogger(label) });
    },
    close(id) { imposters.delete(id); },
    run,
    poll,
    forget(callId) { calls.delete(callId); },
    tick,
  };
})(globalThis, __riftLog))JS";
}

}  // namespace rift::script
