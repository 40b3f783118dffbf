// Calls into a module that runs on a thread of its own: a Web Worker in a browser, a
// worker_threads Worker in Node, behind one interface so that the module serving the calls can
// be the same file in both. The page's side (`startThread`) sends numbered calls and matches
// the answers to them; the thread's side (`serveThread`) runs them one after another, in the
// order they were sent, and answers each with its result or its error.
//
// Errors cross as their fields (message, code, status, detail) and come back as CairnErrors:
// structured clone keeps an Error's message but not its class or own fields.

import { CairnError, argumentError, bindingError, describeValue } from './errors.js';

// Read through globalThis so that browsers (and type checkers without Node's types) see no
// free `process` identifier.
const nodeProcess = /** @type {any} */ (globalThis).process;
const isNode = typeof nodeProcess === 'object' && nodeProcess !== null &&
  typeof nodeProcess.versions?.node === 'string';

/**
 * @typedef {object} Answer
 * @property {number} call  the number of the call answered
 * @property {any} [result]
 * @property {{message: string, code: string, status: number, detail: number} | undefined} [error]
 * @property {any} [progress]  a report on the way; the call is still running
 */

/**
 * One pending call.
 * @typedef {object} Pending
 * @property {(value: any) => void} resolve
 * @property {(error: CairnError) => void} reject
 * @property {((progress: any) => void) | undefined} onProgress
 * @property {string} method
 */

/**
 * The page's side of a thread. It holds no reference to whatever object uses it, so that a
 * finalization registry can end the thread when that object is collected.
 */
export class Thread {
  /** @type {any} the Worker, once started (Node's is imported first) */
  #worker = null;
  /** @type {Promise<any>} the Worker, or null when it could not start */
  #started;
  /** @type {Array<{message: any, transfer: Transferable[]}>} calls made before the worker started */
  #queued = [];
  /** @type {Map<number, Pending>} */
  #pending = new Map();
  #next = 1;
  /** @type {((method: string) => CairnError) | null} why no call can be made any more */
  #ended = null;
  /** @type {Promise<void> | null} */
  #exited = null;

  /**
   * Starts the module at `url` on a new thread named `name` (what `serveThread` waits for).
   * @param {URL} url
   * @param {string} name
   */
  constructor(url, name) {
    this.#started = this.#start(url, name).then((worker) => {
      for (const { message, transfer } of this.#queued) worker.postMessage(message, transfer);
      this.#queued = [];
      return worker;
    }, (error) => {
      const crash = this.#crash(error);
      this.#fail(() => crash);
      return null;
    });
  }

  /**
   * Calls `method` on the thread. The arguments are sent now: buffers in `transfer` are
   * detached here when this returns.
   * @param {string} method
   * @param {any[]} args  structured-cloned
   * @param {Transferable[]} [transfer]  buffers handed over, not copied
   * @param {(progress: any) => void} [onProgress]  for the reports the call sends on its way
   * @returns {Promise<any>}
   */
  call(method, args, transfer = [], onProgress) {
    return new Promise((resolve, reject) => {
      if (this.#ended) {
        reject(this.#ended(method));
        return;
      }
      const message = { call: this.#next++, method, args };
      try {
        if (this.#worker) {
          this.#worker.postMessage(message, transfer);
        } else {
          // Not started yet (Node imports its Worker first): the buffers move now all the same,
          // into a clone that is posted once the worker is there.
          this.#queued.push(structuredClone({ message, transfer }, { transfer }));
        }
      } catch (error) {
        // DataCloneError: a function, a symbol, a detached buffer... The message is the
        // browser's or Node's own account of what could not be sent.
        const reason = error instanceof Error ? error.message : describeValue(error);
        reject(argumentError(method, `its arguments cannot be sent to the worker: ${reason}`));
        return;
      }
      this.#pending.set(message.call, { resolve, reject, onProgress, method });
      this.#hold();
    });
  }

  /**
   * Ends the thread; calls still running, and any made later, reject with `reason(method)`.
   * @param {(method: string) => CairnError} reason
   * @returns {Promise<void>} resolves once the thread has stopped
   */
  end(reason) {
    if (!this.#exited) {
      this.#fail(reason);
      this.#queued = [];
      this.#exited = this.#started.then(async (worker) => {
        // Node's terminate() resolves once the thread has exited; a browser's ends it at once.
        if (worker) await worker.terminate();
      });
    }
    return this.#exited;
  }

  /**
   * @param {URL} url
   * @param {string} name
   */
  async #start(url, name) {
    if (isNode) {
      // @ts-ignore: Node's types are not installed; this line only runs in Node.
      const { Worker } = await import('node:worker_threads');
      // The thread runs a module file: flags about the main script's own source (its input
      // type, an --eval'd text) would make it fail to start.
      const execArgv = nodeFlags(nodeProcess.execArgv);
      const worker = new Worker(url, { workerData: { thread: name }, execArgv });
      worker.on('message', (/** @type {Answer} */ answer) => this.#receive(answer));
      worker.on('error', (/** @type {any} */ error) => {
        const crash = this.#crash(error);
        this.#fail(() => crash);
      });
      worker.on('exit', () => this.#fail(() => bindingError('WORKER_FAILED', `${name}: the worker thread exited`)));
      this.#worker = worker;
      this.#hold();
      return worker;
    }
    const worker = new Worker(url, { type: 'module', name });
    worker.onmessage = (event) => this.#receive(event.data);
    worker.onerror = (event) => {
      // A script that fails to load or throws at its top level; the event says little more.
      event.preventDefault();
      const error = this.#crash(event.message || 'the worker script failed to load or run');
      this.#fail(() => error);
      worker.terminate();
    };
    worker.onmessageerror = () => this.#fail(() => bindingError('WORKER_FAILED', `${name}: an answer from the worker could not be read`));
    this.#worker = worker;
    return worker;
  }

  /** @param {Answer} answer */
  #receive(answer) {
    const pending = this.#pending.get(answer.call);
    if (!pending) return;
    if ('progress' in answer) {
      pending.onProgress?.(answer.progress);
      return;
    }
    this.#pending.delete(answer.call);
    this.#hold();
    if (answer.error) {
      const { message, code, status, detail } = answer.error;
      pending.reject(new CairnError(message, { code, status, detail }));
    } else {
      pending.resolve(answer.result);
    }
  }

  /**
   * @param {unknown} error
   * @returns {CairnError}
   */
  #crash(error) {
    if (error instanceof CairnError) return error;
    const reason = error instanceof Error ? error.message : describeValue(error);
    return bindingError('WORKER_FAILED', `the worker thread failed: ${reason}`, error);
  }

  /** @param {(method: string) => CairnError} reason  the first reason stays */
  #fail(reason) {
    if (!this.#ended) this.#ended = reason;
    for (const pending of this.#pending.values()) pending.reject(this.#ended(pending.method));
    this.#pending.clear();
    this.#hold();
  }

  // In Node an idle thread does not keep the process alive (a ClusterIndex does not either);
  // one with calls running does, so that their answers arrive.
  #hold() {
    if (!isNode || !this.#worker) return;
    if (this.#pending.size > 0) this.#worker.ref(); else this.#worker.unref();
  }
}

/**
 * Node's flags of the main process, without those about its main script's source.
 * @param {string[]} flags
 */
function nodeFlags(flags) {
  const kept = [];
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i];
    if (/^--input-type(=|$)/.test(flag)) {
      if (!flag.includes('=')) i++;
    } else if (/^(-e|--eval|-p|--print)$/.test(flag)) {
      i++;
    } else if (!/^(--eval|--print)=/.test(flag)) {
      kept.push(flag);
    }
  }
  return kept;
}

