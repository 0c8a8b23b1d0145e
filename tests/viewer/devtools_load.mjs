// SPDX-License-Identifier: MIT
// Loads an `fxt json` output into the DevTools trace engine (npm
// @paulirish/trace_engine, the Performance panel's model) and prints, as one
// JSON object, what the engine made of it: every thread's name, every slice of every thread with
// its duration, the instants, the counters, the async operations matched by
// the engine's own pairing, the flows, and any exception.
//
//   node devtools_load.mjs TRACE.json ENGINE_DIR
//
// Exit status 0 when the engine parsed the trace, 1 when it threw, 77 (skip)
// when the engine is not installed in ENGINE_DIR.
import fs from 'node:fs';
import path from 'node:path';
import url from 'node:url';

const [file, engineDir] = process.argv.slice(2);
const entry = path.join(engineDir, 'node_modules/@paulirish/trace_engine/models/trace/trace.js');
if (!fs.existsSync(entry)) {
  console.log(`SKIP: the DevTools trace engine is not installed (${entry}; npm ci in tests/viewer)`);
  process.exit(77);
}
// The engine calls URL.parse (node 22, and 20.18 on): node 18, Debian 12's, lacks it. The
// standard's semantics: the parsed URL, or null where the constructor would throw.
if (typeof URL.parse !== 'function') {
  URL.parse = (input, base) => {
    try {
      return new URL(input, base);
    } catch {
      return null;
    }
  };
}
const Trace = await import(url.pathToFileURL(entry).href);

// The engine's geometry code needs DOMRect, which node lacks (the package's README says so).
globalThis.DOMRect ??= class DOMRect {
  constructor(x = 0, y = 0, width = 0, height = 0) { Object.assign(this, {x, y, width, height}); }
  static fromRect(r = {}) { return new DOMRect(r.x, r.y, r.width, r.height); }
  get top() { return this.y; } get left() { return this.x; }
  get right() { return this.x + this.width; } get bottom() { return this.y + this.height; }
};

const json = JSON.parse(fs.readFileSync(file, 'utf8'));
const events = json.traceEvents ?? json;
const out = {threads: [], slices: [], instants: 0, counters: 0, asyncs: [], flows: 0, flowLens: [], flowEvents: 0, exception: null, errors: []};
// DevTools reports malformed pairs through console.error without throwing: count them too.
const origError = console.error;
console.error = (...a) => { out.errors.push(a.map(String).join(' ').slice(0, 200)); };
try {
  const model = Trace.TraceModel.Model.createWithAllHandlers();
  // parse() mutates the events (synthetic B/E pairing), so it gets copies
  await model.parse(events.map(e => ({...e})));
  const parsed = model.parsedTrace();
  const data = parsed.data ?? parsed;
  for (const [pid, proc] of data.Renderer.processes) {
    for (const [tid, thread] of proc.threads) {
      out.threads.push([pid, tid, thread.name ?? null]);
      for (const e of thread.entries) {
        if (e.ph === 'X') {
          out.slices.push([pid, tid, e.name, e.ts, e.dur ?? 0]);
        } else if (e.ph === 'I') {
          out.instants++;
        }
      }
    }
  }
  out.flows = data.Flows.flows.length;
  out.flowLens = data.Flows.flows.map(f => f.length);
  // Counters and async events are not modelled for generic traces by a handler: count what
  // the engine keeps, and pair the async events with the engine's own matcher.
  out.counters = events.filter(e => e.ph === 'C').length;
  out.flowEvents = events.filter(e => e.ph === 's' || e.ph === 't' || e.ph === 'f').length;
  const asyncs = events.filter(e => e.ph === 'b' || e.ph === 'e' || e.ph === 'n').map(e => ({...e}));
  for (const s of Trace.Helpers.Trace.createMatchedSortedSyntheticEvents(asyncs)) {
    out.asyncs.push([s.cat, s.name, s.id ?? s.args?.data?.beginEvent?.id, s.ts, s.dur]);
  }
} catch (e) {
  out.exception = String(e && e.stack || e);
}
console.error = origError;
process.stdout.write(JSON.stringify(out) + '\n');
process.exit(out.exception ? 1 : 0);
