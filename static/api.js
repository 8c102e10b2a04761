// The API client: one request helper for every route the page uses, with a timeout, abort, one
// automatic retry when the server is busy (503 with Retry-After), problem+json read into a
// sentence, and server-sent events for a live search.

export const REQUEST_TIMEOUT_MS = 20000;

// A request's answer is used only while its slot still holds it: starting a newer request in the
// same slot, or changing the position, aborts the older one, so a late answer can neither
// overwrite nor clear a newer one.
export class Slot {
  constructor() { this.controller = null; }
  start() {
    this.abort();
    this.controller = new AbortController();
    return this.controller;
  }
  // Whether `controller` is still the current request; if so, the slot is freed.
  take(controller) {
    if (this.controller !== controller) return false;
    this.controller = null;
    return true;
  }
  owns(controller) { return this.controller === controller; }
  abort() {
    if (this.controller) { this.controller.abort(); this.controller = null; }
  }
  get busy() { return this.controller !== null; }
}

export function problemText(status, statusText, p, retryAfter) {
  if (!p || typeof p !== 'object') return `The server answered ${status} ${statusText || ''}`.trim() + '.';
  let text = p.title || `Error ${status}`;
  if (p.detail) text += `: ${p.detail}`;
  if (Array.isArray(p.errors) && p.errors.length) {
    text += ' (' + p.errors.map((e) => `${e.pointer || ''} ${e.detail || ''}`.trim()).join('; ') + ')';
  }
  if (p.code) text += ` [${p.code}]`;
  if (status === 503) text += retryAfter ? ` Try again in ${retryAfter} s.` : ' Try again shortly.';
  return text;
}

function problemError(status, statusText, data, retryAfter) {
  const e = new Error(problemText(status, statusText, data, retryAfter));
  e.problem = data;
  e.status = status;
  e.retryAfter = Number(retryAfter) || 1;
  return e;
}

async function once(path, body, signal, onProgress) {
  const timer = setTimeout(() => signal.controller.abort(new DOMException('timed out', 'TimeoutError')), REQUEST_TIMEOUT_MS);
  let res;
  try {
    res = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: onProgress ? 'text/event-stream' : 'application/json, application/problem+json' },
      body: JSON.stringify(body),
      signal: signal.controller.signal,
      cache: 'no-store',
    });
  } catch (err) {
    const reason = signal.controller.signal.reason;
    const timedOut = (err && err.name === 'TimeoutError') || (reason && reason.name === 'TimeoutError');
    if (!timedOut && err && err.name === 'AbortError') throw err;
    const e = new Error(timedOut ? 'The server took too long to answer.' : 'Could not reach the server. Check that it is still running.');
    e.network = true;
    throw e;
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  if (res.ok && (res.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
    return readEvents(res, onProgress);
  }
  try { data = await res.json(); } catch (_) { data = null; }
  if (!res.ok) throw problemError(res.status, res.statusText, data, res.headers.get('Retry-After'));
  if (!data || typeof data !== 'object') throw new Error('The server sent an answer this page does not understand.');
  return data;
}

// Server-sent events of a live search: each `progress` goes to `onProgress`; the `result` is the
// answer, an `error` event a problem.
async function readEvents(res, onProgress) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      const parsed = JSON.parse(data.join('\n'));
      if (name === 'progress') onProgress(parsed);
      else if (name === 'result') { reader.cancel().catch(() => {}); return parsed; }
      else if (name === 'error') throw problemError(parsed.status, '', parsed, null);
    }
    if (done) throw new Error('The search stream ended without an answer.');
  }
}

// POSTs `body` to `path` under `controller` (an AbortController, usually a Slot's). With
// `onProgress`, asks for server-sent events and hands each progress event to it. A 503 is retried
// once after its Retry-After (at most 3 s); every other failure throws an Error whose message is
// a sentence, with `problem` and `status` for an answer of the server.
export async function request(path, body, controller, { onProgress = null } = {}) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(path, body, { controller }, onProgress);
    } catch (err) {
      if (err.status !== 503 || attempt >= 1 || controller.signal.aborted) throw err;
      const wait = Math.min(err.retryAfter, 3) * 1000;
      await new Promise((resolve, reject) => {
        const t = setTimeout(resolve, wait);
        controller.signal.addEventListener('abort', () => { clearTimeout(t); reject(new DOMException('aborted', 'AbortError')); }, { once: true });
      });
    }
  }
}

export const isAbort = (err) => err && err.name === 'AbortError';