/**
 * The thread's side: when this realm is the thread named `name` (started by a Thread), runs
 * each call with `serve` and answers it. Elsewhere (the page, Node's main thread, a worker of
 * the app's own) does nothing.
 * @param {string} name
 * @param {(method: string, args: any[], progress: (report: any) => void) =>
 *   Promise<{result: any, transfer?: Transferable[]}>} serve  runs one call; what it throws is
 *   the call's error
 * @returns {Promise<boolean>} whether this realm is that thread
 */
export async function serveThread(name, serve) {
  const port = await parentPort(name);
  if (!port) return false;
  // One call at a time, in order: a query sent after a load answers on the loaded data.
  let queue = Promise.resolve();
  port.listen((/** @type {{call: number, method: string, args: any[]}} */ { call, method, args }) => {
    queue = queue.then(async () => {
      try {
        const { result, transfer = [] } = await serve(method, args, (progress) => port.post({ call, progress }));
        port.post({ call, result }, transfer);
      } catch (error) {
        port.post({ call, error: errorFields(error, method) });
      }
    });
  });
  return true;
}

/**
 * @param {string} name
 * @returns {Promise<{post: (message: any, transfer?: Transferable[]) => void, listen: (fn: (message: any) => void) => void} | null>}
 */
async function parentPort(name) {
  if (isNode) {
    // @ts-ignore: Node's types are not installed; this line only runs in Node.
    const threads = await import('node:worker_threads');
    if (threads.isMainThread || threads.workerData?.thread !== name || !threads.parentPort) return null;
    const port = threads.parentPort;
    return {
      post: (message, transfer) => port.postMessage(message, transfer),
      listen: (fn) => port.on('message', fn),
    };
  }
  const scope = /** @type {any} */ (globalThis);
  if (typeof scope.WorkerGlobalScope !== 'function' || !(scope instanceof scope.WorkerGlobalScope) || scope.name !== name) return null;
  return {
    post: (message, transfer) => scope.postMessage(message, transfer),
    listen: (fn) => { scope.onmessage = (/** @type {MessageEvent} */ event) => fn(event.data); },
  };
}

/**
 * What of an error crosses to the page: a CairnError's fields, or anything else as one.
 * @param {unknown} error
 * @param {string} method
 */
function errorFields(error, method) {
  const e = error instanceof CairnError ? error
    : bindingError('WORKER_FAILED', `${method}: ${error instanceof Error ? error.message : describeValue(error)}`);
  return { message: e.message, code: e.code, status: e.status, detail: e.detail };
}
